//go:build unix

package bolt

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
)

var sink byte

// TestGuardTurnsCrashesIntoErrors: a read of memory the process may not
// touch — what bbolt does when a damaged offset leads it past the mapped
// file — is a fatal fault unless the goroutine asked for a panic instead,
// and bbolt's own checks panic; guard turns both into an error that names
// the file and matches ErrCorruptFile.
func TestGuardTurnsCrashesIntoErrors(t *testing.T) {
	forbidden, err := syscall.Mmap(-1, 0, os.Getpagesize(), syscall.PROT_NONE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(forbidden)
	for name, fn := range map[string]func() error{
		"a memory fault": func() error { sink = forbidden[0]; return nil },
		"a panic":        func() error { panic("assertion failed: page 7 names page 1007") },
	} {
		err := guard("open", "/data/gambit.db", fn)
		if !errors.Is(err, ErrCorruptFile) || !strings.Contains(err.Error(), "/data/gambit.db") {
			t.Errorf("%s: %v; want an error naming the file and matching ErrCorruptFile", name, err)
		}
	}
	if err := guard("open", "/data/gambit.db", func() error { return nil }); err != nil {
		t.Errorf("no crash: %v", err)
	}
}
