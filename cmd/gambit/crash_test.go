package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
)

// The bot crash drill kills the real `gambit bot` process a few times by
// default (and under -short); run the long drill with
//
//	go test ./cmd/gambit -run CrashDrill -botcrash.kills=100 -timeout 60m
//
// (the package comes before the flag: go test stops reading packages at
// the first flag it does not know).
var botCrashKills = flag.Int("botcrash.kills", 3, "number of SIGKILLs in the bot crash drill (TestBotCrashDrill)")

// pgCrashKills is the number of SIGKILLs of the two-process drill on
// PostgreSQL. Under -short it makes at most three, which still take each
// process at least once and cover every kind of kill (burst's modes: at
// a random time, just after a click, during an AI search); run all of
// them with
//
//	go test ./cmd/gambit -run TestServeCrashDrillOnPostgres -pgcrash.kills=4
var pgCrashKills = flag.Int("pgcrash.kills", 4, "number of SIGKILLs in the two-process drill on PostgreSQL (TestServeCrashDrillOnPostgres); at most 3 under -short")

const (
	crashUsers     = 6                       // simulated members playing at once
	crashMaxOpen   = 4                       // open games a member keeps going
	crashReplyWait = 5 * time.Second         // how long a member waits for the answer to a click (see reply)
	crashMaxDelay  = 1500 * time.Millisecond // the kill comes up to this long into a burst
	crashMoveTime  = "300ms"                 // GAMBIT_MOVE_TIME: AI searches are short and often in flight
)

// crashKillModes are the moments a drill's kills come at, in turn (see
// burst): at a random time, just after a click or command reached the
// bot, and while an AI turn is queued or searching. Under -short a drill
// makes one kill of each.
var crashKillModes = []string{"random", "click", "search"}

// crashSpec is a kind of game the members start.
type crashSpec struct {
	kind     storage.Kind
	ai       string  // "" for a challenge to another member
	moveTime float64 // AI seconds per move, 0 for GAMBIT_MOVE_TIME
	rounds   int     // Adjacency rounds
}

var crashSpecs = []crashSpec{
	{kind: storage.Kind("tictactoe")},
	{kind: storage.Kind("tictactoe")},
	{kind: storage.Kind("tictactoe")},
	{kind: storage.Kind("connect4")},
	{kind: storage.Kind("connect4")},
	{kind: storage.Kind("connect4")},
	{kind: storage.Kind("tictactoe"), ai: "minimax"},
	{kind: storage.Kind("tictactoe"), ai: "random"},
	{kind: storage.Kind("connect4"), ai: "minimax", moveTime: 0.4},
	{kind: storage.Kind("connect4"), ai: "greedy"},
	{kind: storage.Kind("adjacency"), ai: "minimax", moveTime: 0.5, rounds: 28},
	{kind: storage.Kind("adjacency"), ai: "greedy", rounds: 28},
	{kind: storage.Kind("adjacency"), ai: "random", moveTime: 0.2, rounds: 28},
}

// TestBotCrashDrill runs the real `gambit bot` process against the Discord
// stand-in while simulated members play many games at once, against each
// other and against AIs, and kills it with SIGKILL at random moments: at a
// random time, right after a click or command was delivered (so between
// the click and its reply, often inside the commit), or while an AI search
// is queued or running. After every kill it opens the database read-only
// and checks that
//
//   - bbolt's consistency check and the store's invariants pass;
//   - every move that a member saw on a board — the reply to their click,
//     or the AI's move edited in — is stored at that place: no move
//     acknowledged to anyone is lost, none is doubled;
//   - every stored game replays legally to its stored position, with the
//     turn alternating from the first mover (a doubled move breaks it);
//   - no game is duplicated: one game per acknowledged /play, no more games
//     than /play commands, no two games on one board message;
//
// then restarts the process and checks that every game whose AI turn was
// pending at the kill gets its AI move on its board, that every board a
// kill left behind its stored game is redrawn by the bot at start, and
// that every open game the kill left without a board message (between
// showing a new board and saving its ID, or before its reply) gets its
// board posted at start.
func TestBotCrashDrill(t *testing.T) {
	t.Parallel()
	kills := *botCrashKills
	if testing.Short() {
		kills = min(kills, len(crashKillModes))
	}
	runCrashDrill(t, crashSetup{command: "bot", processes: 1}, kills)
}

// TestServeCrashDrillOnPostgres is the drill of several machines: two
// `gambit serve` processes on one PostgreSQL database, the stand-in
// delivering interactions over HTTP to both in turn (and to the other when
// one refuses the connection, as a load balancer does). Each kill takes
// one of them, in turn, with SIGKILL while members play on both; the
// members play on with the survivor, which must take the traffic and play
// every AI turn pending at the kill — the dead process's too, once its
// claims run out (GAMBIT_CLAIM_TTL) — before the checks of the bbolt drill
// run on the database and the killed process restarts. The survivor keeps
// running throughout. Without a server (GAMBIT_TEST_DATABASE_URL) it
// skips, except in CI.
func TestServeCrashDrillOnPostgres(t *testing.T) {
	t.Parallel() // its processes mostly wait (claims, River's rescuer): beside the package's other tests
	url := pgtest.URL(t)
	kills := *pgCrashKills
	if testing.Short() {
		kills = min(kills, len(crashKillModes))
	}
	// A killed process's AI turns wait GAMBIT_CLAIM_TTL for another.
	runCrashDrill(t, crashSetup{command: "serve", processes: 2, dbURL: url, env: []string{"GAMBIT_CLAIM_TTL=2s"}}, kills)
}

// crashSetup is what a drill runs.
type crashSetup struct {
	command   string   // gambit's subcommand: bot (the gateway) or serve (HTTP interactions)
	processes int      // how many run at once on the one database
	dbURL     string   // a PostgreSQL database; "" for a bbolt file in the test's directory
	env       []string // settings every process gets besides the drill's own
}

// runCrashDrill runs the drill: kills SIGKILLs of the processes of setup,
// each followed by the checks, and a last graceful stop.
func runCrashDrill(t *testing.T, setup crashSetup, kills int) {
	began := time.Now()
	d := newCrashDrill(t, setup)
	var awaiting map[storage.GameID]int   // games awaiting the AI at the last kill → their moves then
	var stale map[storage.GameID]int      // boards behind their games at the last kill → the stored moves
	var unboarded map[storage.GameID]bool // open games with a person to move and no board message at the last kill
	for round := range kills {
		restarted := time.Now()
		d.start()
		if round > 0 {
			d.answered(awaiting, stale, unboarded, restarted)
		}
		d.burst(round)
		awaiting, stale, unboarded = d.afterKill(fmt.Sprintf("kill %d", round+1), awaiting)
	}
	// A last start answers the AI turns of the last kill; a graceful stop
	// then leaves a database that must hold all of it.
	restarted := time.Now()
	d.start()
	d.answered(awaiting, stale, unboarded, restarted)
	d.windUp("the final stop", awaiting, kills, began)
}

