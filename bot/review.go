package bot

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/review"
)

// A game's review: the Review button under an ended duel's board, and
// /review game:. A member may look at the review of a game they could
// see (reviewaccess.go), privately. The click is answered at once
// with a deferred reply (Discord's "thinking…"); the review is then made
// outside the game's lock, on the review workers (Config.ReviewThreads):
// threads of their own beside the AI's search threads and at a lower
// priority than theirs, so that no review ever holds up an AI turn — this
// process's, or with Config.ReviewQueue (River's, on PostgreSQL) those of
// whichever process takes the job (MakeReview, reviewjobs.go). It
// is searched within the game's node budget (review.Standard: a long
// game's positions share it), stops between positions when its context
// ends, and is kept with the game (storage.Review), so that the next
// click on it only draws the pictures. One review of a game is made at a
// time in a process: a click meanwhile waits for it rather than making it
// again.
//
// The limits hold across every process sharing the store, as claims in
// it (Store.Claim, admitReview): a member has one review in the making at
// a time (their claim, taken for the click's 15 minutes when asked and
// taken over — renewed every third of ClaimTTL — by whoever makes it, so
// that a process that dies making it lets it go within ClaimTTL), and the members
// of one server (or one DM or group DM) may have ReviewRate reviews made
// per ReviewWindow (ReviewRate slots per place, each claimed for the
// window and left to expire). A review kept with its game is shown
// without taking a slot. Shutdown stops a review in the making (it may
// take a minute): the member is told to ask again after the restart.

// reviews are the reviews being made in this process.
type reviews struct {
	mu     sync.Mutex
	making map[storage.GameID]*reviewCall // by game

	// Tests change these before the bot runs.
	budget  *review.Budget        // each position's search; nil means review.Standard's
	analyze func(g *storage.Game) // if not nil, called before a game is analysed
}

// reviewCall is one review being made; done is closed once rev or err
// is set.
type reviewCall struct {
	done chan struct{}
	rev  *review.Review
	err  error
}

// reviewFlow shows games' reviews.
type reviewFlow struct{ *Bot }

// clickReview handles the Review button under an ended duel's board.
func (b reviewFlow) clickReview(ctx context.Context, ix *component) error {
	return b.startReview(ctx, ix.Interaction, storage.GameID(ix.Params["game"]))
}

// cmdReview handles /review game:.
func (b reviewFlow) cmdReview(ctx context.Context, ix *command) error {
	return b.startReview(ctx, ix.Interaction, storage.GameID(strings.TrimSpace(ix.Opts.Str("game"))))
}

// completeReview offers the member's ended duels, newest first, whose
// IDs begin with what they typed.
func (b reviewFlow) completeReview(ctx context.Context, ix *autocomplete) error {
	me := ix.Caller().ID
	ended, err := b.store.History(ctx, storage.User(me), 50)
	if err != nil {
		return fmt.Errorf("bot: history of %s: %w", me, err)
	}
	typed, l := strings.ToLower(strings.TrimSpace(ix.Opts.Str("game"))), ix.Lang()
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, g := range ended {
		if !render.Reviewable(g) || !strings.HasPrefix(strings.ToLower(string(g.ID)), typed) {
			continue
		}
		name := fmt.Sprintf("%s · %s", g.ID, render.Title(l, g.Kind))
		if opp, ok := g.Opponent(seatOf(g, me)); ok {
			who := render.PlayerName(l, g.Kind, opp) // an AI by its name and difficulty
			if !opp.ID.IsAI() {
				who = cmp.Or(opp.Name, who) // a member by name: a mention does not show in a suggestion
			}
			name += " · " + l.T("board.vs", "Player", who)
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: render.ClipWords(name, 100), Value: string(g.ID)})
	}
	return ix.Choices(out)
}

// startReview answers ix with game id's review: it checks the game, defers
// the answer and queues the review's making and drawing.
func (b reviewFlow) startReview(ctx context.Context, ix *interaction, id storage.GameID) error {
	if id == "" {
		return mux.Err("review.none")
	}
	g, err := b.store.Game(ctx, id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && !play.MayReview(ix, g) {
		return mux.Err("review.no_game", "ID", mux.Echo(string(id)))
	}
	if err != nil {
		return err
	}
	switch {
	case g.Solo():
		return mux.Err("review.puzzle")
	case !g.Status.Ended():
		return mux.Err("review.not_over")
	case len(g.Moves) == 0:
		return mux.Err("review.no_moves")
	}
	gm, start, err := render.StartOf(g)
	if err != nil {
		return err
	}
	admitted, err := b.admitReview(ctx, ix, g)
	if err != nil {
		return err
	}
	if err := ix.DeferReply(true); err != nil {
		admitted.cancel()
		return err
	}
	return b.queueReview(ix, admitted, g, gm, start)
}

// showReview makes (or finds) g's review and its pictures, on a review
// worker, in ctx, and shows them as ix's answer. It calls made once the
// message is ready and before it is shown, so that the member's next
// review, asked as soon as this one shows, finds its claim given back.
func (b reviewFlow) showReview(ctx context.Context, ix *interaction, g *storage.Game, gm *games.Game, start engine.Position, made func()) {
	l := ix.Lang()
	msg, err := b.reviewMessage(ctx, ix, g, gm, start)
	made()
	switch {
	case err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled):
		msg = render.Message{Content: l.T("review.stopping")} // shutdown began (or the claim was lost): asked for again after the restart
	case err != nil:
		b.log.Warn("review", "game", g.ID, "err", err)
		msg = render.Message{Content: l.T("review.failed")}
	}
	if err := ix.EditResponse(msg); err != nil {
		b.log.Warn("review: show it", "game", g.ID, "err", err)
	}
}

