package bot_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/ops"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// withHTTP runs the bot as `gambit serve` does: interactions come to its
// HTTP endpoint, delivered and signed by the stand-in, and no gateway
// connection is opened.
func withHTTP() option { return func(h *harness) { h.http = true } }

// serve returns the run function of an HTTP bot: Serve on a fresh
// loopback listener, whose URL it records in h.endpoint.
func (h *harness) serve(b *bot.Bot) func(context.Context) error {
	h.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		h.t.Fatal(err)
	}
	h.endpoint = "http://" + ln.Addr().String() + bot.DefaultEndpointPath
	return func(ctx context.Context) error {
		return b.Serve(ctx, ln, bot.Endpoint{PublicKey: h.srv.PublicKey()})
	}
}

// deliverOverHTTP makes the stand-in deliver interactions to the given
// endpoints, after checking them as Discord does.
func (h *harness) deliverOverHTTP(urls ...string) {
	h.t.Helper()
	if err := h.srv.DeliverOverHTTP(h.ctx(), urls...); err != nil {
		h.t.Fatalf("the stand-in does not take the endpoints: %v; logs:\n%s", err, h.logs.String())
	}
}

// post sends a request to the bot's endpoint and returns the status and
// body of the answer.
func (h *harness) post(method, url string, body []byte, header map[string]string) (int, string) {
	h.t.Helper()
	req, err := http.NewRequestWithContext(h.ctx(), method, url, bytes.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp.StatusCode, string(answer)
}

// replica runs a second HTTP bot beside h's, on the same store, as a
// second process would run on one PostgreSQL database, logging to h's
// logs and measured by metrics, after before (if any) changed it; it
// returns its endpoint's URL. The replica stops when the test ends,
// before the store closes.
func (h *harness) replica(metrics *ops.Metrics, before ...func(*bot.Bot)) string {
	h.t.Helper()
	cfg := h.cfg
	cfg.Token, cfg.REST.APIURL, cfg.Metrics = h.srv.Token(), h.srv.URL(), metrics
	cfg.Logger = slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ready := make(chan struct{})
	cfg.Lifecycle.Ready = func() { close(ready) }
	b, err := bot.New(cfg, h.store)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, f := range before {
		f(b)
	}
	first := h.endpoint
	run := h.serve(b)
	url := h.endpoint
	h.endpoint = first
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	h.t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			h.t.Errorf("the second replica stopped with %v", err)
		}
	})
	select {
	case <-ready:
	case err := <-done:
		h.t.Fatalf("the second replica stopped at start: %v", err)
	case <-time.After(waitTimeout()):
		h.t.Fatal("the second replica did not come up")
	}
	return url
}

