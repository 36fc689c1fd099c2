//go:build !linux

package bot

// lowPriority runs f; only Linux lowers the priority of search threads.
func lowPriority(f func()) { f() }

// reviewNice is the default of Config.Review.Nice, which only Linux uses.
var reviewNice = 19

// reviewPriority runs f; only Linux lowers the priority of review threads.
func reviewPriority(_ int, f func()) { f() }