// reviewMessage returns the message of g's review, made if need be (its
// progress shown as ix's answer meanwhile).
func (b reviewFlow) reviewMessage(ctx context.Context, ix *interaction, g *storage.Game, gm *games.Game, start engine.Position) (render.Message, error) {
	rev, err := b.review(ctx, g, gm, start, b.reviewProgress(ix))
	if err != nil {
		return render.Message{}, err
	}
	final, err := position(g)
	if err != nil {
		return render.Message{}, err
	}
	loser, lost := render.Loser(g, final)
	turning := rev.TurningPoint(loser, lost)
	var pics render.ReviewPictures
	reviewPriority(b.cfg.ReviewNice, func() {
		if pics.Replay, err = render.Replay(gm, start, g.Moves); err != nil {
			return
		}
		if turning >= 0 {
			pics.Turning, err = render.TurningPoint(gm, start, g.Moves, turning, rev.Moves[turning].Best)
		}
	})
	if err != nil {
		return render.Message{}, err
	}
	return render.ReviewMessage(ix.Lang(), g, rev, turning, pics), nil
}

// keptReview returns the review kept with g, nil if there is none, it is
// unreadable or it was made by older rules (review.Version): then it is
// made again.
func (b reviewFlow) keptReview(ctx context.Context, g *storage.Game) *review.Review {
	kept, err := b.store.Review(ctx, g.ID, g.Version)
	switch {
	case err == nil:
		var rev review.Review
		err := json.Unmarshal(kept.Data, &rev)
		if err == nil && len(rev.Moves) == len(g.Moves) && rev.Version == review.Version {
			return &rev
		}
		if err == nil && len(rev.Moves) == len(g.Moves) {
			return nil // made by older rules: made again
		}
		b.log.Warn("review: the kept one is unreadable; making it again", "game", g.ID)
	case !errors.Is(err, storage.ErrNotFound):
		b.log.Warn("review: read the kept one", "game", g.ID, "err", err)
	}
	return nil
}

// review returns g's review: kept with the game, or being made for
// another click (waited for), or else made now in ctx, telling progress
// how far it got, and kept.
func (b reviewFlow) review(ctx context.Context, g *storage.Game, gm *games.Game, start engine.Position, progress func(done, total int)) (*review.Review, error) {
	if rev := b.keptReview(ctx, g); rev != nil {
		return rev, nil
	}
	rs := &b.reviews
	rs.mu.Lock()
	if call, ok := rs.making[g.ID]; ok {
		rs.mu.Unlock()
		<-call.done
		return call.rev, call.err
	}
	call := &reviewCall{done: make(chan struct{})}
	if rs.making == nil {
		rs.making = map[storage.GameID]*reviewCall{}
	}
	rs.making[g.ID] = call
	budget := review.Standard(gm.Name)
	if rs.budget != nil {
		budget = *rs.budget
	}
	rs.mu.Unlock()
	defer func() {
		rs.mu.Lock()
		delete(rs.making, g.ID)
		rs.mu.Unlock()
		close(call.done)
	}()
	if rs.analyze != nil {
		rs.analyze(g)
	}
	reviewPriority(b.cfg.ReviewNice, func() {
		// Shutdown stops it between positions (or within one): a review
		// may take a minute, more than a restart should wait for.
		call.rev, call.err = review.Analyze(ctx, strategies.Minimax{}, gm, start, g.Moves, budget, progress)
	})
	if call.err != nil {
		return nil, call.err
	}
	data, err := json.Marshal(call.rev)
	if err == nil {
		err = b.store.PutReview(context.WithoutCancel(ctx), &storage.Review{Game: g.ID, Version: g.Version, Data: data})
	}
	if err != nil {
		b.log.Warn("review: keep it", "game", g.ID, "err", err) // shown all the same, made again next time
	}
	return call.rev, nil
}

// reviewProgress returns the progress of a review answered through ix:
// it edits the answer, Discord's "thinking…", with how many of the
// game's positions the review has searched, once ReviewProgressInterval
// has passed on the bot's clock since the review began and since the
// last such edit — a review of a few seconds shows none — and not for the
// last position, whose review follows at once.
func (b reviewFlow) reviewProgress(ix *interaction) func(done, total int) {
	last := b.now()
	return func(done, total int) {
		now := b.now()
		if done >= total || now.Sub(last) < b.cfg.ReviewProgressInterval {
			return
		}
		last = now
		msg := render.Message{Content: ix.Lang().T("review.progress", "Done", done, "Total", total)}
		if err := ix.EditResponse(msg); err != nil {
			b.log.Warn("review: show its progress", "err", err) // the review goes on; its answer follows
		}
	}
}

// routes declares /review and the Review button, which anyone who could
// see the game may click, outside its lock.
func (b reviewFlow) routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "review", Description: "Look back at a finished game: each move against the best one",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "The game (its ID, as its board's footer shows)",
				Required: true, Autocomplete: true, MaxLength: 32},
		},
	}, b.cmdReview, b.completeReview)
	m.Component(customid.Review, b.clickReview)
}
