package customid

import (
	"strings"
	"testing"
)

// fuzzPatterns are every pattern Gambit routes; a new pattern belongs
// here too.
var fuzzPatterns = []Pattern{Move, Pick, Resign, ResignConfirm, Rematch, Accept, Take, Decline, Repost, PrivacyDelete}

// paramNames returns the parameter names of p in order.
func paramNames(p Pattern) []string {
	var names []string
	for _, s := range strings.Split(string(p), "/") {
		if isParam(s) {
			names = append(names, s[1:len(s)-1])
		}
	}
	return names
}

// FuzzMatch checks that Match never panics on any ID a client could send,
// and that what it matches Build gives back unchanged: the parameters
// are non-empty, hold no '/', and in pattern order rebuild the same ID.
//
// Match does not enforce MaxLen (Discord does, on every custom ID it
// delivers); Build refuses an ID over MaxLen by panicking, as documented,
// so for a longer matched ID the check is that Build panics.
func FuzzMatch(f *testing.F) {
	for _, seed := range []string{
		"", "/", "//", "v1", "v1/", "v1/move/0001k/7/e4", "v1/move/0001k/7/e4/", "v1/move//7/e4",
		"v1/pick/0001k/12/0", "v1/resign/0001k/3", "v1/resign/0001k/3/yes", "v1/resign/0001k/3/no",
		"v1/rematch/0001k", "v1/accept/0001k", "v1/decline/0001k", "v1/repost/0001k",
		"v1/privacy/delete/123456789012345678", "v9/move/g/1/e4", "V1/move/g/1/e4",
		"v1/move/g/-1/99", "v1/move/g/99999999999999999999/z9", "v1/accept/{game}",
		"v1/move/\x00/\xff/é", "v1/accept/" + strings.Repeat("x", MaxLen), "v1/accept/" + strings.Repeat("x", MaxLen-len("v1/accept/")),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, id string) {
		matched := 0
		for _, p := range fuzzPatterns {
			params, ok := p.Match(id)
			if !ok {
				if params != nil {
					t.Fatalf("%s.Match(%q) = %v without a match", p, id, params)
				}
				continue
			}
			matched++
			names := paramNames(p)
			if len(params) != len(names) {
				t.Fatalf("%s.Match(%q) = %v, want the %d parameters %v", p, id, params, len(names), names)
			}
			values := make([]string, len(names))
			for i, n := range names {
				v, ok := params[n]
				if !ok || v == "" || strings.Contains(v, "/") {
					t.Fatalf("%s.Match(%q): parameter %s = %q (present %v)", p, id, n, v, ok)
				}
				values[i] = v
			}
			if len(id) > MaxLen {
				func() {
					defer func() {
						if recover() == nil {
							t.Fatalf("%s.Build(%q) accepted an ID of %d > %d characters", p, values, len(id), MaxLen)
						}
					}()
					p.Build(values...)
				}()
				continue
			}
			built := p.Build(values...)
			if built != id {
				t.Fatalf("%s: Match(%q) then Build = %q", p, id, built)
			}
			if len(built) > MaxLen {
				t.Fatalf("%s.Build(%q) = %q, longer than %d", p, values, built, MaxLen)
			}
		}
		// The patterns are disjoint, so the router's order never matters.
		if matched > 1 {
			t.Fatalf("%q matches %d patterns", id, matched)
		}
	})
}
