package tournament

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// The announcement's buttons and select. Each answers by updating the
// announcement to the tournament as it now is.

// clicked loads the tournament of a click on its announcement, and
// learns the announcement's message from it when it is unknown
// (announcer.adopt).
func (f *Flow) clicked(ctx context.Context, ix *mux.Component) (*storage.Tournament, error) {
	t, err := f.load(ctx, ix.Interaction, storage.TournamentID(ix.Params["tournament"]))
	if err == nil {
		f.ann.adopt(ctx, ix.Interaction, t)
	}
	return t, err
}

// show answers a click by showing t in the announcement clicked.
func (f *Flow) show(ix *mux.Component, t *storage.Tournament) error {
	return ix.Update(f.announcement(f.boards.Shared(ix.Interaction), t))
}

// clickJoin enters the clicker, or brings back a no-show of a running
// Arena or Swiss (storage.Join), whose next pairing may be due now.
func (f *Flow) clickJoin(ctx context.Context, ix *mux.Component) error {
	t, err := f.clicked(ctx, ix)
	if err != nil {
		return err
	}
	p := play.PlayerOf(ix.Caller())
	nt, err := f.store.JoinTournament(ctx, t.ID, storage.Entrant{Player: p, Rating: f.rating(ctx, t.Kind, p.ID)})
	if err != nil {
		return f.refused(ctx, ix, t, err, "join")
	}
	if nt.Status.Started() {
		f.Kick(ctx, nt.ID)
	}
	return f.show(ix, nt)
}

// clickAI enters the strategy chosen, for the creator of a tournament
// open to AIs: one entry a strategy.
func (f *Flow) clickAI(ctx context.Context, ix *mux.Component) error {
	t, err := f.clicked(ctx, ix)
	if err != nil {
		return err
	}
	if storage.User(ix.Caller().ID) != t.Creator {
		return mux.Err("tournament.creator_only", "Player", "<@"+userOf(t.Creator)+">")
	}
	if len(ix.Values) != 1 {
		return mux.Err("tournament.pick_ai")
	}
	info, err := strategies.LookupFor(ix.Values[0], string(t.Kind))
	if err != nil || !t.OpenToAI {
		return mux.Err("tournament.no_such_ai", "AI", mux.Quote(ix.Values[0]))
	}
	e := storage.Entrant{Player: storage.Player{ID: storage.AI(info.Name), Name: info.DisplayName}, Rating: f.rating(ctx, t.Kind, storage.AI(info.Name))}
	nt, err := f.store.JoinTournament(ctx, t.ID, e)
	if err != nil {
		return f.refused(ctx, ix, t, err, "enter")
	}
	return f.show(ix, nt)
}

// clickLeave takes the clicker out before the start (their entry goes);
// after it, it asks them to confirm their withdrawal (clickWithdraw),
// which loses their game under way.
func (f *Flow) clickLeave(ctx context.Context, ix *mux.Component) error {
	t, err := f.clicked(ctx, ix)
	if err != nil {
		return err
	}
	p := storage.User(ix.Caller().ID)
	if t.Status.Started() {
		if !t.Entered(p) {
			return f.refused(ctx, ix, t, storage.ErrNotEntered, "leave")
		}
		_, playing := t.PendingGameOf(p)
		return ix.Reply(render.TournamentWithdrawConfirm(ix.Lang(), t, playing), true)
	}
	nt, err := f.leave(ctx, ix, t, p)
	if err != nil {
		return err
	}
	return f.show(ix, nt)
}

// leave takes p out of t, which the click read before its start: their
// entry goes. If t started meanwhile the store withdrew them instead, and
// they are withdrawn as Withdraw does it: their game under way lost, the
// tournament advanced (an Arena or a round may be waiting for nobody).
func (f *Flow) leave(ctx context.Context, ix *mux.Component, t *storage.Tournament, p storage.PlayerID) (*storage.Tournament, error) {
	nt, err := f.store.LeaveTournament(ctx, t.ID, p)
	if err != nil {
		return nil, f.refused(ctx, ix, t, err, "leave")
	}
	if nt.Status.Started() {
		if _, err := forfeitPending(ctx, f.boards, nt, p); err != nil {
			return nil, err
		}
		f.Kick(ctx, nt.ID)
	}
	return nt, nil
}

