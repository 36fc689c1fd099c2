package tournament_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/tournament"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// The fakes' part of threads and the announcement's edits.

func (s *fakeStore) SetTournamentMessage(_ context.Context, id storage.TournamentID, messageID string) (*storage.Tournament, error) {
	return s.change(id, func(old *storage.Tournament) (storage.Tournament, error) {
		rec, _, err := storage.SetMessage(old, messageID, s.now())
		return rec, err
	})
}

func (s *fakeStore) SetRoundThread(_ context.Context, id storage.TournamentID, round int, thread string) (*storage.Tournament, bool, error) {
	set := false
	t, err := s.change(id, func(old *storage.Tournament) (storage.Tournament, error) {
		rec, ok, err := storage.SetThread(old, round, thread, s.now())
		if err != nil || !ok || thread == "" {
			set = ok
			return rec, err
		}
		for _, gid := range rec.ThreadGames(round) {
			moved, ok, err := storage.IntoThread(s.games[gid], thread, s.now())
			if err != nil {
				return rec, err
			}
			if ok {
				s.games[gid] = &moved
			}
		}
		set = true
		return rec, nil
	})
	return t, set, err
}

func (s *fakeStore) GuildSettings(context.Context, string) (storage.GuildSettings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings, nil
}

// placed records where the fake boards put messages and threads.
type placed struct {
	sent    []message // Send's messages
	edits   []message // Edit's
	threads []message // StartThread's: the thread's name as Text
	refuse  error     // StartThread's answer, when not nil
}

// message is a message sent (with Nonce) or edited in Channel (ID, the
// message's).
type message struct {
	Channel, ID, Text, Nonce string
	Msg                      render.Message
}

func (b *fakeBoards) Send(_ context.Context, channelID, nonce string, msg render.Message) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.posts = append(b.posts, msg)
	id := fmt.Sprintf("m%d", len(b.sent)+1)
	b.sent = append(b.sent, message{Channel: channelID, ID: id, Text: text(msg.Embeds), Nonce: nonce, Msg: msg})
	return id, nil
}

func (b *fakeBoards) StartThread(_ context.Context, channelID, messageID, name string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.refuse != nil {
		return "", b.refuse
	}
	b.threads = append(b.threads, message{Channel: channelID, ID: messageID, Text: name})
	return "thread-" + messageID, nil
}

func (b *fakeBoards) Edit(_ context.Context, channelID, messageID string, msg render.Message) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.edits = append(b.edits, message{Channel: channelID, ID: messageID, Text: text(msg.Embeds), Msg: msg})
	return nil
}

// placedNow copies what the boards placed so far.
func (b *fakeBoards) placedNow() placed {
	b.mu.Lock()
	defer b.mu.Unlock()
	return placed{sent: append([]message(nil), b.sent...), edits: append([]message(nil), b.edits...), threads: append([]message(nil), b.threads...)}
}

// swissOfFour has alice announce a Swiss of two rounds that alice, bob,
// carol and dave join, and start it; it returns the tournament's ID.
func swissOfFour(t *testing.T, fx *fixture) string {
	t.Helper()
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", 2), str("name", "Cup")), alice, bob, carol, dave)
	fx.start(t, id)
	return id
}

// channels lists the channel of each game of round n of tournament id.
func (fx *fixture) channels(t *testing.T, id string, n int) []string {
	t.Helper()
	tr, err := fx.store.Tournament(context.Background(), storage.TournamentID(id))
	if err != nil || len(tr.Rounds) < n {
		t.Fatalf("tournament %s: round %d: %+v, %v", id, n, tr, err)
	}
	var out []string
	for _, gid := range tr.ThreadGames(n) {
		g, err := fx.store.Game(context.Background(), gid)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g.ChannelID)
	}
	return out
}

// playRound ends every game of tournament id's last round, White
// winning, and advances it.
func (fx *fixture) playRound(t *testing.T, id string) {
	t.Helper()
	tr, _ := fx.store.Tournament(context.Background(), storage.TournamentID(id))
	for _, gid := range tr.PendingGames() {
		fx.store.end(t, gid, 1, false)
	}
	fx.flow.Kick(context.Background(), tr.ID)
}

func TestEachRoundsBoardsGoInAThreadOfItsPairings(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := swissOfFour(t, fx)
	fx.playRound(t, id)
	p := fx.boards.placedNow()
	if len(p.threads) != 2 {
		t.Fatalf("threads started: %+v, want one a round", p.threads)
	}
	for i, th := range p.threads {
		pairings := p.sent[i]
		if pairings.Channel != "channel" || !strings.Contains(pairings.Text, fmt.Sprintf("Round %d", i+1)) {
			t.Errorf("round %d's pairings: %+v, want them in the channel", i+1, pairings)
		}
		if th.Channel != "channel" || th.ID != pairings.ID || th.Text != fmt.Sprintf("Cup — round %d", i+1) {
			t.Errorf("round %d's thread: %+v, want %q from the pairings %s", i+1, th, fmt.Sprintf("Cup — round %d", i+1), pairings.ID)
		}
		want := "thread-" + pairings.ID
		if got := fx.channels(t, id, i+1); len(got) != 2 || got[0] != want || got[1] != want {
			t.Errorf("round %d's games are in %v, want the thread %s", i+1, got, want)
		}
		tr := fx.only(t)
		if tr.Rounds[i].Thread != want {
			t.Errorf("round %d's recorded thread: %q, want %q", i+1, tr.Rounds[i].Thread, want)
		}
	}
	if shown := len(fx.boards.shown); shown != 4 {
		t.Errorf("%d boards shown, want 4", shown)
	}
}

