//go:build race

package racetest

import (
	"runtime"
	"syscall"
)

// Enabled reports that the binary was built with the race detector.
const Enabled = true

// exitQuietly exits with status 0 straight through the system call,
// without the race runtime's finalisation (and its sleep), unless the
// runtime has reported a race, which that finalisation turns into status
// 66: then it returns, for the caller to exit as usual.
func exitQuietly() {
	if runtime.RaceErrors() == 0 {
		syscall.Exit(0)
	}
}
