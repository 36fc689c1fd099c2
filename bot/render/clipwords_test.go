package render

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClipWordsKeepsWordsWhole(t *testing.T) {
	long := "Hill climber (medium) — improves a three-move plan step by step, restarting from fresh plans — from report 000"
	for _, n := range []int{20, 40, 60, 100} {
		got := ClipWords(long, n)
		if utf8.RuneCountInString(got) > n {
			t.Errorf("ClipWords(%d) = %q: longer than %d", n, got, n)
		}
		if len(long) > n {
			kept := strings.TrimSuffix(got, "…")
			if !strings.HasSuffix(got, "…") || !strings.HasPrefix(long, kept) {
				t.Errorf("ClipWords(%d) = %q: not a prefix marked as cut", n, got)
			}
			if next := long[len(kept)]; next != ' ' && next != ',' {
				t.Errorf("ClipWords(%d) = %q cuts a word (next %q)", n, got, next)
			}
		}
	}
	if got := ClipWords("short", 100); got != "short" {
		t.Errorf("ClipWords(short) = %q", got)
	}
}
