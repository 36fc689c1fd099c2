package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/gambitbot/gambit/storage"
)

// testTournamentMessageAndThreads records a tournament's announcement
// and a round's thread: the thread moves the round's games whose boards
// were not posted into it, in the same change, and is set once; a
// refusal of threads is recorded once; a round not paired, a bad id and
// an ended tournament are refused.
func testTournamentMessageAndThreads(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	tr := startedTournament(t, s, storage.FormatSwiss, "bob", "carol", "dave", "erin")

	got, err := s.SetTournamentMessage(ctx, tr.ID, "m1")
	if err != nil || got.MessageID != "m1" || got.Version != tr.Version+1 {
		t.Fatalf("the announcement's message: %+v, %v", got, err)
	}
	if again, err := s.SetTournamentMessage(ctx, tr.ID, "m1"); err != nil || again.Version != got.Version {
		t.Errorf("the same message again: version %d, %v; want %d unchanged", again.Version, err, got.Version)
	}
	if _, err := s.SetTournamentMessage(ctx, tr.ID, ""); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("no message: %v, want ErrInvalid", err)
	}
	if _, _, err := s.SetRoundThread(ctx, tr.ID, 1, "t1"); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a thread for a round not paired: %v, want ErrInvalid", err)
	}

	tr, err = s.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	tr = pair(t, s, tr, board("bob", "carol"), board("dave", "erin"))
	games := tr.Games()
	// The first board was posted already (in the channel): it stays there.
	posted, err := s.Game(ctx, games[0])
	if err != nil {
		t.Fatal(err)
	}
	posted.MessageID = "b1"
	if err := s.UpdateGame(ctx, posted); err != nil {
		t.Fatal(err)
	}
	threaded, ok, err := s.SetRoundThread(ctx, tr.ID, 1, "t1")
	if err != nil || !ok || threaded.Rounds[0].Thread != "t1" || threaded.MessageID != "m1" {
		t.Fatalf("round 1's thread: %+v, %v, %v", threaded, ok, err)
	}
	for i, want := range []string{"c1", "t1"} {
		g, err := s.Game(ctx, games[i])
		if err != nil || g.ChannelID != want || g.Status != storage.StatusActive {
			t.Errorf("board %d's game after the thread: channel %q, %v; want %q", i+1, g.ChannelID, err, want)
		}
	}
	if again, ok, err := s.SetRoundThread(ctx, tr.ID, 1, "t2"); err != nil || ok || again.Rounds[0].Thread != "t1" {
		t.Errorf("a second thread for round 1: %q, recorded %v, %v; want t1 kept", again.Rounds[0].Thread, ok, err)
	}
	if g, _ := s.Game(ctx, games[1]); g.ChannelID != "t1" {
		t.Errorf("a second thread moved board 2's game to %q", g.ChannelID)
	}

	refused, ok, err := s.SetRoundThread(ctx, tr.ID, 1, "")
	if err != nil || !ok || !refused.ThreadsRefused || refused.Rounds[0].Thread != "t1" {
		t.Fatalf("threads refused: %+v, %v, %v", refused, ok, err)
	}
	if _, ok, err := s.SetRoundThread(ctx, tr.ID, 1, ""); err != nil || ok {
		t.Errorf("threads refused again: recorded %v, %v; want nothing", ok, err)
	}

	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentCancelled); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.SetRoundThread(ctx, tr.ID, 1, ""); !errors.Is(err, storage.ErrGameOver) {
		t.Errorf("a thread for a cancelled tournament: %v, want ErrGameOver", err)
	}
	if ended, err := s.SetTournamentMessage(ctx, tr.ID, "m2"); err != nil || ended.MessageID != "m2" {
		t.Errorf("the announcement of an ended tournament: %+v, %v", ended, err)
	}
}

// testTournamentBoardsSetting keeps a guild's place of tournament boards
// beside its other settings, and refuses an unknown one.
func testTournamentBoardsSetting(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	if gs, err := s.GuildSettings(ctx, "g1"); err != nil || gs.TournamentBoards != storage.TournamentBoardsDefault || !gs.TournamentBoards.Threads() {
		t.Fatalf("a new guild's tournament boards: %q, %v; want the default, threads", gs.TournamentBoards, err)
	}
	gs, err := s.UpdateGuildSettings(ctx, "g1", func(gs *storage.GuildSettings) error {
		gs.TournamentBoards, gs.Casual = storage.TournamentBoardsChannel, true
		return nil
	})
	if err != nil || gs.TournamentBoards != storage.TournamentBoardsChannel {
		t.Fatalf("tournament boards in the channel: %+v, %v", gs, err)
	}
	if gs, err := s.GuildSettings(ctx, "g1"); err != nil || gs.TournamentBoards != storage.TournamentBoardsChannel || !gs.Casual || gs.TournamentBoards.Threads() {
		t.Errorf("read back: %+v, %v", gs, err)
	}
	if err := s.PutGuildSettings(ctx, "g1", storage.GuildSettings{TournamentBoards: "forum"}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("an unknown place: %v, want ErrInvalid", err)
	}
}