// afterKill checks the database after a kill (verify, given the games
// that awaited the AI at the kill before) and ends the test if a check
// failed; it returns what the kill left for the processes to answer.
func (d *crashDrill) afterKill(label string, prevAwaiting map[storage.GameID]int) (awaiting, stale map[storage.GameID]int, unboarded map[storage.GameID]bool) {
	d.t.Helper()
	awaiting, stale, unboarded = d.verify(label, prevAwaiting)
	d.staleHuman += len(stale)
	if d.t.Failed() {
		d.dumpLogs()
		d.t.FailNow()
	}
	return awaiting, stale, unboarded
}

// answered waits until the running processes have answered what a kill
// left: the AI turns awaiting, the boards behind their games, and the
// games without a board message (posted since since).
func (d *crashDrill) answered(awaiting, stale map[storage.GameID]int, unboarded map[storage.GameID]bool, since time.Time) {
	d.t.Helper()
	d.awaitResumed(awaiting)
	d.awaitRedrawn(stale)
	d.awaitPosted(unboarded, since)
}

// windUp stops every process gracefully, checks that the database holds
// everything and every board shows it, and reports the drill's figures.
func (d *crashDrill) windUp(label string, awaiting map[storage.GameID]int, kills int, began time.Time) {
	d.t.Helper()
	d.stopAll()
	_, stale, unboarded := d.verify(label, awaiting)
	if len(unboarded) > 0 {
		d.t.Errorf("games %v have no board message after a graceful stop", unboarded)
	}
	if len(stale) > 0 {
		d.t.Errorf("boards of %v are behind their games after a graceful stop", stale)
	}
	if d.t.Failed() {
		d.dumpLogs()
	}
	d.finish(kills, time.Since(began))
}

// crashDrill is the state of one drill: the stand-in, the database, the
// members and what they were shown.
type crashDrill struct {
	t      testing.TB
	setup  crashSetup
	srv    *discordtest.Server
	db     string
	dir    string
	users  []discordtest.User
	boards *crashBoards

	procs []*crashProc // the processes, nil or ended where none runs
	past  []string     // the logs of the processes that ended

	mu        sync.Mutex
	playsSent map[string]int            // member → /play commands delivered
	playAcked map[storage.GameID]string // game → the member whose /play reply showed it
	ephemeral map[string]int            // ephemeral answers to clicks, by their start
	refusals  map[string]int            // /play refused by a limit, by its start

	inflight atomic.Int64  // interactions delivered whose answer has not come
	clicked  chan struct{} // a click or command was just delivered
	// firstAnswer, if set, is told how long each interaction answered
	// waited for its first answer (the load test's figure).
	firstAnswer func(time.Duration)

	// Figures for the summary.
	clickAcks, playAcks, unanswered  atomic.Int64
	modes                            map[string]int
	inflightAtKills, awaitingAtKills int
	resumed, redrawn, staleHuman     int
	pendingAtKills, takenOver        int // AI turns pending at a kill, and played while the killed process was down
	unboarded, posted                int // open games without a board message at the kills, posted at start
	staleAfterAI                     int // of staleHuman: the AI's move was committed, not shown
	moveChecks, storedGames          int
	orphans                          map[storage.GameID]bool // created, never shown
}

// crashProc is one gambit process of a drill.
type crashProc struct {
	cmd      *exec.Cmd
	logs     *crashLogs
	endpoint string // its interactions endpoint (serve)
}

// running reports whether the process runs (has not been waited for).
func (p *crashProc) running() bool { return p != nil && p.cmd.ProcessState == nil }

func newCrashDrill(t testing.TB, setup crashSetup, opts ...discordtest.ServerOption) *crashDrill {
	srv := discordtest.New(opts...)
	t.Cleanup(srv.Close)
	d := &crashDrill{
		t: t, setup: setup, srv: srv, procs: make([]*crashProc, setup.processes), db: filepath.Join(t.TempDir(), "gambit.db"), dir: t.TempDir(),
		boards:    newCrashBoards(),
		playsSent: map[string]int{}, playAcked: map[storage.GameID]string{}, ephemeral: map[string]int{}, refusals: map[string]int{},
		clicked: make(chan struct{}, 1), modes: map[string]int{}, orphans: map[storage.GameID]bool{},
	}
	for i := range crashUsers {
		d.users = append(d.users, srv.AddUser(fmt.Sprintf("member%d", i+1)))
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := srv.Subscribe(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range events {
			d.boards.observe(e.Message.Readable())
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		for _, p := range d.procs {
			if p.running() {
				_ = p.cmd.Process.Kill()
				_ = p.cmd.Wait()
			}
		}
	})
	return d
}

// start runs every process that is not running and waits until each
// serves; with HTTP interactions it then points the stand-in at all of
// their endpoints.
func (d *crashDrill) start() {
	d.t.Helper()
	for i, p := range d.procs {
		if !p.running() {
			d.procs[i] = d.run(d.exe(i))
		}
	}
	if d.setup.command != "serve" {
		return
	}
	var urls []string
	for _, p := range d.procs {
		urls = append(urls, p.endpoint)
	}
	ctx, cancel := discordtest.UntilTestDeadline(d.t, context.Background())
	defer cancel()
	if err := d.srv.DeliverOverHTTP(ctx, urls...); err != nil {
		d.t.Fatal(err)
	}
}

var crashEndpoint = regexp.MustCompile(`msg="interactions endpoint" addr=(\S+) path=(\S+)`)

// exe is the executable of the drill's process i: the test binary for the
// first, which keeps the race detector of go test -race and is checked
// for data races (finish), and gambit built without it for the others,
// whose CPU would otherwise mostly go to the race detector (plainGambit).
func (d *crashDrill) exe(i int) string {
	if i == 0 {
		return os.Args[0]
	}
	return plainGambit(d.t)
}

// run starts one process of exe with the drill's settings and waits until
// it serves.
func (d *crashDrill) run(exe string) *crashProc {
	d.t.Helper()
	env := []string{"GAMBIT_MOVE_TIME=" + crashMoveTime, "GAMBIT_CHALLENGE_TTL=1h", "GAMBIT_LOG_LEVEL=debug"}
	if d.setup.dbURL != "" {
		env = append(env, envDatabaseURL+"="+d.setup.dbURL)
	} else {
		env = append(env, "GAMBIT_DB="+d.db)
	}
	return startServing(d.t, d.srv, exe, d.setup.command, d.dir, append(env, d.setup.env...)...)
}

// startServing runs `gambit command` (bot, serve or worker) as exe (the
// test binary, os.Args[0], or plainGambit) in dir against the stand-in srv with the settings env (and none of the test's own GAMBIT_
// or DISCORD_ variables) and waits until it serves; the test ends it if it
// still runs then. A serve process's endpoint is learnt from its log.
func startServing(tb testing.TB, srv *discordtest.Server, exe, command, dir string, env ...string) *crashProc {
	tb.Helper()
	cmd := exec.Command(exe, command)
	cmd.Env = append(crashEnviron(), runMainEnv+"=1", "DISCORD_TOKEN="+srv.Token(), "DISCORD_API_URL="+srv.URL())
	if command == "serve" {
		cmd.Env = append(cmd.Env, "DISCORD_PUBLIC_KEY="+hex.EncodeToString(srv.PublicKey()), "GAMBIT_SERVE_ADDR=127.0.0.1:0")
	}
	cmd.Env = quietRaceExit(append(cmd.Env, env...))
	cmd.Dir = dir // no .env there
	p := &crashProc{cmd: cmd, logs: newCrashLogs()}
	cmd.Stderr = p.logs
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if p.running() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	ready := "bot running"
	if command == "worker" {
		ready = "AI worker running"
	}
	if !p.logs.waitFor(tb, ready) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		tb.Fatalf("gambit %s did not come up; its output:\n%s", command, p.logs)
	}
	if command == "serve" {
		m := crashEndpoint.FindStringSubmatch(p.logs.String())
		if m == nil {
			tb.Fatalf("gambit serve did not name its endpoint; its output:\n%s", p.logs)
		}
		p.endpoint = "http://" + m[1] + m[2]
	}
	return p
}

