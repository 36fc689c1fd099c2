package review_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/review"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/storage"
	gamereview "github.com/gambitbot/gambit/strategies/review"
)

// g1 and g2 are the IDs the store gives the first and second games a
// test adds.
var g1, g2 = storage.SequenceID(1), storage.SequenceID(2)

// TestReviewIsDeferredShownPrivatelyAndKept: bob's click on Review is
// answered at once with a private "thinking…", then with the review and
// its pictures (drawn), which is kept with the game; carol, who did not
// play but asks in the game's channel, is shown the kept review without an
// analysis and without a slot of the server's rate, which one review used
// up.
func TestReviewIsDeferredShownPrivatelyAndKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *review.Config) { c.Rate, c.Draw = 1, nil })
	g := ticTacToe(t, "guild", "channel", "alice", "bob")
	e.store.add(g)
	token, err := e.send(muxtest.Click(muxtest.Member("bob", 0), discordgo.EnglishUS, customid.Review.Build(string(g1))))
	if err != nil {
		t.Fatal(err)
	}
	e.deferred(token)
	shown(t, e.rec.answer(token))
	pictured(t, e.rec.answer(token))
	if e.store.kept(g1) == nil {
		t.Fatal("the review was not kept with the game")
	}
	if claims := e.store.held(t, "review/member/"); len(claims) != 0 {
		t.Errorf("claims on reviews in the making once shown: %v, want none", claims)
	}
	shown(t, e.review("carol", "guild", "channel", g1))
	if n := e.analyst.count.Load(); n != 1 {
		t.Errorf("analysed %d times, want once: the second review is the kept one", n)
	}
}

// TestReviewCommandCompletesAndRefuses: /review's autocomplete offers the
// member's finished duels with moves whose IDs begin with what they typed;
// a game in progress, a puzzle, a game without moves, an unknown ID and no
// ID are refused with the member's words, and nothing is analysed.
func TestReviewCommandCompletesAndRefuses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	done := ticTacToe(t, "guild", "channel", "alice", "bob")
	done.ID = storage.SequenceID(10) // 0000000a: a letter to type in either case
	playing := ticTacToe(t, "guild", "channel", "alice", "bob")
	playing.Status, playing.Result = storage.StatusActive, nil
	puzzle := ticTacToe(t, "guild", "channel", "alice", "bob")
	puzzle.Players, puzzle.Turn = puzzle.Players[:1], 0
	empty := ticTacToe(t, "guild", "channel", "alice", "bob")
	empty.Moves = nil
	e.store.add(done, playing, puzzle, empty)

	for typed, want := range map[string][]string{"": {string(done.ID)}, "0000000A": {string(done.ID)}, "x": nil} {
		raw := muxtest.Autocomplete(muxtest.Member("alice", 0), "review", muxtest.Option("game", discordgo.ApplicationCommandOptionString, typed))
		token, err := e.send(raw)
		if err != nil {
			t.Fatal(err)
		}
		resp, _ := e.rec.answered(token)
		var got []string
		for _, c := range resp[0].Data.Choices {
			got = append(got, c.Value.(string))
			if !strings.Contains(c.Name, "Tic-Tac-Toe") || !strings.Contains(c.Name, "bob") {
				t.Errorf("the choice %q does not name the game and the opponent", c.Name)
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("typed %q: offered %v, want %v", typed, got, want)
		}
	}

	for id, want := range map[storage.GameID]string{
		playing.ID: "not over yet", puzzle.ID: "A puzzle has no review", empty.ID: "No move was played",
		"nosuchgame": "There is no game nosuchgame", "": "no finished game to review",
	} {
		token, err := e.ask("alice", "guild", "channel", id)
		e.refused(token, err, want)
	}
	if n := e.analyst.count.Load(); n != 0 {
		t.Errorf("analysed %d games, want none", n)
	}
}

