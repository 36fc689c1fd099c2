package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/tournament/league"
)

// The tournament kill drills run one Swiss of tic-tac-toe on two `gambit
// serve` replicas and one `gambit worker` (GAMBIT_AI_TURNS=workers) on
// one PostgreSQL database: four members, whose moves the test clicks
// through the stand-in (the stand-in delivers each interaction to the
// replicas in turn), and four AI strategies that the creator enters,
// three rounds of four boards. At the end of each round, or in the middle
// of it, a process is killed with SIGKILL and restarted, and the
// tournament is driven on to its podium. The checks at the end hold
// whatever runs a tournament's advances (Kick in the process that ended a
// board's game, the timers' sweep, or jobs on the database): they look at
// what the store holds and what the channel shows, never at how.
const (
	drillMembers  = 4       // members who join and play
	drillAIs      = 4       // AI strategies the creator enters
	drillRounds   = 3       // the Swiss's rounds
	drillMoveTime = "200ms" // GAMBIT_MOVE_TIME: the AI entrants' searches
)

// TestTournamentDrillKillsAServe kills a serve replica at the end of
// each round of the Swiss, each time in another window: the last board
// of the round ends by a member's resignation that the stand-in delivers
// to that replica alone, and the SIGKILL comes a few milliseconds after
// the click (before, during or after its commit), as soon as the
// replica answered it (its advance of the tournament — the board's
// result, the next round's pairing, its pairings and boards — under way
// off the answer's path), or as soon as the store shows the next round
// or the end (between the pairing's commit and its messages). The other
// replica takes the traffic meanwhile; the killed one restarts at once.
func TestTournamentDrillKillsAServe(t *testing.T) {
	t.Parallel()
	d := newTournamentDrill(t)
	d.run(func(round int) {
		modes := []string{"after the answer", "after the pairing", "in the click"}
		d.resignAndKill(round, modes[(round-1)%len(modes)], false)
	})
}

// TestTournamentDrillKillsTheWorker kills the one worker, which plays
// every AI move and, where the tournaments' advances are jobs, runs
// them: in round 1 while an AI turn of a game under way is queued or
// searching; at the end of round 2 as soon as the store shows round 3
// (a member's resignation ended round 2, and the worker's job, if it
// runs the advance, paired round 3 and is posting it); and in round 3
// when the round's last board with an AI awaits the AI's move — the move
// that may end the tournament is the killed worker's (the members hold
// their moves between themselves meanwhile). No AI move is played until
// the worker restarts, at once (a turn it had claimed waits
// GAMBIT_CLAIM_TTL for another).
func TestTournamentDrillKillsTheWorker(t *testing.T) {
	t.Parallel()
	d := newTournamentDrill(t)
	d.run(func(round int) {
		switch round {
		case 1:
			d.killWorkerWhen(round, "an AI turn of a game under way pending", nil, func(open []*storage.Game) bool {
				return slices.ContainsFunc(open, func(g *storage.Game) bool { return len(g.Moves) > 0 && g.AwaitingAI() })
			})
		case 2:
			d.resignAndKill(round, "after the pairing", true)
		case 3:
			d.killWorkerWhen(round, "the round's last board with an AI awaits its move", membersOnly, func(open []*storage.Game) bool {
				withAI := slices.DeleteFunc(slices.Clone(open), membersOnly)
				// Should the AIs' boards all end between two looks, the
				// kill comes at once: the members hold the rest.
				return len(withAI) == 0 || len(withAI) == 1 && withAI[0].AwaitingAI()
			})
		}
	})
}

// membersOnly reports whether both players of g are members.
func membersOnly(g *storage.Game) bool { return !g.Players[0].ID.IsAI() && !g.Players[1].ID.IsAI() }

// tournamentDrill is the state of one drill.
type tournamentDrill struct {
	t       *testing.T
	srv     *discordtest.Server
	url     string
	dir     string
	store   storage.Admin // the database, read (and never written) by the test
	members []discordtest.User
	serves  [2]*crashProc
	worker  *crashProc
	past    []string      // the logs of the processes that ended
	wake    chan struct{} // the stand-in changed
	id      storage.TournamentID
	annID   string // the announcement's message

	// Figures.
	kills  []string // what each kill took, and when
	clicks int      // members' moves clicked and answered
	behind int      // clicks on a board behind its game
	lost   int      // members' clicks that got no answer
}