// crashEnviron is the test's environment without settings of Gambit or
// Discord that would change the drill.
func crashEnviron() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GAMBIT_") && !strings.HasPrefix(kv, "DISCORD_") {
			env = append(env, kv)
		}
	}
	return env
}

// kill ends process i with SIGKILL.
func (d *crashDrill) kill(i int) {
	d.t.Helper()
	p := d.procs[i]
	d.boards.killing()
	_ = p.cmd.Process.Kill() // if it fails, the process ended by itself: Wait says how
	err := p.cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		d.t.Errorf("gambit %s ended with %v before the SIGKILL; output:\n%s", d.setup.command, err, p.logs)
	}
	d.past = append(d.past, p.logs.String())
}

// stopAll ends every running process with SIGTERM, as in production.
func (d *crashDrill) stopAll() {
	d.t.Helper()
	for _, p := range d.procs {
		if !p.running() {
			continue
		}
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			d.t.Fatal(err)
		}
		if !p.logs.waitFor(d.t, "bot stopped") {
			d.t.Errorf("gambit %s did not stop after SIGTERM", d.setup.command)
			_ = p.cmd.Process.Kill()
		}
		if err := p.cmd.Wait(); err != nil {
			d.t.Errorf("gambit %s after SIGTERM: %v", d.setup.command, err)
		}
		d.past = append(d.past, p.logs.String())
	}
}

// burst lets the members play until the kill, which comes at a random
// moment chosen by the round's mode.
func (d *crashDrill) burst(round int) {
	d.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for _, u := range d.users {
		wg.Go(func() { d.member(ctx, u) })
	}

	mode := crashKillModes[round%len(crashKillModes)]
	delay := rand.N(crashMaxDelay)
	if round == 0 {
		delay += time.Second // let the first games start
	}
	time.Sleep(delay)
	switch mode {
	case "click": // just after a click or command reached the bot
		select {
		case <-d.clicked: // an old one
		default:
		}
		select {
		case <-d.clicked:
			time.Sleep(rand.N(3 * time.Millisecond))
		case <-time.After(2 * time.Second):
			mode += " (none came)"
		}
	case "search": // while an AI turn is queued or searching
		wait, stopWait := context.WithTimeout(ctx, 2*time.Second)
		if d.boards.until(wait, d.boards.anyThinking) {
			time.Sleep(rand.N(200 * time.Millisecond))
		} else {
			mode += " (none came)"
		}
		stopWait()
	}
	d.inflightAtKills += int(d.inflight.Load())
	d.modes[mode]++
	d.kill(round % len(d.procs))
	if len(d.procs) > 1 {
		d.takeover()
	}
	cancel()
	wg.Wait()
}

// takeover, while the members play on with the processes that survived a
// kill, waits until every AI turn pending at the kill shows on a board:
// the survivors must play the killed process's turns too, once its claims
// have run out. That wait is a lease by design (bot's sweepAI): a turn
// stays with the killed process until its claim expires
// (GAMBIT_CLAIM_TTL) and it has not changed for as long, then the
// survivor's next tick queues it behind the survivor's own turns, each a
// search of up to a few hundred milliseconds; all of it runs on the
// processes' clocks, so on a loaded machine it takes longer, and the test
// waits for it until its own deadline (discordtest.UntilTestDeadline).
func (d *crashDrill) takeover() {
	d.t.Helper()
	ctx, cancel := discordtest.UntilTestDeadline(d.t, context.Background())
	defer cancel()
	s := d.open(ctx, "the takeover")
	defer d.close(s)
	pending, err := s.AwaitingAI(ctx, storage.Shards{})
	if err != nil {
		d.t.Fatalf("the takeover: %v", err)
	}
	awaiting := map[storage.GameID]int{}
	for _, g := range pending {
		awaiting[g.ID] = len(g.Moves)
	}
	d.pendingAtKills += len(awaiting)
	d.takenOver += d.awaitBoards(awaiting, "it awaited the AI at the kill and no survivor played the AI's move")
}

// open opens the drill's database for reading: a bbolt file only once its
// process ended, PostgreSQL at any time.
func (d *crashDrill) open(ctx context.Context, label string) storage.Admin {
	d.t.Helper()
	s, err := openStore(ctx, d.setup.dbURL, d.db, inspecting, storeRole{})
	if err != nil {
		d.t.Fatalf("%s: open the database to read it: %v", label, err)
	}
	return s
}

func (d *crashDrill) close(s storage.Admin) {
	if err := s.Close(); err != nil {
		d.t.Error(err)
	}
}

// member plays as one simulated member until ctx ends: moves where a
// board asks them to, accepts challenges, and starts games.
func (d *crashDrill) member(ctx context.Context, u discordtest.User) {
	for ctx.Err() == nil {
		if !d.act(ctx, u) {
			wait, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
			d.boards.next(wait)
			cancel()
		}
	}
}

// act does one thing as member u and reports whether there was anything
// to do.
func (d *crashDrill) act(ctx context.Context, u discordtest.User) bool {
	boards := d.boards.of(u.ID)
	rand.Shuffle(len(boards), func(i, j int) { boards[i], boards[j] = boards[j], boards[i] })
	for _, b := range boards {
		if b.status == storage.StatusActive && b.mover == u.ID && !b.thinking && len(b.controls) > 0 {
			d.move(ctx, u, b)
			return true
		}
	}
	for _, b := range boards {
		if b.status == storage.StatusPending && b.challenged == u.ID {
			d.accept(ctx, u, b)
			return true
		}
	}
	open, challenges := 0, 0
	for _, b := range boards {
		open++
		if b.status == storage.StatusPending && b.challenger == u.ID {
			challenges++
		}
	}
	return open < crashMaxOpen && d.play(ctx, u, challenges < 2)
}

// delivered notes an interaction that reached the bot, for the kill modes.
func (d *crashDrill) delivered() {
	select {
	case d.clicked <- struct{}{}:
	default:
	}
}

