package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/egress"
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
		Left: func(guildID string) bool { _, ok := b.places.left.Load(guildID); return ok },
	})
}

// tournamentBoards is what the tournament flow needs of the bot's games
// and messages.
type tournamentBoards struct{ gameFlow }

// Begin sets a round's new game up to start (begin).
func (b tournamentBoards) Begin(ctx context.Context, g *storage.Game) error { return b.begin(ctx, g) }

// Show posts the board of a round's game in its channel, under the
// game's lock, or edits the board it has (posted by another call, or by
// the refresh of boards at start) to the game as it now is — its clock
// stopped by a pause, running again after it; and it queues the AI's
// turn when an AI is to move: the turn edits the board through the
// channel.
func (b tournamentBoards) Show(ctx context.Context, id storage.GameID) error {
	lctx, unlock := b.locks.hold(ctx, id)
	g, err := b.store.Game(lctx, id)
	if err == nil && g.Status.Open() {
		var msg render.Message
		if msg, err = b.boards.gameMessage(g, ""); err == nil && g.MessageID == "" {
			err = b.boards.postBoard(lctx, g, msg)
		} else if err == nil {
			err = b.boards.editBoard(lctx, g, msg, webhookToken{})
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

// Forfeit ends game id as lost by p, who withdrew from its tournament,
// under the game's lock: a forfeit (the board's result, recorded by
// FinishGame), with a notice on the board for the opponent. A game that
// ended meanwhile is left as it is.
func (b tournamentBoards) Forfeit(ctx context.Context, id storage.GameID, p storage.PlayerID) (bool, error) {
	ctx, unlock := b.locks.hold(ctx, id)
	defer unlock()
	var changes []storage.RatingChange
	g, forfeited, err := settleGame(ctx, b.store, id, "forfeit", func(g *storage.Game) (bool, error) {
		if g.Status != storage.StatusActive || g.Seat(p) < 0 {
			return false, nil
		}
		g.Status = storage.StatusForfeited
		var err error
		changes, err = b.store.FinishGame(ctx, g, storage.Result{Winner: 1 - g.Seat(p), Outcome: storage.Resigned})
		return err == nil, err
	})
	if !forfeited {
		return false, err
	}
	l := b.boards.boardLang(g)
	pos, err := position(g)
	if err != nil {
		return true, err
	}
	msg := b.boards.view(g, pos, nil, changes, l.T("tournament.withdrawal.board", "Player", render.PlayerName(l, g.Kind, g.Players[g.Seat(p)])))
	return true, b.boards.editBoard(ctx, g, msg, webhookToken{})
}

// Post posts msg in a channel, once for nonce.
func (b tournamentBoards) Post(ctx context.Context, channelID, nonce string, msg render.Message) error {
	_, err := b.Send(ctx, channelID, nonce, msg)
	return err
}

// Send posts msg in a channel or thread, once for nonce (Discord's
// enforce_nonce), and returns its message's ID.
func (b tournamentBoards) Send(_ context.Context, channelID, nonce string, msg render.Message) (string, error) {
	m, err := b.discord.egress.SendChannelMessageOnce(channelID, nonce, msg)
	if err != nil {
		return "", err
	}
	return m.ID, nil
}

// roundThreadArchive is how long, in minutes, a round's thread stays
// open without a new message before Discord archives it: a week,
// Discord's longest, since the moves edit the boards and an edit is no
// new message.
const roundThreadArchive = 7 * 24 * 60

// StartThread starts a public thread from a message. Discord's refusals
// for a missing permission or access, or a channel that cannot have
// threads, wrap tournament.ErrThreadsRefused. A message that has its
// thread already — pairings posted again with their nonce, after a
// process was killed between the thread's start and its record — has
// that thread, whose ID is the message's.
func (b tournamentBoards) StartThread(_ context.Context, channelID, messageID, name string) (string, error) {
	th, err := b.discord.egress.Session.MessageThreadStartComplex(channelID, messageID, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: roundThreadArchive})
	b.discord.egress.Observe(err)
	switch egress.Code(err) {
	case discordgo.ErrCodeMissingPermissions, discordgo.ErrCodeMissingAccess, discordgo.ErrCodeCannotExecuteActionOnThisChannelType:
		return "", fmt.Errorf("bot: start a thread in channel %s: %w: %w", channelID, tournament.ErrThreadsRefused, err)
	case discordgo.ErrCodeThreadAlreadyCreatedForThisMessage:
		return messageID, nil
	}
	if err != nil {
		return "", fmt.Errorf("bot: start a thread in channel %s: %w", channelID, err)
	}
	return th.ID, nil
}

// Edit changes a channel message (the announcement).
func (b tournamentBoards) Edit(_ context.Context, channelID, messageID string, msg render.Message) error {
	return b.discord.egress.EditChannelMessage(channelID, messageID, msg)
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
