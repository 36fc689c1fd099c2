package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// This file checks that clicks racing on Discord have the effects a
// sequential game allows. Histories of concurrent move clicks are checked
// for linearizability against a model of one game with porcupine, as
// etcd's robustness tests do; duplicate deliveries and double clicks of
// the other buttons must have exactly one effect, and everyone else a
// clear reply.

// raceInput is an operation on one game: a move click — who clicked which
// cell on the board of which ply — or, with Read, a look at the game as
// stored once the clicking is over. The game's kind and first mover travel
// with it so that the model needs no other setup.
type raceInput struct {
	Game  storage.GameID
	Kind  storage.Kind
	First int    // the seat that moves first
	User  string // Discord user ID
	Name  string // for descriptions
	Seat  int    // the clicker's seat, -1 for a bystander
	Ply   int    // the ply in the clicked custom ID
	Cell  string // the cell in the clicked custom ID
	Read  bool
}

// raceOutput is how the bot answered a move click, read from its
// interaction response, or the moves stored for a Read.
type raceOutput struct {
	// Unanswered reports a click whose answer never landed: the bot's
	// callback came after Discord's 3 seconds (the machine was loaded) and
	// was refused. Whether the move was played is unknown; that it was
	// decided before the refused answer arrived is not, so the operation
	// ends then, as an answered one does.
	Unanswered bool
	// Applied reports a non-ephemeral update of the board.
	Applied bool
	// Ended reports that the applied move's board shows the game over.
	Ended bool
	// Ply is the ply the components of an applied, not ended, board carry:
	// the number of moves played.
	Ply int
	// Reason classifies a refusal: bystander, over, turn, stale, illegal,
	// or "other: " and what the bot answered.
	Reason string
	// Moves are the moves stored, comma-separated, for a Read.
	Moves string
}

// raceRefusals are the replies the bot gives to move clicks it refuses.
var raceRefusals = []struct{ reason, text string }{
	{"bystander", "This is not your game"},
	{"over", "This game is over."},
	{"turn", "It is not your turn"},
	{"stale", "This board is out of date"},
	{"illegal", "is not a legal move"},
}

// raceFacts is what the model needs to know of a sequence of moves.
type raceFacts struct {
	terminal bool
	legal    map[string]bool
}

// raceFactsCache memoises replays: the checker steps through the same
// states many times, from several partitions at once.
var raceFactsCache sync.Map // kind + "|" + moves → raceFacts

// raceReplay replays moves (comma-separated) of a game kind with the
// engine. It panics on an illegal sequence, which the model never builds.
func raceReplay(kind storage.Kind, moves string) raceFacts {
	key := string(kind) + "|" + moves
	if f, ok := raceFactsCache.Load(key); ok {
		return f.(raceFacts)
	}
	gm, err := catalog.Lookup(string(kind))
	if err != nil {
		panic(err)
	}
	pos, err := gm.Start(games.Options{})
	if err != nil {
		panic(err)
	}
	for _, m := range raceSplit(moves) {
		mv, err := pos.ParseMove(m)
		if err != nil || !pos.Legal(mv) {
			panic(fmt.Sprintf("model: move %q of %q is not legal", m, moves))
		}
		pos.Play(mv)
	}
	f := raceFacts{terminal: pos.Terminal(), legal: map[string]bool{}}
	for _, mv := range pos.Moves(nil) {
		f.legal[pos.FormatMove(mv)] = true
	}
	raceFactsCache.Store(key, f)
	return f
}

func raceSplit(moves string) []string {
	if moves == "" {
		return nil
	}
	return strings.Split(moves, ",")
}

// raceStep is the sequential specification of one game. The state is the
// moves played, comma-separated; whose turn it is and whether the game has
// ended follow from them. A click is applied iff the clicker is the player
// to move, the game has not ended, the click's ply is the number of moves
// played and its cell is legal; the board it answers with carries the new
// ply, or shows the game over if the move ended it. Otherwise it is
// refused for the first of those reasons that fails, in the bot's order,
// and nothing changes. An unanswered click may or may not have been
// applied. A Read sees the moves played.
func raceStep(state, input, output any) []any {
	s, in, out := state.(string), input.(raceInput), output.(raceOutput)
	if in.Read {
		if out.Moves == s {
			return []any{s}
		}
		return nil
	}
	played := len(raceSplit(s))
	f := raceReplay(in.Kind, s)
	want := ""
	switch {
	case in.Seat < 0:
		want = "bystander"
	case f.terminal:
		want = "over"
	case in.Seat != in.First^(played%2):
		want = "turn"
	case in.Ply != played:
		want = "stale"
	case !f.legal[in.Cell]:
		want = "illegal"
	}
	next := in.Cell
	if s != "" {
		next = s + "," + in.Cell
	}
	switch {
	case out.Unanswered && want != "":
		return []any{s}
	case out.Unanswered:
		return []any{s, next}
	case want != "":
		if !out.Applied && out.Reason == want {
			return []any{s}
		}
		return nil
	case !out.Applied:
		return nil
	}
	ended := raceReplay(in.Kind, next).terminal
	if out.Ended != ended || !ended && out.Ply != played+1 {
		return nil
	}
	return []any{next}
}

func raceDescribe(input, output any) string {
	in, out := input.(raceInput), output.(raceOutput)
	if in.Read {
		return fmt.Sprintf("the stored game has moves [%s]", out.Moves)
	}
	res := "refused: " + out.Reason
	switch {
	case out.Unanswered:
		res = "unanswered"
	case out.Applied && out.Ended:
		res = "applied, game over"
	case out.Applied:
		res = "applied → ply " + strconv.Itoa(out.Ply)
	}
	return fmt.Sprintf("%s (seat %d) plays %s at ply %d: %s", in.Name, in.Seat, in.Cell, in.Ply, res)
}

// racePartition splits a history by game.
func racePartition(history []porcupine.Operation) [][]porcupine.Operation {
	byGame := map[storage.GameID][]porcupine.Operation{}
	var order []storage.GameID
	for _, op := range history {
		id := op.Input.(raceInput).Game
		if _, ok := byGame[id]; !ok {
			order = append(order, id)
		}
		byGame[id] = append(byGame[id], op)
	}
	out := make([][]porcupine.Operation, 0, len(order))
	for _, id := range order {
		out = append(out, byGame[id])
	}
	return out
}

