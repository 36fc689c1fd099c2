//go:build !linux

package c4solver

import (
	"syscall"
	"testing"
	"time"
)

// threadCPUTime returns the CPU time, user and system, this process has
// used: where the thread's own clock is not at hand, the process's.
func threadCPUTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
