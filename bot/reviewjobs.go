package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
)

// Reviews' limits and where they are made (see review.go): the claims in
// the store that admit a review, and the review workers of this process
// or, with Config.ReviewQueue, of whichever process works that queue.

// The keys of the claims that limit reviews.
const (
	reviewMemberPrefix = "review/member/"
	reviewRatePrefix   = "review/rate/"
)

// reviewTokenLife is how long a member's claim on their review lasts
// until a worker takes the review up (and renews the claim every third
// of ClaimTTL while it makes it): Discord's 15 minutes of the
// interaction's token, past which the review could not be shown.
const reviewTokenLife = 15 * time.Minute

// ReviewJob is a game's review handed to a ReviewQueue: what a worker in
// any process needs to make it and show it as the answer to the member's
// click (MakeReview). It is stored with the job, so it holds the
// interaction's token for its 15 minutes of validity.
type ReviewJob struct {
	Game   storage.GameID `json:"game"`
	Member string         `json:"member"`
	// Claim owns the member's claim on their review in the making,
	// which the worker takes over.
	Claim string `json:"claim"`
	// The interaction whose deferred answer the review fills in, and
	// the member's language.
	Interaction string    `json:"interaction"`
	AppID       string    `json:"app_id"`
	Token       string    `json:"token"`
	Locale      string    `json:"locale,omitempty"`
	Queued      time.Time `json:"queued"`
}

// ReviewQueue takes games' reviews for workers that may run in other
// processes, at a lower priority than the AI turns and on workers of
// their own.
type ReviewQueue interface {
	EnqueueReview(ctx context.Context, j ReviewJob) error
}

// admission is a review the limits let through: the member's claim on
// their review in the making, held until the review is shown, and the
// rate slot it took, if any.
type admission struct {
	b         reviewFlow
	member    string
	owner     string // of the member's claim
	slot      string // the rate slot's key, "" if the review is kept and takes none
	slotOwner string
}

// admitReview checks the limits of ix's member's review of g, in the
// store: the member may have one review in the making (a claim for
// reviewTokenLife, taken over by the worker that makes it), and the
// place (server, DM or group DM) ReviewRate reviews made per
// ReviewWindow, of which a review kept with its game takes none. A
// refusal is the member's error, saying when to ask again.
func (b reviewFlow) admitReview(ctx context.Context, ix *interaction, g *storage.Game) (*admission, error) {
	a := &admission{b: b, member: ix.Caller().ID, owner: b.owner()}
	ok, err := b.store.Claim(ctx, reviewMemberPrefix+a.member, a.owner, reviewTokenLife)
	if err != nil {
		return nil, fmt.Errorf("bot: claim %s's review: %w", a.member, err)
	}
	if !ok {
		return nil, mux.Err("review.busy")
	}
	if b.keptReview(ctx, g) != nil {
		return a, nil
	}
	if a.slot, a.slotOwner, err = b.takeReviewSlot(ctx, place(ix.GuildID, ix.ChannelID)); err != nil {
		a.cancel()
		return nil, err
	}
	return a, nil
}

// cancel undoes the admission of a review that was not queued: the
// member's claim and the rate slot are given back.
func (a *admission) cancel() {
	ctx := context.Background()
	if err := a.b.store.Release(ctx, reviewMemberPrefix+a.member, a.owner); err != nil {
		a.b.log.Warn("review: give the member's claim back", "member", a.member, "err", err)
	}
	if a.slot == "" {
		return
	}
	if err := a.b.store.Release(ctx, a.slot, a.slotOwner); err != nil {
		a.b.log.Warn("review: give the rate slot back", "err", err)
	}
}

// owner returns a new owner of a claim of this process: its instance and
// a random suffix, so that each review's claims are its own.
func (b reviewFlow) owner() string {
	return fmt.Sprintf("%s/%016x", b.cfg.Instance, rand.Uint64())
}

// takeReviewSlot claims one of the ReviewRate slots of where (a place)
// for ReviewWindow and returns its key and owner, whose name ends with
// when the slot expires (@ Unix seconds), for the refusal of the next
// review to say when a slot frees up. With every slot taken it returns
// the member's error "review.rate".
func (b reviewFlow) takeReviewSlot(ctx context.Context, where string) (key, owner string, err error) {
	prefix := reviewRatePrefix + where + "/"
	taken, err := b.store.Claims(ctx, prefix)
	if err != nil {
		return "", "", fmt.Errorf("bot: list the review slots of %s: %w", where, err)
	}
	window := b.cfg.ReviewWindow
	owner = fmt.Sprintf("%s@%d", b.owner(), b.now().Add(window).Unix())
	for i := range b.cfg.ReviewRate {
		key := prefix + strconv.Itoa(i)
		if _, ok := taken[key]; ok {
			continue
		}
		ok, err := b.store.Claim(ctx, key, owner, window)
		if err != nil {
			return "", "", fmt.Errorf("bot: claim review slot %s: %w", key, err)
		}
		if ok {
			return key, owner, nil
		}
		taken[key] = "" // taken meanwhile by another review; its end is unknown here
	}
	return "", "", mux.Err("review.rate", "When", render.RelativeTime(b.nextSlot(taken)))
}

