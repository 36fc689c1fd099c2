package playground_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/playground"
)

// send calls the playground and returns the status and the answer's
// error text.
func send(t *testing.T, method, url string, body any, headers map[string]string) (int, string) {
	t.Helper()
	var answer struct{ Error string }
	code := call(t, method, url, body, headers, &answer)
	return code, answer.Error
}

// TestCrossSiteRequestsChangeNothing replays what a hostile page in the
// same browser, or a DNS-rebinding host name, could send: none of it
// reaches the bot or the members.
func TestCrossSiteRequestsChangeNothing(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	var st state
	api(t, "GET", url+"api/state", nil, &st)
	alice := st.Members[0]
	play := map[string]any{"member": alice.ID, "name": "play", "options": []map[string]any{
		{"name": "game", "value": "connect4"}, {"name": "ai", "value": "random"},
	}}
	indonesian := map[string]string{"member": alice.ID, "locale": i18n.Indonesian}
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	_, port, _ := strings.Cut(host, ":")

	for _, tc := range []struct {
		name, method, path string
		body               any
		headers            map[string]string
		code               int
		says               string // in the error text
	}{
		// A form or fetch with text/plain needs no CORS preflight: a
		// foreign page can send it.
		{"text/plain command", "POST", "api/command", play, map[string]string{"Content-Type": "text/plain"}, 415, "application/json"},
		{"form member", "POST", "api/members", map[string]string{"name": "mallory"}, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "application/json"},
		{"no content type", "POST", "api/members", map[string]string{"name": "mallory"}, nil, 415, "application/json"},
		{"foreign Origin", "POST", "api/command", play, map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}, 403, "cross-origin"},
		{"foreign Origin, same host other port", "POST", "api/members", map[string]string{"name": "mallory"}, map[string]string{"Content-Type": "application/json", "Origin": "http://127.0.0.1:1"}, 403, "cross-origin"},
		{"cross-site fetch", "POST", "api/click", map[string]any{"member": alice.ID}, map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403, "cross-origin"},
		{"text/plain locale", "POST", "api/locale", indonesian, map[string]string{"Content-Type": "text/plain"}, 415, "application/json"},
		{"cross-site locale", "POST", "api/locale", indonesian, map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403, "cross-origin"},
		{"foreign Origin locale", "POST", "api/locale", indonesian, map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}, 403, "cross-origin"},
		{"text/plain and foreign Origin", "POST", "api/command", play, map[string]string{"Content-Type": "text/plain", "Origin": "http://evil.example"}, 403, "cross-origin"},
		// DNS rebinding: evil.example resolved to 127.0.0.1 after the
		// page loaded, so the browser calls it same-origin.
		{"rebound command", "POST", "api/command", play, map[string]string{"Content-Type": "application/json", "Host": "evil.example:" + port, "Origin": "http://evil.example:" + port}, 403, "evil.example"},
		{"rebound state", "GET", "api/state", nil, map[string]string{"Host": "evil.example"}, 403, "evil.example"},
		{"rebound messages", "GET", "api/messages?member=" + alice.ID, nil, map[string]string{"Host": "evil.example:" + port}, 403, "evil.example"},
		{"rebound events", "GET", "api/events?member=" + alice.ID, nil, map[string]string{"Host": "evil.example:" + port}, 403, "evil.example"},
		{"rebound page", "GET", "", nil, map[string]string{"Host": "evil.example:" + port}, 403, "evil.example"},
		{"loopback name, other port", "GET", "api/state", nil, map[string]string{"Host": "localhost:1"}, 403, "localhost:1"},
		{"loopback subdomain", "GET", "api/state", nil, map[string]string{"Host": "x.localhost:" + port}, 403, "x.localhost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, text := send(t, tc.method, url+tc.path, tc.body, tc.headers)
			if code != tc.code || !strings.Contains(text, tc.says) {
				t.Errorf("%d %q; want %d and an error naming %q", code, text, tc.code, tc.says)
			}
		})
	}

	var after state
	api(t, "GET", url+"api/state", nil, &after)
	if len(after.Members) != len(st.Members) {
		t.Errorf("members after the refused requests: %+v, want %+v", after.Members, st.Members)
	}
	var locales localeState
	api(t, "GET", url+"api/state", nil, &locales)
	if l := locales.locales()["alice"]; l != i18n.English {
		t.Errorf("alice's locale after the refused requests: %s, want en-US", l)
	}
	var seen []message
	api(t, "GET", url+"api/messages?member="+alice.ID, nil, &seen)
	if len(seen) != 0 {
		t.Errorf("alice sees %+v after the refused requests; want no game, no message", seen)
	}
}

