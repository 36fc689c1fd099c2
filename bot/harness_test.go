package bot_test

import (
	"bytes"
	"context"
	"flag"
	"log/slog"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
	"github.com/gambitbot/gambit/storage/postgres"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
)

// waitTimeout bounds a wait that only something broken makes long: it
// runs to the test binary's deadline (go test -timeout, from the binary's
// start), less discordtest.DeadlineMargin for the failure's report, so
// that a loaded machine makes a test slower, never failing. Without a
// deadline (-timeout 0) it is an hour.
func waitTimeout() time.Duration {
	d := testDeadline()
	if d.IsZero() {
		return time.Hour
	}
	return max(time.Until(d), time.Second)
}

// binaryStart is when the test binary started, the origin of go test's
// -timeout.
var binaryStart = time.Now()

// testDeadline is the test binary's deadline less DeadlineMargin; zero
// without a deadline. It reads the flag once flags are parsed.
var testDeadline = sync.OnceValue(func() time.Time {
	f := flag.Lookup("test.timeout")
	if f == nil {
		return time.Time{}
	}
	timeout, _ := f.Value.(flag.Getter).Get().(time.Duration)
	if timeout <= 0 {
		return time.Time{}
	}
	return binaryStart.Add(timeout - min(discordtest.DeadlineMargin, timeout/4))
})

// harness is the real bot, with a real bbolt file (a PostgreSQL schema
// withPostgres), talking through the real
// discordgo client to the local Discord stand-in.
type harness struct {
	t     testing.TB
	srv   *discordtest.Server
	store *bolt.Store
	// pg, with withPostgres, is the store the bots run on instead of
	// store, which is then nil.
	pg      *postgres.Store
	clock   *discordtest.ManualClock // nil: real time
	cfg     bot.Config
	srvOpts []discordtest.ServerOption
	logs    *syncBuffer
	// beforeRun, if not nil, changes each bot before it runs.
	beforeRun func(*bot.Bot)
	// searches gets the end of each AI search as it starts, with
	// withHeldSearches; held keeps them all, for stop.
	searches chan context.CancelFunc
	heldMu   sync.Mutex
	held     []context.CancelFunc
	// http makes the bot run as `gambit serve` does, taking interactions
	// on an HTTP endpoint (endpoint_test.go) instead of the gateway.
	http     bool
	endpoint string // the endpoint's URL while an HTTP bot runs
	pgURL    string // withPostgres

	bot    *bot.Bot
	cancel context.CancelFunc
	done   chan error
}

// syncBuffer is a buffer the bot's logger and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// option changes a harness before it starts.
type option func(*harness)

// withClock drives the stand-in, the store and the bot with a manual clock.
func withClock() option {
	return func(h *harness) { h.clock = discordtest.NewManualClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)) }
}

// withFastClock is withClock with the clock moving on by step every
// millisecond of real time until the test ends, for waits on the bot's
// clock (a shard waiting for its identify bucket) that nothing else ends.
func withFastClock(step time.Duration) option {
	return func(h *harness) {
		withClock()(h)
		done := make(chan struct{})
		h.t.Cleanup(func() { close(done) })
		go func() {
			for {
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
					h.clock.Advance(step)
				}
			}
		}()
	}
}

// withPostgres runs the bots on a PostgreSQL schema of their own on the
// test server (pgtest.URL: skipped without one, failed in CI) instead of
// a bbolt file.
func withPostgres() option {
	return func(h *harness) { h.pgURL = pgtest.URL(h.t) }
}

// withoutChecks makes the stand-in skip its checks of request bodies and
// its request log, for load benchmarks that measure the bot rather than
// the stand-in.
func withoutChecks() option {
	return func(h *harness) { h.srvOpts = append(h.srvOpts, discordtest.WithoutChecks()) }
}

// withServer starts the stand-in with opts.
func withServer(opts ...discordtest.ServerOption) option {
	return func(h *harness) { h.srvOpts = append(h.srvOpts, opts...) }
}

