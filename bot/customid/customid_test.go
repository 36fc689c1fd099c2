package customid

import (
	"strings"
	"testing"
)

func TestBuildAndMatchRoundTrip(t *testing.T) {
	id := Move.Build("0001k", "7", "e4")
	if id != "v1/move/0001k/7/e4" {
		t.Fatalf("Build = %q", id)
	}
	p, ok := Move.Match(id)
	if !ok || p["game"] != "0001k" || p["ply"] != "7" || p["cell"] != "e4" {
		t.Fatalf("Match(%q) = %v, %v", id, p, ok)
	}
	for _, other := range []Pattern{Pick, File, Cell, Resign, ResignConfirm, Abort, AbortConfirm, DrawOffer, DrawAccept, DrawDecline, Rematch, Accept, Take, Decline, Repost, PrivacyDelete, Hint, Solve, Compare} {
		if _, ok := other.Match(id); ok {
			t.Errorf("%s matches a move ID", other)
		}
	}
	if _, ok := Resign.Match(ResignConfirm.Build("g", "1")); ok {
		t.Error("Resign matches the confirmation's ID")
	}
}

func TestMatchRejectsOtherShapes(t *testing.T) {
	for _, id := range []string{"", "v1/move", "v1/move/g/1", "v1/move/g/1/e4/x", "v2/move/g/1/e4", "v1/move//1/e4", "v1/MOVE/g/1/e4"} {
		if p, ok := Move.Match(id); ok {
			t.Errorf("Move.Match(%q) = %v, want no match", id, p)
		}
	}
}

func TestBuildRefusesWhatCannotRoundTrip(t *testing.T) {
	for name, f := range map[string]func(){
		"too few values":  func() { Move.Build("g", "1") },
		"too many values": func() { Accept.Build("g", "x") },
		"empty value":     func() { Accept.Build("") },
		"slash in value":  func() { Accept.Build("a/b") },
		"too long":        func() { Accept.Build(strings.Repeat("x", MaxLen)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Build did not panic", name)
				}
			}()
			f()
		}()
	}
}