// clickWithdraw withdraws the clicker from a started tournament, as they
// confirmed: paired no more, and their game under way, if any, is lost —
// a forfeit, the board's result, which its board tells the opponent —
// and the announcement shows them withdrawn.
func (f *Flow) clickWithdraw(ctx context.Context, ix *mux.Component) error {
	t, err := f.clicked(ctx, ix)
	if err != nil {
		return err
	}
	nt, lost, err := withdraw(ctx, f.store, f.boards, t, storage.User(ix.Caller().ID))
	if err != nil {
		return err
	}
	f.Kick(ctx, nt.ID)  // an Arena or a round may be waiting for nobody now
	f.ann.show(ctx, nt) // the clicked message is the question: the announcement is edited apart
	done := "tournament.withdrawal.done"
	if lost {
		done = "tournament.withdrawal.done_lost"
	}
	return ix.Update(render.Message{Content: ix.Lang().T(done)})
}

// withdraw withdraws p from t, a started tournament: paired no more, and
// their game under way, if any, is lost — a forfeit, the board's result,
// which its board tells the opponent. It reports whether a game was lost.
// The caller advances the tournament (Kick): an Arena or a round may be
// waiting for nobody now.
func withdraw(ctx context.Context, store Store, boards Boards, t *storage.Tournament, p storage.PlayerID) (*storage.Tournament, bool, error) {
	nt, err := store.LeaveTournament(ctx, t.ID, p)
	if err != nil {
		return nil, false, refusal(err, "leave", t)
	}
	lost, err := forfeitPending(ctx, boards, nt, p)
	return nt, lost, err
}

// forfeitPending loses the game under way of p, just withdrawn from nt,
// if any: a forfeit, the board's result, which its board tells the
// opponent. It reports whether a game was lost.
func forfeitPending(ctx context.Context, boards Boards, nt *storage.Tournament, p storage.PlayerID) (bool, error) {
	id, ok := nt.PendingGameOf(p)
	if !ok {
		return false, nil
	}
	lost, err := boards.Forfeit(ctx, id, p)
	if err != nil {
		return false, fmt.Errorf("tournament: forfeit the game %s of %s, who withdrew from %s: %w", id, p, nt.ID, err)
	}
	return lost, nil
}

// clickAIOut takes the AI chosen out of the tournament, for its creator
// or a member with Manage Server (manages), by the rules of a member's
// own Leave: before the start its entry goes; after it, it is withdrawn
// and its game under way lost (forfeitPending). Which of the two is the
// store's decision, on the record it changes: a tournament that started
// since the click's record was read withdraws the AI.
func (f *Flow) clickAIOut(ctx context.Context, ix *mux.Component) error {
	t, err := f.clicked(ctx, ix)
	if err != nil {
		return err
	}
	if !manages(ix.Interaction, t) {
		return mux.Err("tournament.manage_only")
	}
	if len(ix.Values) != 1 {
		return mux.Err("tournament.pick_ai")
	}
	p := storage.AI(ix.Values[0])
	if !t.Entered(p) {
		name := mux.Quote(ix.Values[0])
		if info, err := strategies.Lookup(ix.Values[0]); err == nil {
			name = render.AIName(ix.Lang(), info)
		}
		return mux.Err("tournament.ai_not_in", "AI", name)
	}
	nt, err := f.leave(ctx, ix, t, p)
	if err != nil {
		return err
	}
	return f.show(ix, nt)
}

// clickStay answers a withdrawal's question with no.
func clickStay(_ context.Context, ix *mux.Component) error {
	return ix.Update(render.Message{Content: ix.Lang().T("tournament.withdrawal.kept")})
}

