package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/internal/buildinfo"
)

// TestVersion checks "gambit version" and "gambit --version": both print
// the build's version, commit and Go version.
func TestVersion(t *testing.T) {
	want := buildinfo.Read().String()
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errOut := gambit(args...)
		if code != 0 || out != want {
			t.Errorf("gambit %v: exit %d, output %q, stderr %q; want %q", args, code, out, errOut, want)
		}
	}
	if code, _, errOut := gambit("version", "now"); code != 2 || !strings.Contains(errOut, `unexpected argument "now"`) {
		t.Errorf("gambit version now: exit %d, stderr %q; want a usage error", code, errOut)
	}
	if code, out, _ := gambit("--help"); code != 0 || !strings.Contains(out, "version ") {
		t.Errorf("gambit --help does not list version: %q", out)
	}
}

// TestVersionOfABuiltBinary builds gambit the way a release is built, with
// the version set at link time and the commit stamped from git, and checks
// that "gambit version" names both. go build stamps the commit only in a
// checkout whose .git is a directory (a clone, not a git worktree): in a
// worktree only the version is checked.
func TestVersionOfABuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatal(err)
	}
	stamped := false
	if fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(root)), ".git")); err == nil && fi.IsDir() {
		stamped = true
	}
	bin := filepath.Join(t.TempDir(), "gambit")
	build := exec.Command("go", "build", "-buildvcs=true", "-ldflags=-X github.com/gambitbot/gambit/internal/buildinfo.version=v9.9.9", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("gambit version: %v", err)
	}
	lines := strings.Split(string(out), "\n")
	if lines[0] != "gambit v9.9.9" {
		t.Errorf("gambit version printed %q, want version v9.9.9", out)
	}
	if stamped && !strings.HasPrefix(lines[1], "commit: "+strings.TrimSpace(string(head))) {
		t.Errorf("gambit version printed %q, want commit %s", out, head)
	}
}