// withBot changes the bot before it runs, such as to add a test route.
func withBot(f func(*bot.Bot)) option { return func(h *harness) { h.beforeRun = f } }

// withStoreWrapped has the bot reach its store through wrap (bot.WrapStore),
// for a test that watches or holds its calls.
func withStoreWrapped(wrap func(storage.Store) storage.Store) option {
	return withBot(func(b *bot.Bot) { bot.WrapStore(b, wrap) })
}

// withHeldSearches makes the AI search until the test ends the search,
// whatever its move time: each search, as it starts, sends the function
// that ends it on h.searches (searchStarted takes it). A test uses it to
// act while the AI thinks, which a move time on the wall clock does not
// leave it on a loaded machine.
func withHeldSearches() option {
	return func(h *harness) {
		h.searches = make(chan context.CancelFunc, 16)
		before := h.beforeRun
		h.beforeRun = func(b *bot.Bot) {
			if before != nil {
				before(b)
			}
			bot.EndSearches(b, func(ctx context.Context) (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(ctx)
				h.heldMu.Lock()
				h.held = append(h.held, cancel)
				h.heldMu.Unlock()
				h.searches <- cancel
				return ctx, cancel
			})
		}
	}
}

// endSearches ends the held searches, so that the bot can stop.
func (h *harness) endSearches() {
	h.heldMu.Lock()
	defer h.heldMu.Unlock()
	for _, end := range h.held {
		end()
	}
	h.held = nil
}

// searchStarted waits for the next AI search of a harness
// withHeldSearches to start and returns the function that ends it: the
// search then returns its best move so far.
func (h *harness) searchStarted() context.CancelFunc {
	h.t.Helper()
	select {
	case end := <-h.searches:
		return end
	case <-time.After(waitTimeout()):
		h.t.Fatal("no AI search started")
		return nil
	}
}

// withConfig edits the bot's settings.
func withConfig(f func(*bot.Config)) option { return func(h *harness) { f(&h.cfg) } }

// start runs a bot against a fresh stand-in and database. When the test
// ends it stops the bot, checks that Discord would have accepted every
// request, that neither the bot token nor any interaction token reached
// the logs and that the database is consistent.
func start(t testing.TB, opts ...option) *harness {
	t.Helper()
	labelTest(t)
	h := &harness{t: t, logs: &syncBuffer{}}
	h.cfg = bot.Config{
		AI:     bot.AIConfig{MoveTime: 150 * time.Millisecond, SearchThreads: 2},
		Timers: bot.TimerConfig{TickInterval: 20 * time.Millisecond, ProgressInterval: 50 * time.Millisecond},
	}
	for _, o := range opts {
		o(h)
	}
	// A stop waits for the work under way; a loaded machine must not make
	// the bound on that wait cut it short (TestShutdownIsBoundedUnderRateLimits
	// drives the bound with its own timer).
	if h.cfg.Lifecycle.ShutdownTimeout == 0 {
		h.cfg.Lifecycle.ShutdownTimeout = time.Hour
	}
	srvOpts := h.srvOpts
	storeOpts := bolt.Options{AIRatings: bot.AIRatings}
	if h.clock != nil {
		srvOpts = append(srvOpts, discordtest.WithClock(h.clock))
		storeOpts.Clock = h.clock.Now
		h.cfg.Now = h.clock.Now
		// Discord's 3 seconds are on the manual clock: an answer is late
		// only when the test makes it so. The bot's own budget for a
		// handler, by the wall clock, must not end it first on a loaded
		// machine (clicks queued behind a game's lock); the test's waits
		// are the hang guards.
		if h.cfg.Lifecycle.InteractionTimeout == 0 {
			h.cfg.Lifecycle.InteractionTimeout = time.Hour
		}
	}
	if _, bench := t.(*testing.B); h.clock == nil && !bench {
		// On the system clock Discord's 3 seconds and the bot's budget
		// for a handler would be the loaded machine's: a test waits for
		// the answer as long as for anything else. Benchmarks measure
		// against Discord's 3 seconds, and tests of the deadlines run on
		// the manual clock.
		srvOpts = append(srvOpts, discordtest.WithAnswerDeadline(waitTimeout()))
		if h.cfg.Lifecycle.InteractionTimeout == 0 {
			h.cfg.Lifecycle.InteractionTimeout = time.Hour
		}
		// Nor may a review's progress edits come in by the loaded
		// machine's clock, before the answer a test waits for: they are
		// tested on the manual clock.
		if h.cfg.Review.ProgressInterval == 0 {
			h.cfg.Review.ProgressInterval = time.Hour
		}
	}
	h.srv = discordtest.New(srvOpts...)
	t.Cleanup(h.srv.Close)
	if h.pgURL != "" {
		// Each store operation's bound (10 s in production) is the test
		// binary's: beside CPU hogs, opening a schema (its migrations) or
		// the final check of it took longer.
		pgOpts := postgres.Options{AIRatings: bot.AIRatings, Clock: storeOpts.Clock, Timeout: waitTimeout()}
		pg, err := postgres.Open(context.Background(), h.pgURL, &pgOpts)
		if err != nil {
			t.Fatal(err)
		}
		h.pg = pg
	} else {
		store, err := bolt.Open(filepath.Join(t.TempDir(), "gambit.db"), &storeOpts)
		if err != nil {
			t.Fatal(err)
		}
		h.store = store
	}
	t.Cleanup(func() {
		h.stop()
		h.srv.AssertNoViolations(t)
		logs := h.logs.String()
		if strings.Contains(logs, h.srv.Token()) {
			t.Error("the bot token appears in the logs")
		}
		for _, tok := range h.srv.InteractionTokens() {
			if strings.Contains(logs, tok) {
				t.Error("an interaction token appears in the logs")
				break
			}
		}
		problems, err := h.db().Check(context.Background())
		if err != nil || len(problems) > 0 {
			t.Errorf("database check: %v %v", problems, err)
		}
		if err := h.db().Close(); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("bot logs:\n%s", h.logs.String())
		}
	})
	h.run()
	return h
}

