package ratelimit

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"regexp"
	"strings"
)

// apiPrefix is the version prefix of Discord's REST paths.
var apiPrefix = regexp.MustCompile(`^/api/v\d+`)

// route is what the limiter knows of a request's route.
type route struct {
	// name is the method and path template, IDs and tokens replaced
	// ("POST /channels/:id/messages"): what the logs show.
	name string
	key  Key
	// local says the process's own store keeps the route's limits: an
	// interaction's callback, outside the global limit, whose bucket is
	// the interaction's own, which only the process answering it uses —
	// so the first answer to an interaction never waits on the shared
	// store.
	local bool
}

// routeOf returns the route of a request to path with method, as Discord
// counts its rate limits: the buckets are per method and path template,
// and counted for each top-level resource (a channel, a guild, a webhook
// with its token, an interaction with its token); the interaction
// endpoints — the callback and the webhooks with a token, which the bot
// only uses for interactions — are outside the global limit.
func routeOf(method, path string) route {
	segs := strings.Split(strings.Trim(apiPrefix.ReplaceAllString(path, ""), "/"), "/")
	tmpl := make([]string, len(segs))
	var major []string
	for i, s := range segs {
		prev := ""
		if i > 0 {
			prev = segs[i-1]
		}
		switch {
		case i == 1 && (prev == "channels" || prev == "guilds" || prev == "webhooks" || prev == "interactions"):
			major = append(major, prev, s)
			tmpl[i] = ":id"
		case i == 2 && (segs[0] == "webhooks" || segs[0] == "interactions"):
			major = append(major, s)
			tmpl[i] = ":token"
		case prev == "reactions":
			tmpl[i] = ":emoji"
		case isID(s):
			tmpl[i] = ":id"
		default:
			tmpl[i] = s
		}
	}
	name := method + " /" + strings.Join(tmpl, "/")
	exempt := len(segs) > 2 && (segs[0] == "interactions" || segs[0] == "webhooks")
	callback := method == http.MethodPost && len(segs) == 4 && segs[0] == "interactions" && segs[3] == "callback"
	return route{name: name, key: Key{Route: hash(name), Major: hash(strings.Join(major, "/")), Global: !exempt}, local: callback}
}

// isID reports whether a path segment is a snowflake.
func isID(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// hash is a key of s that does not show it: route keys carry tokens.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}
