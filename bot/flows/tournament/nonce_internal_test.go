package tournament

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/storage"
)

// TestOnceNonceIsShortAndItsOwn: a post's nonce names its tournament,
// kind and round within Discord's 25 characters, and an ID too long for
// them is hashed to 25, still one nonce a post.
func TestOnceNonceIsShortAndItsOwn(t *testing.T) {
	if got := onceNonce("0000001z", noncePairings, 3); got != "t0000001z.p3" {
		t.Errorf("round 3's pairings of 0000001z: nonce %q, want t0000001z.p3", got)
	}
	long := storage.TournamentID(strings.Repeat("z", 30))
	seen := map[string]bool{}
	for _, n := range []string{
		onceNonce(long, noncePairings, 1), onceNonce(long, noncePairings, 2), onceNonce(long, noncePodium, 0),
		onceNonce(long+"y", noncePairings, 1), onceNonce("0000001z", noncePairings, 1), onceNonce("0000001z", nonceStart, 0),
		onceNonce("0000001z", nonceThreads, 0), onceNonce("0000001z", noncePodium, 0), onceNonce("0000001z", noncePairings, 11),
	} {
		if len(n) == 0 || len(n) > 25 || seen[n] {
			t.Errorf("nonce %q: empty, longer than 25 or not its own (%v)", n, seen)
		}
		seen[n] = true
	}
	if got := onceNonce(long, noncePairings, 1); got != "hFf_NKVCo9G6cSbzJIhmi20kb" {
		t.Errorf("a hashed nonce is %q; it must stay what it was, for a post made again by another version", got)
	}
}