// reply waits, boundedly, for the answer to an interaction: a member's
// patience, not a bound on a failure. The window that matters is
// Discord's 3 seconds to answer, which the stand-in enforces on its own
// clock from the interaction's creation (the drill keeps it: a late
// answer refused with 10062 is one of the paths the drill checks the bot
// recovers from — the game is kept, its board posted or redrawn). A
// member who waits crashReplyWait from after the delivery has outlasted
// that window however slow the machine, so an answer the stand-in
// accepted is seen; one that never comes (the process was killed, or
// answered too late) is counted as unanswered, never a failure, and the
// board it would have shown is checked through the stand-in's messages.
func (d *crashDrill) reply(ctx context.Context, ix *discordtest.Interaction) (discordtest.Message, error) {
	d.inflight.Add(1)
	defer d.inflight.Add(-1)
	ctx, cancel := context.WithTimeout(ctx, crashReplyWait)
	defer cancel()
	if d.firstAnswer != nil {
		asked := time.Now()
		if _, err := ix.Response(ctx); err == nil {
			d.firstAnswer(time.Since(asked))
		}
	}
	m, err := ix.Reply(ctx)
	m = m.Readable() // a board as a user reads it
	if err != nil {
		d.unanswered.Add(1)
	}
	return m, err
}

// play starts a game with /play: a challenge to another member, if
// challenge, or a game against an AI. It reports false if the bot refused.
func (d *crashDrill) play(ctx context.Context, u discordtest.User, challenge bool) bool {
	spec := crashSpecs[rand.IntN(len(crashSpecs))]
	for !challenge && spec.ai == "" {
		spec = crashSpecs[rand.IntN(len(crashSpecs))]
	}
	opts := []discordtest.Option{{Name: "game", Value: string(spec.kind)}, {Name: "first", Value: []string{"me", "opponent"}[rand.IntN(2)]}}
	if spec.ai == "" {
		others := slices.DeleteFunc(slices.Clone(d.users), func(o discordtest.User) bool { return o.ID == u.ID })
		opts = append(opts, discordtest.Option{Name: "opponent", Value: others[rand.IntN(len(others))].ID})
	} else {
		opts = append(opts, discordtest.Option{Name: "ai", Value: spec.ai})
	}
	if spec.moveTime > 0 {
		opts = append(opts, discordtest.Option{Name: "movetime", Value: spec.moveTime})
	}
	if spec.rounds > 0 {
		opts = append(opts, discordtest.Option{Name: "rounds", Value: spec.rounds})
	}
	ix, err := d.srv.SendCommand(discordtest.SlashCommand{UserID: u.ID, Name: "play", Options: opts})
	if err != nil {
		return true
	}
	d.mu.Lock()
	d.playsSent[u.ID]++
	d.mu.Unlock()
	d.delivered()
	m, err := d.reply(ctx, ix)
	if err != nil {
		return true
	}
	b, ok := parseCrashBoard(m)
	d.mu.Lock()
	defer d.mu.Unlock()
	if m.Ephemeral() && !strings.HasPrefix(m.Content, "Sorry") {
		d.refusals[strings.SplitN(m.Content, ",", 2)[0]]++ // a limit of open games or challenges
		return false
	}
	if !ok {
		d.t.Errorf("/play %v by %s failed: %q", opts, u.ID, m.Content)
		return true
	}
	d.playAcks.Add(1)
	if other, dup := d.playAcked[b.game]; dup {
		d.t.Errorf("two /play replies showed game %s (members %s and %s)", b.game, other, u.ID)
	}
	d.playAcked[b.game] = u.ID
	return true
}

// move plays a random legal move on a board that asks u to move.
func (d *crashDrill) move(ctx context.Context, u discordtest.User, b crashBoard) {
	c := b.controls[rand.IntN(len(b.controls))]
	ix, err := b.press(d.srv, u.ID, c)
	if err != nil {
		return // the board changed meanwhile
	}
	d.delivered()
	m, err := d.reply(ctx, ix)
	if err != nil {
		return // not answered: not acknowledged
	}
	if m.Ephemeral() {
		d.refused(ctx, u, b.game, m.Content)
		return
	}
	// The reply is the board as it is now. It acknowledges the move when
	// it shows it as the last one. A board further on is no proof either
	// way: an AI that answers at once may have moved after it (its update
	// showing this move went by the board tracker, which checks it), or
	// the clicked board was behind its game — a kill since it was drawn
	// left it unedited, one move or more behind — and the bot brought it
	// up to date instead of playing the click.
	r, ok := parseCrashBoard(m)
	behind := d.boards.killedSince(b) && r.ply > b.ply
	shows := ok && r.game == b.game && (r.status == storage.StatusFinished ||
		r.status == storage.StatusActive && (r.ply == b.ply+1 && r.last == c.cell || r.ply > b.ply+1 || behind))
	if !shows {
		d.t.Errorf("game %s: %s played %s at ply %d; the reply does not show it: %v", b.game, u.ID, c.cell, b.ply, r)
		return
	}
	if r.ply == b.ply+1 && r.last == c.cell || r.status == storage.StatusFinished && r.last == c.cell {
		d.boards.ack(b.game, b.ply+1, c.cell)
		d.clickAcks.Add(1)
	}
}

// accept accepts a challenge to u.
func (d *crashDrill) accept(ctx context.Context, u discordtest.User, b crashBoard) {
	ix, err := d.srv.ClickButton(u.ID, b.msg.ID, customid.Accept.Build(string(b.game)))
	if err != nil {
		return
	}
	d.delivered()
	m, err := d.reply(ctx, ix)
	if err == nil && m.Ephemeral() {
		d.refused(ctx, u, b.game, m.Content)
	}
}

// refused handles an ephemeral answer to a click on a board that asked u
// to act: the board is behind the stored game (a kill came between a
// commit and its reply), so u re-posts it as a member would, through
// /games, or gives up on a game that is over.
func (d *crashDrill) refused(ctx context.Context, u discordtest.User, id storage.GameID, text string) {
	d.mu.Lock()
	d.ephemeral[strings.SplitN(text, ":", 2)[0]]++
	d.mu.Unlock()
	if strings.Contains(text, "game is over") || d.boards.reposts(id) >= 2 {
		d.boards.abandon(id)
		return
	}
	if !d.repostAs(ctx, u.ID, id) {
		d.boards.abandon(id)
	}
}

// repostAs re-posts the board of game id as member userID through /games
// and its Re-post button, and reports whether the bot did.
func (d *crashDrill) repostAs(ctx context.Context, userID string, id storage.GameID) bool {
	d.boards.noteRepost(id)
	ix, err := d.srv.SendCommand(discordtest.SlashCommand{UserID: userID, Name: "games"})
	if err != nil {
		return false
	}
	m, err := d.reply(ctx, ix)
	cid := customid.Repost.Build(string(id))
	if _, ok := m.Component(cid); err != nil || !ok {
		d.t.Logf("re-post of %s as %s: /games answered %v %q", id, userID, err, m.Content)
		return false
	}
	if ix, err = d.srv.ClickButton(userID, m.ID, cid); err != nil {
		d.t.Logf("re-post of %s as %s: %v", id, userID, err)
		return false
	}
	m, err = d.reply(ctx, ix)
	if !(err == nil && strings.Contains(m.Content, "posted again")) {
		d.t.Logf("re-post of %s as %s: answered %v %q", id, userID, err, m.Content)
	}
	return err == nil && strings.Contains(m.Content, "posted again")
}

