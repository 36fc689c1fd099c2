package c4solver

import (
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// cpuTime returns the CPU time, user and system, this process has used:
// clock_gettime(CLOCK_PROCESS_CPUTIME_ID), as the driver of Pons' solver
// in scripts/figures measures his, so that the two sides pay the same for
// the measurement (getrusage, which sums the threads' times, costs more).
func cpuTime(tb testing.TB) time.Duration {
	const processCPUTimeID = 2 // CLOCK_PROCESS_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, processCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		tb.Fatal(errno)
	}
	return time.Duration(ts.Nano())
}
