// Package buildinfo says which Gambit a binary is: its version, the commit
// it was built from and the Go that built it. The bot shows it in /help's
// footer and "gambit version" prints it.
//
// The version is set at link time for a release:
//
//	go build -ldflags "-X github.com/gambitbot/gambit/internal/buildinfo.version=v0.3.0" ./cmd/gambit
//
// Without it the module's version is used (as "go install ...@v0.3.0"
// stamps it), else "devel". The commit comes from the build's version
// control stamp (vcs.revision, vcs.time, vcs.modified), which go build
// writes when it runs in a git checkout without -buildvcs=false; a build
// without the checkout (the Docker image's: .git stays out of its context)
// sets it at link time, -X github.com/gambitbot/gambit/internal/buildinfo.commit=HASH.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// version is the release version set with -ldflags -X; empty in a
// development build.
var version string

// commit is the commit set with -ldflags -X, for a build without version
// control information; the build's own stamp wins over it.
var commit string

// Unreleased is Info.Version of a build without a release version.
const Unreleased = "devel"

// Info is what a binary knows of its build.
type Info struct {
	// Version is the release version, Unreleased when the build has none.
	Version string
	// Commit is the full commit hash, empty when the build was not stamped.
	Commit string
	// Time is the commit's time (RFC 3339), empty when unknown.
	Time string
	// Modified reports uncommitted changes in the checkout at build time.
	Modified bool
	// GoVersion is the Go toolchain that built the binary, with its
	// platform: "go1.26.8 linux/amd64".
	GoVersion string
}

// Read returns this binary's build information.
func Read() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuildInfo(bi, version, commit)
}

// fromBuildInfo builds an Info from the Go build information (nil when the
// binary has none) and the link-time version and commit (empty when not
// set).
func fromBuildInfo(bi *debug.BuildInfo, linked, linkedCommit string) Info {
	i := Info{Version: linked, Commit: linkedCommit, GoVersion: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if bi == nil {
		bi = &debug.BuildInfo{}
	}
	if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		i.Version = bi.Main.Version
	}
	if i.Version == "" {
		i.Version = Unreleased
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			i.Commit = s.Value
		case "vcs.time":
			i.Time = s.Value
		case "vcs.modified":
			i.Modified = s.Value == "true"
		}
	}
	return i
}

// ShortCommit is the commit's first 7 hex digits, with "+" when the
// checkout had uncommitted changes, or "" when the build was not stamped.
func (i Info) ShortCommit() string {
	if i.Commit == "" {
		return ""
	}
	c := i.Commit
	if len(c) > 7 {
		c = c[:7]
	}
	if i.Modified {
		c += "+"
	}
	return c
}

// Short is the one-line form players see: "v0.3.0 (e64b12e)", or the
// version alone when the commit is unknown.
func (i Info) Short() string {
	if c := i.ShortCommit(); c != "" {
		return i.Version + " (" + c + ")"
	}
	return i.Version
}

// String is the form "gambit version" prints, one fact a line:
//
//	gambit v0.3.0
//	commit: e64b12e71c0c... (2026-11-27T09:58:00Z, modified)
//	go: go1.26.8 linux/amd64
func (i Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "gambit %s\n", i.Version)
	commit := "unknown (built without version control information)"
	if i.Commit != "" {
		commit = i.Commit
		var notes []string
		if i.Time != "" {
			notes = append(notes, i.Time)
		}
		if i.Modified {
			notes = append(notes, "modified")
		}
		if len(notes) > 0 {
			commit += " (" + strings.Join(notes, ", ") + ")"
		}
	}
	fmt.Fprintf(&b, "commit: %s\n", commit)
	fmt.Fprintf(&b, "go: %s\n", i.GoVersion)
	return b.String()
}