func TestTheChannelSettingKeepsBoardsInTheChannel(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	fx.store.settings.TournamentBoards = storage.TournamentBoardsChannel
	id := swissOfFour(t, fx)
	if p := fx.boards.placedNow(); len(p.threads) != 0 {
		t.Errorf("threads started with the channel setting: %+v", p.threads)
	}
	if got := fx.channels(t, id, 1); len(got) != 2 || got[0] != "channel" || got[1] != "channel" {
		t.Errorf("round 1's games are in %v, want the channel", got)
	}
}

func TestARefusedThreadPutsBoardsInTheChannelAndSaysSoOnce(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	fx.boards.refuse = fmt.Errorf("start a thread: %w: 50013 Missing Permissions", tournament.ErrThreadsRefused)
	id := swissOfFour(t, fx)
	fx.playRound(t, id)
	for n := 1; n <= 2; n++ {
		if got := fx.channels(t, id, n); len(got) != 2 || got[0] != "channel" || got[1] != "channel" {
			t.Errorf("round %d's games are in %v, want the channel", n, got)
		}
	}
	said := 0
	for _, m := range fx.boards.texts() {
		if strings.Contains(m, "could not open a thread") {
			said++
		}
	}
	if said != 1 {
		t.Errorf("the refusal was said %d times, want once:\n%s", said, strings.Join(fx.boards.texts(), "\n---\n"))
	}
	if tr := fx.only(t); !tr.ThreadsRefused || tr.Rounds[0].Thread != "" {
		t.Errorf("recorded: refused %v, round 1's thread %q", tr.ThreadsRefused, tr.Rounds[0].Thread)
	}
}

func TestAThreadThatFailsOtherwiseLeavesTheRoundInTheChannelOnly(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	fx.boards.refuse = errors.New("502 Bad Gateway")
	id := swissOfFour(t, fx)
	fx.boards.mu.Lock()
	fx.boards.refuse = nil
	fx.boards.mu.Unlock()
	fx.playRound(t, id)
	if got := fx.channels(t, id, 1); len(got) != 2 || got[0] != "channel" {
		t.Errorf("round 1's games are in %v, want the channel", got)
	}
	if got := fx.channels(t, id, 2); len(got) != 2 || !strings.HasPrefix(got[0], "thread-") {
		t.Errorf("round 2's games are in %v, want its thread: a failure that is no refusal is not kept", got)
	}
	for _, m := range fx.boards.texts() {
		if strings.Contains(m, "could not open a thread") {
			t.Errorf("a failure that is no refusal was announced: %s", m)
		}
	}
}

func TestAnArenaHasOneThreadForEveryWave(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "arena"), str("game", "tictactoe"), str("name", "Blitz")), alice, bob, carol, dave)
	fx.start(t, id)
	tr := fx.only(t)
	fx.store.end(t, tr.Rounds[0].Boards[0].Game, 1, false)
	fx.store.end(t, tr.Rounds[0].Boards[1].Game, 1, false)
	fx.flow.Kick(context.Background(), tr.ID)
	tr = fx.only(t)
	if len(tr.Rounds) < 2 {
		t.Fatalf("no second wave: %+v", tr.Rounds)
	}
	p := fx.boards.placedNow()
	if len(p.threads) != 1 || p.threads[0].Text != "Blitz — games" {
		t.Fatalf("threads: %+v, want the first wave's only", p.threads)
	}
	th := tr.Rounds[0].Thread
	if tr.Rounds[1].Thread != th || th == "" {
		t.Errorf("the second wave's thread %q, want the first's %q", tr.Rounds[1].Thread, th)
	}
	if last := p.sent[len(p.sent)-1]; last.Channel != th {
		t.Errorf("the second wave's pairings went to %s, want the thread %s", last.Channel, th)
	}
	if got := fx.channels(t, id, 2); len(got) != 2 || got[0] != th || got[1] != th {
		t.Errorf("the second wave's games are in %v, want %s", got, th)
	}
}

// announcementEdits are the texts of the edits of the announcement.
func (fx *fixture) announcementEdits(t *testing.T) []message {
	t.Helper()
	var out []message
	for _, e := range fx.boards.placedNow().edits {
		if e.ID != "original" || e.Channel != "channel" {
			t.Errorf("an edit of %s in %s, want the announcement, original, in the channel", e.ID, e.Channel)
		}
		out = append(out, e)
	}
	return out
}

// hasButton reports whether msg has a component of custom ID id.
func hasButton(msg render.Message, id string) bool {
	return strings.Contains(fmt.Sprintf("%+v", msg.Components), id)
}