// TestTheServedAddressIsAccepted: every loopback name for the served
// port reaches the page, and a same-origin POST from the browser works.
func TestTheServedAddressIsAccepted(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	_, port, _ := strings.Cut(host, ":")
	for _, h := range []string{host, "localhost:" + port, "LocalHost:" + port, "127.0.0.2:" + port, "[::1]:" + port} {
		if code, text := send(t, "GET", url+"api/state", nil, map[string]string{"Host": h}); code != 200 {
			t.Errorf("GET /api/state with Host %s: %d %q, want 200", h, code, text)
		}
	}
	for _, headers := range []map[string]string{
		{"Content-Type": "application/json", "Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"},
		{"Content-Type": "application/json; charset=utf-8", "Origin": "http://localhost:" + port, "Host": "localhost:" + port},
		{"Content-Type": "Application/JSON"},
	} {
		if code, text := send(t, "POST", url+"api/members", map[string]string{"name": "carol"}, headers); code != 200 {
			t.Errorf("POST /api/members with %v: %d %q, want 200", headers, code, text)
		}
	}
}

func TestMembersAreCapped(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	var st state
	api(t, "GET", url+"api/state", nil, &st)
	for i := len(st.Members); i < playground.MaxMembers; i++ {
		if code, text := send(t, "POST", url+"api/members", map[string]string{"name": fmt.Sprint("m", i)}, map[string]string{"Content-Type": "application/json"}); code != 200 {
			t.Fatalf("member %d: %d %q", i+1, code, text)
		}
	}
	code, text := send(t, "POST", url+"api/members", map[string]string{"name": "one-too-many"}, map[string]string{"Content-Type": "application/json"})
	if code != http.StatusConflict || !strings.Contains(text, fmt.Sprint(playground.MaxMembers)) {
		t.Errorf("member %d: %d %q; want 409 and a refusal naming the cap", playground.MaxMembers+1, code, text)
	}
	api(t, "GET", url+"api/state", nil, &st)
	if len(st.Members) != playground.MaxMembers {
		t.Errorf("%d members, want %d", len(st.Members), playground.MaxMembers)
	}
}

// TestTrailingDataAfterTheBodyIsRefused: a request body is one JSON value;
// anything after it is refused with 400 rather than ignored, on every
// endpoint that changes something, and nothing changes.
func TestTrailingDataAfterTheBodyIsRefused(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	var st state
	api(t, "GET", url+"api/state", nil, &st)
	alice := st.Members[0].ID
	for _, tc := range []struct{ path, body string }{
		{"api/members", `{"name":"mallory"} {"name":"eve"}`},
		{"api/members", `{"name":"mallory"}garbage`},
		{"api/members", `{"name":"mallory"}]`},
		{"api/command", `{"member":"` + alice + `","name":"play","options":[{"name":"game","value":"connect4"},{"name":"ai","value":"random"}]} 1`},
		{"api/locale", `{"member":"` + alice + `","locale":"id"}{}`},
		{"api/click", `{"member":"` + alice + `"} null`},
	} {
		req, err := http.NewRequest("POST", url+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var answer struct{ Error string }
		_ = json.NewDecoder(resp.Body).Decode(&answer)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(answer.Error, "after the JSON value") {
			t.Errorf("POST /%s %s: %d %q; want 400 naming the data after the JSON value", tc.path, tc.body, resp.StatusCode, answer.Error)
		}
	}
	// White space after the value is fine.
	if code, text := send(t, "POST", url+"api/members", map[string]string{"name": "carol"}, map[string]string{"Content-Type": "application/json"}); code != 200 {
		t.Errorf("a plain body: %d %q", code, text)
	}
	var after state
	api(t, "GET", url+"api/state", nil, &after)
	if len(after.Members) != len(st.Members)+1 {
		t.Errorf("%d members after the refused requests and one good one, want %d", len(after.Members), len(st.Members)+1)
	}
	var locales localeState
	api(t, "GET", url+"api/state", nil, &locales)
	if l := locales.locales()["alice"]; l != i18n.English {
		t.Errorf("alice's locale after the refused requests: %s, want en-US", l)
	}
}
