package ratelimit

import (
	"strings"
	"testing"
)

// Routes as Discord counts them: IDs beyond the top-level resource and
// tokens replaced in the name, the top-level resource in Major, the
// interaction endpoints outside the global limit, the callback alone kept
// in the process's own store — and no token in a name or a key.
func TestRouteOf(t *testing.T) {
	const token = "aW50ZXJhY3Rpb246c2VjcmV0"
	for _, tc := range []struct {
		method, path, name string
		global             bool
		sameMajorAs        string
	}{
		{"POST", "/api/v9/channels/111/messages", "POST /channels/:id/messages", true, "/api/v10/channels/111/messages/222"},
		{"PATCH", "/api/v10/channels/111/messages/222", "PATCH /channels/:id/messages/:id", true, "/api/v9/channels/111/messages"},
		{"PUT", "/api/v9/applications/5/guilds/7/commands", "PUT /applications/:id/guilds/:id/commands", true, ""},
		{"POST", "/api/v9/interactions/42/" + token + "/callback", "POST /interactions/:id/:token/callback", false, ""},
		{"PATCH", "/api/v9/webhooks/5/" + token + "/messages/@original", "PATCH /webhooks/:id/:token/messages/@original", false, "/api/v9/webhooks/5/" + token},
		{"PUT", "/api/v9/channels/111/messages/222/reactions/%F0%9F%91%8D/@me", "PUT /channels/:id/messages/:id/reactions/:emoji/@me", true, ""},
		{"GET", "/api/v9/gateway/bot", "GET /gateway/bot", true, ""},
	} {
		r := routeOf(tc.method, tc.path)
		if r.name != tc.name || r.key.Global != tc.global {
			t.Errorf("%s %s: %q, global %v; want %q, %v", tc.method, tc.path, r.name, r.key.Global, tc.name, tc.global)
		}
		if callback := tc.name == "POST /interactions/:id/:token/callback"; r.local != callback {
			t.Errorf("%s %s: kept in the process's own store: %v, want %v", tc.method, tc.path, r.local, callback)
		}
		if tc.sameMajorAs != "" {
			if o := routeOf(tc.method, tc.sameMajorAs); o.key.Major != r.key.Major {
				t.Errorf("%s and %s: not the same top-level resource", tc.path, tc.sameMajorAs)
			}
		}
		if other := routeOf(tc.method, strings.Replace(tc.path, "111", "112", 1)); strings.Contains(tc.path, "111") && other.key.Major == r.key.Major {
			t.Errorf("%s: another channel has the same top-level resource", tc.path)
		}
		for _, s := range []string{r.name, r.key.Route, r.key.Major} {
			if strings.Contains(s, token) {
				t.Errorf("%s %s: %q shows the token", tc.method, tc.path, s)
			}
		}
	}
}