// awaitRedrawn waits until the bot, restarted, has redrawn every board the
// last kill left behind its stored game: the board shows at least the
// stored moves.
func (d *crashDrill) awaitRedrawn(stale map[storage.GameID]int) {
	d.t.Helper()
	shownBefore := make(map[storage.GameID]int, len(stale))
	for id, n := range stale {
		shownBefore[id] = n - 1
	}
	d.redrawn += d.awaitBoards(shownBefore, "its board was behind the stored moves at the kill and was not redrawn")
}

// awaitPosted waits until the bot, restarted at since, has posted a board
// for every game in ids: open with a person to move and no board message
// at the last kill.
func (d *crashDrill) awaitPosted(ids map[storage.GameID]bool, since time.Time) {
	d.t.Helper()
	ctx, cancel := discordtest.UntilTestDeadline(d.t, context.Background())
	defer cancel()
	var missing []storage.GameID
	d.boards.until(ctx, func() bool {
		missing = missing[:0]
		for id := range ids {
			if g := d.boards.games[id]; g == nil || !g.changed.After(since) {
				missing = append(missing, id)
			}
		}
		return len(missing) == 0
	})
	if d.setup.dbURL != "" {
		missing = d.unshown(missing)
	}
	for _, id := range missing {
		d.t.Errorf("game %s had no board message at the kill and none was posted at start before the test's deadline", id)
	}
	d.posted += len(ids) - len(missing)
}

// unshown returns the games of ids whose stored board message is not one
// the members saw showing them. With a survivor running, a game it was
// showing when the checks read the store had no board message yet, and
// has one now, which the restarted process rightly leaves alone.
func (d *crashDrill) unshown(ids []storage.GameID) []storage.GameID {
	d.t.Helper()
	ctx, cancel := discordtest.UntilTestDeadline(d.t, context.Background())
	defer cancel()
	s := d.open(ctx, "boards posted")
	defer d.close(s)
	var out []storage.GameID
	for _, id := range ids {
		g, err := s.Game(ctx, id)
		if err != nil {
			d.t.Fatalf("boards posted: %v", err)
		}
		if shown, ok := d.boards.shownOn(g.MessageID); !ok || shown != id {
			out = append(out, id)
		}
	}
	return out
}

// awaitResumed waits until every game that awaited the AI at the kill
// shows the AI's move on a board.
func (d *crashDrill) awaitResumed(awaiting map[storage.GameID]int) {
	d.t.Helper()
	d.resumed += d.awaitBoards(awaiting, "it awaited the AI at the kill and no board shows the AI's move")
}

// awaitBoards waits until the board of every game in past shows more
// moves than past gives, fails the test for each that does not within
// the test's deadline (saying why with problem), and returns how many did.
func (d *crashDrill) awaitBoards(past map[storage.GameID]int, problem string) int {
	d.t.Helper()
	ctx, cancel := discordtest.UntilTestDeadline(d.t, context.Background())
	defer cancel()
	var missing []storage.GameID
	d.boards.until(ctx, func() bool {
		missing = missing[:0]
		for id, n := range past {
			if !d.boards.beyond(id, n) {
				missing = append(missing, id)
			}
		}
		return len(missing) == 0
	})
	for _, id := range missing {
		d.t.Errorf("game %s (%d moves shown before the restart): %s before the test's deadline; board: %v",
			id, past[id], problem, d.boards.board(id))
	}
	return len(past) - len(missing)
}

// verify checks the database after the process ended and returns the
// games awaiting the AI with their move counts, the open games whose
// board is behind the stored game with a person to move, with their
// stored move counts, and the open games with a person to move and no
// board message.
func (d *crashDrill) verify(label string, prevAwaiting map[storage.GameID]int) (awaiting, stale map[storage.GameID]int, unboarded map[storage.GameID]bool) {
	t := d.t
	t.Helper()
	ctx, cancel := discordtest.UntilTestDeadline(d.t, context.Background())
	defer cancel()
	if !d.boards.sync(ctx, d.srv) {
		t.Fatalf("%s: the board tracker did not catch up with the stand-in", label)
	}
	// What was shown so far, taken before the store is read: a survivor
	// goes on committing and showing moves (an AI's, a click delivered
	// before the members stopped) after the read.
	shown := d.boards.snapshot()
	s := d.open(ctx, label)
	defer d.close(s)
	problems, err := s.Check(ctx)
	if err != nil || len(problems) > 0 {
		t.Errorf("%s: database check: %v\n%s", label, err, strings.Join(problems, "\n"))
	}
	// Every game has a member as its challenger: their open games and
	// history list them all, which must be every game stored. A survivor
	// may store a game meanwhile (a /play delivered before the members
	// stopped): the count is read before and after the lists, and all of
	// it again until no game came between.
	var stats storage.Stats
	var all map[storage.GameID]*storage.Game
	listed := -1
	for {
		var err error
		before := listed
		stats, err = s.Stats(ctx)
		if err != nil {
			t.Fatalf("%s: stats: %v", label, err)
		}
		listed = 0
		for status, n := range stats.Games {
			if status.Open() || status.Ended() {
				listed += n
			}
		}
		if listed == before {
			break
		}
		all = map[storage.GameID]*storage.Game{}
		for _, u := range d.users {
			open, err := s.ActiveGames(ctx, storage.User(u.ID))
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			ended, err := s.History(ctx, storage.User(u.ID), 0)
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			for _, g := range append(open, ended...) {
				all[g.ID] = g
			}
		}
	}
	if stats.Corrupt > 0 {
		t.Errorf("%s: %d corrupt game records", label, stats.Corrupt)
	}
	for status, n := range stats.Games {
		if !status.Open() && !status.Ended() {
			t.Errorf("%s: %d games %s; the drill ends games only by playing them out", label, n, status)
		}
	}
	if len(all) != listed {
		t.Errorf("%s: the open-games and history indexes list %d games, the database holds %d (%v)", label, len(all), listed, stats.Games)
	}

	onMessage := map[string]storage.GameID{}
	created := map[string]int{}
	for _, g := range all {
		if err := crashReplay(g); err != nil {
			t.Errorf("%s: game %s (%s, %v): %v; moves %v", label, g.ID, g.Kind, g.Players, err, g.Moves)
		}
		if g.MessageID != "" {
			if other, dup := onMessage[g.MessageID]; dup {
				t.Errorf("%s: games %s and %s share board message %s", label, other, g.ID, g.MessageID)
			}
			onMessage[g.MessageID] = g.ID
			if shown, ok := d.boards.shownOn(g.MessageID); ok && shown != g.ID {
				t.Errorf("%s: game %s has board message %s, which shows game %s", label, g.ID, g.MessageID, shown)
			}
		}
		if id, ok := g.Players[0].ID.UserID(); ok {
			created[id]++
		}
	}
	d.mu.Lock()
	for _, u := range d.users {
		if created[u.ID] > d.playsSent[u.ID] {
			t.Errorf("%s: %s sent %d /play commands and challenges in %d games", label, u.ID, d.playsSent[u.ID], created[u.ID])
		}
	}
	for id, u := range d.playAcked {
		if g, ok := all[id]; !ok || g.Players[0].ID != storage.User(u) {
			t.Errorf("%s: game %s, shown to %s as the reply to /play, is not stored as theirs (%v)", label, id, u, g)
		}
	}
	d.mu.Unlock()

	// What the members were shown is stored, at its place.
	checks, lost := shown.compare(all)
	d.moveChecks += checks
	d.storedGames = len(all)
	for _, l := range lost {
		t.Errorf("%s: %s", label, l)
	}
	for id, n := range prevAwaiting {
		if g := all[id]; g == nil || len(g.Moves) <= n && !g.Status.Ended() {
			t.Errorf("%s: game %s awaited the AI with %d moves at the previous kill and still has %v", label, id, n, g)
		}
	}

	pending, err := s.AwaitingAI(ctx, storage.Shards{})
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	awaiting = map[storage.GameID]int{}
	for _, g := range pending {
		awaiting[g.ID] = len(g.Moves)
	}
	d.awaitingAtKills += len(awaiting)
	stale, unboarded = map[storage.GameID]int{}, map[storage.GameID]bool{}
	for _, g := range all {
		if g.Status.Open() && !g.AwaitingAI() && g.MessageID == "" {
			unboarded[g.ID] = true
		}
		switch st := d.boards.state(g.ID); {
		case !g.Status.Open():
			if st.known && st.status != storage.StatusFinished {
				d.boards.abandon(g.ID) // its last move was committed, not shown
			}
		case !st.known:
			d.orphans[g.ID] = true // created, its /play reply never sent: its board is posted at start, or with the AI's move
		case g.Status == storage.StatusActive && !g.AwaitingAI() &&
			(st.status != storage.StatusActive || st.ply != len(g.Moves)):
			stale[g.ID] = len(g.Moves)
			if len(g.Moves) > 0 && !g.Solo() && g.Players[1-g.Turn].ID.IsAI() {
				d.staleAfterAI++ // the last move, the AI's, was committed and not edited in
			}
		}
	}
	d.unboarded += len(unboarded)
	t.Logf("%s: %d games (%v), %d awaiting the AI, %d boards behind with a person to move, %d open without a board message; %d moves shown to members checked",
		label, len(all), stats.Games, len(awaiting), len(stale), len(unboarded), checks)
	return awaiting, stale, unboarded
}

