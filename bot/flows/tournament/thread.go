package tournament

import (
	"context"
	"errors"
	"log/slog"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
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
// where their boards are then posted; the advance that posts the
// pairings again (rounds.go) gets the first post back, and records the
// thread started from it, if any, as the round's. When Discord refuses
// the thread (the bot may not create threads there, or the channel is
// itself a thread), the boards go in the channel, and the tournament records it
// (ThreadsRefused) and says it in the channel once: its later rounds are
// posted in the channel without asking again.

// ErrThreadsRefused reports a thread that Discord refused to start: the
// bot lacks the permission, or the channel cannot have threads. Boards
// wraps it.
var ErrThreadsRefused = errors.New("threads refused in this channel")

// placer puts a round's pairings and boards where its server wants them.
type placer struct {
	store  Store
	boards Boards
	log    *slog.Logger
}

// postRound posts round r's pairings, msg, in t's channel and starts the
// round's thread from it when the server has threads (see above) and the
// round has none yet. An
// Arena's later waves post in the first wave's thread. Only the error of
// posting the pairings is returned: a thread that could not be started
// or recorded leaves the boards in the channel, and is logged.
func (p placer) postRound(ctx context.Context, t *storage.Tournament, r storage.Round, msg render.Message) error {
	if t.Format == storage.FormatArena && r.Number > 1 && t.Rounds[0].Thread != "" {
		th := t.Rounds[0].Thread
		if _, _, err := p.store.SetRoundThread(ctx, t.ID, r.Number, th); err != nil {
			p.log.Warn("an Arena wave's boards go in the channel: its thread was not recorded", "tournament", t.ID, "round", r.Number, "err", err)
			th = t.ChannelID
		}
		_, err := p.boards.Send(ctx, th, onceNonce(t.ID, noncePairings, r.Number), msg)
		return err
	}
	id, err := p.boards.Send(ctx, t.ChannelID, onceNonce(t.ID, noncePairings, r.Number), msg)
	if err != nil || r.Thread != "" || !p.threads(ctx, t) {
		return err // a round with its thread: its pairings posted again (rounds.go), the thread started from them
	}
	l := p.boards.Lang(t.GuildID, t.ChannelID)
	th, err := p.boards.StartThread(ctx, t.ChannelID, id, render.TournamentThreadName(l, t, r))
	switch {
	case errors.Is(err, ErrThreadsRefused):
		p.log.Info("a round's thread was refused; its boards go in the channel", "tournament", t.ID, "round", r.Number, "err", err)
		_, set, serr := p.store.SetRoundThread(ctx, t.ID, r.Number, "")
		if serr != nil {
			p.log.Warn("threads refused but not recorded", "tournament", t.ID, "err", serr)
		}
		if set { // once a tournament, by the process that recorded it
			_, err := p.boards.Send(ctx, t.ChannelID, onceNonce(t.ID, nonceThreads, 0), render.TournamentNotice(l, t, l.T("tournament.thread.refused")))
			return err
		}
	case err != nil:
		p.log.Warn("a round's thread was not started; its boards go in the channel", "tournament", t.ID, "round", r.Number, "err", err)
	default:
		if _, _, err := p.store.SetRoundThread(ctx, t.ID, r.Number, th); err != nil {
			p.log.Warn("a round's thread was not recorded; its boards go in the channel", "tournament", t.ID, "round", r.Number, "thread", th, "err", err)
		}
	}
	return nil
}

// threads reports whether t's rounds get threads: its server's setting,
// unless Discord refused one before. A setting that cannot be read keeps
// the boards in the channel.
func (p placer) threads(ctx context.Context, t *storage.Tournament) bool {
	if t.ThreadsRefused {
		return false
	}
	gs, err := p.store.GuildSettings(ctx, t.GuildID)
	if err != nil {
		p.log.Warn("server settings not read; a round's boards go in the channel", "guild", t.GuildID, "err", err)
		return false
	}
	return gs.TournamentBoards.Threads()
}

// announcer keeps a tournament's announcement current.
type announcer struct {
	store  Store
	boards Boards
	log    *slog.Logger
	render func(l *i18n.Localizer, t *storage.Tournament) render.Message // Flow.announcement
}

// note records the message of t's announcement, the answer to ix, so
// that the changes no click makes — a start at the set time, the end, a
// pause — can edit it. A failure is logged: the announcement is then kept
// current by its clicks only.
func (a announcer) note(ctx context.Context, ix *mux.Interaction, t *storage.Tournament) {
	m, err := ix.Original()
	if err == nil {
		_, err = a.store.SetTournamentMessage(ctx, t.ID, m.ID)
	}
	if err != nil {
		a.log.Warn("the announcement's message was not recorded", "tournament", t.ID, "err", err)
	}
}

// adopt records the message clicked, ix's, as t's announcement when t
// has none: its answer's ID was not learnt (note failed), or t was
// announced before announcements were recorded. Only a message of t's
// channel that everyone sees is adopted.
func (a announcer) adopt(ctx context.Context, ix *mux.Interaction, t *storage.Tournament) {
	m := ix.Message
	if t.MessageID != "" || m == nil || m.ID == "" || ix.ChannelID != t.ChannelID || m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return
	}
	nt, err := a.store.SetTournamentMessage(ctx, t.ID, m.ID)
	if err != nil {
		a.log.Warn("the announcement's message was not recorded", "tournament", t.ID, "err", err)
		return
	}
	t.MessageID, t.Version = nt.MessageID, nt.Version
}

// show edits t's announcement, if known, to show t as it now is: its
// status, and only the buttons that still apply. The process that made
// the change calls it; a failure (the message was deleted) is logged.
func (a announcer) show(ctx context.Context, t *storage.Tournament) {
	if t.MessageID == "" {
		return
	}
	l := a.boards.Lang(t.GuildID, t.ChannelID)
	if err := a.boards.Edit(ctx, t.ChannelID, t.MessageID, a.render(l, t)); err != nil {
		a.log.Warn("the announcement was not brought up to date", "tournament", t.ID, "message", t.MessageID, "err", err)
	}
}
