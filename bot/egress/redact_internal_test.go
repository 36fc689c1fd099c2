package egress

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// TestRedactorRemovesTokensFromEveryPartOfARecord logs secrets in every
// place a record can hold them, through both of slog's handlers, and checks
// that none comes out while the rest of each line does.
func TestRedactorRemovesTokensFromEveryPartOfARecord(t *testing.T) {
	const (
		botToken = "MTA1.bot-token.secret"
		ixToken  = "aW50ZXJhY3Rpb246MTIz.interaction-token_x-y"
	)
	callback := "https://discord.com/api/v10/interactions/123/" + ixToken + "/callback"
	original := "https://discord.com/api/v10/webhooks/456/" + ixToken + "/messages/@original"
	urlErr := fmt.Errorf("bot: respond: %w", errors.New(`Post "`+callback+`": EOF`))
	type status struct{ Path string }

	for name, newHandler := range map[string]func(*bytes.Buffer) slog.Handler{
		"text": func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) },
		"json": func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(NewRedactor(newHandler(&buf), botToken, ""))
			log.With("url", original).WithGroup("req").Error("failed "+callback,
				"err", urlErr,
				"auth", "Bot "+botToken,
				"value", status{Path: "/webhooks/456/" + ixToken},
				slog.Group("inner", "path", "/interactions/123/"+ixToken+"/callback"),
				"nil_err", error(nil),
				"count", 3,
			)
			out := buf.String()
			for _, secret := range []string{botToken, ixToken} {
				if strings.Contains(out, secret) {
					t.Errorf("secret %q in the log: %s", secret, out)
				}
			}
			for _, kept := range []string{
				"/interactions/123/[redacted]/callback", "/webhooks/456/[redacted]/messages/@original",
				"bot: respond: Post", "Bot [redacted]", "/webhooks/456/[redacted]", "3",
			} {
				if !strings.Contains(out, kept) {
					t.Errorf("the log lacks %q: %s", kept, out)
				}
			}
		})
	}
}

// TestRedactorKeepsPathsWithoutTokens checks that paths that hold no token
// pass unchanged.
func TestRedactorKeepsPathsWithoutTokens(t *testing.T) {
	r := NewRedactor(slog.NewTextHandler(&bytes.Buffer{}, nil)).(redactor)
	for _, s := range []string{
		"/channels/1/messages/2",
		"/applications/1/commands",
		"/channels/1/webhooks",
		"no path at all",
	} {
		if got := r.text(s); got != s {
			t.Errorf("text(%q) = %q, want it unchanged", s, got)
		}
	}
}
