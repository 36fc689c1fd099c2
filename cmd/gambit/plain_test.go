package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The test binary runs as gambit in the tests' processes (TestMain,
// runMainEnv), built as go test built it: with -race, each such process
// spends several times the CPU of a plain build and is checked for data
// races. The processes' own tests, the first process of every drill and
// every run of the command in-process keep that check; the drills' other
// processes, the external players of arena and the testscripts run
// plainGambit, whose work the race detector already watches in-process
// and in the processes that keep it.

// plainDir is the temporary directory of plainGambit's build, removed
// when the tests end (waitingTests.Run).
var plainDir string

// plainBuild builds gambit without the race detector once, for every
// test that asks (plainGambit).
var plainBuild = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "gambit-plain-")
	if err != nil {
		return "", fmt.Errorf("build gambit: %w", err)
	}
	plainDir = dir
	exe := filepath.Join(dir, "gambit")
	if !raceBuilt {
		// The test binary is a plain build: a script runs it as gambit.
		script := fmt.Sprintf("#!/bin/sh\n%s=1 exec %q \"$@\"\n", runMainEnv, os.Args[0])
		if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
			return "", fmt.Errorf("build gambit: %w", err)
		}
		return exe, nil
	}
	// The package's directory: go test runs the tests there.
	out, err := exec.Command("go", "build", "-buildvcs=false", "-o", exe, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build gambit without -race: %w\n%s", err, out)
	}
	return exe, nil
})

// plainGambit returns an executable that runs gambit without the race
// detector (the test binary itself if go test built it without), alone in
// its directory and needing no runMainEnv: a command that gambit or a
// script starts, or a process whose CPU would mostly go to the race
// detector.
func plainGambit(tb testing.TB) string {
	tb.Helper()
	exe, err := plainBuild()
	if err != nil {
		tb.Fatal(err)
	}
	return exe
}

// removePlain removes plainGambit's build, if there is one.
func removePlain() {
	if plainDir != "" {
		_ = os.RemoveAll(plainDir)
	}
}
