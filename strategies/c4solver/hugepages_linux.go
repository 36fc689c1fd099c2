package c4solver

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks Linux to back entries with huge pages (2 MiB on
// amd64). A table lookup is a random access, and with 4 KiB pages nearly
// every lookup in a large table also misses the TLB. With transparent huge
// pages set to "madvise" (a common default) only advised memory gets them.
// Failure costs only speed, so it is ignored.
func adviseHugePages(entries []uint64) {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(entries))), len(entries)*8)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
