package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gambitbot/gambit/internal/aiqueue"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
)

// The load test runs loadMinMoves moves of traffic in the test suite,
// which checks its invariants, not its speed; measure the figures with
//
//	go test ./cmd/gambit -run 'TestLoad$' -v -timeout 30m -load.duration 10m
//
// (the package before the flags: go test stops reading packages at the
// first flag it does not know). With GAMBIT_TEST_REDIS_URL set, the
// processes share Discord's rate limits through that Redis.
var (
	loadDuration = flag.Duration("load.duration", 0, "how long the members play at least before the kill drill (TestLoad); 10m for the figures")
	loadMembers  = flag.Int("load.members", 0, "members playing at once (TestLoad); each waits for the answer to one interaction before the next; 0: 12 for the figures (-load.duration 1m or more), the crash drill's 6 otherwise")
	loadRate     = flag.Float64("load.rate", 0, "interactions per second the members aim at together (TestLoad); 0: as many as the processes answer")
)

const (
	loadServes  = 3 // gambit serve processes: the stand-in delivers interactions to them in turn
	loadWorkers = 2 // gambit worker processes: they play every AI turn
	// loadLean is the traffic time from which a run is for the figures:
	// the stand-in skips its checks of request bodies
	// (discordtest.WithoutChecks), which cost as much CPU as the
	// processes under test, and keeps Discord's 3 seconds to answer.
	loadLean = time.Minute
	// loadAfterKill is how many moves the members play on the survivors
	// of the kills, shown on boards, before the checks.
	loadAfterKill = 5
	// loadMinMoves is how many moves the load goes on until the boards
	// show, however short -load.duration: the traffic the test suite's
	// run checks, counted rather than timed so that a slow machine checks
	// as much as a fast one.
	loadMinMoves = 30
)

