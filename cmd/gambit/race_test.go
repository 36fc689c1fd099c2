//go:build race

package main

// raceBuilt reports a test binary built with the race detector (go test
// -race).
const raceBuilt = true
