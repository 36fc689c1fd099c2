//go:build !linux

package c4solver

// adviseHugePages does nothing where huge pages cannot be advised.
func adviseHugePages([]uint64) {}
