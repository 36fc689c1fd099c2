package playground_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/internal/playground"
	"github.com/gambitbot/gambit/internal/racetest"
)

// api calls the playground's JSON API as the page does and decodes the
// answer into out.
func api(t *testing.T, method, url string, body, out any) int {
	t.Helper()
	headers := map[string]string{}
	if body != nil {
		headers["Content-Type"] = "application/json"
	}
	return call(t, method, url, body, headers, out)
}

// slash runs a slash command as a member and fails the test unless the
// playground answers it with 200 and ok, which it does once the bot has
// answered.
func slash(t *testing.T, url, member, name string, options ...map[string]any) {
	t.Helper()
	var res map[string]any
	if code := api(t, "POST", url+"api/command", map[string]any{"member": member, "name": name, "options": options}, &res); code != 200 || res["ok"] != true {
		t.Fatalf("/%s: %d %v", name, code, res)
	}
}

// call makes a request to the playground with body, if not nil, encoded
// as JSON and the given headers ("Host" sets the request's host), and
// decodes a JSON answer into out; other answers (the page, an event
// stream) are left unread.
func call(t *testing.T, method, url string, body any, headers map[string]string, out any) int {
	t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: decode: %v", method, url, err)
		}
	}
	return resp.StatusCode
}

type apiMember struct{ ID, Name string }

type state struct {
	Members  []apiMember
	Commands []struct{ Name string }
}

type message struct {
	ID          string
	Content     string
	Interaction *struct{ Command string }
	Ephemeral   bool
	Embeds      []struct{ Title, Description string }
	Components  []component
	Attachments []struct{ Filename, URL string }
}

// component is a component as the page receives it: an action row, a
// button or select, or the layout of a components-v2 message.
type component struct {
	Type       int
	CustomID   string `json:"custom_id"`
	Content    string
	Components []component
}

// all lists a message's components, depth first.
func (m message) all() []component {
	var out []component
	var walk func([]component)
	walk = func(cs []component) {
		for _, c := range cs {
			out = append(out, c)
			walk(c.Components)
		}
	}
	walk(m.Components)
	return out
}

// text joins a message's content, its embeds' titles and descriptions
// and the texts of its text displays.
func (m message) text() string {
	s := m.Content
	for _, e := range m.Embeds {
		s += "\n" + e.Title + "\n" + e.Description
	}
	for _, c := range m.all() {
		s += "\n" + c.Content
	}
	return s
}

