package main

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

func TestPlaygroundRefusesToServeBeyondLoopback(t *testing.T) {
	t.Setenv("GAMBIT_PLAYGROUND_ADDR", "0.0.0.0:8080")
	t.Setenv("GAMBIT_PLAYGROUND_DB", filepath.Join(t.TempDir(), "playground.db"))
	code, _, errOut := gambit("playground")
	if code != 1 || !strings.Contains(errOut, "loopback") {
		t.Errorf("exit %d, stderr %q; want a refusal naming loopback", code, errOut)
	}
}

func TestPlaygroundProcessServesThePage(t *testing.T) {
	dir := t.TempDir()
	cmd, out := startGambit(t, dir, false, []string{"playground"}, "DISCORD_TOKEN=", "GAMBIT_PLAYGROUND_ADDR=127.0.0.1:0",
		"GAMBIT_PLAYGROUND_DB="+filepath.Join(dir, "data", "playground.db"))
	url := out.wait(t, regexp.MustCompile(`open (http://\S+) in your browser`))
	out.wait(t, regexp.MustCompile(`gambit bot`))
	if code, body := get(t, url); code != http.StatusOK || !strings.Contains(body, `id="command-input"`) {
		t.Errorf("GET %s: %d, want the page with its command box; got %.200s", url, code, body)
	}
	if code, body := get(t, url+"api/state"); code != http.StatusOK || !strings.Contains(body, `"name":"play"`) {
		t.Errorf("GET /api/state: %d %.300s; want the registered /play", code, body)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("gambit playground after SIGTERM: %v; output:\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "playground.json")); err != nil {
		t.Errorf("no state file next to the database: %v", err)
	}
}