// labelTest labels the CPU a test spends from now on — on its goroutine
// and every goroutine started from it, the bot's and the stand-in's —
// with the test's name, so that a CPU profile of the package says which
// tests spend it (`go tool pprof -tags`). Work a bot starts once per
// process, such as the 15-puzzle's tables, counts for the test whose
// bot started it.
func labelTest(t testing.TB) {
	name, _, _ := strings.Cut(t.Name(), "/")
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("test", name)))
}

// db is the store the bots run on: the PostgreSQL one withPostgres, else
// the bbolt file.
func (h *harness) db() storage.Admin {
	if h.pg != nil {
		return h.pg
	}
	return h.store
}

// run starts the bot and waits until it serves.
func (h *harness) run() {
	h.t.Helper()
	h.bot, h.cancel, h.done = h.launch(h.cfg, h.beforeRun)
	if h.http {
		h.deliverOverHTTP(h.endpoint)
	}
}

// launch starts a bot with cfg on the harness's stand-in and store, after
// before (if not nil) changed it, and waits until it serves.
func (h *harness) launch(cfg bot.Config, before func(*bot.Bot)) (*bot.Bot, context.CancelFunc, chan error) {
	h.t.Helper()
	cfg.Token, cfg.REST.APIURL = h.srv.Token(), h.srv.URL()
	cfg.Logger = slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ready := make(chan struct{})
	cfg.Lifecycle.Ready = func() { close(ready) }
	b, err := bot.New(cfg, h.db())
	if err != nil {
		h.t.Fatal(err)
	}
	if before != nil {
		before(b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	run := b.Run
	if h.http {
		run = h.serve(b)
	}
	go func() { done <- run(ctx) }()
	select {
	case <-ready:
	case err := <-done:
		h.t.Fatalf("the bot stopped at start: %v; logs:\n%s", err, h.logs.String())
	case <-time.After(waitTimeout()):
		h.t.Fatalf("the bot did not come up; logs:\n%s", h.logs.String())
	}
	return b, cancel, done
}

// another runs one more bot on the harness's stand-in and store — another
// process sharing the database — with the harness's settings changed by
// edit and its store wrapped by wrap (either may be nil). It stops when
// stop is called or, at the latest, before the harness's own bot when the
// test ends.
func (h *harness) another(edit func(*bot.Config), wrap func(storage.Store) storage.Store) (b *bot.Bot, stop func()) {
	h.t.Helper()
	cfg := h.cfg
	if edit != nil {
		edit(&cfg)
	}
	b, cancel, done := h.launch(cfg, func(b *bot.Bot) {
		if wrap != nil {
			bot.WrapStore(b, wrap)
		}
	})
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					h.t.Errorf("another bot stopped with %v", err)
				}
			case <-time.After(waitTimeout()):
				h.t.Error("another bot did not stop")
			}
		})
	}
	h.t.Cleanup(stop)
	return b, stop
}