// TestReviewOnlyOfGamesTheMemberCouldSee: carol asks for the reviews of
// games she could not see — in a group DM she is not in, in another
// server, in another channel of her server — by /review game: and by a
// forged Review button: each is refused with the words an unknown game
// gets, so that the answer does not tell the game exists, and none is
// analysed. In the game's channel she may review it, and a player may
// review their game wherever they ask.
func TestReviewOnlyOfGamesTheMemberCouldSee(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dm, other, side := ticTacToe(t, "", "group-dm", "alice", "bob"), ticTacToe(t, "elsewhere", "private", "alice", "bob"), ticTacToe(t, "guild", "side", "alice", "bob")
	e.store.add(dm, other, side)
	hidden := map[string]*storage.Game{
		"a group DM carol is not in":        dm,
		"another server":                    other,
		"another channel of carol's server": side,
	}
	_, unknown := e.ask("carol", "guild", "channel", "zzzzzzzz")
	for where, g := range hidden {
		want := muxtest.UserError(t, unknown, "en-US")
		want = strings.ReplaceAll(want, "zzzzzzzz", string(g.ID))
		token, err := e.ask("carol", "guild", "channel", g.ID)
		if got := muxtest.UserError(t, err, "en-US"); got != want {
			t.Errorf("carol's /review of the game in %s: %q, want %q as for an unknown game", where, got, want)
		}
		e.refused(token, err, want)
		token, err = e.send(muxtest.Click(muxtest.Member("carol", 0), discordgo.EnglishUS, customid.Review.Build(string(g.ID))))
		e.refused(token, err, want)
	}
	if n := e.analyst.count.Load(); n != 0 {
		t.Fatalf("%d games analysed for reviews carol may not see, want none", n)
	}
	shown(t, e.review("carol", "guild", "side", side.ID))
	shown(t, e.review("alice", "guild", "channel", dm.ID))
}

// TestTheRateOfAPlace: with a rate of two reviews an hour, two members of
// a server have reviews made and a third is refused, told when a slot
// frees up; a kept review is shown all the same, and the members of
// another place have their own rate. Once the hour is over, the third is
// made.
func TestTheRateOfAPlace(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *review.Config) { c.Rate = 2 })
	first, second, third := ticTacToe(t, "guild", "channel", "alice", "bob"), ticTacToe(t, "guild", "channel", "carol", "dave"), ticTacToe(t, "guild", "channel", "dave", "bob")
	e.store.add(first, second, third)
	shown(t, e.review("alice", "guild", "channel", g1))
	e.clock.Advance(10 * time.Minute)
	shown(t, e.review("carol", "guild", "channel", g2))
	token, err := e.ask("dave", "guild", "channel", third.ID)
	freed := e.clock.Now().Add(50 * time.Minute).Unix() // the first slot's end
	e.refused(token, err, "as many new reviews")
	e.refused(token, err, "<t:"+strconv.FormatInt(freed, 10)+":R>")
	if claims := e.store.held(t, "review/member/"); len(claims) != 0 {
		t.Errorf("a refused review holds the member's claim: %v", claims)
	}
	shown(t, e.review("bob", "guild", "channel", g1)) // kept: no slot needed
	if n := e.analyst.count.Load(); n != 2 {
		t.Errorf("analysed %d games, want 2", n)
	}
	shown(t, e.review("dave", "elsewhere", "channel", third.ID)) // another server's rate
	e.store.forget()
	e.clock.Advance(time.Hour)
	shown(t, e.review("dave", "guild", "channel", third.ID))
}

// TestAMembersSecondReviewWaitsForTheFirst: while a member's review is
// made, their next is refused, so that one member cannot fill the review
// threads; once the first is shown, the next is made. A claim on their
// review left by a process that died holds until it expires.
func TestAMembersSecondReviewWaitsForTheFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.analyst.reached, e.analyst.hold = make(chan storage.GameID, 2), make(chan struct{}, 2)
	e.store.add(ticTacToe(t, "guild", "channel", "alice", "bob"), ticTacToe(t, "guild", "channel", "alice", "carol"))
	first, err := e.ask("alice", "guild", "channel", g1)
	if err != nil {
		t.Fatal(err)
	}
	<-e.analyst.reached
	token, err := e.ask("alice", "guild", "channel", g2)
	e.refused(token, err, "still being made")
	e.analyst.hold <- struct{}{}
	shown(t, e.rec.answer(first))
	e.analyst.hold <- struct{}{}
	shown(t, e.review("alice", "guild", "channel", g2))

	e.store.forget()
	if ok, _ := e.store.Claim(context.Background(), "review/member/alice", "a-dead-process/1", 30*time.Second); !ok {
		t.Fatal("the dead process's claim was not taken")
	}
	token, err = e.ask("alice", "guild", "channel", g1)
	e.refused(token, err, "still being made")
	e.clock.Advance(31 * time.Second)
	e.analyst.hold <- struct{}{}
	shown(t, e.review("alice", "guild", "channel", g1))
}

