package bot

import (
	"testing"
	"time"
)

// TestReachKeepsTheLatestValidToken checks the memory of board tokens: a
// later token replaces an earlier one and never the reverse (the answers
// of two clicks may record out of order), and expired ones are dropped.
func TestReachKeepsTheLatestValidToken(t *testing.T) {
	var r reach
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	r.remember("g1", webhookToken{token: "new", at: t0.Add(time.Second)}, t0)
	r.remember("g1", webhookToken{token: "old", at: t0}, t0)
	if got := r.token("g1").token; got != "new" {
		t.Errorf("token = %q, want the later one", got)
	}
	r.remember("g2", webhookToken{token: "other", at: t0.Add(20 * time.Minute)}, t0.Add(20*time.Minute))
	if got := r.token("g1"); got.token != "" {
		t.Errorf("an expired token was kept: %q", got.token)
	}
	r.leftBehind("g2")
	if !r.isBehind("g2") {
		t.Error("a board left behind is not noted")
	}
	r.remember("g2", webhookToken{token: "newer", at: t0.Add(21 * time.Minute)}, t0.Add(21*time.Minute))
	if r.isBehind("g2") {
		t.Error("a board an answer showed again is still noted as behind")
	}
	if r.isPrivate("c1") {
		t.Error("a channel is private before anything said so")
	}
	r.markPrivate("c1")
	if !r.isPrivate("c1") {
		t.Error("a channel marked private is not")
	}
}
