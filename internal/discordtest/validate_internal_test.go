package discordtest

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEveryRouteIsInTheSpec(t *testing.T) {
	sp, err := discordSpec()
	if err != nil {
		t.Fatal(err)
	}
	templates := map[string]*route{}
	for _, rt := range sp.routes {
		templates[rt.template] = rt
	}
	for key := range routes {
		method, template, _ := strings.Cut(key, " ")
		rt := templates[template]
		if rt == nil || rt.ops[method] == nil {
			t.Errorf("route %q is not an operation of the OpenAPI description", key)
		}
	}
}

func TestSpecMatch(t *testing.T) {
	sp, err := discordSpec()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path, template string
		params         map[string]string
	}{
		{"/gateway/bot", "/gateway/bot", map[string]string{}},
		{"/webhooks/1/tok/messages/@original", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
			map[string]string{"webhook_id": "1", "webhook_token": "tok"}},
		{"/webhooks/1/tok/messages/2", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
			map[string]string{"webhook_id": "1", "webhook_token": "tok", "message_id": "2"}},
		{"/applications/1/guilds/2/commands/permissions", "/applications/{application_id}/guilds/{guild_id}/commands/permissions",
			map[string]string{"application_id": "1", "guild_id": "2"}},
		{"/channels/5/messages", "/channels/{channel_id}/messages", map[string]string{"channel_id": "5"}},
		{"/no/such/thing/here/at/all", "", nil},
	}
	for _, tc := range cases {
		rt, params := sp.match(tc.path)
		switch {
		case tc.template == "" && rt != nil:
			t.Errorf("match(%s) = %s, want none", tc.path, rt.template)
		case tc.template == "":
		case rt == nil || rt.template != tc.template:
			t.Errorf("match(%s) = %v, want %s", tc.path, rt, tc.template)
		case len(params) != len(tc.params):
			t.Errorf("match(%s) params = %v, want %v", tc.path, params, tc.params)
		default:
			for k, v := range tc.params {
				if params[k] != v {
					t.Errorf("match(%s) params = %v, want %v", tc.path, params, tc.params)
				}
			}
		}
	}
}

func TestCheckRules(t *testing.T) {
	btn := func(id string) map[string]any {
		return map[string]any{"type": 2, "style": 1, "custom_id": id, "label": id}
	}
	row := func(cs ...any) map[string]any { return map[string]any{"type": 1, "components": cs} }
	options := func(n int) []any {
		var out []any
		for i := range n {
			out = append(out, map[string]any{"label": "o", "value": strings.Repeat("v", i+1)})
		}
		return out
	}
	cases := []struct {
		name string
		body map[string]any
		want string // violation location, "" for none
	}{
		{"five buttons in a row", map[string]any{"components": []any{row(btn("a"), btn("b"), btn("c"), btn("d"), btn("e"))}}, ""},
		{"six buttons in a row", map[string]any{"components": []any{row(btn("a"), btn("b"), btn("c"), btn("d"), btn("e"), btn("f"))}},
			"/components/0/components"},
		{"a button outside a row", map[string]any{"components": []any{btn("a")}}, "/components/0/type"},
		{"a long custom_id", map[string]any{"components": []any{row(btn(strings.Repeat("x", 101)))}}, "/components/0/components/0/custom_id"},
		{"a link button with a custom_id", map[string]any{"components": []any{row(map[string]any{"type": 2, "style": 5, "url": "https://x", "custom_id": "x"})}},
			"/components/0/components/0/custom_id"},
		{"a link button without url", map[string]any{"components": []any{row(map[string]any{"type": 2, "style": 5, "label": "x"})}},
			"/components/0/components/0/url"},
		{"26 select options", map[string]any{"components": []any{row(map[string]any{"type": 3, "custom_id": "s", "options": options(26)})}},
			"/components/0/components/0/options"},
		{"an option with a text emoji", map[string]any{"components": []any{row(map[string]any{"type": 3, "custom_id": "s",
			"options": []any{map[string]any{"label": "a", "value": "a", "emoji": map[string]any{"name": "knight"}}}})}},
			"/components/0/components/0/options/0/emoji/name"},
		{"components v2 without rows", map[string]any{"flags": 1 << 15, "components": []any{map[string]any{"type": 10, "content": "hi"}}}, ""},
		{"duplicate ids in a modal", map[string]any{"type": 9, "data": map[string]any{"custom_id": "m", "title": "t", "components": []any{
			row(map[string]any{"type": 4, "custom_id": "x", "label": "x", "style": 1}),
			row(map[string]any{"type": 4, "custom_id": "x", "label": "x", "style": 1}),
		}}}, "/data/components/1/components/0/custom_id"},
	}
	for _, tc := range cases {
		body, err := json.Marshal(tc.body)
		if err != nil {
			t.Fatal(err)
		}
		vs := checkRules(body, false)
		switch {
		case tc.want == "" && len(vs) > 0:
			t.Errorf("%s: violations %v, want none", tc.name, vs)
		case tc.want != "" && (len(vs) != 1 || vs[0].Location != tc.want):
			t.Errorf("%s: violations %v, want one at %s", tc.name, vs, tc.want)
		}
	}
}