func TestTheEndpointVerifiesEveryRequest(t *testing.T) {
	t.Parallel()
	h := start(t, withHTTP(), withClock())
	now := h.clock.Now()
	stamp := func(d time.Duration) string { return strconv.FormatInt(now.Add(d).Unix(), 10) }
	ping := []byte(`{"id":"1","application_id":"2","type":1,"token":"t","version":1}`)
	signed := func(ts string, body []byte) map[string]string {
		return map[string]string{"X-Signature-Timestamp": ts, "X-Signature-Ed25519": h.srv.Sign(ts, body)}
	}
	_, impostor, err := ed25519.GenerateKey(crand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Replace(ping, []byte(`"type":1`), []byte(`"type":2`), 1)
	for _, c := range []struct {
		name   string
		method string
		path   string
		body   []byte
		header map[string]string
		want   int
	}{
		{"a signed PING is answered with a PONG", "POST", "", ping, signed(stamp(0), ping), http.StatusOK},
		{"signed 4 minutes ago", "POST", "", ping, signed(stamp(-4*time.Minute), ping), http.StatusOK},
		{"signed by another key", "POST", "", ping, map[string]string{
			"X-Signature-Timestamp": stamp(0),
			"X-Signature-Ed25519":   hex.EncodeToString(ed25519.Sign(impostor, append([]byte(stamp(0)), ping...))),
		}, http.StatusUnauthorized},
		{"a body changed after signing", "POST", "", tampered, signed(stamp(0), ping), http.StatusUnauthorized},
		{"a timestamp changed after signing", "POST", "", ping, map[string]string{
			"X-Signature-Timestamp": stamp(time.Second), "X-Signature-Ed25519": h.srv.Sign(stamp(0), ping),
		}, http.StatusUnauthorized},
		{"signed 6 minutes ago (a replay)", "POST", "", ping, signed(stamp(-6*time.Minute), ping), http.StatusUnauthorized},
		{"signed 6 minutes ahead", "POST", "", ping, signed(stamp(6*time.Minute), ping), http.StatusUnauthorized},
		{"a timestamp that is not Unix seconds", "POST", "", ping, signed(now.Format(time.RFC3339), ping), http.StatusUnauthorized},
		{"no signature", "POST", "", ping, map[string]string{"X-Signature-Timestamp": stamp(0)}, http.StatusUnauthorized},
		{"no timestamp", "POST", "", ping, map[string]string{"X-Signature-Ed25519": h.srv.Sign(stamp(0), ping)}, http.StatusUnauthorized},
		{"no headers", "POST", "", ping, nil, http.StatusUnauthorized},
		{"a signature that is not hexadecimal", "POST", "", ping, map[string]string{
			"X-Signature-Timestamp": stamp(0), "X-Signature-Ed25519": strings.Repeat("zz", ed25519.SignatureSize),
		}, http.StatusUnauthorized},
		{"a short signature", "POST", "", ping, map[string]string{
			"X-Signature-Timestamp": stamp(0), "X-Signature-Ed25519": h.srv.Sign(stamp(0), ping)[:64],
		}, http.StatusUnauthorized},
		{"a signed body that is not JSON", "POST", "", []byte("not json"), signed(stamp(0), []byte("not json")), http.StatusBadRequest},
		{"a body over 1 MiB", "POST", "", make([]byte, 1<<20+1), signed(stamp(0), make([]byte, 1<<20+1)), http.StatusRequestEntityTooLarge},
		{"GET", "GET", "", nil, signed(stamp(0), nil), http.StatusMethodNotAllowed},
		{"another path", "POST", "/other", ping, signed(stamp(0), ping), http.StatusNotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			url := h.endpoint
			if c.path != "" {
				url = strings.TrimSuffix(url, bot.DefaultEndpointPath) + c.path
			}
			status, body := h.post(c.method, url, c.body, c.header)
			if status != c.want {
				t.Fatalf("answered %d %q, want %d", status, body, c.want)
			}
			if status == http.StatusOK && strings.TrimSpace(body) != `{"type":1}` {
				t.Errorf("the PING was answered %q, want a PONG", body)
			}
		})
	}
}

