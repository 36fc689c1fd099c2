// Package racetest is what a test binary needs to know of the race
// detector: whether it is built in (Enabled), so that a check of pure,
// single-goroutine computation, in which the detector can find nothing but
// which it makes five to ten times as costly, runs a sample under go test
// -race -short (Short) while its full set runs without -race (.ci/run's
// step of full sets); and a TestMain (Main) that ends a passing binary
// without the race runtime's second of sleep at exit.
//
// The race runtime (ThreadSanitizer) sleeps for atexit_sleep_ms, a second
// unless GORACE says otherwise, when a program built with -race exits with
// status 0, so that other threads can finish their reports. Go reports a
// race as it happens, so the sleep waits for nothing, yet every passing
// test binary of go test -race ./... pays it: with go test's two binaries
// at a time on two cores, a second a package was half a minute of the
// README's test command. Main skips it only when the binary passed, the
// runtime has reported no race and coverage is off; otherwise the binary
// exits as any other, through the race runtime, which turns a reported
// race into status 66.
package racetest

import (
	"os"
	"testing"
)

// Main runs m's tests and exits with their status, as go test's own main
// does, but without the race runtime's sleep at exit when nothing failed
// and no race was reported. A package's TestMain is
//
//	func TestMain(m *testing.M) { racetest.Main(m) }
//
// or, where the package prepares something first, ends with
// racetest.Exit(m.Run()).
func Main(m *testing.M) {
	Exit(m.Run())
}

// Exit ends the test binary with code, as os.Exit does, skipping the race
// runtime's sleep at exit when code is 0 and no race was reported. With
// coverage on it exits as usual: the coverage data is written by hooks that
// run at exit.
func Exit(code int) {
	if code == 0 && testing.CoverMode() == "" {
		exitQuietly()
	}
	os.Exit(code)
}

// Short reports whether the test runs under -race and -short, where a
// check of pure computation runs only a sample of its set; if so it logs
// which sample (the sample's description, as "3 of 24 positions") and
// where the full set runs.
func Short(tb testing.TB, sample string) bool {
	tb.Helper()
	if !Enabled || !testing.Short() {
		return false
	}
	tb.Logf("-race -short: %s; the full set runs without -race (.ci/run's step of full sets)", sample)
	return true
}
