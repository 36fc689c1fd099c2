// Package egress is the bot's way out to Discord: the REST client and its
// transport (which a stop that ran out of time shuts), the conversion of a
// rendered message into each kind of request, the cache of the pictures
// messages carry, the count of REST errors, and the redaction of tokens
// from every log line. It knows nothing of games or interactions' meaning:
// the flows (package bot) decide what to send, egress sends it.
package egress

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
)

// redacted replaces a secret in the logs.
const redacted = "[redacted]"

// tokenPath matches the token segment of Discord's token-bearing paths:
// /interactions/{id}/{token}/callback and /webhooks/{id}/{token}/…, which
// is every interaction response, edit and follow-up. An HTTP client's
// error quotes the request's whole URL, so such errors carry the token.
var tokenPath = regexp.MustCompile(`(/(?:interactions|webhooks)/[^/\s"'?#]+/)[^/\s"'?#]+`)

// redactor is a slog.Handler that removes secrets from every record before
// passing it on: the bot token wherever it appears, and the token of every
// interaction or webhook path, from the message and from every attribute
// (strings, errors and any other value, inside groups too). The bot wraps
// the logger it is given in one, so no log line, present or future, can
// leak a token by quoting an error.
type redactor struct {
	next    slog.Handler
	secrets []string
}

// NewRedactor returns next wrapped in a redactor that also removes the
// given secrets (empty ones are ignored).
func NewRedactor(next slog.Handler, secrets ...string) slog.Handler {
	r := redactor{next: next}
	for _, s := range secrets {
		if s != "" {
			r.secrets = append(r.secrets, s)
		}
	}
	return r
}

// Enabled implements slog.Handler.
func (r redactor) Enabled(ctx context.Context, level slog.Level) bool {
	return r.next.Enabled(ctx, level)
}

// Handle implements slog.Handler.
func (r redactor) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, r.text(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(r.attr(a))
		return true
	})
	return r.next.Handle(ctx, out)
}

// WithAttrs implements slog.Handler.
func (r redactor) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = r.attr(a)
	}
	return redactor{next: r.next.WithAttrs(clean), secrets: r.secrets}
}

// WithGroup implements slog.Handler.
func (r redactor) WithGroup(name string) slog.Handler {
	return redactor{next: r.next.WithGroup(name), secrets: r.secrets}
}

// attr returns a with its secrets removed. A string is cleaned; an error
// becomes its cleaned text (what handlers print of it anyway); any other
// value is replaced by its cleaned text only if its text held a secret.
func (r redactor) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, r.text(v.String()))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]slog.Attr, len(group))
		for i, g := range group {
			clean[i] = r.attr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(clean...)}
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, r.text(err.Error()))
		}
		s := fmt.Sprintf("%+v", v.Any())
		if clean := r.text(s); clean != s {
			return slog.String(a.Key, clean)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// text returns s with its secrets replaced by [redacted].
func (r redactor) text(s string) string {
	if strings.Contains(s, "/interactions/") || strings.Contains(s, "/webhooks/") {
		s = tokenPath.ReplaceAllString(s, "${1}"+redacted)
	}
	for _, secret := range r.secrets {
		s = strings.ReplaceAll(s, secret, redacted)
	}
	return s
}
