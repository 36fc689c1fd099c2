package buildinfo

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func stamped(modified string) *debug.BuildInfo {
	return &debug.BuildInfo{
		Main: debug.Module{Path: "github.com/gambitbot/gambit", Version: "(devel)"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "e64b12e71c0c5a1b2c3d4e5f60718293a4b5c6d7"},
			{Key: "vcs.time", Value: "2026-11-27T09:58:00Z"},
			{Key: "vcs.modified", Value: modified},
		},
	}
}

func TestInfoFromBuild(t *testing.T) {
	goVersion := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		name          string
		bi            *debug.BuildInfo
		linked        string
		linkedCommit  string
		short, string string
	}{
		{
			name: "release", bi: stamped("false"), linked: "v0.3.0",
			short:  "v0.3.0 (e64b12e)",
			string: "gambit v0.3.0\ncommit: e64b12e71c0c5a1b2c3d4e5f60718293a4b5c6d7 (2026-11-27T09:58:00Z)\ngo: " + goVersion + "\n",
		},
		{
			name: "the build's stamp over the linked commit", bi: stamped("false"), linked: "v0.3.0", linkedCommit: "0123456789",
			short:  "v0.3.0 (e64b12e)",
			string: "gambit v0.3.0\ncommit: e64b12e71c0c5a1b2c3d4e5f60718293a4b5c6d7 (2026-11-27T09:58:00Z)\ngo: " + goVersion + "\n",
		},
		{
			name: "a Docker build: version and commit linked", bi: &debug.BuildInfo{}, linked: "v0.3.0", linkedCommit: "0123456789abcdef",
			short:  "v0.3.0 (0123456)",
			string: "gambit v0.3.0\ncommit: 0123456789abcdef\ngo: " + goVersion + "\n",
		},
		{
			name: "modified checkout", bi: stamped("true"),
			short:  "devel (e64b12e+)",
			string: "gambit devel\ncommit: e64b12e71c0c5a1b2c3d4e5f60718293a4b5c6d7 (2026-11-27T09:58:00Z, modified)\ngo: " + goVersion + "\n",
		},
		{
			name:   "go install of a tagged module",
			bi:     &debug.BuildInfo{Main: debug.Module{Path: "github.com/gambitbot/gambit", Version: "v0.2.1"}},
			short:  "v0.2.1",
			string: "gambit v0.2.1\ncommit: unknown (built without version control information)\ngo: " + goVersion + "\n",
		},
		{
			name: "no build information", bi: nil,
			short:  "devel",
			string: "gambit devel\ncommit: unknown (built without version control information)\ngo: " + goVersion + "\n",
		},
	} {
		i := fromBuildInfo(tc.bi, tc.linked, tc.linkedCommit)
		if got := i.Short(); got != tc.short {
			t.Errorf("%s: Short() = %q, want %q", tc.name, got, tc.short)
		}
		if got := i.String(); got != tc.string {
			t.Errorf("%s: String() = %q, want %q", tc.name, got, tc.string)
		}
	}
}

// TestReadThisBinary checks Read on the test binary itself, which go test
// builds without a version stamp: a version and the Go that built it.
func TestReadThisBinary(t *testing.T) {
	i := Read()
	if i.Version == "" || i.GoVersion == "" {
		t.Errorf("Read() = %+v, want a version and a Go version", i)
	}
}