// raceModel is the model of one game, for porcupine.
var raceModel = (&porcupine.NondeterministicModel{
	Partition:         racePartition,
	Init:              func() []any { return []any{""} },
	Step:              raceStep,
	DescribeOperation: raceDescribe,
	DescribeState:     func(state any) string { return "moves [" + state.(string) + "]" },
}).ToModel()

func TestClickHistoriesAreLinearizable(t *testing.T) {
	t.Parallel()
	t.Run("the checker rejects doctored histories", testRaceModelRejectsDoctoredHistories)

	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	// Discord's 3 seconds are counted on a manual clock: however loaded
	// the machine, an answer is late only when the test makes it so.
	h := start(t, withClock())
	kinds := []storage.Kind{storage.Kind("connect4"), storage.Kind("tictactoe"), storage.Kind("connect4"), storage.Kind("tictactoe")}
	type user struct{ id, name string }
	players := make([][2]user, len(kinds))
	for i := range kinds {
		for s, who := range []string{"alice", "bob"} {
			name := fmt.Sprintf("%s%d", who, i)
			players[i][s] = user{h.srv.AddUser(name).ID, name}
		}
	}
	type table struct {
		g        *storage.Game
		clickers []raceClicker
	}
	tables := make([]table, len(kinds))
	for i, kind := range kinds {
		var extra []discordtest.Option
		if i >= 2 {
			extra = []discordtest.Option{opt("first", "opponent")}
		}
		g := challengeAndAccept(t, h, players[i][0].id, players[i][1].id, kind, extra...)
		if want := map[bool]int{false: 0, true: 1}[i >= 2]; g.Turn != want {
			t.Fatalf("game %s: seat %d to move first, want %d", g.ID, g.Turn, want)
		}
		// Each player clicks from two devices; a player of the next table
		// looks on and clicks too.
		tables[i].g = g
		for _, c := range []struct {
			u    user
			seat int
		}{{players[i][0], 0}, {players[i][0], 0}, {players[i][1], 1}, {players[i][1], 1}, {players[(i+1)%len(kinds)][0], -1}} {
			tables[i].clickers = append(tables[i].clickers, raceClicker{user: c.u.id, name: c.u.name, seat: c.seat})
		}
	}

	base := time.Now()
	stamp := func(t time.Time) int64 { return int64(t.Sub(base)) }
	now := func() int64 { return stamp(time.Now()) }
	// The clicking lasts 4 seconds, but every clicker makes at least
	// minClicks clicks however slow the machine is, so that a loaded
	// machine checks as many clicks as an idle one. Under -short it makes
	// minClicks on any machine: 160 clicks, each kind of refusal many
	// times over, as a loaded machine makes in the 4 seconds, where an
	// idle one makes up to maxClicks each.
	clickFor := 4 * time.Second
	if testing.Short() {
		clickFor = 0
	}
	deadline := base.Add(clickFor)
	const minClicks, maxClicks, clicksAfterEnd = 8, 60, 3
	var (
		mu      sync.Mutex
		records []raceRecord
		errs    []error
		wg      sync.WaitGroup
		clicks  atomic.Int64
	)
	ctx := h.ctx()
	for ti, tb := range tables {
		for ci, c := range tb.clickers {
			rng := rand.New(rand.NewPCG(seed, uint64(100*ti+ci)))
			wg.Go(func() {
				recs, err := c.run(ctx, h.srv, rng, tb.g, ci, raceBudget{minClicks, maxClicks, clicksAfterEnd, deadline}, stamp, &clicks)
				mu.Lock()
				defer mu.Unlock()
				records = append(records, recs...)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s on game %s: %w", c.name, tb.g.ID, err))
				}
			})
		}
	}
	clicked := make(chan struct{})
	go func() { wg.Wait(); close(clicked) }()
	// Once the clicking is under way, one answer takes 3.5 seconds as
	// Discord sees it, as on a loaded machine: its click is unanswered,
	// and so is every click delivered before it and not answered yet.
	// Clicks delivered once that answer was refused must all be answered.
	for clicks.Load() < int64(len(tables)*len(tables[0].clickers)) {
		select {
		case <-clicked:
		case <-time.After(5 * time.Millisecond):
			continue
		}
		break
	}
	heldAt := now()
	h.srv.InjectFault(discordtest.Fault{
		Method: http.MethodPost, Route: "/interactions/{interaction_id}/{interaction_token}/callback", Advance: 3500 * time.Millisecond,
	})
	lateBefore := raceWaitLateAnswer(h.srv, clicked, now)
	<-clicked
	for _, err := range errs {
		t.Error(err)
	}
	if len(errs) > 0 {
		t.FailNow()
	}

	answers := raceAnswers(t, h, records)
	history := make([]porcupine.Operation, 0, len(records)+len(tables))
	unanswered := 0
	for _, r := range records {
		out := raceClassify(r.in.Game, answers[r.interaction])
		if out.Unanswered {
			unanswered++
			if r.call > lateBefore {
				t.Errorf("%s: a click delivered after the held answer was refused went unanswered too", raceDescribe(r.in, out))
			}
		}
		if b := answers[r.interaction]; r.accepted != b.accepted {
			t.Errorf("%s: the stand-in told the clicker its first answer was accepted: %v, but its log says %v (status %d)", raceDescribe(r.in, out), r.accepted, b.accepted, b.status)
		}
		history = append(history, porcupine.Operation{ClientId: r.client, Input: r.in, Call: r.call, Output: out, Return: r.ret})
	}
	for _, tb := range tables {
		at := now()
		g := h.game(tb.g.ID)
		history = append(history, porcupine.Operation{
			ClientId: len(tb.clickers), Call: at, Return: now(),
			Input:  raceInput{Game: g.ID, Kind: g.Kind, Name: "the store", Read: true},
			Output: raceOutput{Moves: strings.Join(g.Moves, ",")},
		})
	}

	for _, tb := range tables {
		counts := map[string]int{}
		n := 0
		for _, op := range history {
			in, out := op.Input.(raceInput), op.Output.(raceOutput)
			if in.Game != tb.g.ID || in.Read {
				continue
			}
			n++
			switch {
			case out.Unanswered:
				counts["unanswered"]++
			case out.Applied:
				counts["applied"]++
			default:
				counts[out.Reason]++
			}
		}
		t.Logf("game %s (%s): %d clicks, %d moves stored: %v", tb.g.ID, tb.g.Kind, n, len(h.game(tb.g.ID).Moves), counts)
		if counts["applied"] == 0 {
			t.Errorf("game %s: no click was applied", tb.g.ID)
		}
	}
	if unanswered == 0 && slices.ContainsFunc(records, func(r raceRecord) bool { return r.call > heldAt }) {
		t.Error("the answer held past 3 seconds did not leave its click unanswered")
	}
	t.Logf("%d of %d clicks unanswered, all delivered before the held answer", unanswered, len(records))

	// Every click ends when its answer arrived, so the check takes well
	// under a second; its bound is the test binary's, against a hang.
	checkStart := time.Now()
	switch res := porcupine.CheckOperationsTimeout(raceModel, history, waitTimeout()); res {
	case porcupine.Ok:
		t.Logf("%d clicks on %d games: linearizable (checked in %v)", len(records), len(tables), time.Since(checkStart).Round(time.Millisecond))
	case porcupine.Unknown:
		t.Errorf("the checker could not decide within its timeout on %d clicks", len(records))
	default:
		t.Errorf("the click history is not linearizable: the bot applied or refused a click as no sequential game allows, or stored other moves")
		raceReportViolation(t, history)
	}
	for _, tb := range tables {
		raceCheckStored(t, h, tb.g, history)
	}
}