// crashReplay replays a stored game from the start: every move must be
// legal, the position must be the stored one, the game must be over
// exactly when the position is, and in a duel the turn must alternate
// from the first mover — a move stored twice breaks one of these. A
// puzzle replays from the start it was dealt.
func crashReplay(g *storage.Game) error {
	gm, err := catalog.Lookup(string(g.Kind))
	if err != nil {
		return err
	}
	var setup games.Options
	if gm.Setup.Any() {
		setup = games.Options{Rounds: g.Settings.Rounds, First: engine.X}
	}
	pos, err := gm.Position(g.Start, setup) // a puzzle's dealt start, or the game's own
	if err != nil {
		return err
	}
	for i, text := range g.Moves {
		if pos.Terminal() {
			return fmt.Errorf("move %d %q after the end of the game", i+1, text)
		}
		mv, err := pos.ParseMove(text)
		if err != nil || !pos.Legal(mv) {
			return fmt.Errorf("move %d %q is illegal there (%v)", i+1, text, err)
		}
		pos.Play(mv)
	}
	if g.Status == storage.StatusPending {
		if len(g.Moves) > 0 {
			return errors.New("a pending challenge has moves")
		}
		return nil
	}
	if pos.String() != g.Position {
		return fmt.Errorf("the moves lead to %q, the stored position is %q", pos.String(), g.Position)
	}
	if pos.Terminal() != g.Status.Ended() {
		return fmt.Errorf("status %s, but the position is terminal: %v", g.Status, pos.Terminal())
	}
	first := 0
	if g.Settings.First == "opponent" {
		first = 1
	}
	if !g.Solo() && g.Turn != (first+len(g.Moves))%2 {
		return fmt.Errorf("turn %d after %d moves, the first mover being seat %d", g.Turn, len(g.Moves), first)
	}
	return nil
}

// finish checks the whole run and logs its figures.
func (d *crashDrill) finish(kills int, took time.Duration) {
	t := d.t
	d.srv.AssertNoViolations(t)
	var errorLines []string
	for _, logs := range d.past {
		if strings.Contains(logs, d.srv.Token()) {
			t.Error("the bot token appears in the logs")
		}
		if strings.Contains(logs, "DATA RACE") || strings.Contains(logs, "panic") {
			t.Errorf("a bot process raced or panicked:\n%s", logs)
		}
		for line := range strings.Lines(logs) {
			if strings.Contains(line, "level=ERROR") {
				errorLines = append(errorLines, strings.TrimSpace(line))
			}
		}
	}
	if conflicts := d.boards.conflicts(); len(conflicts) > 0 {
		t.Errorf("boards contradicted each other:\n%s", strings.Join(conflicts, "\n"))
	}
	if len(errorLines) > 0 {
		t.Logf("%d error lines in the bot's logs, the first:\n%s", len(errorLines), strings.Join(errorLines[:min(len(errorLines), 10)], "\n"))
	}
	d.mu.Lock()
	sent := 0
	for _, n := range d.playsSent {
		sent += n
	}
	t.Logf("ephemeral answers to clicks on boards a kill left behind: %v; /play refused by a limit: %v", d.ephemeral, d.refusals)
	d.mu.Unlock()
	withMoves, shown := d.boards.totals()
	t.Logf("crash drill: %d SIGKILLs %v in %v", kills, d.modes, took.Round(time.Millisecond))
	t.Logf("  games: %d stored at the end, %d /play sent, %d replied; %d created but never shown (their reply lost to a kill)",
		d.storedGames, sent, d.playAcks.Load(), len(d.orphans))
	t.Logf("  moves: %d acknowledged by click replies, %d shown on boards (human and AI) in %d games; %d checks of a shown move against the database after the kills; lost or doubled: %v",
		d.clickAcks.Load(), shown, withMoves, d.moveChecks, map[bool]string{false: "none", true: "see the errors"}[t.Failed()])
	t.Logf("  AI turns pending at the kills: %d, played by the survivors while the killed process was down: %d; pending at the checks after the kills: %d, played after the restart: %d",
		d.pendingAtKills, d.takenOver, d.awaitingAtKills, d.resumed)
	t.Logf("  interactions awaiting their answer at the kills: %d (never answered: %d)", d.inflightAtKills, d.unanswered.Load())
	t.Logf("  boards a kill left behind their game with a person to move: %d (%d after the AI's move, %d after a member's click), redrawn by the bot at start: %d",
		d.staleHuman, d.staleAfterAI, d.staleHuman-d.staleAfterAI, d.redrawn)
	t.Logf("  open games a kill left without a board message (a person to move): %d, posted by the bot at start: %d", d.unboarded, d.posted)
}

// dumpLogs logs the output of the processes so far, after a failure.
func (d *crashDrill) dumpLogs() {
	all := slices.Clone(d.past)
	for _, p := range d.procs {
		if p.running() {
			all = append(all, p.logs.String())
		}
	}
	for i, logs := range all {
		lines := strings.Split(strings.TrimSpace(logs), "\n")
		d.t.Logf("process %d, last lines:\n%s", i+1, strings.Join(lines[max(len(lines)-40, 0):], "\n"))
	}
}