// clickStart starts the tournament, for its creator.
func (f *Flow) clickStart(ctx context.Context, ix *mux.Component) error {
	t, err := f.clicked(ctx, ix)
	if err != nil {
		return err
	}
	if storage.User(ix.Caller().ID) != t.Creator {
		return mux.Err("tournament.creator_only", "Player", "<@"+userOf(t.Creator)+">")
	}
	if len(t.Entrants) < t.Format.MinPlayers() {
		return mux.Err("tournament.too_few", "Count", len(t.Entrants), "Min", t.Format.MinPlayers())
	}
	nt, err := f.store.SetTournamentStatus(ctx, t.ID, storage.TournamentRunning)
	if err != nil {
		return f.refused(ctx, ix, t, err, "start")
	}
	if err := f.show(ix, nt); err != nil {
		return err
	}
	f.Kick(ctx, nt.ID)
	return nil
}

// clickCancel cancels the tournament, for its creator or a member with
// Manage Server.
func (f *Flow) clickCancel(ctx context.Context, ix *mux.Component) error {
	t, err := f.clicked(ctx, ix)
	if err != nil {
		return err
	}
	nt, err := f.setStatus(ctx, ix.Interaction, t, storage.TournamentCancelled)
	if err != nil {
		return err
	}
	return f.show(ix, nt)
}

// refused explains a change of t the store refused; when t changed
// meanwhile — started, ended, or changed by another click — it first shows
// the tournament as it now is in the announcement clicked, whose buttons
// were those of another status, and the explanation follows.
func (f *Flow) refused(ctx context.Context, ix *mux.Component, t *storage.Tournament, err error, what string) error {
	refusal := refusal(err, what, t)
	if !errors.Is(err, storage.ErrStarted) && !errors.Is(err, storage.ErrGameOver) && !errors.Is(err, storage.ErrConflict) {
		return refusal
	}
	if now, lerr := f.store.Tournament(ctx, t.ID); lerr == nil {
		if serr := f.show(ix, now); serr != nil {
			return errors.Join(refusal, serr)
		}
	}
	return refusal
}

// refusal explains a change of t the store refused.
func refusal(err error, what string, t *storage.Tournament) error {
	var le *storage.TournamentLimitError
	switch {
	case errors.As(err, &le):
		return mux.Err("tournament.full", "Max", le.Max)
	case errors.Is(err, storage.ErrEntered):
		return mux.Err("tournament.already_in")
	case errors.Is(err, storage.ErrNotEntered):
		return mux.Err("tournament.not_in")
	case errors.Is(err, storage.ErrStarted):
		return mux.Err("tournament.started")
	case errors.Is(err, storage.ErrGameOver):
		return mux.Err("tournament.ended")
	case errors.Is(err, storage.ErrConflict):
		return mux.RaceErr(err, "tournament.changed")
	case errors.Is(err, storage.ErrInvalid) && what == "start":
		return mux.Err("tournament.too_few", "Count", len(t.Entrants), "Min", t.Format.MinPlayers())
	}
	return fmt.Errorf("tournament: %s %s: %w", what, t.ID, err)
}

// rating is p's rating in kind when they enter, which seeds them: an AI's
// calibrated one, a member's on the global ladder; 0 when unrated.
func (f *Flow) rating(ctx context.Context, kind storage.Kind, p storage.PlayerID) int {
	if name, ok := p.Strategy(); ok {
		if r, ok := strategies.Rating(string(kind), name); ok {
			return int(math.Round(r))
		}
		return 0
	}
	v, err := f.store.Rank(ctx, storage.Global(kind), p, 0)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			f.log.Warn("rating of an entrant", "player", p, "err", err)
		}
		return 0
	}
	return int(math.Round(v.Player.Rating.Rating))
}

// userOf is the Discord user ID of a member's player ID.
func userOf(p storage.PlayerID) string {
	id, _ := p.UserID()
	return id
}