// TestOneReviewOfAGameAtATime: two members asking for one game's review
// while it is made get it from one analysis.
func TestOneReviewOfAGameAtATime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.analyst.reached, e.analyst.hold = make(chan storage.GameID, 2), make(chan struct{}, 2)
	e.store.add(ticTacToe(t, "guild", "channel", "alice", "bob"))
	first, err := e.ask("alice", "guild", "channel", g1)
	if err != nil {
		t.Fatal(err)
	}
	<-e.analyst.reached
	second, err := e.ask("bob", "guild", "channel", g1)
	if err != nil {
		t.Fatal(err)
	}
	e.deferred(second)
	e.analyst.hold <- struct{}{}
	shown(t, e.rec.answer(first))
	shown(t, e.rec.answer(second))
	if n := e.analyst.count.Load(); n != 1 {
		t.Errorf("analysed %d times, want once", n)
	}
}

// TestReviewShowsItsProgress: while a review is made, its "thinking…" is
// edited with how far it got once the progress interval has passed on the
// bot's clock since the review began and since the last edit, and not for
// the last position, whose review follows at once.
func TestReviewShowsItsProgress(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.analyst.script = func(progress func(done, total int)) {
		progress(1, 8) // too soon
		e.clock.Advance(5 * time.Second)
		progress(2, 8) // shown
		e.clock.Advance(4 * time.Second)
		progress(3, 8) // too soon after the last
		e.clock.Advance(time.Second)
		progress(8, 8) // the last: the review follows
	}
	e.store.add(ticTacToe(t, "guild", "channel", "alice", "bob"))
	token, err := e.ask("alice", "guild", "channel", g1)
	if err != nil {
		t.Fatal(err)
	}
	shown(t, e.rec.answer(token))
	if got := e.rec.progress(token); len(got) != 1 || !strings.Contains(got[0], "2 of 8 positions weighed") {
		t.Errorf("the progress edits: %q; want one, after the second of 8 positions", got)
	}
}

// TestAReviewThatFailsTellsTheMember: an analysis that fails is told to
// the member, is not kept, and gives their claim back, so that they may
// ask again.
func TestAReviewThatFailsTellsTheMember(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.analyst.err = errors.New("the search broke")
	e.store.add(ticTacToe(t, "guild", "channel", "alice", "bob"))
	says(t, e.review("alice", "guild", "channel", g1), "could not be made")
	if e.store.kept(g1) != nil {
		t.Error("a failed review was kept")
	}
	e.analyst.err = nil
	shown(t, e.review("alice", "guild", "channel", g1))
}

// TestAKeptReviewByOlderRulesIsMadeAgain: a review kept by older rules
// (gamereview.Version) or unreadable is made again and replaced; one of
// an older version of the game is not the game's.
func TestAKeptReviewByOlderRulesIsMadeAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	g := ticTacToe(t, "guild", "channel", "alice", "bob")
	e.store.add(g)
	old := `{"version":1,"moves":[{},{},{},{},{},{},{}]}`
	for i, data := range []string{old, `{"moves":"unreadable"}`} {
		if err := e.store.PutReview(context.Background(), &storage.Review{Game: g1, Version: g.Version, Data: []byte(data)}); err != nil {
			t.Fatal(err)
		}
		shown(t, e.review("alice", "guild", "channel", g1))
		if n := e.analyst.count.Load(); n != int32(i+1) {
			t.Errorf("kept %s: analysed %d times in all, want %d", data, n, i+1)
		}
	}
	if kept := e.store.kept(g1); kept == nil || string(kept.Data) == `{"moves":"unreadable"}` {
		t.Error("the unreadable review was not replaced")
	}
	shown(t, e.review("alice", "guild", "channel", g1))
	if n := e.analyst.count.Load(); n != 2 {
		t.Errorf("the review made again was made once more: %d analyses", n)
	}
	if gamereview.Version < 2 {
		t.Fatal("the test's old review is not older than the rules")
	}
}

