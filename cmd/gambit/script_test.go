package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestScripts runs the command-line examples in testdata/script, each a
// testscript that runs gambit (built without -race, plainGambit) and
// checks its output, so that an example whose output changes fails here.
// The scripts' work directory holds the repository's engine directory, so
// an example reading engine/connect4/testdata/... reads as in the docs.
func TestScripts(t *testing.T) {
	t.Parallel()
	engine, err := filepath.Abs("../../engine")
	if err != nil {
		t.Fatal(err)
	}
	gambit := plainGambit(t)
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			// gambit built without -race comes first in PATH: the
			// examples' runs would spend most of their CPU on the race
			// detector, which watches the same commands in-process.
			env.Setenv("PATH", filepath.Dir(gambit)+string(filepath.ListSeparator)+env.Getenv("PATH"))
			return os.Symlink(engine, filepath.Join(env.WorkDir, "engine"))
		},
	})
}