func newTournamentDrill(t *testing.T) *tournamentDrill {
	url := pgtest.URL(t)
	srv := discordtest.New(discordtest.AnswerUntilTestDeadline(t))
	t.Cleanup(srv.Close)
	d := &tournamentDrill{t: t, srv: srv, url: url, dir: t.TempDir(), wake: make(chan struct{}, 1)}
	for i := range drillMembers {
		d.members = append(d.members, srv.AddUser(fmt.Sprintf("player%d", i+1)))
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := srv.Subscribe(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range events {
			select {
			case d.wake <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return d
}

// run starts the processes, announces the Swiss, fills and starts it,
// and drives it to its podium; at the end of each round (before its
// last board ends) it calls atRound with the round's number, which may
// kill a process. Then it stops everything gracefully and checks.
func (d *tournamentDrill) run(atRound func(round int)) {
	t := d.t
	began := time.Now()
	for i := range d.serves {
		d.serves[i] = d.startServe(i)
	}
	d.worker = d.startWorker()
	d.deliverTo(0, 1)
	s, err := openStore(context.Background(), d.url, "", inspecting, storeRole{})
	if err != nil {
		t.Fatal(err)
	}
	d.store = s
	t.Cleanup(func() { _ = s.Close() })

	d.announce()
	for round := 1; round <= drillRounds; round++ {
		d.drive(fmt.Sprintf("round %d paired", round), nil, func(tr *storage.Tournament, _ []*storage.Game) bool {
			return len(tr.Rounds) >= round || tr.Status.Ended()
		})
		atRound(round)
	}
	d.drive("the podium", nil, func(tr *storage.Tournament, _ []*storage.Game) bool { return tr.Status.Ended() })
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	if _, err := d.srv.WaitMessage(ctx, func(m discordtest.Message) bool {
		return strings.Contains(drillText(m), "The tournament is over")
	}); err != nil {
		d.failNow("no podium message: %v", err)
	}
	d.stopAll()
	d.check(time.Since(began))
}

// startServe starts serve replica i: the test binary, with the race
// detector of go test -race, for the first; gambit built without it for
// the second (plainGambit).
func (d *tournamentDrill) startServe(i int) *crashProc {
	exe := os.Args[0]
	if i > 0 {
		exe = plainGambit(d.t)
	}
	return startServing(d.t, d.srv, exe, "serve", d.dir, d.env(envAITurns+"=workers")...)
}

// startWorker starts the worker, gambit built without the race detector.
func (d *tournamentDrill) startWorker() *crashProc {
	return startServing(d.t, d.srv, plainGambit(d.t), "worker", d.dir, d.env()...)
}

// env is the settings of every process of the drill, and more.
func (d *tournamentDrill) env(more ...string) []string {
	return append([]string{
		envDatabaseURL + "=" + d.url, "GAMBIT_MOVE_TIME=" + drillMoveTime, "GAMBIT_CLAIM_TTL=2s", "GAMBIT_LOG_LEVEL=info",
	}, more...)
}

// deliverTo has the stand-in deliver interactions to the serve replicas
// given, in turn.
func (d *tournamentDrill) deliverTo(replicas ...int) {
	d.t.Helper()
	var urls []string
	for _, i := range replicas {
		urls = append(urls, d.serves[i].endpoint)
	}
	ctx, cancel := discordtest.UntilTestDeadline(d.t, context.Background())
	defer cancel()
	if err := d.srv.DeliverOverHTTP(ctx, urls...); err != nil {
		d.t.Fatal(err)
	}
}

// reply waits for the answer to an interaction until the test's
// deadline.
func (d *tournamentDrill) reply(ix *discordtest.Interaction, err error) discordtest.Message {
	d.t.Helper()
	if err != nil {
		d.failNow("%v", err)
	}
	ctx, cancel := discordtest.UntilTestDeadline(d.t, context.Background())
	defer cancel()
	m, err := ix.Reply(ctx)
	if err != nil {
		d.failNow("no answer: %v", err)
	}
	return m.Readable()
}

// announce has the first member announce the Swiss, every member join,
// the creator enter the AIs and start it.
func (d *tournamentDrill) announce() {
	t := d.t
	creator := d.members[0].ID
	ann := d.reply(d.srv.SendCommand(discordtest.SlashCommand{UserID: creator, Name: "tournament", Options: []discordtest.Option{{Name: "create", Options: []discordtest.Option{
		{Name: "format", Value: "swiss"}, {Name: "game", Value: "tictactoe"}, {Name: "rounds", Value: drillRounds},
		{Name: "movetime", Value: 3600}, {Name: "ai", Value: true}, {Name: "name", Value: "Drill Cup"},
	}}}}))
	d.annID = ann.ID
	join := drillControl(ann, customid.TournamentJoin)
	if join == "" {
		t.Fatalf("no Join on the announcement: %q", drillText(ann))
	}
	p, _ := customid.TournamentJoin.Match(join)
	d.id = storage.TournamentID(p["tournament"])
	var entered discordtest.Message
	for _, u := range d.members {
		entered = d.reply(d.srv.ClickButton(u.ID, ann.ID, join))
	}
	for i := range drillAIs {
		sel := drillControl(entered, customid.TournamentAI)
		var options []string
		for _, c := range drillComponents(entered.Components) {
			if c.CustomID == sel {
				for _, o := range c.Options {
					options = append(options, o.Value)
				}
			}
		}
		if len(options) <= i {
			t.Fatalf("the AI select offers %v; the drill enters %d AIs", options, drillAIs)
		}
		entered = d.reply(d.srv.SelectValues(creator, ann.ID, sel, options[i]))
	}
	if !strings.Contains(drillText(entered), fmt.Sprintf("Players (%d/", drillMembers+drillAIs)) {
		t.Fatalf("the announcement with every player: %q", drillText(entered))
	}
	d.reply(d.srv.ClickButton(creator, ann.ID, drillControl(entered, customid.TournamentStart)))
}

// drive plays the members' moves on every board of the tournament,
// except on those of the games skip picks (nil: none), until done holds of the tournament and its open
// boards' games (those of the latest round), waking up at every change of
// the stand-in and every 100 ms (a change of the store shows on no
// message), until the test's deadline.
func (d *tournamentDrill) drive(what string, skip func(*storage.Game) bool, done func(*storage.Tournament, []*storage.Game) bool) (*storage.Tournament, []*storage.Game) {
	d.t.Helper()
	ctx, cancel := discordtest.UntilTestDeadline(d.t, context.Background())
	defer cancel()
	for {
		tr, open := d.state(ctx)
		if done(tr, open) {
			return tr, open
		}
		played := false
		for _, g := range open {
			if (skip == nil || !skip(g)) && d.play(ctx, g) {
				played = true
			}
		}
		if played {
			continue
		}
		select {
		case <-d.wake:
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
			d.failNow("waiting for %s: the test's deadline; the tournament is %+v", what, tr)
		}
	}
}

// state reads the tournament and the games of its boards still on.
func (d *tournamentDrill) state(ctx context.Context) (*storage.Tournament, []*storage.Game) {
	d.t.Helper()
	tr, err := d.store.Tournament(ctx, d.id)
	if err != nil {
		d.failNow("%v", err)
	}
	var open []*storage.Game
	for _, id := range tr.PendingGames() {
		g, err := d.store.Game(ctx, id)
		if err != nil {
			d.failNow("%v", err)
		}
		if g.Status.Open() {
			open = append(open, g)
		}
	}
	return tr, open
}

// play clicks a random legal move for the member to move in g, if a
// member is and the board shows it, and reports whether it did.
func (d *tournamentDrill) play(ctx context.Context, g *storage.Game) bool {
	b, ok := d.board(g)
	if !ok || len(b.controls) == 0 {
		return false
	}
	c := b.controls[rand.IntN(len(b.controls))]
	ix, err := b.press(d.srv, b.mover, c)
	if err != nil {
		return false // the board changed meanwhile
	}
	// A member's patience (crashDrill.reply): a click that a kill took
	// gets no answer, and the member clicks again on the board as it is.
	wait, cancel := context.WithTimeout(ctx, crashReplyWait)
	defer cancel()
	m, err := ix.Reply(wait)
	if err != nil {
		d.lost++
		return false
	}
	d.clicks++
	return !m.Ephemeral() // refused: the board changed meanwhile
}

// board returns g's board as its channel shows it when it asks a member
// to move: at g's current ply, or behind it — a restart's refresh of the
// boards can draw a board over a click's newer one — which the member to
// move clicks, and the bot answers by bringing the board up to date.
func (d *tournamentDrill) board(g *storage.Game) (crashBoard, bool) {
	if g.Status != storage.StatusActive || g.MessageID == "" {
		return crashBoard{}, false
	}
	m, ok := d.srv.Message(g.MessageID)
	if !ok {
		return crashBoard{}, false
	}
	b, ok := parseCrashBoard(m.Readable())
	switch {
	case !ok || b.game != g.ID || b.mover == "" || b.thinking || b.ply > len(g.Moves):
		return crashBoard{}, false
	case b.ply < len(g.Moves):
		mover, ok := g.Players[g.Turn].ID.UserID()
		if !ok || g.AwaitingAI() {
			return crashBoard{}, false // the AI's move redraws it
		}
		b.mover = mover
		d.behind++
	case g.AwaitingAI():
		return crashBoard{}, false
	}
	return b, true
}

// resignAndKill lets every board of round but one end, resigns the last
// one, and kills at the moment mode says either the worker (worker) or
// the replica the resignation went to alone; then it restarts the
// process killed and has the stand-in deliver to both replicas again.
func (d *tournamentDrill) resignAndKill(round int, mode string, worker bool) {
	t := d.t
	tr, open := d.state(context.Background())
	var held *storage.Game
	for _, g := range open {
		if !g.Players[0].ID.IsAI() || !g.Players[1].ID.IsAI() {
			held = g
			break
		}
	}
	if held == nil {
		t.Fatalf("round %d has no member's board on: %+v", round, tr.Rounds[len(tr.Rounds)-1])
	}
	_, open = d.drive(fmt.Sprintf("round %d's other boards to end", round), func(g *storage.Game) bool { return g.ID == held.ID }, func(_ *storage.Tournament, open []*storage.Game) bool {
		if len(open) != 1 || open[0].ID != held.ID || open[0].MessageID == "" {
			return false
		}
		m, _ := d.srv.Message(open[0].MessageID) // its board as it is now, its Resign at the game's ply
		b, ok := parseCrashBoard(m.Readable())
		return ok && b.ply == len(open[0].Moves) && !b.thinking
	})
	held = open[0]
	var seated []string // the members of the held board
	for _, p := range held.Players {
		if id, ok := p.ID.UserID(); ok {
			seated = append(seated, id)
		}
	}
	member := seated[rand.IntN(len(seated))]
	// The Resign button asks for a confirmation, answered by either
	// replica; the confirmation goes to the victim alone.
	victim := round % len(d.serves)
	m, _ := d.srv.Message(held.MessageID)
	resign := drillControl(m.Readable(), customid.Resign)
	ask := d.reply(d.srv.ClickButton(member, held.MessageID, resign))
	confirm := drillControl(ask, customid.ResignConfirm)
	if confirm == "" {
		t.Fatalf("Resign answered %q without a confirmation", drillText(ask))
	}
	if !worker {
		d.deliverTo(victim)
	}
	ix, err := d.srv.ClickButton(member, ask.ID, confirm)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	switch mode {
	case "in the click":
		time.Sleep(rand.N(30 * time.Millisecond)) // the moment of the kill, not a wait for anything
	case "after the answer":
		if _, err := ix.Reply(ctx); err != nil {
			d.failNow("the resignation was not answered: %v", err)
		}
	case "after the pairing":
		for {
			tr, err := d.store.Tournament(ctx, d.id)
			if err != nil {
				d.failNow("%v", err)
			}
			if len(tr.Rounds) > round || tr.Status.Ended() {
				break
			}
		}
	}
	if worker {
		d.kill(&d.worker, fmt.Sprintf("the worker at the end of round %d, %s", round, mode))
		d.worker = d.startWorker()
		return
	}
	d.kill(&d.serves[victim], fmt.Sprintf("serve %d at the end of round %d, %s", victim+1, round, mode))
	d.deliverTo(1 - victim)
	d.serves[victim] = d.startServe(victim)
	d.deliverTo(0, 1)
}

// killWorkerWhen drives round on, the members holding their moves in
// the games skip picks, until when holds of its open boards, then kills
// the worker and restarts it. Should the round end first (two boards
// ending between two looks), the kill comes at once, in the next
// round's start.
func (d *tournamentDrill) killWorkerWhen(round int, what string, skip func(*storage.Game) bool, when func([]*storage.Game) bool) {
	d.drive(fmt.Sprintf("round %d: %s", round, what), skip, func(tr *storage.Tournament, open []*storage.Game) bool {
		if len(tr.Rounds) > round || tr.Status.Ended() {
			what = fmt.Sprintf("round %d ended before %s: at once", round, what)
			return true
		}
		return when(open)
	})
	d.kill(&d.worker, fmt.Sprintf("the worker in round %d, %s", round, what))
	d.worker = d.startWorker()
}

// kill ends *p with SIGKILL.
func (d *tournamentDrill) kill(p **crashProc, what string) {
	d.t.Helper()
	proc := *p
	_ = proc.cmd.Process.Kill() // if it fails, the process ended by itself: Wait says how
	err := proc.cmd.Wait()
	if st := proc.cmd.ProcessState; st == nil || st.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		d.t.Errorf("%s: the process ended with %v before the SIGKILL; output:\n%s", what, err, proc.logs)
	}
	d.past = append(d.past, proc.logs.String())
	d.kills = append(d.kills, what)
}

// stopAll ends every process with SIGTERM, as in production.
func (d *tournamentDrill) stopAll() {
	d.t.Helper()
	for _, p := range append(d.serves[:], d.worker) {
		if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			d.t.Fatal(err)
		}
		if err := p.cmd.Wait(); err != nil {
			d.t.Errorf("a process after SIGTERM: %v; output:\n%s", err, p.logs)
		}
		d.past = append(d.past, p.logs.String())
	}
}

// drillRound is the head of a round's pairings message.
var drillRound = regexp.MustCompile(`\*\*Round (\d+)\*\*: each board follows`)

// check checks what the store holds and the channel shows after the
// podium and a graceful stop, and logs the drill's figures.
func (d *tournamentDrill) check(took time.Duration) {
	t := d.t
	ctx := context.Background()
	tr, err := d.store.Tournament(ctx, d.id)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Status != storage.TournamentFinished || len(tr.Rounds) != drillRounds {
		t.Errorf("the tournament is %s with %d rounds, want finished after %d", tr.Status, len(tr.Rounds), drillRounds)
	}

	// Every board's result is its game's, recorded once; every game is
	// a board's, on one board message.
	boards := map[storage.GameID]storage.Board{}
	moves := 0
	for _, r := range tr.Rounds {
		for _, b := range r.Boards {
			if b.IsBye() {
				continue
			}
			if _, dup := boards[b.Game]; dup || b.Game == "" {
				t.Errorf("round %d: game %q is on two boards or none", r.Number, b.Game)
			}
			boards[b.Game] = b
			g, err := d.store.Game(ctx, b.Game)
			if err != nil {
				t.Errorf("round %d: the game %s of %s vs %s: %v", r.Number, b.Game, b.White, b.Black, err)
				continue
			}
			moves += len(g.Moves)
			want, ended := storage.BoardResultOf(g)
			switch {
			case g.Settings.Tournament != d.id || g.Players[0].ID != b.White || g.Players[1].ID != b.Black:
				t.Errorf("round %d: game %s (%s, %v) is not the board of %s vs %s", r.Number, g.ID, g.Settings.Tournament, g.Players, b.White, b.Black)
			case !ended || b.Result != want || b.Plies != len(g.Moves):
				t.Errorf("round %d: game %s is %s after %d moves; its board has %s after %d", r.Number, g.ID, g.Status, len(g.Moves), b.Result, b.Plies)
			case g.MessageID == "":
				t.Errorf("round %d: game %s has no board message", r.Number, g.ID)
			}
			replayed := *g // a resigned game replays as one under way
			if g.Result != nil && g.Result.Outcome == storage.Resigned {
				replayed.Status = storage.StatusActive
			}
			if err := crashReplay(&replayed); err != nil {
				t.Errorf("round %d: game %s: %v; moves %v", r.Number, g.ID, err, g.Moves)
			}
		}
	}
	stats, err := d.store.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	for _, n := range stats.Games {
		stored += n
	}
	if stored != len(boards) {
		t.Errorf("the database holds %d games (%v), the rounds' boards %d: a game was created twice or lost", stored, stats.Games, len(boards))
	}
	if problems, err := d.store.Check(ctx); err != nil || len(problems) > 0 {
		t.Errorf("the database's check: %v %q", err, problems)
	}

	// The standings are the games': the stored places and scores are
	// those the results give, and each score adds up its games (half
	// points: 2 a win, forfeits too, 1 a draw).
	placings := league.Placings(tr)
	half := map[storage.PlayerID]int{}
	for _, r := range tr.Rounds {
		for _, b := range r.Boards {
			switch b.Result {
			case storage.BoardWhite, storage.BoardBlackForfeit:
				half[b.White] += 2
			case storage.BoardBlack, storage.BoardWhiteForfeit:
				half[b.Black] += 2
			case storage.BoardDraw:
				half[b.White]++
				half[b.Black]++
			default:
				t.Errorf("round %d: a board of %s vs %s is %s; the drill plays every game out", r.Number, b.White, b.Black, b.Result)
			}
		}
	}
	for _, p := range placings {
		e := tr.Entrants[slices.IndexFunc(tr.Entrants, func(e storage.Entrant) bool { return e.Player.ID == p.Player })]
		if e.Rank != p.Rank || e.Score != p.Score || e.Score != half[p.Player] {
			t.Errorf("%s is placed %d with %d half-points; the results give place %d with %d (%d from the boards)", p.Player, e.Rank, e.Score, p.Rank, p.Score, half[p.Player])
		}
	}

	// The channel and its rounds' threads: each round's pairings once,
	// one podium, one board message a game and none for a game not a
	// board's.
	logs := strings.Join(d.past, "\n")
	pairings := map[string]int{}
	podiums := 0
	onBoard := map[storage.GameID]int{}
	for _, m := range d.srv.ChannelAndThreads(d.srv.ChannelID()) {
		text := drillText(m)
		if r := drillRound.FindStringSubmatch(text); r != nil {
			pairings[r[1]]++
		}
		if strings.Contains(text, "The tournament is over") {
			podiums++
		}
		if b, ok := parseCrashBoard(m.Readable()); ok {
			onBoard[b.game]++
		}
	}
	// A round's pairings are posted once, also when the advance that
	// took up a round whose pairing process a kill stopped between its
	// post and the record of it (which it cannot tell from a stop before
	// the post) posts them again: with the first post's nonce, within
	// Discord's window for it, which answers with the first message.
	late := 0
	for n := 1; n <= drillRounds; n++ {
		recovered := strings.Count(logs, fmt.Sprintf(`msg="posting a round's pairings that were lost" tournament=%s round=%d`, d.id, n))
		if got := pairings[fmt.Sprint(n)]; got != 1 {
			t.Errorf("round %d's pairings were posted %d times (%d times again by an advance after a kill), want once", n, got, recovered)
		}
		late += recovered
	}
	if podiums != 1 {
		t.Errorf("%d podium messages, want one", podiums)
	}
	for id, n := range onBoard {
		if _, ok := boards[id]; !ok || n != 1 {
			t.Errorf("game %s has %d board messages (a board's: %v)", id, n, ok)
		}
	}
	if len(onBoard) != len(boards) {
		t.Errorf("%d games have board messages, the rounds %d", len(onBoard), len(boards))
	}

	// The processes: no data race or panic, and no round paired nor the
	// tournament finished twice by their own account (a process killed
	// between the commit and its log line says it less often).
	if strings.Contains(logs, "DATA RACE") || strings.Contains(logs, "panic") {
		t.Errorf("a process raced or panicked:\n%s", logs)
	}
	for n := 1; n <= drillRounds; n++ {
		if c := strings.Count(logs, fmt.Sprintf(`msg="tournament round paired" tournament=%s round=%d `, d.id, n)); c > 1 {
			t.Errorf("round %d was paired %d times by the processes' logs", n, c)
		}
	}
	if c := strings.Count(logs, fmt.Sprintf(`msg="tournament finished" tournament=%s `, d.id)); c > 1 {
		t.Errorf("the tournament was finished %d times by the processes' logs", c)
	}
	if t.Failed() {
		d.dumpLogs()
	}
	t.Logf("tournament drill: %d rounds, %d games, %d moves (%d members' clicks answered, %d lost to kills), %d SIGKILLs, %s",
		len(tr.Rounds), len(boards), moves, d.clicks, d.lost, len(d.kills), took.Round(time.Second))
	for i, k := range d.kills {
		t.Logf("  kill %d: %s", i+1, k)
	}
	t.Logf("  pairings a kill left unannounced, posted again by a later advance (once, by their nonce): %d; boards a kill lost, shown by a later advance: %d; boards the restarts refreshed or posted: %d; AI moves a killed worker played, shown by the turn's retry: %d; clicks on a board behind its game: %d",
		late, strings.Count(logs, `msg="showing a board that was lost"`), drillPostedAtStart(logs),
		strings.Count(logs, `msg="AI turn: showing the move an earlier attempt played"`), d.behind)
}

// drillPostedAtStart adds up the boards the processes' starts refreshed
// or posted, by their logs.
func drillPostedAtStart(logs string) int {
	n := 0
	for _, m := range drillRefreshed.FindAllStringSubmatch(logs, -1) {
		k, _ := strconv.Atoi(m[1])
		n += k
	}
	return n
}

var drillRefreshed = regexp.MustCompile(`msg="refreshed the boards of recently changed games and posted the missing ones" games=(\d+)`)

// failNow dumps the processes' logs and the boards on, and ends the
// test.
func (d *tournamentDrill) failNow(format string, args ...any) {
	d.t.Helper()
	d.t.Errorf(format, args...)
	d.dumpLogs()
	if d.store != nil && d.id != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a dump's patience, past the test's deadline
		defer cancel()
		if tr, err := d.store.Tournament(ctx, d.id); err == nil {
			for _, id := range tr.PendingGames() {
				g, err := d.store.Game(ctx, id)
				if err != nil {
					continue
				}
				m, _ := d.srv.Message(g.MessageID)
				b, _ := parseCrashBoard(m.Readable())
				d.t.Logf("board on: game %s %s, %v, turn %d, awaiting the AI %v, moves %v, message %q showing %v", g.ID, g.Status, g.Players, g.Turn, g.AwaitingAI(), g.Moves, g.MessageID, b)
			}
		}
	}
	d.t.FailNow()
}

// dumpLogs logs the last lines of every process so far.
func (d *tournamentDrill) dumpLogs() {
	all := slices.Clone(d.past)
	for _, p := range append(d.serves[:], d.worker) {
		if p.running() {
			all = append(all, p.logs.String())
		}
	}
	for i, logs := range all {
		lines := strings.Split(strings.TrimSpace(logs), "\n")
		d.t.Logf("process %d, last lines:\n%s", i+1, strings.Join(lines[max(len(lines)-40, 0):], "\n"))
	}
}

// drillText is what a message says, as a member reads it.
func drillText(m discordtest.Message) string {
	m = m.Readable()
	var b strings.Builder
	b.WriteString(m.Content)
	for _, e := range m.Embeds {
		b.WriteString("\n" + e.Title + "\n" + e.Description)
		for _, f := range e.Fields {
			b.WriteString("\n" + f.Name + "\n" + f.Value)
		}
	}
	return b.String()
}

// drillComponents flattens a component tree.
func drillComponents(cs []discordtest.Component) []discordtest.Component {
	var out []discordtest.Component
	for _, c := range cs {
		out = append(out, c)
		out = append(out, drillComponents(c.Components)...)
		if c.Accessory != nil {
			out = append(out, *c.Accessory)
		}
	}
	return out
}

// drillControl returns the custom ID of m's first component of pattern
// p, "" if there is none.
func drillControl(m discordtest.Message, p customid.Pattern) string {
	for _, c := range drillComponents(m.Components) {
		if _, ok := p.Match(c.CustomID); ok {
			return c.CustomID
		}
	}
	return ""
}
