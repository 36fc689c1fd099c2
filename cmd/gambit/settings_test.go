package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestShutdownTimeoutSetting: GAMBIT_SHUTDOWN_TIMEOUT sets the bot's bound
// on a stop's wait, and a value that is not a positive duration is refused.
func TestShutdownTimeoutSetting(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "secret-token-value")
	t.Setenv("GAMBIT_SHUTDOWN_TIMEOUT", "5s")
	cfg, _, err := botSettings(false)
	if err != nil || cfg.Lifecycle.ShutdownTimeout != 5*time.Second {
		t.Errorf("GAMBIT_SHUTDOWN_TIMEOUT=5s: %v, %v; want 5s", cfg.Lifecycle.ShutdownTimeout, err)
	}
	t.Setenv("GAMBIT_SHUTDOWN_TIMEOUT", "forever")
	if _, _, err := botSettings(false); err == nil || !strings.Contains(err.Error(), "GAMBIT_SHUTDOWN_TIMEOUT") {
		t.Errorf("GAMBIT_SHUTDOWN_TIMEOUT=forever: %v; want an error naming it", err)
	}
}

// TestAGuessableOpsTokenStopsTheStart: sixteen a's are long enough but
// guessable; the bot refuses to start with them, says how to make a good
// token and does not show the bad one.
func TestAGuessableOpsTokenStopsTheStart(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "secret-token-value")
	t.Setenv("GAMBIT_OPS_ADDR", "9090")
	t.Setenv("GAMBIT_OPS_TOKEN", "aaaaaaaaaaaaaaaa")
	// Were the token accepted, the bot would go on: keep it off the
	// default database and away from Discord.
	t.Setenv("GAMBIT_DB", filepath.Join(t.TempDir(), "gambit.db"))
	t.Setenv("DISCORD_API_URL", "http://127.0.0.1:1")
	code, _, errOut := gambit("bot")
	if code != 1 || !strings.Contains(errOut, "GAMBIT_OPS_TOKEN") || !strings.Contains(errOut, "openssl rand -hex 32") || strings.Contains(errOut, "aaaaaaaaaaaaaaaa") {
		t.Errorf("GAMBIT_OPS_TOKEN=aaaaaaaaaaaaaaaa: exit %d, stderr %q; want status 1 naming the setting and openssl, not the token", code, errOut)
	}
}
