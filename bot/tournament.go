package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gambitbot/gambit/bot/flows/tournament"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// tournamentSweep is how often the timers advance every running
// tournament of this process's shards, the safety net behind the
// advance that each board's end asks for.
const tournamentSweep = time.Minute

// newTournaments makes the tournament flow (bot/flows/tournament) over
// the bot's store, boards and messages, with the default caps; its
// advances count as work in flight, which shutdown waits for.
func newTournaments(b *Bot) *tournament.Flow {
	return tournament.New(b.store, tournamentBoards{b.games}, tournament.Config{
		Caps: storage.DefaultTournamentCaps, AIMoveTime: b.cfg.AI.MoveTime, SweepEvery: tournamentSweep,
		Scheduled: b.cfg.Games.Tournaments != nil,
		Go: func(f func()) {
			if !b.life.work.begin() {
				return // stopping: the next start's sweep advances it
			}
			go func() {
				defer b.life.work.end()
				f()
			}()
		},
		Now: b.now, Log: b.log,
	})
}

// tournamentBoards is what the tournament flow needs of the bot's games
// and messages.
type tournamentBoards struct{ gameFlow }

// Begin sets a round's new game up to start (begin).
func (b tournamentBoards) Begin(ctx context.Context, g *storage.Game) error { return b.begin(ctx, g) }

// Show posts the board of a round's new game in its channel, under the
// game's lock, unless it has one already (posted by another call, or by
// the refresh of boards at start), and queues the AI's turn when an AI
// moves first: the turn edits the board through the channel.
func (b tournamentBoards) Show(ctx context.Context, id storage.GameID) error {
	lctx, unlock := b.locks.hold(ctx, id)
	g, err := b.store.Game(lctx, id)
	if err == nil && g.Status.Open() && g.MessageID == "" {
		var msg render.Message
		if msg, err = b.boards.gameMessage(g, ""); err == nil {
			err = b.boards.postBoard(lctx, g, msg)
		}
	}
	unlock()
	if err != nil {
		return fmt.Errorf("bot: show tournament game %s: %w", id, err)
	}
	// A game between two AI entrants plays itself (nextTurn), its turns
	// queued for the tournament: one share of the workers, however many
	// such games it has.
	var j *aiJob
	if g.AwaitingAI() && g.Players[1-g.Turn].ID.IsAI() {
		_, j = b.turns.enqueueTurn(g, time.Now(), "tournament/"+string(g.Settings.Tournament))
	} else {
		_, j = b.turns.enqueueAI(g, time.Now())
	}
	if j != nil {
		j.release(webhookToken{})
	}
	return nil
}

// Post posts msg in a channel.
func (b tournamentBoards) Post(_ context.Context, channelID string, msg render.Message) error {
	_, err := b.discord.egress.SendChannelMessage(channelID, msg)
	return err
}

// Lang is the language of a guild's shared messages (locales).
func (b tournamentBoards) Lang(guildID, channelID string) *i18n.Localizer {
	return b.places.locales.of(guildID, channelID)
}

// Shared is the language of what an interaction shows its channel.
func (b tournamentBoards) Shared(ix *mux.Interaction) *i18n.Localizer {
	return b.places.locales.Shared(ix)
}

// tournamentRecorder is the store as the flows see it: the end of a
// tournament board's game — by a move, a resignation, the move timer —
// records the board's result at once, whichever flow ended it, and then
// has the tournament flow advance the tournament off the caller's path
// (ended).
type tournamentRecorder struct {
	storage.Store
	ended func(ctx context.Context, id storage.TournamentID)
	log   *slog.Logger
}

// FinishGame implements storage.Store: the game's end, then its board's
// result. A failure of the second is logged: the game is over either way,
// and the next advance of the tournament records it (the timers'
// sweep, tournamentSweep).
func (s tournamentRecorder) FinishGame(ctx context.Context, g *storage.Game, res storage.Result) ([]storage.RatingChange, error) {
	changes, err := s.Store.FinishGame(ctx, g, res)
	if err != nil || g.Settings.Tournament == "" {
		return changes, err
	}
	_, set, rerr := s.Store.RecordTournamentResult(ctx, g.ID)
	switch {
	case errors.Is(rerr, storage.ErrGameOver): // the tournament was cancelled
	case rerr != nil:
		s.log.Warn("tournament board's result not recorded", "game", g.ID, "tournament", g.Settings.Tournament, "err", rerr)
	case set:
		s.ended(ctx, g.Settings.Tournament)
	}
	return changes, nil
}
