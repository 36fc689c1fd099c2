package c4solver

import (
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// threadCPUTime returns the CPU time the calling thread has used
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID)), for timing one solve on a
// goroutine locked to its thread. Pons' solver, a single thread, is timed
// the same way by scripts/figures/ponsbench.cpp (its process's clock).
func threadCPUTime(tb testing.TB) time.Duration {
	const threadCPUTimeID = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, threadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		tb.Fatal(errno)
	}
	return time.Duration(ts.Nano())
}