func TestAPIPlaysThroughTheStandIn(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	var st state
	if code := api(t, "GET", url+"api/state", nil, &st); code != 200 || len(st.Members) != 2 {
		t.Fatalf("state: %d %+v; want the two default members", code, st)
	}
	names := map[string]bool{}
	for _, c := range st.Commands {
		names[c.Name] = true
	}
	for _, want := range []string{"play", "challenge", "move", "games", "help", "leaderboard", "stats", "privacy", "settings", "versus"} {
		if !names[want] {
			t.Errorf("command /%s is not offered; have %v", want, names)
		}
	}
	if names["Challenge to a game"] {
		t.Error("the user command Challenge to a game is offered as a slash command")
	}
	alice, bob := st.Members[0], st.Members[1]

	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"api/events?member="+bob.ID, nil)
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	events := bufio.NewScanner(stream.Body)

	slash(t, url, alice.ID, "play", map[string]any{"name": "game", "value": "tictactoe"}, map[string]any{"name": "opponent", "value": bob.ID})
	// Bob's event stream brings the challenge.
	var challenge message
	for events.Scan() {
		if line, ok := strings.CutPrefix(events.Text(), "data: "); ok {
			if err := json.Unmarshal([]byte(line), &challenge); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if !strings.Contains(challenge.text(), "<@"+bob.ID+">") {
		t.Fatalf("bob's first event: %+v, want the challenge", challenge)
	}
	accept := ""
	for _, c := range challenge.all() {
		if strings.HasPrefix(c.CustomID, "v1/accept/") {
			accept = c.CustomID
		}
	}
	var res map[string]any
	if code := api(t, "POST", url+"api/click", map[string]any{"member": alice.ID, "message": challenge.ID, "custom_id": accept}, &res); code != 200 {
		t.Fatalf("alice's click: %d %v", code, res)
	}
	var seen []message
	api(t, "GET", url+"api/messages?member="+bob.ID, nil, &seen)
	for _, m := range seen {
		if m.Ephemeral {
			t.Errorf("bob sees alice's ephemeral reply %q", m.Content)
		}
	}
	api(t, "GET", url+"api/messages?member="+alice.ID, nil, &seen)
	if len(seen) != 2 || !seen[1].Ephemeral {
		t.Errorf("alice should see the challenge and her own ephemeral refusal, sees %+v", seen)
	}

	if code := api(t, "POST", url+"api/click", map[string]any{"member": "nobody", "message": challenge.ID, "custom_id": accept}, &res); code != 400 {
		t.Errorf("a click by an unknown member: %d %v, want 400", code, res)
	}
	var added apiMember
	if code := api(t, "POST", url+"api/members", map[string]any{"name": "carol"}, &added); code != 200 || added.Name != "carol" || added.ID == "" {
		t.Errorf("add member: %d %+v", code, added)
	}
	var choices struct {
		Choices []struct{ Name, Value string }
	}
	api(t, "POST", url+"api/autocomplete", map[string]any{"member": alice.ID, "name": "play", "options": []map[string]any{
		{"name": "game", "value": "connect4"}, {"name": "ai", "value": "seed00", "focused": true},
	}}, &choices)
	if len(choices.Choices) != 1 || choices.Choices[0].Value != "seed004-minimax" {
		t.Errorf("ai suggestions for connect4 and \"seed00\": %+v, want seed004-minimax alone", choices.Choices)
	}
	api(t, "POST", url+"api/autocomplete", map[string]any{"member": alice.ID, "name": "versus", "options": []map[string]any{
		{"name": "game", "value": "connect4"}, {"name": "second", "value": "seed00", "focused": true},
	}}, &choices)
	if len(choices.Choices) != 1 || choices.Choices[0].Value != "seed004-minimax" {
		t.Errorf("/versus second's suggestions for connect4 and \"seed00\": %+v, want seed004-minimax alone", choices.Choices)
	}

	// A subcommand's answer names it, as Discord does: "/privacy delete",
	// not "/privacy".
	slash(t, url, alice.ID, "privacy", map[string]any{"name": "delete"})
	api(t, "GET", url+"api/messages?member="+alice.ID, nil, &seen)
	if last := seen[len(seen)-1]; last.Interaction == nil || last.Interaction.Command != "/privacy delete" {
		t.Errorf("the answer to /privacy delete names its command as %+v", last.Interaction)
	}
}

func TestGamesAndMembersSurviveARestart(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "playground.db")
	url, stop := runPlayground(t, db)
	var before state
	api(t, "GET", url+"api/state", nil, &before)
	alice := before.Members[0]
	slash(t, url, alice.ID, "play", map[string]any{"name": "game", "value": "connect4"}, map[string]any{"name": "ai", "value": "random"})
	stop()

	url, _ = runPlayground(t, db)
	var after state
	api(t, "GET", url+"api/state", nil, &after)
	if len(after.Members) != len(before.Members) || after.Members[0] != alice {
		t.Fatalf("members after the restart %+v, want %+v", after.Members, before.Members)
	}
	// The stand-in keeps no messages across restarts: the bot posts the
	// boards of the open games again when it starts.
	var seen []message
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	for {
		api(t, "GET", url+"api/messages?member="+alice.ID, nil, &seen)
		if len(seen) == 1 && strings.Contains(seen[0].text(), "### Connect Four") && len(seen[0].Attachments) == 1 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("after the restart alice sees %+v, want her Connect Four board posted again", seen)
		}
		time.Sleep(20 * time.Millisecond)
	}
	slash(t, url, alice.ID, "move", map[string]any{"name": "cell", "value": "4"}) // on the re-posted board
}

func TestListenRefusesANonLoopbackAddress(t *testing.T) {
	t.Parallel()
	ln, err := playground.Listen("0.0.0.0:8080")
	if err == nil || ln != nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("Listen on 0.0.0.0: %v, want a refusal naming loopback", err)
	}
}