// TestStopEndsAReviewInTheMaking: Stop ends the review being made on this
// process's threads — the member is told to ask again after the restart,
// and nothing is kept — and a review asked after it is not made.
func TestStopEndsAReviewInTheMaking(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.analyst.reached, e.analyst.hold = make(chan storage.GameID, 1), make(chan struct{})
	e.store.add(ticTacToe(t, "guild", "channel", "alice", "bob"), ticTacToe(t, "guild", "channel", "carol", "bob"))
	token, err := e.ask("alice", "guild", "channel", g1)
	if err != nil {
		t.Fatal(err)
	}
	<-e.analyst.reached
	e.flow.Stop()
	says(t, e.rec.answer(token), "restarting")
	if e.store.kept(g1) != nil {
		t.Error("a review stopped was kept")
	}
	says(t, e.review("carol", "guild", "channel", g2), "restarting")
	if claims := e.store.held(t, "review/"); len(claims) != 1 {
		t.Errorf("claims once the review after Stop was refused: %v, want the first review's rate slot only", claims)
	}
}

// queue is a review queue that hands the reviews to the test, or fails.
type queue struct {
	jobs chan review.Job
	err  error
}

func (q *queue) EnqueueReview(_ context.Context, j review.Job) error {
	if q.err != nil {
		return q.err
	}
	q.jobs <- j
	return nil
}

// TestReviewsGoToTheQueueAndAWorkerMakesThem: with a queue, the flow that
// got the click answers it as deferred and queues the review with the
// click's interaction instead of making it; meanwhile the member's claim
// stands. A worker's flow makes it, shows it as the click's answer and
// gives the claim up. A job whose interaction expired while it waited is
// dropped; one whose game is gone is told as failed; a queue that fails
// is told at once and keeps no claim.
func TestReviewsGoToTheQueueAndAWorkerMakesThem(t *testing.T) {
	t.Parallel()
	q := &queue{jobs: make(chan review.Job, 1)}
	e := newEnv(t, func(c *review.Config) { c.Queue = q })
	e.store.add(ticTacToe(t, "guild", "channel", "alice", "bob"))
	token, err := e.ask("alice", "guild", "channel", g1)
	if err != nil {
		t.Fatal(err)
	}
	e.deferred(token)
	job := <-q.jobs
	if job.Game != g1 || job.Member != "alice" || job.Token != token || job.Interaction == "" || job.Locale != string(discordgo.EnglishUS) {
		t.Errorf("queued %+v, want g1 for alice through the click", job)
	}
	token2, err := e.ask("alice", "guild", "channel", g1)
	e.refused(token2, err, "still being made")

	worker := review.New(e.store, e.config())
	if err := worker.Make(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	shown(t, e.rec.answer(token))
	if claims := e.store.held(t, "review/member/"); len(claims) != 0 {
		t.Errorf("claims once the review is shown: %v, want none", claims)
	}
	if n := e.analyst.count.Load(); n != 1 {
		t.Errorf("analysed %d times, want once, by the worker", n)
	}

	expired := job
	expired.Token, expired.Queued = "expired", time.Now().Add(-16*time.Minute)
	gone := job
	gone.Token, gone.Game = "gone", storage.SequenceID(2)
	if err := worker.Make(context.Background(), expired); err != nil {
		t.Errorf("an expired job: %v", err)
	}
	if err := worker.Make(context.Background(), gone); err == nil {
		t.Error("a job of a game that is gone made no error")
	}
	says(t, e.rec.answer("gone"), "could not be made")
	if _, edits := e.rec.answered("expired"); edits != 0 {
		t.Errorf("an expired job's answer was edited %d times, want never", edits)
	}

	q.err = errors.New("the queue is down")
	e.store.forget()
	says(t, e.review("alice", "guild", "channel", g1), "could not be made")
	if claims := e.store.held(t, "review/"); len(claims) != 1 {
		t.Errorf("claims once the queue failed: %v, want the first review's rate slot only", claims)
	}
}