// crashLogs collects a process's stderr; unlike a Scanner it takes lines of
// any length, so the process never blocks on a full pipe.
type crashLogs struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{}
}

func newCrashLogs() *crashLogs { return &crashLogs{changed: make(chan struct{})} }

func (l *crashLogs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Write(p)
	close(l.changed)
	l.changed = make(chan struct{})
	return len(p), nil
}

func (l *crashLogs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor waits until the output contains text, or reports false if it
// does not before tb's deadline (discordtest.UntilTestDeadline).
func (l *crashLogs) waitFor(tb testing.TB, text string) bool {
	tb.Helper()
	ctx, cancel := discordtest.UntilTestDeadline(tb, context.Background())
	defer cancel()
	for {
		l.mu.Lock()
		found, changed := strings.Contains(l.b.String(), text), l.changed
		l.mu.Unlock()
		if found {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}

var _ io.Writer = (*crashLogs)(nil)

// press has user work control c of board b: picks its value from a
// select, or clicks its button.
func (b crashBoard) press(srv *discordtest.Server, user string, c crashControl) (*discordtest.Interaction, error) {
	if c.value != "" {
		return srv.SelectValues(user, b.msg.ID, c.customID, c.value)
	}
	return srv.ClickButton(user, b.msg.ID, c.customID)
}

// crashBoard is what a message shows of a game, read as a member reads it.
type crashBoard struct {
	msg        discordtest.Message
	game       storage.GameID
	status     storage.Status // StatusPending, StatusActive, StatusFinished for any end, "" if unclear
	ply        int            // moves played, on an active board
	last       string         // the last move, as "Last move" names it
	mover      string         // the member asked to move
	challenged string         // the member challenged, on a pending board
	challenger string         // the member challenging, on a pending board
	thinking   bool           // an AI turn is queued or searching
	users      []string       // the members named
	controls   []crashControl // the enabled move controls
	kills      int            // the SIGKILLs before it was seen (crashBoards.killing)
}

func (b crashBoard) String() string {
	return fmt.Sprintf("{message %s game %s %s ply %d last %q mover %q thinking %v: %q}",
		b.msg.ID, b.game, b.status, b.ply, b.last, b.mover, b.thinking, b.msg.Content)
}

// crashControl is one way to play a move: a button, or a select's option.
type crashControl struct {
	customID, value, cell string
}

var (
	crashFooter     = regexp.MustCompile(`^Game ID (\S+)`)
	crashLast       = regexp.MustCompile(`Last move: [^\n]*?\*\*([^*\n]+)\*\*`)
	crashMover      = regexp.MustCompile(`^<@(\d+)>, your move`)
	crashChallenged = regexp.MustCompile(`^<@(\d+)>, <@(\d+)> challenges you`)
	crashMention    = regexp.MustCompile(`<@(\d+)>`)
)

// parseCrashBoard reads a game's board; ok is false for other messages.
func parseCrashBoard(m discordtest.Message) (b crashBoard, ok bool) {
	if m.Ephemeral() || len(m.Embeds) == 0 || m.Embeds[0].Footer == nil {
		return b, false
	}
	id := crashFooter.FindStringSubmatch(m.Embeds[0].Footer.Text)
	if id == nil {
		return b, false
	}
	b = crashBoard{msg: m, game: storage.GameID(id[1]), ply: -1}
	var walk func([]discordtest.Component)
	walk = func(cs []discordtest.Component) {
		for _, c := range cs {
			if p, ok := customid.Move.Match(c.CustomID); ok {
				b.ply, _ = strconv.Atoi(p["ply"])
				if !c.Disabled {
					b.controls = append(b.controls, crashControl{customID: c.CustomID, cell: p["cell"]})
				}
			} else if p, ok := customid.Pick.Match(c.CustomID); ok {
				b.ply, _ = strconv.Atoi(p["ply"])
				for _, o := range c.Options {
					b.controls = append(b.controls, crashControl{customID: c.CustomID, value: o.Value, cell: o.Value})
				}
			} else if p, ok := customid.Resign.Match(c.CustomID); ok {
				b.ply, _ = strconv.Atoi(p["ply"])
			} else if _, ok := customid.Accept.Match(c.CustomID); ok {
				b.status = storage.StatusPending
			} else if _, ok := customid.Rematch.Match(c.CustomID); ok {
				b.status = storage.StatusFinished
			}
			walk(c.Components)
			if c.Accessory != nil {
				walk([]discordtest.Component{*c.Accessory})
			}
		}
	}
	walk(m.Components)
	desc := m.Embeds[0].Description
	if b.status == "" && b.ply >= 0 {
		b.status = storage.StatusActive
	}
	if b.status == "" && (strings.Contains(desc, "🏆") || strings.Contains(desc, "**Draw**")) {
		b.status = storage.StatusFinished
	}
	if l := crashLast.FindStringSubmatch(desc); l != nil {
		b.last = l[1]
	}
	if mv := crashMover.FindStringSubmatch(m.Content); mv != nil {
		b.mover = mv[1]
	}
	if c := crashChallenged.FindStringSubmatch(m.Content); c != nil && b.status == storage.StatusPending {
		b.challenged, b.challenger = c[1], c[2]
	}
	b.thinking = strings.Contains(desc, "is thinking…") || strings.Contains(desc, "is queued")
	for _, mm := range crashMention.FindAllStringSubmatch(desc+" "+m.Content, -1) {
		if !slices.Contains(b.users, mm[1]) {
			b.users = append(b.users, mm[1])
		}
	}
	return b, true
}

// crashBoards follows every message of the stand-in, as its members see
// them, and keeps for each game its newest board and every move a board
// showed at its place.
type crashBoards struct {
	mu       sync.Mutex
	changed  chan struct{}
	versions map[string]int            // message → newest version seen
	shows    map[string]storage.GameID // board message → its game
	games    map[storage.GameID]*crashGame
	bad      []string // contradictions between boards
	kills    int      // SIGKILLs so far (killing)
}

// crashGame is what members were shown of one game.
type crashGame struct {
	board     crashBoard
	changed   time.Time
	plies     map[int]string // n → the nth move, as a board or a click reply showed it
	endedLast string         // the last move shown on its final board
	abandoned bool           // the members gave up on it
	reposts   int
}

func newCrashBoards() *crashBoards {
	return &crashBoards{
		changed: make(chan struct{}), versions: map[string]int{},
		shows: map[string]storage.GameID{}, games: map[storage.GameID]*crashGame{},
	}
}

// changedLocked wakes the waiters; the caller holds b.mu.
func (b *crashBoards) changedLocked() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// killing counts a SIGKILL about to come: a board seen before it may fall
// behind its game, the process committing a move and dying before it
// showed it.
func (b *crashBoards) killing() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.kills++
}

// killedSince reports whether a SIGKILL came since board was seen.
func (b *crashBoards) killedSince(board crashBoard) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.kills > board.kills
}

// game returns the record of a game, creating it; the caller holds b.mu.
func (b *crashBoards) game(id storage.GameID) *crashGame {
	g := b.games[id]
	if g == nil {
		g = &crashGame{plies: map[int]string{}}
		b.games[id] = g
	}
	return g
}

// observe takes in a message as it now is.
func (b *crashBoards) observe(m discordtest.Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	defer b.changedLocked()
	if v, ok := b.versions[m.ID]; !ok || m.Version > v {
		b.versions[m.ID] = m.Version
	}
	st, ok := parseCrashBoard(m)
	if !ok {
		return
	}
	st.kills = b.kills
	if other, ok := b.shows[m.ID]; ok && other != st.game {
		b.bad = append(b.bad, fmt.Sprintf("message %s showed game %s, then game %s", m.ID, other, st.game))
	}
	b.shows[m.ID] = st.game
	g := b.game(st.game)
	g.board, g.changed = st, time.Now()
	switch {
	case st.status == storage.StatusActive && st.ply > 0 && st.last != "":
		b.recordLocked(st.game, st.ply, st.last)
	case st.status == storage.StatusFinished && st.last != "":
		if g.endedLast != "" && g.endedLast != st.last {
			b.bad = append(b.bad, fmt.Sprintf("game %s: final boards showed last moves %s and %s", st.game, g.endedLast, st.last))
		}
		g.endedLast = st.last
	}
}

// recordLocked records that the nth move of a game was shown as move.
func (b *crashBoards) recordLocked(id storage.GameID, n int, move string) {
	g := b.game(id)
	if old, ok := g.plies[n]; ok && old != move {
		b.bad = append(b.bad, fmt.Sprintf("game %s: move %d was shown as %s and as %s", id, n, old, move))
	}
	g.plies[n] = move
}

// ack records a move acknowledged by the reply to its click.
func (b *crashBoards) ack(id storage.GameID, n int, move string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.recordLocked(id, n, move)
}

// until waits until cond, called under the lock, holds or ctx ends.
func (b *crashBoards) until(ctx context.Context, cond func() bool) bool {
	for {
		b.mu.Lock()
		ok, changed := cond(), b.changed
		b.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}

// next waits for the next change or the end of ctx.
func (b *crashBoards) next(ctx context.Context) {
	b.mu.Lock()
	changed := b.changed
	b.mu.Unlock()
	select {
	case <-changed:
	case <-ctx.Done():
	}
}

// sync waits until every message of the stand-in has been taken in at its
// current version.
func (b *crashBoards) sync(ctx context.Context, srv *discordtest.Server) bool {
	msgs := srv.Messages(srv.ChannelID())
	return b.until(ctx, func() bool {
		for _, m := range msgs {
			if v, ok := b.versions[m.ID]; !ok || v < m.Version {
				return false
			}
		}
		return true
	})
}

// anyThinking reports whether a board shows an AI turn queued or
// searching; call it under the lock (in until).
func (b *crashBoards) anyThinking() bool {
	for _, g := range b.games {
		if g.board.thinking && g.board.status == storage.StatusActive {
			return true
		}
	}
	return false
}

// beyond reports whether a board of game id showed more than n moves, or
// its end; call it under the lock (in until).
func (b *crashBoards) beyond(id storage.GameID, n int) bool {
	g := b.games[id]
	return g != nil && (g.board.status == storage.StatusActive && g.board.ply > n || g.board.status == storage.StatusFinished)
}

// of returns the newest boards of the open games that name member userID
// and that the members still play.
func (b *crashBoards) of(userID string) []crashBoard {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []crashBoard
	for _, g := range b.games {
		if !g.abandoned && g.board.status != storage.StatusFinished && g.board.status != "" &&
			slices.Contains(g.board.users, userID) && time.Since(g.changed) < time.Minute {
			out = append(out, g.board)
		}
	}
	return out
}

// board returns the newest board of a game, for messages.
func (b *crashBoards) board(id storage.GameID) crashBoard {
	b.mu.Lock()
	defer b.mu.Unlock()
	if g := b.games[id]; g != nil {
		return g.board
	}
	return crashBoard{}
}

// crashState is what the newest board of a game shows.
type crashState struct {
	known  bool
	status storage.Status
	ply    int
}

func (b *crashBoards) state(id storage.GameID) crashState {
	b.mu.Lock()
	defer b.mu.Unlock()
	g := b.games[id]
	if g == nil {
		return crashState{}
	}
	return crashState{known: true, status: g.board.status, ply: g.board.ply}
}

func (b *crashBoards) shownOn(messageID string) (storage.GameID, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id, ok := b.shows[messageID]
	return id, ok
}

func (b *crashBoards) abandon(id storage.GameID) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.game(id).abandoned = true
}

func (b *crashBoards) noteRepost(id storage.GameID) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.game(id).reposts++
}

