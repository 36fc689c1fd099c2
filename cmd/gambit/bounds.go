package main

import "strconv"

// The ranges of the commands' size options: past them a value would take
// more memory or threads than a machine has, or mean nothing (more plies
// than any game lasts). docs/ai.md, "The command-line tools", lists them.
const (
	maxHashMiB     = 8192        // --hash, and --concurrency × --hash
	maxThreads     = 256         // --threads
	maxPlies       = 1000        // --depth, --exact-plies, --opening
	maxConcurrency = 256         // --concurrency
	maxGames       = 100_000     // arena's and train's --games
	maxBenchGames  = 1_000_000   // db bench --games
	maxBenchMoves  = 10_000      // db bench --moves
	maxQueens      = 100_000_000 // solve --n
	maxMemoryMiB   = 1 << 20     // solve --memory
)

// bound is the range an integer option's value must be in.
type bound struct {
	flag   string // the option's name, without the dashes
	value  int
	lo, hi int
	unit   string // the value's unit, if any: "MiB"
}

// checkBounds returns a usage error naming the first option outside its
// range, and the range.
func checkBounds(bounds ...bound) error {
	for _, b := range bounds {
		if b.value >= b.lo && b.value <= b.hi {
			continue
		}
		unit := ""
		if b.unit != "" {
			unit = " " + b.unit
		}
		return usagef("--%s %d: must be %s to %s%s", b.flag, b.value, thousands(b.lo), thousands(b.hi), unit)
	}
	return nil
}

// thousands writes n with a comma between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
