package tournament

import (
	"context"
	"errors"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// Where a round's boards go, and the announcement kept current.
//
// A server chooses where its tournaments post each round's boards
// (GuildSettings.TournamentBoards): by default in a thread per round,
// started from the round's pairings in the tournament's channel, so that
// a busy channel keeps its conversation and each round's boards are
// together; or in the channel itself. The standings, notices and podium
// stay in the channel. An Arena, whose waves of pairings come each time a
// game ends, has one thread, the first wave's, for every wave's pairings
// and boards.
//
// The thread is started by the process whose PairRound recorded the
// round, after the pairings are posted, and recorded on the round by
// SetRoundThread before any board is posted: the same transaction moves
// the round's games into the thread, so that a board a crash left
// unposted is posted there by the next start's refresh. A crash between
// the round's record and the thread's leaves the games in the channel,
// where their boards are then posted. When Discord refuses the thread
// (the bot may not create threads there, or the channel is itself a
// thread), the boards go in the channel, and the tournament records it
// (ThreadsRefused) and says it in the channel once: its later rounds are
// posted in the channel without asking again.

// ErrThreadsRefused reports a thread that Discord refused to start: the
// bot lacks the permission, or the channel cannot have threads. Boards
// wraps it.
var ErrThreadsRefused = errors.New("threads refused in this channel")

// postRound posts round r's pairings, msg, in t's channel and starts the
// round's thread from it when the server has threads (see above). An
// Arena's later waves post in the first wave's thread. Only the error of
// posting the pairings is returned: a thread that could not be started
// or recorded leaves the boards in the channel, and is logged.
func (f *Flow) postRound(ctx context.Context, t *storage.Tournament, r storage.Round, msg render.Message) error {
	if t.Format == storage.FormatArena && r.Number > 1 && t.Rounds[0].Thread != "" {
		th := t.Rounds[0].Thread
		if _, _, err := f.store.SetRoundThread(ctx, t.ID, r.Number, th); err != nil {
			f.log.Warn("an Arena wave's boards go in the channel: its thread was not recorded", "tournament", t.ID, "round", r.Number, "err", err)
			return f.post(ctx, t, msg)
		}
		_, err := f.boards.Send(ctx, th, msg)
		return err
	}
	id, err := f.boards.Send(ctx, t.ChannelID, msg)
	if err != nil || !f.threads(ctx, t) {
		return err
	}
	l := f.boards.Lang(t.GuildID, t.ChannelID)
	th, err := f.boards.StartThread(ctx, t.ChannelID, id, render.TournamentThreadName(l, t, r))
	switch {
	case errors.Is(err, ErrThreadsRefused):
		f.log.Info("a round's thread was refused; its boards go in the channel", "tournament", t.ID, "round", r.Number, "err", err)
		_, set, serr := f.store.SetRoundThread(ctx, t.ID, r.Number, "")
		if serr != nil {
			f.log.Warn("threads refused but not recorded", "tournament", t.ID, "err", serr)
		}
		if set { // once a tournament, by the process that recorded it
			return f.post(ctx, t, render.TournamentNotice(l, t, l.T("tournament.thread.refused")))
		}
	case err != nil:
		f.log.Warn("a round's thread was not started; its boards go in the channel", "tournament", t.ID, "round", r.Number, "err", err)
	default:
		if _, _, err := f.store.SetRoundThread(ctx, t.ID, r.Number, th); err != nil {
			f.log.Warn("a round's thread was not recorded; its boards go in the channel", "tournament", t.ID, "round", r.Number, "thread", th, "err", err)
		}
	}
	return nil
}

// threads reports whether t's rounds get threads: its server's setting,
// unless Discord refused one before. A setting that cannot be read keeps
// the boards in the channel.
func (f *Flow) threads(ctx context.Context, t *storage.Tournament) bool {
	if t.ThreadsRefused {
		return false
	}
	gs, err := f.store.GuildSettings(ctx, t.GuildID)
	if err != nil {
		f.log.Warn("server settings not read; a round's boards go in the channel", "guild", t.GuildID, "err", err)
		return false
	}
	return gs.TournamentBoards.Threads()
}

// noteAnnouncement records the message of t's announcement, the answer
// to ix, so that the changes no click makes — a start at the set time,
// the end, a pause — can edit it. A failure is logged: the announcement
// is then kept current by its clicks only.
func (f *Flow) noteAnnouncement(ctx context.Context, ix *mux.Interaction, t *storage.Tournament) {
	m, err := ix.Original()
	if err == nil {
		_, err = f.store.SetTournamentMessage(ctx, t.ID, m.ID)
	}
	if err != nil {
		f.log.Warn("the announcement's message was not recorded", "tournament", t.ID, "err", err)
	}
}

// showAnnouncement edits t's announcement, if known, to show t as it now
// is: its status, and only the buttons that still apply. The process
// that made the change calls it; a failure (the message was deleted) is
// logged.
func (f *Flow) showAnnouncement(ctx context.Context, t *storage.Tournament) {
	if t.MessageID == "" {
		return
	}
	l := f.boards.Lang(t.GuildID, t.ChannelID)
	if err := f.boards.Edit(ctx, t.ChannelID, t.MessageID, f.announcement(l, t)); err != nil {
		f.log.Warn("the announcement was not brought up to date", "tournament", t.ID, "message", t.MessageID, "err", err)
	}
}