func TestTheAnnouncementFollowsAStartAtItsTimeAndTheEnd(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("rounds", 1), num("start", 5)), alice, bob)
	if tr := fx.only(t); tr.MessageID != "original" {
		t.Fatalf("the announcement's message: %q, want the answer's", tr.MessageID)
	}
	fx.clock.Advance(5 * time.Minute)
	fx.flow.Tick(context.Background(), storage.Shards{})
	edits := fx.announcementEdits(t)
	if len(edits) != 1 || !strings.Contains(edits[0].Text, "Under way") {
		t.Fatalf("the announcement after the start at its time: %+v", edits)
	}
	if hasButton(edits[0].Msg, customid.TournamentJoin.Build(id)) || !hasButton(edits[0].Msg, customid.TournamentLeave.Build(id)) {
		t.Errorf("the running announcement's buttons: %+v, want Withdraw and no Join", edits[0].Msg.Components)
	}
	fx.playRound(t, id)
	edits = fx.announcementEdits(t)
	if len(edits) != 2 || !strings.Contains(edits[1].Text, "Finished") || len(edits[1].Msg.Components) != 0 {
		t.Fatalf("the announcement after the end: %+v", edits)
	}
}

func TestTheAnnouncementFollowsACancelForTooFewAndAPause(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("start", 5)), alice)
	fx.clock.Advance(5 * time.Minute)
	fx.flow.Tick(context.Background(), storage.Shards{})
	edits := fx.announcementEdits(t)
	if len(edits) != 1 || !strings.Contains(edits[0].Text, "Cancelled") || len(edits[0].Msg.Components) != 0 {
		t.Fatalf("the announcement after a cancel for too few: %+v", edits)
	}

	fx2 := newFixture(storage.DefaultTournamentCaps)
	swissOfFour(t, fx2)
	if err := fx2.command(admin, sub("pause")); err != nil {
		t.Fatal(err)
	}
	edits = fx2.announcementEdits(t)
	if len(edits) != 1 || !strings.Contains(edits[0].Text, "Paused") {
		t.Fatalf("the announcement after /tournament pause: %+v", edits)
	}
	if err := fx2.command(admin, sub("resume")); err != nil {
		t.Fatal(err)
	}
	if edits = fx2.announcementEdits(t); len(edits) != 2 || !strings.Contains(edits[1].Text, "Under way") {
		t.Fatalf("the announcement after /tournament resume: %+v", edits)
	}
}

// threadless is the fake store failing to record a round's thread, as a
// process that stops between a round's record and its thread's leaves
// the round.
type threadless struct{ *fakeStore }

func (threadless) SetRoundThread(context.Context, storage.TournamentID, int, string) (*storage.Tournament, bool, error) {
	return nil, false, errors.New("connection reset")
}

func TestAThreadNotRecordedLeavesTheBoardsInTheChannel(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	fx.flow = tournament.New(threadless{fx.store}, fx.boards, tournament.Config{
		Caps: storage.DefaultTournamentCaps, AIMoveTime: 2 * time.Second, SweepEvery: time.Minute, Go: func(f func()) { f() }, Now: fx.clock.Now,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	fx.m = mux.New()
	fx.flow.Routes(fx.m)
	id := swissOfFour(t, fx)
	if got := fx.channels(t, id, 1); len(got) != 2 || got[0] != "channel" || got[1] != "channel" {
		t.Errorf("round 1's games are in %v, want the channel: their thread was never recorded", got)
	}
	if shown := len(fx.boards.shown); shown != 2 {
		t.Errorf("%d boards shown, want 2", shown)
	}
	if tr := fx.only(t); tr.Rounds[0].Thread != "" {
		t.Errorf("round 1's thread %q", tr.Rounds[0].Thread)
	}
}

func TestAClickTeachesAnUnknownAnnouncement(t *testing.T) {
	fx := newFixture(storage.DefaultTournamentCaps)
	id := fx.announce(t, sub("create", str("format", "swiss"), str("game", "tictactoe"), num("start", 5)))
	fx.store.mu.Lock()
	fx.store.tournaments[storage.TournamentID(id)].MessageID = "" // announced before announcements were recorded
	fx.store.mu.Unlock()
	for _, m := range []*discordgo.Member{alice, bob} {
		if err := fx.click(m, customid.TournamentJoin.Build(id)); err != nil {
			t.Fatal(err)
		}
	}
	tr := fx.only(t)
	if tr.MessageID != "board" || len(tr.Entrants) != 2 {
		t.Fatalf("after the clicks: announcement %q, %d entrants; want the message clicked and both in", tr.MessageID, len(tr.Entrants))
	}
	fx.clock.Advance(5 * time.Minute)
	fx.flow.Tick(context.Background(), storage.Shards{})
	if edits := fx.boards.placedNow().edits; len(edits) != 1 || edits[0].ID != "board" || !strings.Contains(edits[0].Text, "Under way") {
		t.Errorf("the start at its time edited %+v, want the message clicked", edits)
	}
}