// TestAStaleBoardGetsTheBotsAnswer: a page that still shows a board from
// before the last moves sends a click on it; the bot, not the stand-in,
// answers, pointing to the newest board, as on Discord.
func TestAStaleBoardGetsTheBotsAnswer(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	var st state
	api(t, "GET", url+"api/state", nil, &st)
	alice, bob := st.Members[0], st.Members[1]
	slash(t, url, alice.ID, "play", map[string]any{"name": "game", "value": "tictactoe"}, map[string]any{"name": "opponent", "value": bob.ID})
	// board returns the board as a member's page shows it now, and the
	// custom ID of its button for cell.
	board := func(who apiMember, cell string) (message, string) {
		t.Helper()
		ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
		defer cancel()
		for ctx.Err() == nil {
			var seen []message
			api(t, "GET", url+"api/messages?member="+who.ID, nil, &seen)
			for _, m := range seen {
				for _, row := range m.Components {
					for _, c := range row.Components {
						if strings.HasPrefix(c.CustomID, "v1/accept/") && cell == "accept" ||
							strings.HasPrefix(c.CustomID, "v1/move/") && strings.HasSuffix(c.CustomID, "/"+cell) {
							return m, c.CustomID
						}
					}
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("%s sees no button for %s", who.Name, cell)
		return message{}, ""
	}
	click := func(who apiMember, m message, id string) (int, map[string]any) {
		var res map[string]any
		code := api(t, "POST", url+"api/click", map[string]any{"member": who.ID, "message": m.ID, "custom_id": id}, &res)
		return code, res
	}
	m, accept := board(bob, "accept")
	if code, res := click(bob, m, accept); code != 200 {
		t.Fatalf("accept: %d %v", code, res)
	}
	m, five := board(alice, "5") // alice's page shows the board at ply 0
	if code, res := click(alice, m, five); code != 200 {
		t.Fatalf("alice's move: %d %v", code, res)
	}
	m1, one := board(bob, "1")
	if !strings.Contains(one, "/1/") {
		t.Fatalf("bob's button %s is not of ply 1", one)
	}
	if code, res := click(bob, m1, one); code != 200 {
		t.Fatalf("bob's move: %d %v", code, res)
	}
	stale := strings.TrimSuffix(five, "5") + "9" // a cell still free, on the board alice saw at ply 0
	code, res := click(alice, m, stale)
	if code != 200 {
		t.Fatalf("a click on the stale board: %d %v, want the bot's answer", code, res)
	}
	var seen []message
	api(t, "GET", url+"api/messages?member="+alice.ID, nil, &seen)
	if last := seen[len(seen)-1]; !last.Ephemeral || !strings.Contains(last.Content, "out of date") {
		t.Errorf("alice's last message %+v, want the bot's note that the board is out of date", last)
	}
}

// TestAnAnswerLaterThanDiscordsSecondsReachesThePage: where the stand-in
// waits longer than Discord's 3 seconds for the bot's first answer (the
// tests do, on a loaded machine: discordtest.AnswerUntilTestDeadline),
// the page waits as long, so a late answer the stand-in took is no
// "the application did not respond".
func TestAnAnswerLaterThanDiscordsSecondsReachesThePage(t *testing.T) {
	t.Parallel()
	var standIn *discordtest.Server
	url := startPlayground(t, func(c *playground.Config) {
		c.StandIn = append(c.StandIn, func(s *discordtest.Server) { standIn = s })
	})
	var st state
	api(t, "GET", url+"api/state", nil, &st)
	// Later than Discord's 3 seconds and the page's half second more,
	// on any machine.
	standIn.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: "/interactions/{interaction_id}/{interaction_token}/callback", Delay: 4 * time.Second})
	slash(t, url, st.Members[0].ID, "help")
}

// TestMain runs the tests, each with a playground of its own and most
// with a window of the one browser (sharedBrowser), several at a time
// (discordtest.WaitingTests): they spend most of their time waiting for
// the bot's answers and the page.
func TestMain(m *testing.M) {
	discordtest.WaitingTests(6)
	code := m.Run()
	stopBrowser()
	racetest.Exit(code)
}
