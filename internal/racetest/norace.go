//go:build !race

package racetest

// Enabled reports that the binary was built with the race detector.
const Enabled = false

// exitQuietly returns: without the race detector, exiting as usual costs
// nothing.
func exitQuietly() {}
