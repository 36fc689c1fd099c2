package main

import (
	"net"
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

// TestPlaygroundOnABusyPortCreatesNothing starts the playground on a port
// that is taken: it fails naming the address and leaves no database or
// state file behind.
func TestPlaygroundOnABusyPortCreatesNothing(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dir := t.TempDir()
	t.Setenv("GAMBIT_PLAYGROUND_ADDR", busy.Addr().String())
	t.Setenv("GAMBIT_PLAYGROUND_DB", filepath.Join(dir, "data", "playground.db"))
	code, _, errOut := gambit("playground")
	if code != 1 || !strings.Contains(errOut, busy.Addr().String()) {
		t.Errorf("exit %d, stderr %q; want a failure naming the busy address", code, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed start left %v behind", entries)
	}
}

func TestPlaygroundProcessServesThePage(t *testing.T) {
	t.Parallel()
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