// TestACaughtUpBoardIsNotAPlayedMove forces the interleaving behind a
// history once reported as not linearizable: alice's move is committed
// and its answer not yet sent when bob clicks the board Discord still
// shows, one ply behind. Bob's click waits for the game's lock; by then
// the board it came from is behind the game, so the bot brings it up to
// date (an update of the clicked message, as a played move's answer is)
// and says in a follow-up that nothing was played. That follow-up comes
// late, as on a loaded machine. Bob's move must not be stored, and the
// race test's reading of the answers must count his click as refused for
// being stale, not as a move played.
func TestACaughtUpBoardIsNotAPlayedMove(t *testing.T) {
	t.Parallel()
	hold := &commitHold{}
	h := start(t, withClock(), withStoreWrapped(func(s storage.Store) storage.Store { hold.Store = s; return hold }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	board := h.board(g.ID)
	held, release := hold.arm(g.ID, 1)
	five, _, _ := moveControl(board, "5")
	ixA, err := h.srv.ClickButton(alice, board.ID, five)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-held:
	case <-time.After(waitTimeout()):
		t.Fatal("alice's move never reached the store")
	}
	one, _, _ := moveControl(board, "1")
	ixB, err := h.srv.ClickSeen(bob, board, one)
	if err != nil {
		t.Fatal(err)
	}
	h.srv.InjectFault(discordtest.Fault{Method: http.MethodPost, Route: "/webhooks/{webhook_id}/{webhook_token}", Delay: 500 * time.Millisecond})
	close(release)
	for _, ix := range []*discordtest.Interaction{ixA, ixB} {
		if _, err := ix.Response(h.ctx()); err != nil {
			t.Fatalf("interaction %s: no answer: %v", ix.ID, err)
		}
	}

	in := func(user, name string, seat int, cell string) raceInput {
		return raceInput{Game: g.ID, Kind: g.Kind, First: 0, User: user, Name: name, Seat: seat, Ply: 0, Cell: cell}
	}
	records := []raceRecord{
		{client: 0, in: in(alice, "alice", 0, "5"), interaction: ixA.ID, call: 0, ret: 10},
		{client: 1, in: in(bob, "bob", 1, "1"), interaction: ixB.ID, call: 1, ret: 11},
	}
	answers := raceAnswers(t, h, records)
	history := []porcupine.Operation{}
	for _, r := range records {
		out := raceClassify(g.ID, answers[r.interaction])
		history = append(history, porcupine.Operation{ClientId: r.client, Input: r.in, Call: r.call, Output: out, Return: r.ret})
	}
	if out := history[0].Output.(raceOutput); !out.Applied || out.Ply != 1 {
		t.Errorf("alice's move: %s, want applied → ply 1", raceDescribe(history[0].Input, out))
	}
	if out := history[1].Output.(raceOutput); out.Applied || out.Reason != "stale" {
		t.Errorf("bob's click on the board behind: %s, want refused: stale", raceDescribe(history[1].Input, out))
	}
	if got := h.game(g.ID); !slices.Equal(got.Moves, []string{"5"}) {
		t.Errorf("stored moves %v, want [5]: bob's click must play nothing", got.Moves)
	}
	history = append(history, porcupine.Operation{ClientId: 2, Input: raceInput{Game: g.ID, Kind: g.Kind, Read: true},
		Call: 20, Output: raceOutput{Moves: strings.Join(h.game(g.ID).Moves, ",")}, Return: 21})
	if !porcupine.CheckOperations(raceModel, history) {
		t.Error("the two clicks' history is not linearizable")
		raceReportViolation(t, history)
	}
}

// commitHold is a store that holds one move's commit: once the move is
// stored, the committing handler waits, holding the game's lock, until
// the test releases it.
type commitHold struct {
	storage.Store
	mu      sync.Mutex
	game    storage.GameID
	moves   int
	held    chan struct{}
	release chan struct{}
}

// arm holds the commit that stores the moves-th move of game id: held
// closes once it is stored, and closing release lets the handler go on.
func (s *commitHold) arm(id storage.GameID, moves int) (held <-chan struct{}, release chan<- struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.game, s.moves, s.held, s.release = id, moves, make(chan struct{}), make(chan struct{})
	return s.held, s.release
}

func (s *commitHold) UpdateGame(ctx context.Context, g *storage.Game) error {
	err := s.Store.UpdateGame(ctx, g)
	s.mu.Lock()
	hold := err == nil && s.held != nil && g.ID == s.game && len(g.Moves) == s.moves
	held, release := s.held, s.release
	if hold {
		s.held = nil
	}
	s.mu.Unlock()
	if hold {
		close(held)
		<-release
	}
	return err
}

// raceClicker is one simulated client clicking move controls on a board.
type raceClicker struct {
	user, name string
	seat       int
}

// raceRecord is one click as it happened, before its answer is read.
type raceRecord struct {
	client      int
	in          raceInput
	interaction string
	// call is when the click was made; ret when the bot's first answer
	// to it arrived at the stand-in, accepted or refused as late: the bot
	// decides under the game's lock, then answers, so the click took
	// effect, if at all, between the two.
	call, ret int64
	accepted  bool // the stand-in accepted that answer
}

// raceBudget says how long a clicker clicks: until its game ends and
// afterEnd clicks more, or it made max clicks, or the deadline passed
// and it made at least min.
type raceBudget struct {
	min, max, afterEnd int
	deadline           time.Time
}

// run clicks move controls on g's board within budget, counting each
// click in clicks, and waits for the bot's answer to each before the
// next (ctx bounds that wait). Each click is on a snapshot of the board:
// usually the newest, often an older one, so stale, out-of-turn and
// illegal clicks happen a lot. stamp gives the history's time of an
// instant.
func (c raceClicker) run(ctx context.Context, srv *discordtest.Server, rng *rand.Rand, g *storage.Game, client int, budget raceBudget, stamp func(time.Time) int64, clicks *atomic.Int64) ([]raceRecord, error) {
	var (
		recs []raceRecord
		seen []discordtest.Message // snapshots that had move controls
	)
	afterEnd := budget.afterEnd
	for len(recs) < budget.max && (len(recs) < budget.min || time.Now().Before(budget.deadline)) {
		cur, ok := srv.Message(g.MessageID)
		if !ok {
			return recs, fmt.Errorf("the board message %s is gone", g.MessageID)
		}
		ended := len(raceMoveControls(cur, true)) == 0
		if !ended && (len(seen) == 0 || seen[len(seen)-1].Version != cur.Version) {
			seen = append(seen, cur)
		}
		if ended {
			if afterEnd == 0 || len(seen) == 0 {
				break
			}
			afterEnd--
		}
		snap := cur
		if ended || rng.IntN(3) == 0 {
			snap = seen[rng.IntN(len(seen))]
		}
		controls := raceMoveControls(snap, rng.IntN(4) == 0)
		if len(controls) == 0 {
			controls = raceMoveControls(snap, true)
		}
		cid := controls[rng.IntN(len(controls))]
		p, _ := customid.Move.Match(cid)
		ply, err := strconv.Atoi(p["ply"])
		if err != nil {
			return recs, fmt.Errorf("custom ID %q: bad ply", cid)
		}
		in := raceInput{Game: g.ID, Kind: g.Kind, First: g.Turn, User: c.user, Name: c.name, Seat: c.seat, Ply: ply, Cell: p["cell"]}
		call := stamp(time.Now())
		ix, err := srv.ClickSeen(c.user, snap, cid)
		if err != nil {
			return recs, fmt.Errorf("click %s: %w", cid, err)
		}
		clicks.Add(1)
		a, err := ix.Answered(ctx)
		if err != nil {
			return recs, fmt.Errorf("click %s: no answer: %w", cid, err)
		}
		recs = append(recs, raceRecord{client: client, in: in, interaction: ix.ID, call: call, ret: stamp(a.At), accepted: a.Accepted})
	}
	return recs, nil
}

// raceWaitLateAnswer waits until the stand-in refused an answer as late
// (the held one) or the clicking is over, and returns when, by now: every
// click delivered after that must be answered in time.
func raceWaitLateAnswer(srv *discordtest.Server, clicked <-chan struct{}, now func() int64) int64 {
	for {
		for _, r := range srv.Requests() {
			if r.Route == "/interactions/{interaction_id}/{interaction_token}/callback" && r.Status == http.StatusNotFound {
				return now()
			}
		}
		select {
		case <-clicked:
			return now()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// raceAnswers reads the bot's answers to the recorded clicks from the
// stand-in's request log, once the bot has settled. A click whose answer
// did not land must at least have been attempted (and refused for
// lateness): the bot answers every interaction. The answer alone does not
// say everything: an update that only brought a board behind its game up
// to date is told by the follow-up the same handler sends after it, so
// the bot is stopped — shutdown waits for every handler — before the log
// is read.
func raceAnswers(t *testing.T, h *harness, records []raceRecord) map[string]raceCallback {
	t.Helper()
	waitCallbacks := time.Now().Add(waitTimeout())
	for {
		answers := raceCallbacks(h.srv.Requests())
		missing := ""
		for _, r := range records {
			if _, ok := answers[r.interaction]; !ok {
				missing = r.interaction
			}
		}
		if missing == "" {
			break
		}
		if time.Now().After(waitCallbacks) {
			t.Fatalf("the bot never answered interaction %s", missing)
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.stop()
	return raceCallbacks(h.srv.Requests())
}

// raceMoveControls returns the custom IDs of a board's move buttons: the
// enabled ones, or all of them (marked Tic-Tac-Toe cells included) if all
// is true.
func raceMoveControls(m discordtest.Message, all bool) []string {
	var out []string
	for _, c := range components(m) {
		if _, ok := customid.Move.Match(c.CustomID); ok && (all || !c.Disabled) {
			out = append(out, c.CustomID)
		}
	}
	return out
}

// raceCallback is the bot's answer to an interaction as the stand-in
// logged it: the accepted callback's body, or only its refusal.
type raceCallback struct {
	accepted bool
	status   int
	// caughtUp marks an update that only brought a board that was behind
	// its game up to date, as the follow-up saying nothing was played
	// tells.
	caughtUp bool
	Type     discordgo.InteractionResponseType `json:"type"`
	Data     struct {
		Content    string                 `json:"content"`
		Flags      discordgo.MessageFlags `json:"flags"`
		Components []raceComponent        `json:"components"`
	} `json:"data"`
}

type raceComponent struct {
	CustomID   string          `json:"custom_id"`
	Components []raceComponent `json:"components"`
}

// raceCallbacks returns the bot's answers by interaction ID: the accepted
// callback if there is one, else the last refused one; and whether a
// follow-up said the update only caught the board up.
func raceCallbacks(reqs []discordtest.Request) map[string]raceCallback {
	out := map[string]raceCallback{}
	byToken := map[string]string{}
	for _, r := range reqs {
		if r.Route != "/interactions/{interaction_id}/{interaction_token}/callback" {
			continue
		}
		segs := strings.Split(r.Path, "/")
		i := slices.Index(segs, "interactions")
		if i < 0 || i+2 >= len(segs) {
			continue
		}
		id := segs[i+1]
		byToken[segs[i+2]] = id
		if out[id].accepted {
			continue
		}
		b := raceCallback{accepted: r.Status/100 == 2, status: r.Status}
		if b.accepted {
			if err := json.Unmarshal(r.Body, &b); err != nil {
				b.Data.Content = fmt.Sprintf("undecodable body %q", r.Body)
			}
		}
		out[id] = b
	}
	for _, r := range reqs {
		if r.Route != "/webhooks/{webhook_id}/{webhook_token}" || !strings.Contains(string(r.Body), "Nothing was played") {
			continue
		}
		segs := strings.Split(r.Path, "/")
		if id, ok := byToken[segs[len(segs)-1]]; ok {
			b := out[id]
			b.caughtUp = true
			out[id] = b
		}
	}
	return out
}

// raceClassify reads a move click's answer.
func raceClassify(game storage.GameID, b raceCallback) raceOutput {
	switch {
	case !b.accepted && b.status == 404:
		return raceOutput{Unanswered: true}
	case !b.accepted:
		return raceOutput{Reason: fmt.Sprintf("other: the answer was refused with status %d", b.status)}
	case b.caughtUp:
		// A board behind its game (its answer was in flight) brought up
		// to date; the click itself was stale.
		return raceOutput{Reason: "stale"}
	case b.Type == discordgo.InteractionResponseUpdateMessage && b.Data.Flags&discordgo.MessageFlagsEphemeral == 0:
		out := raceOutput{Applied: true, Ply: -1}
		var walk func([]raceComponent)
		walk = func(cs []raceComponent) {
			for _, c := range cs {
				for _, p := range []customid.Pattern{customid.Move, customid.Resign} {
					if params, ok := p.Match(c.CustomID); ok && params["game"] == string(game) {
						out.Ply, _ = strconv.Atoi(params["ply"])
					}
				}
				if params, ok := customid.Rematch.Match(c.CustomID); ok && params["game"] == string(game) {
					out.Ended = true
				}
				walk(c.Components)
			}
		}
		walk(b.Data.Components)
		return out
	case b.Type == discordgo.InteractionResponseChannelMessageWithSource && b.Data.Flags&discordgo.MessageFlagsEphemeral != 0:
		for _, r := range raceRefusals {
			if strings.Contains(b.Data.Content, r.text) {
				return raceOutput{Reason: r.reason}
			}
		}
	}
	return raceOutput{Reason: fmt.Sprintf("other: response type %d, flags %d: %q", b.Type, b.Data.Flags, b.Data.Content)}
}

// raceReportViolation logs the operations of the games whose histories
// are not linearizable and writes porcupine's visualisation of them.
func raceReportViolation(t *testing.T, history []porcupine.Operation) {
	t.Helper()
	for _, part := range racePartition(history) {
		if porcupine.CheckOperations(raceModel, part) {
			continue
		}
		part = slices.Clone(part)
		slices.SortStableFunc(part, func(a, b porcupine.Operation) int { return int(a.Call - b.Call) })
		var b strings.Builder
		for _, op := range part {
			fmt.Fprintf(&b, "  [%9.3fms %9.3fms] client %d: %s\n", float64(op.Call)/1e6, float64(op.Return)/1e6, op.ClientId, raceDescribe(op.Input, op.Output))
		}
		t.Logf("game %s is not linearizable; its operations by call time:\n%s", part[0].Input.(raceInput).Game, b.String())
		_, info := porcupine.CheckOperationsVerbose(raceModel, part, 30*time.Second)
		if dir, err := os.MkdirTemp("", "gambit-porcupine-"); err == nil {
			path := filepath.Join(dir, "history.html")
			if err := porcupine.VisualizePath(raceModel, info, path); err == nil {
				t.Logf("visualisation: %s", path)
			}
		}
	}
}

// raceCheckStored checks a game as stored against the clicks answered as
// applied and against a replay of its moves, and its board message
// against the game.
func raceCheckStored(t *testing.T, h *harness, g0 *storage.Game, history []porcupine.Operation) {
	t.Helper()
	g := h.game(g0.ID)
	applied, unanswered := 0, 0
	for _, op := range history {
		in, out := op.Input.(raceInput), op.Output.(raceOutput)
		switch {
		case in.Game != g.ID || in.Read:
		case out.Unanswered:
			unanswered++
		case out.Applied:
			applied++
			i := out.Ply - 1
			if out.Ended {
				i = len(g.Moves) - 1
			}
			if i < 0 || i >= len(g.Moves) || g.Moves[i] != in.Cell {
				t.Errorf("game %s: %s was answered as played as move %d, but the stored moves are %v", g.ID, raceDescribe(in, out), i+1, g.Moves)
			}
		}
	}
	if n := len(g.Moves); n < applied || n > applied+unanswered {
		t.Errorf("game %s: %d moves stored, but %d clicks were answered as applied and %d unanswered", g.ID, n, applied, unanswered)
	}
	gm, err := catalog.Lookup(string(g.Kind))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gm.Start(games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range g.Moves {
		mv, err := pos.ParseMove(m)
		if err != nil || !pos.Legal(mv) {
			t.Errorf("game %s: stored move %s is illegal after %v", g.ID, m, g.Moves)
			return
		}
		pos.Play(mv)
	}
	if g.Position != pos.String() {
		t.Errorf("game %s: stored position %q, the replay of its moves gives %q", g.ID, g.Position, pos.String())
	}
	want := storage.StatusActive
	if pos.Terminal() {
		want = storage.StatusFinished
	}
	if g.Status != want {
		t.Errorf("game %s: %s after moves %v, want %s", g.ID, g.Status, g.Moves, want)
	}
	if w := g0.Turn ^ len(g.Moves)%2; g.Turn != w {
		t.Errorf("game %s: seat %d to move after %d moves, want %d", g.ID, g.Turn, len(g.Moves), w)
	}
	// Every answer has landed and each was sent under the game's lock, so
	// the board shows the game as stored.
	h.waitBoard(g.ID, "the board to show the stored game", func(m discordtest.Message) bool {
		if want == storage.StatusFinished {
			_, ok := find(m, customid.Rematch, nil)
			return ok
		}
		ids := raceMoveControls(m, true)
		if len(ids) == 0 {
			return false
		}
		p, _ := customid.Move.Match(ids[0])
		return p["ply"] == strconv.Itoa(len(g.Moves))
	})
}

// testRaceModelRejectsDoctoredHistories checks the checker: histories a
// correct bot cannot produce must be reported, and plausible ones must
// pass.
func testRaceModelRejectsDoctoredHistories(t *testing.T) {
	in := func(name string, seat, ply int, cell string) raceInput {
		return raceInput{Game: "g1", Kind: storage.Kind("tictactoe"), User: name, Name: name, Seat: seat, Ply: ply, Cell: cell}
	}
	read := raceInput{Game: "g1", Kind: storage.Kind("tictactoe"), Read: true}
	stored := func(moves string) raceOutput { return raceOutput{Moves: moves} }
	applied := func(ply int) raceOutput { return raceOutput{Applied: true, Ply: ply} }
	refused := func(reason string) raceOutput { return raceOutput{Reason: reason} }
	unanswered := raceOutput{Unanswered: true}
	op := func(client int, i raceInput, call int64, o raceOutput, ret int64) porcupine.Operation {
		return porcupine.Operation{ClientId: client, Input: i, Call: call, Output: o, Return: ret}
	}
	for _, tc := range []struct {
		name    string
		history []porcupine.Operation
		ok      bool
	}{
		{"two clicks of one ply both applied", []porcupine.Operation{
			op(0, in("alice", 0, 0, "5"), 0, applied(1), 10),
			op(1, in("alice", 0, 0, "1"), 1, applied(1), 11),
		}, false},
		{"two clicks of one ply, one refused", []porcupine.Operation{
			op(0, in("alice", 0, 0, "5"), 0, applied(1), 10),
			op(1, in("alice", 0, 0, "1"), 1, refused("turn"), 11),
			op(2, in("carol", -1, 0, "1"), 2, refused("bystander"), 12),
			op(3, read, 20, stored("5"), 21),
		}, true},
		{"an out-of-turn click applied", []porcupine.Operation{
			op(0, in("bob", 1, 0, "5"), 0, applied(1), 10),
		}, false},
		{"a stale click applied", []porcupine.Operation{
			op(0, in("alice", 0, 0, "5"), 0, applied(1), 10),
			op(1, in("bob", 1, 1, "1"), 20, applied(2), 30),
			op(0, in("alice", 0, 0, "2"), 40, applied(3), 50),
		}, false},
		{"a stale click refused", []porcupine.Operation{
			op(0, in("alice", 0, 0, "5"), 0, applied(1), 10),
			op(1, in("bob", 1, 1, "1"), 20, applied(2), 30),
			op(0, in("alice", 0, 0, "2"), 40, refused("stale"), 50),
		}, true},
		{"a refusal for the wrong reason", []porcupine.Operation{
			op(0, in("alice", 0, 0, "5"), 0, refused("stale"), 10),
		}, false},
		{"a click applied on a taken cell", []porcupine.Operation{
			op(0, in("alice", 0, 0, "5"), 0, applied(1), 10),
			op(1, in("bob", 1, 1, "5"), 20, applied(2), 30),
		}, false},
		{"a legal click refused after the move before it returned", []porcupine.Operation{
			op(0, in("alice", 0, 0, "5"), 0, applied(1), 10),
			op(1, in("bob", 1, 1, "1"), 20, refused("turn"), 30),
		}, false},
		{"a store that lost an applied move", []porcupine.Operation{
			op(0, in("alice", 0, 0, "5"), 0, applied(1), 10),
			op(1, read, 20, stored(""), 21),
		}, false},
		{"an unanswered click that was played", []porcupine.Operation{
			op(0, in("alice", 0, 0, "5"), 0, unanswered, math.MaxInt64),
			op(1, in("bob", 1, 1, "1"), 20, applied(2), 30),
			op(2, read, 40, stored("5,1"), 41),
		}, true},
		{"an unanswered click that was not played", []porcupine.Operation{
			op(0, in("alice", 0, 0, "5"), 0, unanswered, math.MaxInt64),
			op(1, read, 40, stored(""), 41),
		}, true},
		{"a refused click's move stored", []porcupine.Operation{
			op(0, in("bob", 1, 0, "5"), 0, refused("turn"), 10),
			op(1, read, 40, stored("5"), 41),
		}, false},
	} {
		if got := porcupine.CheckOperations(raceModel, tc.history); got != tc.ok {
			t.Errorf("%s: linearizable %v, want %v", tc.name, got, tc.ok)
		}
	}
}

func TestDuplicateDeliveriesAndDoubleClicks(t *testing.T) {
	t.Parallel()
	// Discord's 3 seconds on the manual clock: on a loaded machine the
	// real ones pass while the bot is still working, and the test is not
	// about lateness.
	h := start(t, withClock())
	ctx := context.Background()
	users := func(names ...string) []string {
		ids := make([]string, len(names))
		for i, n := range names {
			ids[i] = h.srv.AddUser(n).ID
		}
		return ids
	}
	ab, cd, ef, gh := users("alice", "bob"), users("carol", "dave"), users("erin", "frank"), users("grace", "heidi")
	zoe := h.srv.AddUser("zoe").ID

	// answer waits for the response to ix and the message it settles on.
	type answer struct {
		ix   *discordtest.Interaction
		resp discordtest.Response
		msg  discordtest.Message
	}
	await := func(ixs ...*discordtest.Interaction) []answer {
		t.Helper()
		out := make([]answer, len(ixs))
		for i, ix := range ixs {
			resp, err := ix.Response(h.ctx()) // each wait has its own hang guard
			if err != nil {
				// Say whether the bot answered too late for Discord (a
				// loaded machine) or not at all.
				cb, tried := raceCallbacks(h.srv.Requests())[ix.ID]
				t.Fatalf("interaction %s: no response: %v (callback attempted %v, status %d)", ix.ID, err, tried, cb.status)
			}
			m, err := ix.Reply(h.ctx())
			if err != nil {
				t.Fatalf("interaction %s: no reply: %v", ix.ID, err)
			}
			out[i] = answer{ix, resp, m}
		}
		return out
	}
	seen := func(user string, m discordtest.Message, cid string) *discordtest.Interaction {
		t.Helper()
		ix, err := h.srv.ClickSeen(user, m, cid)
		if err != nil {
			t.Fatalf("click %s: %v", cid, err)
		}
		return ix
	}
	// onePublic checks that exactly one of the answers is public and that
	// the others are ephemeral refusals containing want; it returns the
	// public one.
	onePublic := func(what string, as []answer, want string) answer {
		t.Helper()
		var public []answer
		for _, a := range as {
			switch {
			case !a.msg.Ephemeral():
				public = append(public, a)
			case !strings.Contains(a.msg.Content, want):
				t.Errorf("%s: a refused click was told %q, want %q", what, a.msg.Content, want)
			}
		}
		if len(public) != 1 {
			t.Fatalf("%s: %d of %d clicks were answered publicly, want exactly 1", what, len(public), len(as))
		}
		return public[0]
	}
	redeliver := func(ix *discordtest.Interaction) {
		t.Helper()
		if err := ix.Redeliver(); err != nil {
			t.Fatal(err)
		}
	}
	challenge := func(p []string, kind storage.Kind) (*storage.Game, discordtest.Message) {
		t.Helper()
		_, m := h.command(p[0], "play", opt("game", string(kind)), opt("opponent", p[1]))
		g := h.waitGame(h.latestGame(p[0]).ID, "the challenge to be saved", func(g *storage.Game) bool { return g.MessageID != "" })
		return g, m
	}
	unchanged := func(what string, before *storage.Game) {
		t.Helper()
		if g := h.game(before.ID); g.Version != before.Version || g.Status != before.Status || !slices.Equal(g.Moves, before.Moves) {
			t.Errorf("%s changed game %s: %s %v v%d, was %s %v v%d", what, g.ID, g.Status, g.Moves, g.Version,
				before.Status, before.Moves, before.Version)
		}
	}
	// pending returns the pending games between two players.
	pending := func(p []string) []*storage.Game {
		t.Helper()
		games, err := h.store.ActiveGames(ctx, storage.User(p[0]))
		if err != nil {
			t.Fatal(err)
		}
		var out []*storage.Game
		for _, g := range games {
			if g.Status == storage.StatusPending && g.Seat(storage.User(p[1])) >= 0 {
				out = append(out, g)
			}
		}
		return out
	}
	// win plays Tic-Tac-Toe moves to the end, seat 0 winning the middle
	// column, and returns the board as it was before the last move.
	win := func(g *storage.Game, p []string) discordtest.Message {
		t.Helper()
		var before discordtest.Message
		played := len(h.game(g.ID).Moves)
		for i, cell := range []string{"5", "1", "2", "3", "8"}[played:] {
			before = h.board(g.ID)
			seat := (played + i) % 2
			if m := h.move(p[seat], g.ID, cell); m.Ephemeral() {
				t.Fatalf("move %s refused: %s", cell, m.Content)
			}
		}
		if g := h.game(g.ID); g.Status != storage.StatusFinished || g.Result.Winner != 0 {
			t.Fatalf("game %s is %s with %+v, want a win of seat 0", g.ID, g.Status, g.Result)
		}
		return before
	}
	ratedOnce := func(kind storage.Kind, p []string) {
		t.Helper()
		for _, l := range []storage.Ladder{storage.Global(kind), {Kind: kind, Guild: h.srv.GuildID()}} {
			for _, u := range p {
				rv, err := h.store.Rank(ctx, l, storage.User(u), 0)
				if err != nil || rv.Player.Rating.Games != 1 {
					t.Errorf("ladder %s: %s is rated for %d games (%v), want 1", l, u, rv.Player.Rating.Games, err)
				}
			}
		}
	}

	// An Accept delivered twice starts the game once.
	g1, m := challenge(ab, storage.Kind("tictactoe"))
	accept, _ := find(m, customid.Accept, nil)
	ix, err := h.srv.ClickButton(ab[1], m.ID, accept)
	if err != nil {
		t.Fatal(err)
	}
	redeliver(ix)
	if a := await(ix)[0]; a.msg.Ephemeral() || a.msg.ID != m.ID {
		t.Fatalf("the redelivered Accept's reply: %+v", a.msg)
	}
	raceWaitDuplicate(h, ix.ID)
	if g := h.game(g1.ID); g.Status != storage.StatusActive || g.Version != g1.Version+1 {
		t.Errorf("after one Accept delivered twice the game is %s at version %d, want active at %d", g.Status, g.Version, g1.Version+1)
	}

	// A move delivered twice is played once.
	board := h.board(g1.ID)
	cell5, _, _ := moveControl(board, "5")
	ix, err = h.srv.ClickButton(ab[0], board.ID, cell5)
	if err != nil {
		t.Fatal(err)
	}
	redeliver(ix)
	if a := await(ix)[0]; a.msg.Ephemeral() {
		t.Fatalf("the redelivered move's reply: %q", a.msg.Content)
	}
	raceWaitDuplicate(h, ix.ID)
	if g := h.game(g1.ID); !slices.Equal(g.Moves, []string{"5"}) {
		t.Errorf("moves %v after one click delivered twice, want [5]", g.Moves)
	}

	// The challenged player's two concurrent Accepts start the game once.
	g2, m := challenge(cd, storage.Kind("tictactoe"))
	accept, _ = find(m, customid.Accept, nil)
	onePublic("two concurrent Accepts", await(seen(cd[1], m, accept), seen(cd[1], m, accept)), "no longer open")
	if g := h.game(g2.ID); g.Status != storage.StatusActive || g.Version != g2.Version+1 {
		t.Errorf("after two concurrent Accepts the game is %s at version %d, want active at %d", g.Status, g.Version, g2.Version+1)
	}

	// An Accept racing the challenger's withdrawal: one of them wins.
	g3, m := challenge(ef, storage.Kind("connect4"))
	accept, _ = find(m, customid.Accept, nil)
	decline, _ := find(m, customid.Decline, nil)
	won := onePublic("Accept racing a withdrawal", await(seen(ef[1], m, accept), seen(ef[0], m, decline)), "no longer open")
	want := storage.StatusActive
	if won.ix.UserID == ef[0] {
		want = storage.StatusWithdrawn
	}
	if g := h.game(g3.ID); g.Status != want || g.Version != g3.Version+1 {
		t.Errorf("after an Accept raced a withdrawal, %s won but the game is %s at version %d (was %d)", won.ix.UserID, g.Status, g.Version, g3.Version)
	}

	// A click on a finished game's old board is refused and changes
	// nothing; so is an old Accept.
	old := win(g1, ab)
	done := h.game(g1.ID)
	cell4, _, _ := moveControl(old, "4")
	if r := h.clickSeen(ab[1], old, cell4); !r.Ephemeral() || !strings.Contains(r.Content, "over") {
		t.Errorf("a click on the finished game's old board: %q (ephemeral %v), want an ephemeral \"over\"", r.Content, r.Ephemeral())
	}
	if r := h.clickSeen(zoe, old, cell4); !r.Ephemeral() || !strings.Contains(r.Content, "not your game") {
		t.Errorf("a bystander's click on the finished game's old board: %q", r.Content)
	}
	unchanged("clicks on the finished game's old board", done)
	if r := h.clickSeen(ef[1], m, accept); !r.Ephemeral() || !strings.Contains(r.Content, "no longer open") {
		t.Errorf("an Accept of a challenge already answered: %q", r.Content)
	}
	ratedOnce(storage.Kind("tictactoe"), ab)

	// Rematch pressed by both players at once starts one new game.
	finished := h.board(g1.ID)
	rematch, ok := find(finished, customid.Rematch, nil)
	if !ok {
		t.Fatalf("no Rematch on the finished board: %+v", finished.Components)
	}
	onePublic("Rematch pressed by both players", await(seen(ab[0], finished, rematch), seen(ab[1], finished, rematch)), "already started")
	if got := pending(ab); len(got) != 1 {
		t.Errorf("%d pending rematches between alice and bob, want 1", len(got))
	}
	if r := h.clickSeen(ab[1], finished, rematch); !r.Ephemeral() || !strings.Contains(r.Content, "already started") {
		t.Errorf("a third Rematch click: %q", r.Content)
	}
	if _, ok := find(h.board(g1.ID), customid.Rematch, nil); ok {
		t.Error("the old board still offers a Rematch")
	}
	// The rematch changed the old game by its claim alone: one version.
	if g := h.game(g1.ID); !g.Rematched || g.Version != done.Version+1 || g.Status != done.Status || !slices.Equal(g.Moves, done.Moves) {
		t.Errorf("the rematch changed game %s to %s %v v%d rematched %v, was %s %v v%d", g.ID, g.Status, g.Moves, g.Version,
			g.Rematched, done.Status, done.Moves, done.Version)
	}

	// A Rematch delivered twice starts one new game.
	win(g2, cd)
	finished = h.board(g2.ID)
	rematch, _ = find(finished, customid.Rematch, nil)
	ix, err = h.srv.ClickButton(cd[1], finished.ID, rematch)
	if err != nil {
		t.Fatal(err)
	}
	redeliver(ix)
	if a := await(ix)[0]; a.msg.Ephemeral() {
		t.Fatalf("the redelivered Rematch's reply: %q", a.msg.Content)
	}
	raceWaitDuplicate(h, ix.ID)
	if got := pending(cd); len(got) != 1 || got[0].Players[0].ID != storage.User(cd[1]) {
		t.Errorf("pending rematches between carol and dave: %d, want 1 challenged by dave", len(got))
	}
	ratedOnce(storage.Kind("tictactoe"), cd)

	// Resign confirmed twice by one player and once by the other, all at
	// once: the game finishes once and is rated once.
	g4 := challengeAndAccept(t, h, gh[0], gh[1], storage.Kind("connect4"))
	board = h.board(g4.ID)
	resign, ok := find(board, customid.Resign, nil)
	if !ok {
		t.Fatalf("no Resign button: %+v", board.Components)
	}
	type prompt struct {
		user string
		msg  discordtest.Message
		yes  string
	}
	var prompts []prompt
	for _, u := range []string{gh[0], gh[0], gh[1]} {
		m := h.click(u, board.ID, resign)
		yes, ok := find(m, customid.ResignConfirm, nil)
		if !ok || !m.Ephemeral() {
			t.Fatalf("the Resign prompt: %+v", m)
		}
		prompts = append(prompts, prompt{u, m, yes})
	}
	// grace confirms on both of her prompts, heidi on hers, all at once.
	var confirms []*discordtest.Interaction
	for _, p := range prompts {
		confirms = append(confirms, seen(p.user, p.msg, p.yes))
	}
	var resigned []answer
	for _, a := range await(confirms...) {
		switch {
		case a.resp.Type == discordgo.InteractionResponseUpdateMessage && strings.Contains(a.msg.Content, "You resigned"):
			resigned = append(resigned, a)
		case !a.msg.Ephemeral() || !strings.Contains(a.msg.Content, "over"):
			t.Errorf("a losing Resign confirmation was told %q (response type %d)", a.msg.Content, a.resp.Type)
		}
	}
	if len(resigned) != 1 {
		t.Fatalf("%d Resign confirmations took effect, want 1", len(resigned))
	}
	g := h.game(g4.ID)
	loser := g.Seat(storage.User(resigned[0].ix.UserID))
	if g.Status != storage.StatusFinished || g.Result == nil || g.Result.Winner != 1-loser || g.Result.Outcome != storage.Resigned {
		t.Errorf("after the resignation of seat %d the game is %s with %+v", loser, g.Status, g.Result)
	}
	ratedOnce(storage.Kind("connect4"), gh)
	if hist, err := h.store.History(ctx, storage.User(gh[0]), 10); err != nil || len(hist) != 1 {
		t.Errorf("grace's history: %d games (%v), want 1", len(hist), err)
	}
	h.waitBoard(g4.ID, "the resignation on the board", func(m discordtest.Message) bool {
		_, ok := find(m, customid.Rematch, nil)
		return ok
	})

	for _, r := range h.srv.Requests() {
		if r.Status == 400 && strings.Contains(string(r.Response), "40060") {
			t.Errorf("the bot answered an interaction twice: %s %s", r.Method, r.Path)
		}
	}
}

// raceWaitDuplicate waits until the bot logs that it ignored a second
// delivery of an interaction.
func raceWaitDuplicate(h *harness, id string) {
	h.t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for {
		for _, line := range strings.Split(h.logs.String(), "\n") {
			if strings.Contains(line, "duplicate delivery") && strings.Contains(line, "interaction="+id) {
				return
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the second delivery of interaction %s was not logged as a duplicate", id)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
