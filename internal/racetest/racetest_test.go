package racetest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/internal/racetest"
)

// TestMain ends through Main, as the packages that use it do, so that
// this package's own binary is one of them.
func TestMain(m *testing.M) {
	switch os.Getenv("RACETEST_CHILD") {
	case "race":
		racy()
		racetest.Exit(0)
	case "pass":
		racetest.Exit(0)
	}
	racetest.Main(m)
}

// racy writes one variable from two goroutines without synchronisation.
func racy() {
	var n int
	done := make(chan bool)
	go func() {
		n++
		done <- true
	}()
	n++
	<-done
	_ = n
}

// TestExitKeepsARaceAFailure checks that a binary that reported a race
// still fails when it exits through Exit with status 0: the race runtime
// turns it into status 66.
func TestExitKeepsARaceAFailure(t *testing.T) {
	if !racetest.Enabled {
		t.Skip("needs the race detector (go test -race)")
	}
	out, err := child("race").CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 66 {
		t.Fatalf("a racy child exited with %v, want status 66; output:\n%s", err, out)
	}
	if !strings.Contains(string(out), "DATA RACE") {
		t.Errorf("the racy child did not report its race; output:\n%s", out)
	}
}

// TestExitPasses checks that a binary without a race exits through Exit
// with status 0, whether the race detector is built in or not.
func TestExitPasses(t *testing.T) {
	if out, err := child("pass").CombinedOutput(); err != nil {
		t.Fatalf("a passing child exited with %v, want status 0; output:\n%s", err, out)
	}
}

// child is this test binary run as a child that TestMain sends to what
// RACETEST_CHILD names. Its race runtime does not sleep at exit (GORACE),
// which the racy child, exiting through it, would otherwise do for a
// second.
func child(what string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), "RACETEST_CHILD="+what, "GORACE=atexit_sleep_ms=0")
	return cmd
}
