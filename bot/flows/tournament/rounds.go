package tournament

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/tournament/league"
)

// A round's pairings are posted once it is paired (announce), and what a
// process stopped between a round's pairing and its messages left of
// them is taken up by a later advance (lost).
//
// A process stopped between the post of a round's pairings and their
// record (AnnounceRound) leaves them unannounced, and the later advance
// posts them again: each of a tournament's posts carries a nonce of
// once, which Discord enforces for a few minutes, answering the second
// post with the first's message instead of a second message. The later
// advance comes storage.AnnounceGrace (30 s) after the pairing, well
// within them; an advance later than Discord's window (no process ran
// the tournament for longer) may still post them twice.

// Kinds of a tournament's posts, for their nonces.
const (
	noncePairings = 'p' // a round's pairings
	nonceThreads  = 'h' // the notice that threads were refused
	nonceStart    = 's' // the notice of the start at its time, or too few players
	noncePodium   = 'w' // the podium
)

// onceNonce is the nonce of t's post of kind, of round n (0 for a post of
// no round): "t", t's ID, ".", the kind and the round's number, as
// "t0000001z.p3". It is unique among the bot's posts that carry one, as
// Discord checks it across all the bot's channels: tournament IDs are
// unique in the bot's store, a tournament makes each kind of post once a
// round (or once), and the bot's other nonces (a game's board) start
// with another letter. Its ID, of 8 characters, leaves 14 digits for the
// round within Discord's 25 characters; an ID too long for them is
// hashed (egress.Nonce).
func onceNonce(t storage.TournamentID, kind byte, n int) string {
	return egress.Nonce("t" + string(t) + "." + string(kind) + strconv.Itoa(n))
}

// lost posts what a round of t lost to a stop between its
// pairing and its messages (or to a failed post), once the round is
// storage.AnnounceGrace old and no longer the pairing process's to post:
// the pairings of the first round left unannounced — it reports whether
// it posted them, or, waiting, whether a round is unannounced within the
// grace — and the boards of its games on without a board message
// (showLost).
func (p placer) lost(ctx context.Context, t *storage.Tournament, now time.Time) (announced, waiting bool, err error) {
	for _, r := range t.Rounds {
		switch {
		case now.Sub(r.PairedAt) < storage.AnnounceGrace:
			if r.Unannounced {
				return false, true, nil // the pairing process's to post; until then no podium
			}
			continue
		case r.Unannounced:
			before := *t
			before.Rounds = t.Rounds[:r.Number-1] // the standings it was paired from (but for withdrawals since)
			p.log.Warn("posting a round's pairings that were lost", "tournament", t.ID, "round", r.Number)
			return true, false, p.announce(ctx, t, &before, r)
		}
		if err := p.showLost(ctx, t, r); err != nil {
			return false, false, err
		}
	}
	return false, false, nil
}

// showLost shows the boards of round r of t whose games are on without a
// board message. A board that cannot be shown is logged, not returned:
// it must not hold up the tournament.
func (p placer) showLost(ctx context.Context, t *storage.Tournament, r storage.Round) error {
	for _, b := range r.Boards {
		if b.Game == "" || b.Result != storage.BoardPending {
			continue
		}
		g, err := p.store.Game(ctx, b.Game)
		if err != nil {
			return fmt.Errorf("tournament: game %s of %s: %w", b.Game, t.ID, err)
		}
		if !g.Status.Open() || g.MessageID != "" {
			continue
		}
		p.log.Warn("showing a board that was lost", "tournament", t.ID, "round", r.Number, "game", g.ID)
		if err := p.boards.Show(ctx, g.ID); err != nil {
			p.log.Warn("board not shown", "tournament", t.ID, "game", g.ID, "err", err)
		}
	}
	return nil
}

// announce posts the pairings of round r of t, with the standings of
// before, the tournament it was paired from, and records that they are
// posted.
func (p placer) announce(ctx context.Context, t, before *storage.Tournament, r storage.Round) error {
	l := p.boards.Lang(t.GuildID, t.ChannelID)
	var rows []render.TournamentRow
	if r.Number > 1 {
		rows = standings(before)
	}
	if err := p.postRound(ctx, t, r, render.TournamentPairings(l, t, r, league.Forfeits(t, r.Number), rows)); err != nil {
		return err
	}
	if _, _, err := p.store.AnnounceRound(ctx, t.ID, r.Number); err != nil {
		return fmt.Errorf("tournament: record round %d of %s announced: %w", r.Number, t.ID, err)
	}
	return nil
}

// post posts msg in t's channel, once for nonce.
func post(ctx context.Context, boards Boards, t *storage.Tournament, nonce string, msg render.Message) error {
	if err := boards.Post(ctx, t.ChannelID, nonce, msg); err != nil {
		return fmt.Errorf("tournament: post in channel %s of %s: %w", t.ChannelID, t.ID, err)
	}
	return nil
}