// waitLog waits until the bot's logs contain text.
func (h *harness) waitLog(text string) {
	h.t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for !strings.Contains(h.logs.String(), text) {
		if time.Now().After(deadline) {
			h.t.Fatalf("no log line with %q; logs:\n%s", text, h.logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stop shuts the bot down gracefully, if it runs.
func (h *harness) stop() {
	h.t.Helper()
	if h.cancel == nil {
		return
	}
	h.endSearches()
	h.cancel()
	select {
	case err := <-h.done:
		if err != nil {
			h.t.Errorf("bot stopped with %v", err)
		}
	case <-time.After(waitTimeout()):
		h.t.Error("the bot did not stop")
	}
	h.cancel = nil
}

func (h *harness) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout())
	h.t.Cleanup(cancel)
	return ctx
}

// command sends a slash command as a user and waits for the reply.
func (h *harness) command(user, name string, opts ...discordtest.Option) (*discordtest.Interaction, discordtest.Message) {
	h.t.Helper()
	ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: user, Name: name, Options: opts})
	if err != nil {
		h.t.Fatalf("/%s: %v", name, err)
	}
	m, err := ix.Reply(h.ctx())
	if err != nil {
		h.t.Fatalf("/%s: no reply: %v", name, err)
	}
	return ix, readable(m)
}

// opt is a shorthand for a command option.
func opt(name string, value any) discordtest.Option {
	return discordtest.Option{Name: name, Value: value}
}

// click clicks a component as a user and waits for the reply.
func (h *harness) click(user, messageID, customID string, values ...string) discordtest.Message {
	h.t.Helper()
	if len(values) > 0 {
		return h.reply(customID)(h.srv.SelectValues(user, messageID, customID, values...))
	}
	return h.reply(customID)(h.srv.ClickButton(user, messageID, customID))
}

// clickSeen clicks a component of an earlier snapshot of a message.
func (h *harness) clickSeen(user string, seen discordtest.Message, customID string, values ...string) discordtest.Message {
	h.t.Helper()
	return h.reply(customID)(h.srv.ClickSeen(user, seen, customID, values...))
}

// reply returns a function that waits for the reply to the interaction a
// click on customID started, failing the test if it could not start or
// got no reply.
func (h *harness) reply(customID string) func(*discordtest.Interaction, error) discordtest.Message {
	return func(ix *discordtest.Interaction, err error) discordtest.Message {
		h.t.Helper()
		if err != nil {
			h.t.Fatalf("click %s: %v", customID, err)
		}
		m, err := ix.Reply(h.ctx())
		if err != nil {
			h.t.Fatalf("click %s: no reply: %v", customID, err)
		}
		return readable(m)
	}
}

// game loads a game from the store the bots run on.
func (h *harness) game(id storage.GameID) *storage.Game {
	h.t.Helper()
	g, err := h.db().Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g
}

// latestGame returns the newest open game of a user.
func (h *harness) latestGame(user string) *storage.Game {
	h.t.Helper()
	games, err := h.db().ActiveGames(context.Background(), storage.User(user))
	if err != nil || len(games) == 0 {
		h.t.Fatalf("no open game of %s (%v)", user, err)
	}
	return games[len(games)-1]
}

