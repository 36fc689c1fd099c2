package review

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Reviews' limits (see the package's doc): the claims in the store that
// admit a review, which hold over every process sharing it.

// The keys of the claims that limit reviews.
const (
	memberPrefix = "review/member/"
	ratePrefix   = "review/rate/"
)

// memberClaim is the key of the claim on member's review in the making.
func memberClaim(member string) string { return memberPrefix + member }

// tokenLife is how long a member's claim on their review lasts until a
// worker takes the review up (and renews the claim, KeepClaim, while it
// makes it): Discord's 15 minutes of the interaction's token, past which
// the review could not be shown.
const tokenLife = 15 * time.Minute

// admission is a review the limits let through: the member's claim on
// their review in the making, held until the review is shown, and the
// rate slot it took, if any.
type admission struct {
	f         *Flow
	member    string
	owner     string // of the member's claim
	slot      string // the rate slot's key, "" if the review is kept and takes none
	slotOwner string
}

// admit checks the limits of ix's member's review of g, in the store: the
// member may have one review in the making (a claim for tokenLife, taken
// over by the worker that makes it), and the place (server, DM or group
// DM) Config.Rate reviews made per Config.Window, of which a review kept
// with its game takes none. A refusal is the member's error, saying when
// to ask again.
func (f *Flow) admit(ctx context.Context, ix *mux.Interaction, g *storage.Game) (*admission, error) {
	a := &admission{f: f, member: ix.Caller().ID, owner: f.owner()}
	ok, err := f.store.Claim(ctx, memberClaim(a.member), a.owner, tokenLife)
	if err != nil {
		return nil, fmt.Errorf("review: claim %s's review: %w", a.member, err)
	}
	if !ok {
		return nil, mux.Err("review.busy")
	}
	if f.kept(ctx, g) != nil {
		return a, nil
	}
	if a.slot, a.slotOwner, err = f.takeSlot(ctx, place(ix)); err != nil {
		a.cancel()
		return nil, err
	}
	return a, nil
}

// place is where ix's member asks, whose members share a rate: the
// server, or the DM or group DM.
func place(ix *mux.Interaction) string {
	if ix.GuildID != "" {
		return ix.GuildID
	}
	return ix.ChannelID
}

// cancel undoes the admission of a review that was not handed over: the
// member's claim and the rate slot are given back.
func (a *admission) cancel() {
	ctx := context.Background()
	if err := a.f.store.Release(ctx, memberClaim(a.member), a.owner); err != nil {
		a.f.log.Warn("review: give the member's claim back", "member", a.member, "err", err)
	}
	if a.slot == "" {
		return
	}
	if err := a.f.store.Release(ctx, a.slot, a.slotOwner); err != nil {
		a.f.log.Warn("review: give the rate slot back", "err", err)
	}
}

// owner returns a new owner of a claim of this process: its instance and
// a random suffix, so that each review's claims are its own.
func (f *Flow) owner() string {
	return fmt.Sprintf("%s/%016x", f.cfg.Instance, rand.Uint64())
}

// takeSlot claims one of the Config.Rate slots of where (a place) for
// Config.Window and returns its key and owner, whose name ends with when
// the slot expires (@ Unix seconds), for the refusal of the next review
// to say when a slot frees up. With every slot taken it returns the
// member's error "review.rate".
func (f *Flow) takeSlot(ctx context.Context, where string) (key, owner string, err error) {
	prefix := ratePrefix + where + "/"
	taken, err := f.store.Claims(ctx, prefix)
	if err != nil {
		return "", "", fmt.Errorf("review: list the review slots of %s: %w", where, err)
	}
	window := f.cfg.Window
	owner = fmt.Sprintf("%s@%d", f.owner(), f.now().Add(window).Unix())
	for i := range f.cfg.Rate {
		key := prefix + strconv.Itoa(i)
		if _, ok := taken[key]; ok {
			continue
		}
		ok, err := f.store.Claim(ctx, key, owner, window)
		if err != nil {
			return "", "", fmt.Errorf("review: claim review slot %s: %w", key, err)
		}
		if ok {
			return key, owner, nil
		}
		taken[key] = "" // taken meanwhile by another review; its end is unknown here
	}
	return "", "", mux.Err("review.rate", "When", render.RelativeTime(f.nextSlot(taken)))
}

// nextSlot returns when the first of the taken review slots (key to
// owner) expires: the earliest end their owners name, or a window from
// now if none does.
func (f *Flow) nextSlot(taken map[string]string) time.Time {
	next := f.now().Add(f.cfg.Window)
	for _, owner := range taken {
		_, end, ok := strings.Cut(owner[strings.LastIndexByte(owner, '/')+1:], "@")
		if sec, err := strconv.ParseInt(end, 10, 64); ok && err == nil && time.Unix(sec, 0).Before(next) {
			next = time.Unix(sec, 0)
		}
	}
	return next
}
