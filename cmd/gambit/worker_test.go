package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkerNeedsPostgreSQL: gambit worker without a PostgreSQL database
// stops at once, saying that the bot plays the turns of the file itself.
func TestWorkerNeedsPostgreSQL(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "secret-token-value")
	t.Setenv(envDatabaseURL, "")
	code, _, errOut := gambit("worker")
	if code != 1 || !strings.Contains(errOut, envDatabaseURL) || !strings.Contains(errOut, "gambit bot plays them itself") {
		t.Errorf("gambit worker on the file: exit %d, stderr %q; want status 1 naming %s", code, errOut, envDatabaseURL)
	}
}

// TestAITurnsSetting: GAMBIT_AI_TURNS takes here or workers; any other
// value, and workers on the database file, stop the bot before it starts.
func TestAITurnsSetting(t *testing.T) {
	for v, want := range map[string]bool{"": true, "here": true, "workers": false} {
		t.Setenv(envAITurns, v)
		if got, err := aiTurnsHere(); err != nil || got != want {
			t.Errorf("%s=%q: here %v, %v; want %v", envAITurns, v, got, err, want)
		}
	}
	t.Setenv("DISCORD_TOKEN", "secret-token-value")
	t.Setenv("GAMBIT_DB", filepath.Join(t.TempDir(), "gambit.db"))
	t.Setenv("DISCORD_API_URL", "http://127.0.0.1:1")
	t.Setenv(envDatabaseURL, "")
	for _, v := range []string{"elsewhere", "workers"} {
		t.Setenv(envAITurns, v)
		if code, _, errOut := gambit("bot"); code != 1 || !strings.Contains(errOut, envAITurns) {
			t.Errorf("%s=%s: exit %d, stderr %q; want status 1 naming the setting", envAITurns, v, code, errOut)
		}
	}
}