// nextSlot returns when the first of the taken review slots (key to
// owner) expires: the earliest end their owners name, or a window from
// now if none does.
func (b reviewFlow) nextSlot(taken map[string]string) time.Time {
	next := b.now().Add(b.cfg.ReviewWindow)
	for _, owner := range taken {
		_, end, ok := strings.Cut(owner[strings.LastIndexByte(owner, '/')+1:], "@")
		if sec, err := strconv.ParseInt(end, 10, 64); ok && err == nil && time.Unix(sec, 0).Before(next) {
			next = time.Unix(sec, 0)
		}
	}
	return next
}

// queueReview hands the admitted review of g, answered as deferred
// through ix, to the review queue (Config.ReviewQueue), or else to this
// process's review workers.
func (b reviewFlow) queueReview(ix *interaction, a *admission, g *storage.Game, gm *games.Game, start engine.Position) error {
	j := ReviewJob{
		Game: g.ID, Member: a.member, Claim: a.owner, Interaction: ix.ID, AppID: ix.AppID, Token: ix.Token, Locale: string(ix.Locale), Queued: time.Now(),
	}
	if q := b.cfg.ReviewQueue; q != nil {
		ctx, cancel := context.WithTimeout(context.Background(), enqueueTimeout)
		defer cancel()
		if err := q.EnqueueReview(ctx, j); err != nil {
			a.cancel()
			b.log.Error("review: queue", "game", g.ID, "err", err)
			return ix.EditResponse(render.Message{Content: ix.Lang().T("review.failed")})
		}
		return nil
	}
	job := &task{owner: a.member, run: func() { b.makeReview(b.stopping, ix, j, g, gm, start) }}
	if _, ok := b.reviewers.Submit(context.Background(), job); !ok {
		a.cancel()
		return ix.EditResponse(render.Message{Content: ix.Lang().T("review.stopping")})
	}
	return nil
}

// makeReview makes (or finds) the review of j's game g and shows it as
// ix's answer, in ctx: it takes the member's claim over, renewing it
// while the review is made — the review stops once the claim is lost —
// and gives it up once the review is shown. A claim that ran out and was
// taken by a newer review makes this one void: the member is told it
// failed.
func (b reviewFlow) makeReview(ctx context.Context, ix *interaction, j ReviewJob, g *storage.Game, gm *games.Game, start engine.Position) {
	claimed, done, ok, err := b.keepClaim(ctx, reviewMemberPrefix+j.Member, j.Claim, "review", "member", j.Member)
	if err != nil || !ok {
		b.log.Warn("review: the member's claim is gone; dropping the review", "game", j.Game, "err", err)
		b.failReview(ix, j)
		return
	}
	b.showReview(claimed, ix, g, gm, start, done)
}

// failReview tells the member that j's review could not be made.
func (b reviewFlow) failReview(ix *interaction, j ReviewJob) {
	if err := ix.EditResponse(render.Message{Content: ix.Lang().T("review.failed")}); err != nil {
		b.log.Warn("review: say it failed", "game", j.Game, "err", err)
	}
}

// MakeReview makes a review taken from the review queue and shows it
// through the interaction of the click that asked for it, in ctx (the
// worker's: the review stops between positions once it is done). It
// returns nil once the review is shown or void — its interaction's token
// expired while it waited, or the member's claim was taken by a newer
// review — and an error when the game could not be read (the member is
// told the review failed).
func (b *Bot) MakeReview(ctx context.Context, j ReviewJob) error {
	if time.Since(j.Queued) >= reviewTokenLife {
		b.log.Warn("review: waited longer than its interaction lives; dropping it", "game", j.Game)
		return nil
	}
	raw := &discordgo.Interaction{ID: j.Interaction, AppID: j.AppID, Token: j.Token}
	ix := mux.NewInteraction(raw, b.answers, b.egress, time.Now(), b.now(), nil)
	ix.Locale = discordgo.Locale(j.Locale)
	rf := reviewFlow{b}
	g, err := b.store.Game(ctx, j.Game)
	var gm *games.Game
	var start engine.Position
	if err == nil {
		gm, start, err = render.StartOf(g)
	}
	if err != nil {
		rf.failReview(ix, j)
		if rerr := b.store.Release(context.WithoutCancel(ctx), reviewMemberPrefix+j.Member, j.Claim); rerr != nil {
			b.log.Warn("review: give the member's claim back", "member", j.Member, "err", rerr)
		}
		return fmt.Errorf("bot: review of game %s: %w", j.Game, err)
	}
	rf.makeReview(ctx, ix, j, g, gm, start)
	return nil
}
