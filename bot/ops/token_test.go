package ops_test

import (
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/ops"
)

// TestValidateTokenRefusesPredictableTokens: a token long enough but made
// of a character or two repeated is refused, with advice on making a good
// one; a random one is accepted.
func TestValidateTokenRefusesPredictableTokens(t *testing.T) {
	for _, bad := range []string{
		"aaaaaaaaaaaaaaaa", strings.Repeat("a", 64), "abababababababab", "abcabcabcabcabcabcabc",
		"1111111111111111111112", strings.Repeat("0", 40) + "==",
	} {
		err := ops.ValidateToken(bad)
		if err == nil {
			t.Errorf("ValidateToken(%q) accepted it", bad)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "too easy to guess") || !strings.Contains(msg, "openssl rand -hex 32") || strings.Contains(msg, bad) {
			t.Errorf("ValidateToken(%q): %q; want it called too easy to guess, the advice, and the token not shown", bad, msg)
		}
	}
	for _, good := range []string{
		"3f9a0c27d41e8b65", "c1d4e8f0a2b3c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e", "q7Xz-P2m_Rk9.Lw4",
	} {
		if err := ops.ValidateToken(good); err != nil {
			t.Errorf("ValidateToken(%q): %v", good, err)
		}
	}
}