// TestLoad is the load test and kill drill of several machines on one
// PostgreSQL database (pgtest: GAMBIT_TEST_DATABASE_URL): three `gambit
// serve` processes take the interactions (GAMBIT_AI_TURNS=workers) and
// two `gambit worker` processes play every AI turn, all against one
// stand-in that enforces Discord's rate limits (the global 50 requests
// per second, the invalid-request ban). Members play until the boards
// showed loadMinMoves moves, and on for -load.duration: moves between
// members, games against AIs, puzzles, and challenges that the
// challenged accept. It then logs the figures — interactions per
// second, time to the first answer, AI turns per second, the AI queue's
// wait, REST requests per second against the global limit, 429s by scope
// — and checks that no request went above Discord's global limit (no
// global 429, no ban) and that every move shown to a member is stored
// once (the crash drill's checks, TestBotCrashDrill). Then, members
// playing on, it SIGKILLs one worker while an AI turn is queued or
// searching and one serve process, checks the store against what the
// members were shown, restarts both, waits until every AI turn pending
// at the kill is played and shown, and stops everything gracefully for
// the last checks.
func TestLoad(t *testing.T) {
	t.Parallel() // its processes mostly wait (claims, River's rescuer): beside the package's other tests
	url := pgtest.URL(t)
	// A run for the figures keeps Discord's 3 seconds to answer and
	// leaves out the stand-in's checks of request bodies; a short one
	// checks the bodies and gives the answers until the test's deadline,
	// since it checks what is stored, not how fast.
	opts := []discordtest.ServerOption{discordtest.AnswerUntilTestDeadline(t)}
	if *loadDuration >= loadLean {
		opts = []discordtest.ServerOption{discordtest.WithoutChecks()}
	}
	began := time.Now()
	d := newCrashDrill(t, crashSetup{command: "serve", processes: loadServes, dbURL: url,
		env: append(loadEnv(), envAITurns+"=workers")}, opts...)
	// The suite's run checks the invariants on the crash drill's members,
	// whose games and moves take half the CPU of the figures' twelve.
	n := *loadMembers
	if n == 0 && *loadDuration >= loadLean {
		n = 12
	}
	for i := len(d.users); i < n; i++ {
		d.users = append(d.users, d.srv.AddUser(fmt.Sprintf("member%d", i+1)))
	}
	l := &loadRun{d: d, url: url, puzzles: map[string][]storage.GameID{}}
	d.firstAnswer = l.answered
	d.start()
	workers := make([]*crashProc, loadWorkers)
	for i := range workers {
		workers[i] = l.startWorker(i)
	}

	// The load: figures from its start to its end.
	from := time.Now()
	cpuFrom := l.cpu(workers)
	ctx, stop := context.WithCancel(context.Background())
	sampled := l.sampleREST(ctx)
	members := l.play(ctx)
	wait, stopWait := discordtest.UntilTestDeadline(t, context.Background())
	if !d.boards.until(wait, func() bool { return d.boards.shownLocked() >= loadMinMoves }) {
		t.Errorf("fewer than %d moves shown on boards before the test's deadline", loadMinMoves)
	}
	stopWait()
	if *loadDuration > 0 { // a run for the figures: traffic for that long
		time.Sleep(*loadDuration - time.Since(from))
	}
	stop()
	members.Wait()
	rest := <-sampled
	l.report(from, time.Now(), rest, cpuFrom, l.cpu(workers))

	// The kill drill: a worker in the middle of an AI turn if one comes,
	// and a serve process, while the members play on.
	ctx, stop = context.WithCancel(context.Background())
	members = l.play(ctx)
	wait, stopWait = context.WithTimeout(ctx, 5*time.Second)
	if d.boards.until(wait, d.boards.anyThinking) {
		d.modes["a worker while an AI turn was queued or searching, and a serve process"]++
	} else {
		d.modes["a worker and a serve process (no AI turn came)"]++
	}
	stopWait()
	_, atKill := d.boards.totals()
	l.kill(workers[0])
	d.kill(0)
	wait, stopWait = discordtest.UntilTestDeadline(t, context.Background())
	if !d.boards.until(wait, func() bool { return d.boards.shownLocked() >= atKill+loadAfterKill }) {
		t.Errorf("fewer than %d moves shown on boards after the kills before the test's deadline", loadAfterKill)
	}
	stopWait()
	stop()
	members.Wait()
	awaiting, stale, unboarded := d.afterKill("the kills", nil)
	restarted := time.Now()
	workers[0] = l.startWorker(0)
	d.start()
	d.answered(awaiting, stale, unboarded, restarted)
	for _, w := range workers {
		l.stop(w)
	}
	d.windUp("the final stop", awaiting, 2, began)
}

// loadRun is the load test's state beyond its crash drill's: the
// workers' logs and the figures.
type loadRun struct {
	d   *crashDrill
	url string // the database

	mu      sync.Mutex
	first   []time.Duration             // time to the first answer of every interaction answered
	puzzles map[string][]storage.GameID // member → the puzzles they were dealt and play
}

// answered records an interaction's time to its first answer.
func (l *loadRun) answered(took time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.first = append(l.first, took)
}

// startWorker starts the load's worker i, a `gambit worker` process on the
// drill's database (the first keeping the race detector, crashDrill.exe),
// and waits until it works the queue.
func (l *loadRun) startWorker(i int) *crashProc {
	l.d.t.Helper()
	return startServing(l.d.t, l.d.srv, l.d.exe(i), "worker", l.d.dir, append(loadEnv(), envDatabaseURL+"="+l.url, "GAMBIT_MOVE_TIME="+crashMoveTime)...)
}

// loadEnvRedis names a Redis server for the load test's processes to
// share Discord's rate limits through (GAMBIT_REDIS_URL), as in
// production; without it each process keeps its own.
const loadEnvRedis = "GAMBIT_TEST_REDIS_URL"

// loadEnv is the settings of every process of the load test beside the
// crash drill's own.
func loadEnv() []string {
	env := []string{"GAMBIT_CLAIM_TTL=3s", "GAMBIT_LOG_LEVEL=info"}
	if u := os.Getenv(loadEnvRedis); u != "" {
		// A second for Redis's answer (the default is 50ms): a machine
		// as loaded as CI's busy run must not make a running Redis look
		// failed, each process then keeping the limits on its own for a
		// second and the test meeting global 429s it did not cause.
		env = append(env, "GAMBIT_REDIS_URL="+u, envRedisTimeout+"=1s")
	}
	return env
}

