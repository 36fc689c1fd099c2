//go:build !linux

package bot

// lowPriority runs f; only Linux lowers the priority of search threads.
func lowPriority(f func()) { f() }
