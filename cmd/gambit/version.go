package main

import (
	"fmt"

	"github.com/gambitbot/gambit/internal/buildinfo"
)

// runVersion prints the binary's version, commit and Go version.
func runVersion(args []string, sio stdio) error {
	fs := newFlagSet("version", `
Usage: gambit version

Print this binary's version, the commit it was built from (with its time,
and "modified" when the checkout had uncommitted changes) and the Go that
built it. "gambit --version" prints the same.`, sio.out)
	if err := fs.parse(args); err != nil {
		return err
	}
	fmt.Fprint(sio.out, buildinfo.Read())
	return nil
}
