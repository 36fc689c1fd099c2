package daily

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Recorder returns store as the flows see it: the end of a daily
// puzzle's solo game — solved by a move, given up, or solved by Gambit —
// settles the member's attempt, whichever flow ended it, and queues its
// result for the channel (PostResults). The bot gives every flow its
// store through one; log takes an attempt's end that could not be
// recorded.
func Recorder(store storage.Store, log *slog.Logger) storage.Store {
	return recorder{Store: store, log: log}
}

// recorder is the store of Recorder.
type recorder struct {
	storage.Store
	log *slog.Logger
}

// FinishGame implements storage.Store: the game's end, then its daily
// attempt's. A failure of the second is logged: the game is over either
// way, and the next /daily or Play settles the attempt (settleLeftOver).
func (s recorder) FinishGame(ctx context.Context, g *storage.Game, res storage.Result) ([]storage.RatingChange, error) {
	changes, err := s.Store.FinishGame(ctx, g, res)
	if err != nil || g.Settings.Daily == "" || !g.Solo() {
		return changes, err
	}
	if _, derr := settleDaily(ctx, s.Store, g, res); derr != nil && !errors.Is(derr, storage.ErrGameOver) && !errors.Is(derr, errNotTheAttempt) {
		s.log.Warn("daily puzzle's end not recorded", "game", g.ID, "err", derr)
	}
	return changes, nil
}

// errNotTheAttempt says a daily puzzle's game is not the one its
// member's attempt took: a second Play's, left by a crash before it was
// cancelled. Its end settles nothing.
var errNotTheAttempt = errors.New("the game is not the attempt's")

// attempts changes the members' attempts: the store.
type attempts interface {
	UpdateDailyAttempt(ctx context.Context, guildID, day string, p storage.Player, change func(*storage.DailyAttempt) error) (storage.DailyAttempt, error)
}

// settleDaily ends the attempt whose game g, a daily puzzle's, ended with
// res: solved, or given up (Give up, Gambit's Solve). The one call that
// ends it queues its result for the channel (queueResult); any other
// gets storage.ErrGameOver.
func settleDaily(ctx context.Context, store attempts, g *storage.Game, res storage.Result) (storage.DailyAttempt, error) {
	a, err := store.UpdateDailyAttempt(ctx, g.GuildID, g.Settings.Daily, g.Players[0], func(a *storage.DailyAttempt) error {
		if a.GameID != "" && a.GameID != g.ID {
			return errNotTheAttempt
		}
		a.GameID, a.Moves, a.Status = g.ID, res.MovesUsed, storage.DailyGaveUp
		if g.Solved() {
			a.Status = storage.DailySolved
		}
		return nil
	})
	if err != nil {
		return a, fmt.Errorf("daily: settle the daily attempt of game %s: %w", g.ID, err)
	}
	queueResult(ctx, dailyResult{attempt: a, game: g.Kind, byGambit: res.Outcome == storage.SolvedByGambit})
	return a, nil
}

// dailyResult is an ended attempt whose result the channel is to see.
type dailyResult struct {
	attempt  storage.DailyAttempt
	game     storage.Kind // the puzzle's game
	byGambit bool         // given up to Gambit's Solve
	bestMove bool         // answered in one click: its move is not counted
}

// dailyResults are the results the handler of one interaction queued.
type dailyResults struct {
	mu   sync.Mutex
	list []dailyResult
}

// resultsKey is the context key of an interaction's dailyResults.
type resultsKey struct{}

// queueResult queues r for the channel of the interaction whose handler
// ctx belongs to (PostResults). Outside an interaction nothing is posted:
// a daily game ends only by its member's clicks, or with the server or
// the member gone, where there is nobody to tell.
func queueResult(ctx context.Context, r dailyResult) {
	if q, ok := ctx.Value(resultsKey{}).(*dailyResults); ok {
		q.mu.Lock()
		defer q.mu.Unlock()
		q.list = append(q.list, r)
	}
}

// PostResults posts in the channel, once the handler has returned (and
// its answer, or the error's, is out), the results of the daily attempts
// the handler ended — by this flow's clicks, or by another flow's through
// the Recorder: a middleware of the bot's chain.
func (f *Flow) PostResults(next mux.Handler) mux.Handler {
	return func(ctx context.Context, ix *mux.Interaction) error {
		q := &dailyResults{}
		err := next(context.WithValue(ctx, resultsKey{}, q), ix)
		q.mu.Lock()
		list := q.list
		q.mu.Unlock()
		for _, r := range list {
			if perr := f.postResult(context.WithoutCancel(ctx), ix, r); perr != nil {
				f.log.Warn("daily puzzle's result not posted", "guild", r.attempt.GuildID, "day", r.attempt.Day, "err", perr)
			}
		}
		return err
	}
}

// postResult posts r in the channel of ix, the interaction that ended the
// attempt, in the channel's language: as a channel message, or where the
// bot may not post there, as a public follow-up of ix.
func (f *Flow) postResult(ctx context.Context, ix *mux.Interaction, r dailyResult) error {
	a := r.attempt
	streak := 0
	if a.Status == storage.DailySolved {
		var err error
		if streak, err = f.streak(ctx, a.GuildID, a.Player.ID, a.Day); err != nil {
			return err
		}
	}
	msg := render.DailyResultMessage(f.cfg.Lang(a.GuildID, ix.ChannelID), render.DailyResult{
		Player: a.Player, Game: r.game, Status: a.Status, ByGambit: r.byGambit, BestMove: r.bestMove,
		Moves: a.Moves, Hints: a.Hints, Streak: streak,
	})
	if !ix.InteractionOnly() {
		_, err := f.cfg.Outgoing.SendChannelMessage(ix.ChannelID, msg)
		if code := egress.Code(err); err == nil || code != discordgo.ErrCodeMissingAccess && code != discordgo.ErrCodeMissingPermissions {
			return err
		}
	}
	_, err := ix.Followup(msg, false)
	return err
}