func TestAGameIsPlayedThroughTheHTTPEndpoint(t *testing.T) {
	t.Parallel()
	metrics := ops.NewMetrics()
	h := start(t, withHTTP(), withConfig(func(c *bot.Config) { c.Metrics = metrics }))
	if !h.bot.Connected() {
		t.Error("Connected is false while the endpoint listens")
	}
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	players := []string{alice, bob}
	for i, cell := range []string{"1", "5", "9", "2", "8", "7", "3", "6", "4"} {
		if m := h.move(players[i%2], g.ID, cell); m.Ephemeral() {
			t.Fatalf("move %d (%s): rejected: %s", i+1, cell, m.Content)
		}
	}
	if g = h.game(g.ID); g.Status != storage.StatusFinished || g.Result.Winner != storage.Draw {
		t.Fatalf("after nine moves the game is %s with %+v, want a finished draw", g.Status, g.Result)
	}
	// Against an AI: the worker edits the board through the token of the
	// answer, which came through the endpoint too.
	ai, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	h.move(alice, ai.ID, "5")
	ai = h.waitGame(ai.ID, "the AI's reply", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	h.waitBoard(ai.ID, "the AI's move on the board", func(m discordtest.Message) bool {
		_, _, open := moveControl(m, ai.Moves[1])
		return !open
	})
	for _, r := range h.srv.Requests() {
		if strings.HasPrefix(r.Route, "/gateway") {
			t.Errorf("the HTTP bot asked for the gateway: %s %s", r.Method, r.Path)
		}
	}
	plays := func() float64 {
		return testutil.ToFloat64(metrics.Interactions.Handled.WithLabelValues("command:/play", "ok"))
	}
	waitFor(t, "the two /play counted ok", func() bool { return plays() >= 2 })
	if ok := plays(); ok != 2 {
		t.Errorf("/play counted %v times ok, want 2", ok)
	}
}

func TestTwoReplicasShareTheTrafficAndOneCarriesOnAlone(t *testing.T) {
	t.Parallel()
	m1, m2 := ops.NewMetrics(), ops.NewMetrics()
	h := start(t, withHTTP(), withConfig(func(c *bot.Config) { c.Metrics = m1 }))
	first := h.endpoint

	second := h.replica(m2)
	h.deliverOverHTTP(first, second)

	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("connect4"))
	moves := []struct{ user, col string }{
		{alice, "4"}, {bob, "1"}, {alice, "4"}, {bob, "2"}, {alice, "4"}, {bob, "1"}, {alice, "4"},
	}
	handled := func(m *ops.Metrics) float64 {
		return testutil.ToFloat64(m.Interactions.Handled.WithLabelValues("component:v1/move/{game}/{ply}/{cell}", "ok"))
	}
	for i, step := range moves {
		if i == 3 {
			// Both replicas have played moves of the game; stop the first
			// mid-game. Its listener closes, and the stand-in, like a load
			// balancer, sends everything to the second. (A move is counted
			// once its handler returns, which may be after its answer.)
			waitFor(t, "the first three moves counted", func() bool { return handled(m1)+handled(m2) == 3 })
			if handled(m1) == 0 || handled(m2) == 0 {
				t.Fatalf("moves handled: %v by the first replica, %v by the second; want both to take turns", handled(m1), handled(m2))
			}
			h.stop()
		}
		if m := h.move(step.user, g.ID, step.col); m.Ephemeral() {
			t.Fatalf("move %d (column %s): rejected: %s", i+1, step.col, m.Content)
		}
	}
	g = h.game(g.ID)
	if g.Status != storage.StatusFinished || g.Players[g.Result.Winner].ID != storage.User(alice) {
		t.Fatalf("game ended as %s %+v, want alice to win", g.Status, g.Result)
	}
	if got := strings.Join(g.Moves, ""); got != "4142414" {
		t.Errorf("moves stored %q, want 4142414: none lost, none doubled", got)
	}
	waitFor(t, "the seven moves counted", func() bool { return handled(m1)+handled(m2) == 7 })
	if handled(m2) < 4 {
		t.Errorf("the second replica handled %v moves, want every one after the first stopped", handled(m2))
	}
}

// BenchmarkLoadFirstResponseHTTP2Replicas is the first-response figure of
// `gambit serve`: two replicas on one store behind the stand-in, which
// delivers each interaction by signed HTTP POST to them in turn, keep 200
// two-player Adjacency games going; in each iteration every game's player
// to move clicks a cell, the clicks spread over one second (200 clicks/s),
// and the time from the click to the bot's first response is recorded.
// BenchmarkLoadFirstResponse200Games (load_test.go) is the same load on
// one gateway bot, without its AI games.
func BenchmarkLoadFirstResponseHTTP2Replicas(b *testing.B) {
	const games = 200
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(bot.Procs(bot.Config{}))) // as gambit serve sets it
	h := start(b, withHTTP(), withoutChecks(), withConfig(func(c *bot.Config) { c.Timers.TickInterval = time.Second }))
	first := h.endpoint
	h.deliverOverHTTP(first, h.replica(nil))
	users := make([]string, 2*games)
	for i := range users {
		users[i] = h.srv.AddUser(fmt.Sprintf("player%d", i)).ID
	}
	ids := make([]storage.GameID, games)
	var wg sync.WaitGroup
	setup := make(chan struct{}, 8) // the games start 8 at a time: the setup is not measured
	for i := range games {
		wg.Go(func() {
			setup <- struct{}{}
			defer func() { <-setup }()
			ids[i] = challengeAndAcceptQuiet(h, users[2*i], users[2*i+1])
		})
	}
	wg.Wait()

	var lat latencies
	b.ResetTimer()
	for round := 0; b.Loop(); round++ {
		clickEveryGame(b, h, &wg, round, users, ids, &lat)
		wg.Wait()
	}
	b.StopTimer()
	lat.report(b)
}
