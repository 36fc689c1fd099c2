//go:build !linux

package bot

// lowPriority runs f; only Linux lowers the priority of search threads.
func lowPriority(f func()) { f() }

// lowestPriority runs f; only Linux lowers the priority of review threads.
func lowestPriority(f func()) { f() }