// kill ends a worker with SIGKILL.
func (l *loadRun) kill(w *crashProc) {
	l.d.t.Helper()
	l.d.boards.killing()
	_ = w.cmd.Process.Kill()
	_ = w.cmd.Wait()
	if st := w.cmd.ProcessState; st == nil || st.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		l.d.t.Errorf("gambit worker ended with %v before the SIGKILL; output:\n%s", st, w.logs)
	}
	l.d.past = append(l.d.past, w.logs.String())
}

// stop ends a worker with SIGTERM, as in production.
func (l *loadRun) stop(w *crashProc) {
	l.d.t.Helper()
	if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		l.d.t.Fatal(err)
	}
	if err := w.cmd.Wait(); err != nil {
		l.d.t.Errorf("gambit worker after SIGTERM: %v; output:\n%s", err, w.logs)
	}
	l.d.past = append(l.d.past, w.logs.String())
}

// play lets every member play until ctx ends, at -load.rate
// interactions per second together if it is set. A member asked to stop
// first waits for the answer to the interaction under way (at most
// crashReplyWait), which then counts among the figures.
func (l *loadRun) play(ctx context.Context) *sync.WaitGroup {
	var pace <-chan time.Time
	if *loadRate > 0 {
		tick := time.NewTicker(time.Duration(float64(time.Second) / *loadRate))
		context.AfterFunc(ctx, tick.Stop)
		pace = tick.C
	}
	var wg sync.WaitGroup
	for _, u := range l.d.users {
		wg.Go(func() {
			for ctx.Err() == nil {
				if pace != nil {
					select {
					case <-pace:
					case <-ctx.Done():
						return
					}
				}
				if !l.act(context.WithoutCancel(ctx), u) {
					wait, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
					l.d.boards.next(wait)
					cancel()
				}
			}
		})
	}
	return &wg
}

// act does one thing as member u, as the crash drill's members do, and
// now and then plays a puzzle instead; it reports whether there was
// anything to do.
func (l *loadRun) act(ctx context.Context, u discordtest.User) bool {
	if rand.IntN(4) == 0 && l.solve(ctx, u) {
		return true
	}
	return l.d.act(ctx, u) || l.solve(ctx, u)
}

// solve plays a random move on one of u's open puzzles, or deals u one
// with /puzzle if none is open; it reports false if
// there was nothing to play and the bot refused a new one. The puzzles
// are N-Queens: a sliding puzzle's board names the tile moved, not the
// move the store keeps, which the crash drill's board tracker would take
// for a lost move.
func (l *loadRun) solve(ctx context.Context, u discordtest.User) bool {
	d := l.d
	// The boards as they are now: one looked up again could have lost its
	// controls meanwhile (its puzzle solved), leaving no move to play.
	var boards []crashBoard
	l.mu.Lock()
	open := slices.DeleteFunc(l.puzzles[u.ID], func(id storage.GameID) bool {
		b := d.boards.board(id)
		if b.status != storage.StatusActive || len(b.controls) == 0 {
			return true
		}
		boards = append(boards, b)
		return false
	})
	l.puzzles[u.ID] = open
	l.mu.Unlock()
	if len(boards) > 0 {
		d.move(ctx, u, boards[rand.IntN(len(boards))])
		return true
	}
	opts := []discordtest.Option{{Name: "game", Value: "nqueens"}, {Name: "n", Value: 4 + rand.IntN(5)}}
	ix, err := d.srv.SendCommand(discordtest.SlashCommand{UserID: u.ID, Name: "puzzle", Options: opts})
	if err != nil {
		return true
	}
	d.mu.Lock()
	d.playsSent[u.ID]++ // a game of u's, as a /play is
	d.mu.Unlock()
	d.delivered()
	m, err := d.reply(ctx, ix)
	if err != nil {
		return true
	}
	b, ok := parseCrashBoard(m)
	if m.Ephemeral() && !strings.HasPrefix(m.Content, "Sorry") {
		d.mu.Lock()
		d.refusals[strings.SplitN(m.Content, ",", 2)[0]]++
		d.mu.Unlock()
		return false
	}
	if !ok {
		d.t.Errorf("/puzzle %v by %s failed: %q", opts, u.ID, m.Content)
		return true
	}
	d.mu.Lock()
	d.playAcks.Add(1)
	d.playAcked[b.game] = u.ID
	d.mu.Unlock()
	l.mu.Lock()
	l.puzzles[u.ID] = append(l.puzzles[u.ID], b.game)
	l.mu.Unlock()
	return true
}