func (b *crashBoards) reposts(id storage.GameID) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.game(id).reposts
}

func (b *crashBoards) conflicts() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.bad)
}

// snapshot returns a copy of what the members were shown so far.
func (b *crashBoards) snapshot() *crashBoards {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := newCrashBoards()
	for id, g := range b.games {
		cg := *g
		cg.plies = maps.Clone(g.plies)
		c.games[id] = &cg
	}
	return c
}

// compare checks the stored games against every move the members were
// shown, and returns how many moves it compared and what is missing.
func (b *crashBoards) compare(all map[storage.GameID]*storage.Game) (checks int, lost []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range slices.Sorted(maps.Keys(b.games)) {
		tg := b.games[id]
		if tg.board.game == "" {
			continue // only abandoned or re-posted, never shown
		}
		g := all[id]
		if g == nil {
			lost = append(lost, fmt.Sprintf("game %s was shown on board %s but is not stored", id, tg.board.msg.ID))
			continue
		}
		for _, n := range slices.Sorted(maps.Keys(tg.plies)) {
			checks++
			switch {
			case n > len(g.Moves):
				lost = append(lost, fmt.Sprintf("game %s: move %d (%s) was acknowledged but the game has %d moves %v", id, n, tg.plies[n], len(g.Moves), g.Moves))
			case g.Moves[n-1] != tg.plies[n]:
				lost = append(lost, fmt.Sprintf("game %s: move %d was acknowledged as %s but is stored as %s (moves %v)", id, n, tg.plies[n], g.Moves[n-1], g.Moves))
			}
		}
		if tg.endedLast != "" {
			checks++
			if !g.Status.Ended() || len(g.Moves) == 0 || g.Moves[len(g.Moves)-1] != tg.endedLast {
				lost = append(lost, fmt.Sprintf("game %s was shown over after %s; it is stored %s with moves %v", id, tg.endedLast, g.Status, g.Moves))
			}
		}
	}
	return checks, lost
}

// totals returns how many games were shown with moves, and how many moves
// were shown.
func (b *crashBoards) totals() (games, moves int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, g := range b.games {
		if len(g.plies) > 0 {
			games++
		}
	}
	return games, b.shownLocked()
}

// shownLocked returns how many moves were shown; call it under the lock
// (in until).
func (b *crashBoards) shownLocked() int {
	moves := 0
	for _, g := range b.games {
		moves += len(g.plies)
	}
	return moves
}