// waitGame waits until a game satisfies cond.
func (h *harness) waitGame(id storage.GameID, what string, cond func(*storage.Game) bool) *storage.Game {
	h.t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for {
		g := h.game(id)
		if cond(g) {
			return g
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("game %s: timed out waiting for %s; it is %+v\nlogs:\n%s", id, what, g, h.logs.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// board returns the message showing a game now.
func (h *harness) board(id storage.GameID) discordtest.Message {
	h.t.Helper()
	g := h.game(id)
	m, ok := h.srv.Message(g.MessageID)
	if !ok {
		h.t.Fatalf("game %s: no board message %q", id, g.MessageID)
	}
	return readable(m)
}

// waitBoard waits until the board of a game satisfies cond. The harness's
// accessors (command, click, board, waitBoard) return messages through
// readable, so a test reads a board's text the same way whatever its
// layout.
func (h *harness) waitBoard(id storage.GameID, what string, cond func(discordtest.Message) bool) discordtest.Message {
	h.t.Helper()
	m, err := h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool {
		g, err := h.db().Game(context.Background(), id)
		return err == nil && m.ID == g.MessageID && cond(readable(m))
	})
	if err != nil {
		h.t.Fatalf("board of %s: timed out waiting for %s: %v", id, what, err)
	}
	return readable(m)
}

// components lists every component of a message, depth first.
func components(m discordtest.Message) []discordtest.Component {
	var out []discordtest.Component
	var walk func([]discordtest.Component)
	walk = func(cs []discordtest.Component) {
		for _, c := range cs {
			out = append(out, c)
			walk(c.Components)
		}
	}
	walk(m.Components)
	return out
}

// find returns the custom ID of the first component matching a pattern
// whose parameters include want.
func find(m discordtest.Message, p customid.Pattern, want map[string]string) (string, bool) {
	for _, c := range components(m) {
		params, ok := p.Match(c.CustomID)
		if !ok || c.Disabled {
			continue
		}
		match := true
		for k, v := range want {
			match = match && params[k] == v
		}
		if match {
			return c.CustomID, true
		}
	}
	return "", false
}

// moveControl returns how to play a cell on a board: the custom ID of its
// button, or of the select offering it (then value is the cell).
func moveControl(m discordtest.Message, cell string) (customID string, value string, ok bool) {
	if id, ok := find(m, customid.Move, map[string]string{"cell": cell}); ok {
		return id, "", true
	}
	for _, c := range components(m) {
		if _, ok := customid.Pick.Match(c.CustomID); !ok {
			continue
		}
		for _, o := range c.Options {
			if o.Value == cell {
				return c.CustomID, cell, true
			}
		}
	}
	return "", "", false
}

// move plays a cell on a game's board as a user and returns the reply:
// by its button or menu option on the board, else in two clicks, its
// column under the board and then the cell on the picker.
func (h *harness) move(user string, id storage.GameID, cell string) discordtest.Message {
	h.t.Helper()
	b := h.board(id)
	cid, value, ok := moveControl(b, cell)
	if file, byColumn := find(b, customid.File, map[string]string{"file": cell[:1]}); !ok && byColumn {
		picker := h.click(user, b.ID, file)
		if rank, ok := find(picker, customid.Cell, map[string]string{"cell": cell}); ok {
			// The picker's answer comes first; the board is edited
			// after it: wait for the edit, as a click on the board would.
			before := len(h.game(id).Moves)
			r := h.click(user, picker.ID, rank)
			if len(h.game(id).Moves) > before {
				h.waitBoard(id, "the move "+cell+" on the board", func(m discordtest.Message) bool { return m.Version > b.Version })
			}
			return r
		}
		h.t.Fatalf("game %s: no button for %s on the picker of its column: %q %+v", id, cell, picker.Content, picker.Components)
	}
	if !ok {
		h.t.Fatalf("game %s: no control for %s on the board; components %+v", id, cell, b.Components)
	}
	if value != "" {
		return h.click(user, b.ID, cid, value)
	}
	return h.click(user, b.ID, cid)
}