// restFigures are the REST requests the stand-in answered during the
// load, beside the interaction endpoints (which Discord exempts from the
// global limit).
type restFigures struct {
	requests int // bound by the global limit
	peak     int // the most in one second of the sampler's
	stats    discordtest.RateLimitStats
}

// boundByGlobal counts the requests of stats that Discord's global limit
// counts: all but the interaction endpoints (the callback, and the
// interaction webhooks, which are the application's own).
func boundByGlobal(stats discordtest.RateLimitStats) int {
	n := 0
	for route, c := range stats.Requests {
		if !strings.Contains(route, " /interactions/") && !strings.Contains(route, " /webhooks/") {
			n += c
		}
	}
	return n
}

// sampleREST reads the stand-in's counters every second until ctx ends,
// and then sends what the load added to them.
func (l *loadRun) sampleREST(ctx context.Context) <-chan restFigures {
	out := make(chan restFigures, 1)
	start := l.d.srv.RateLimitStats()
	go func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		last, peak := boundByGlobal(start), 0
		for {
			select {
			case <-tick.C:
				n := boundByGlobal(l.d.srv.RateLimitStats())
				peak, last = max(peak, n-last), n
				continue
			case <-ctx.Done():
			}
			end := l.d.srv.RateLimitStats()
			for scope, n := range start.TooManyRequests {
				end.TooManyRequests[scope] -= n
			}
			end.Bans -= start.Bans
			out <- restFigures{requests: boundByGlobal(end) - boundByGlobal(start), peak: peak, stats: end}
			return
		}
	}()
	return out
}

// queueFigures are River's figures of the AI turns' jobs created in a
// time range.
type queueFigures struct {
	played        int           // jobs completed
	waitP50, wait time.Duration // created → first attempted, 50th and 99th percentiles
}

// queue reads the AI turns' jobs created between from and to from
// River's table.
func (l *loadRun) queue(from, to time.Time) queueFigures {
	l.d.t.Helper()
	ctx, cancel := discordtest.UntilTestDeadline(l.d.t, context.Background())
	defer cancel()
	conn, err := pgx.Connect(ctx, l.url)
	if err != nil {
		l.d.t.Fatalf("the queue's figures: %v", err)
	}
	defer conn.Close(ctx)
	var q queueFigures
	var p50, p99 float64
	err = conn.QueryRow(ctx, `
		SELECT count(*) FILTER (WHERE state = 'completed'),
		       coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM attempted_at - created_at)), 0),
		       coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM attempted_at - created_at)), 0)
		FROM river_job WHERE queue = $1 AND created_at >= $2 AND created_at < $3 AND attempted_at IS NOT NULL`,
		aiqueue.QueueName, from, to).Scan(&q.played, &p50, &p99)
	if err != nil {
		l.d.t.Fatalf("the queue's figures: %v", err)
	}
	q.waitP50, q.wait = time.Duration(p50*float64(time.Second)), time.Duration(p99*float64(time.Second))
	return q
}

// loadCPU is the CPU time the processes of a load test have used.
type loadCPU struct {
	serves, workers, harness time.Duration
	known                    bool // false where /proc cannot tell
}

// cpu reads the CPU time of the serve processes, of workers and of the
// test's own (the stand-in and the members) from /proc.
func (l *loadRun) cpu(workers []*crashProc) loadCPU {
	c := loadCPU{known: true}
	read := func(pid string) time.Duration {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		// The fields after the command's name, which is in parentheses:
		// utime and stime, in clock ticks (USER_HZ, 100 on Linux), are the
		// 12th and 13th.
		_, after, ok := strings.Cut(string(stat), ") ")
		f := strings.Fields(after)
		if err != nil || !ok || len(f) < 13 {
			c.known = false
			return 0
		}
		user, _ := strconv.ParseInt(f[11], 10, 64)
		sys, _ := strconv.ParseInt(f[12], 10, 64)
		return time.Duration(user+sys) * 10 * time.Millisecond
	}
	for _, p := range l.d.procs {
		c.serves += read(strconv.Itoa(p.cmd.Process.Pid))
	}
	for _, w := range workers {
		c.workers += read(strconv.Itoa(w.cmd.Process.Pid))
	}
	c.harness = read("self")
	return c
}

// report logs the load's figures and checks that it stayed within
// Discord's global limit.
func (l *loadRun) report(from, to time.Time, rest restFigures, cpuFrom, cpuTo loadCPU) {
	t := l.d.t
	secs := to.Sub(from).Seconds()
	l.mu.Lock()
	first := slices.Clone(l.first)
	l.mu.Unlock()
	slices.Sort(first)
	pct := func(p float64) time.Duration {
		if len(first) == 0 {
			return 0
		}
		return first[int(float64(len(first)-1)*p/100)].Round(time.Millisecond)
	}
	q := l.queue(from, to)
	t.Logf("load: %d members for %v on %d serve and %d worker processes, one PostgreSQL, Discord's rate limits on (rate aimed at: %v/s, 0 is as fast as answered)",
		len(l.d.users), to.Sub(from).Round(time.Millisecond), loadServes, loadWorkers, *loadRate)
	t.Logf("  interactions: %d answered, %.1f/s; first answer p50 %v, p99 %v, max %v; %d unanswered",
		len(first), float64(len(first))/secs, pct(50), pct(99), pct(100), l.d.unanswered.Load())
	t.Logf("  AI turns: %d played, %.1f/s; queue wait (created → attempted) p50 %v, p99 %v",
		q.played, float64(q.played)/secs, q.waitP50.Round(time.Millisecond), q.wait.Round(time.Millisecond))
	t.Logf("  REST: %d requests under the global limit, %.1f/s (the most in a sampled second %d; Discord's limit %d/s); 429s by scope %v; bans %d",
		rest.requests, float64(rest.requests)/secs, rest.peak, discordtest.DiscordGlobalLimit, rest.stats.TooManyRequests, rest.stats.Bans)
	if cpuFrom.known && cpuTo.known {
		serves, workers := cpuTo.serves-cpuFrom.serves, cpuTo.workers-cpuFrom.workers
		per := func(d time.Duration, n int) time.Duration {
			return (d / time.Duration(max(n, 1))).Round(100 * time.Microsecond)
		}
		t.Logf("  CPU: serve processes %v (%v an interaction), workers %v (%v an AI turn), the test (stand-in and members) %v; %d cores, load average %s",
			serves.Round(time.Millisecond), per(serves, len(first)), workers.Round(time.Millisecond), per(workers, q.played),
			(cpuTo.harness - cpuFrom.harness).Round(time.Millisecond), runtime.NumCPU(), loadAverage())
	}
	var routes []string
	for route, n := range rest.stats.Requests {
		routes = append(routes, fmt.Sprintf("%s %d", route, n))
	}
	slices.Sort(routes)
	t.Logf("  REST requests by route since the start, the interaction endpoints' too:\n    %s", strings.Join(routes, "\n    "))
	if n := rest.stats.TooManyRequests["global"]; n > 0 {
		t.Errorf("the processes went above Discord's global limit: %d global 429s", n)
	}
	if rest.stats.Bans > 0 || rest.stats.TooManyRequests["cloudflare"] > 0 {
		t.Errorf("the processes earned %d bans (%d requests refused by one)", rest.stats.Bans, rest.stats.TooManyRequests["cloudflare"])
	}
}

// loadAverage is the machine's 1, 5 and 15-minute load averages, or
// "unknown".
func loadAverage() string {
	avg, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(avg)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
