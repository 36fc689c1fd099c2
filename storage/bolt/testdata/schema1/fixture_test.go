package bolt_test

// This file writes storage/bolt/testdata/schema1.db with the code of commit
// 04234db (schema version 1). It is kept in testdata/schema1/ for the
// record; see testdata/README.md for how to run it again.

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

func TestWriteSchema1Fixture(t *testing.T) {
	out := os.Getenv("GAMBIT_FIXTURE_OUT")
	if out == "" {
		t.Skip("set GAMBIT_FIXTURE_OUT to the file to write")
	}
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { now = now.Add(time.Minute); return now }
	s, err := bolt.Open(out, &bolt.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	user := func(id string) storage.Player { return storage.Player{ID: storage.User(id), Name: "user" + id} }
	ai := storage.Player{ID: storage.AI("minimax")}
	const guild = "900000000000000001"

	// play plays n random legal moves (stopping before the end) on g, the
	// way the bot records them.
	play := func(g *storage.Game, n int) engine.Position {
		gm, err := catalog.Lookup(string(g.Kind))
		must(err)
		opts := games.Options{Rounds: g.Settings.Rounds}
		pos, err := gm.Start(opts)
		must(err)
		for range n {
			ms := pos.Moves(nil)
			if len(ms) == 0 {
				break
			}
			m := ms[rng.IntN(len(ms))]
			c := gm.Play(pos, m)
			g.Moves = append(g.Moves, c.Move)
			g.Last = &storage.LastMove{Move: c.Move, Changed: c.Changed}
			g.Turn = 1 - g.Turn
			if pos.Terminal() {
				pos.Undo()
				g.Moves = g.Moves[:len(g.Moves)-1]
				g.Turn = 1 - g.Turn
				g.Last = nil
				break
			}
		}
		g.Position = pos.String()
		return pos
	}
	create := func(kind storage.Kind, status storage.Status, a, b storage.Player, inGuild bool) *storage.Game {
		g := &storage.Game{Kind: kind, Status: status, Players: [2]storage.Player{a, b},
			ChannelID: "800000000000000001"}
		if kind == storage.Kind("adjacency") {
			g.Settings.Rounds = 8
			g.Settings.First = "me"
		}
		if a.ID.IsAI() || b.ID.IsAI() {
			g.Settings.MoveTime = 2 * time.Second
		}
		if inGuild {
			g.GuildID = guild
		}
		if status == storage.StatusPending {
			g.Deadline = now.Add(24 * time.Hour)
		} else {
			play(g, 0)
		}
		must(s.CreateGame(ctx, g, storage.Limits{}))
		g.MessageID = "7000000000000000" + string(g.ID)[6:]
		must(s.UpdateGame(ctx, g))
		return g
	}
	for i, kind := range storage.Kinds() {
		u1, u2, u3 := user("10"+string(rune('0'+i))), user("20"+string(rune('0'+i))), user("30")
		// An active game with a person to move and a turn deadline.
		g := create(kind, storage.StatusActive, u1, u2, true)
		play(g, 3)
		g.Deadline = now.Add(48 * time.Hour)
		must(s.UpdateGame(ctx, g))
		// An active game against the AI, awaiting the AI.
		g = create(kind, storage.StatusActive, u1, ai, false)
		play(g, 1)
		must(s.UpdateGame(ctx, g))
		// A pending challenge, one expired, one declined, one cancelled.
		create(kind, storage.StatusPending, u2, u3, true)
		for _, end := range []storage.Status{storage.StatusExpired, storage.StatusDeclined, storage.StatusCancelled} {
			g = create(kind, storage.StatusPending, u3, u1, true)
			g.Status, g.Deadline = end, time.Time{}
			must(s.UpdateGame(ctx, g))
		}
		// A cancelled active game.
		g = create(kind, storage.StatusActive, u1, u2, true)
		play(g, 2)
		g.Status = storage.StatusCancelled
		must(s.UpdateGame(ctx, g))
		// Finished: a win, a loss against the AI, a draw, a resignation
		// and a forfeit; the first with its rematch claimed.
		for j, res := range []storage.Result{{Winner: 0}, {Winner: 1}, {Winner: storage.Draw}, {Winner: 1, Reason: "resigned"}, {Winner: 0, Reason: "timeout"}} {
			opp := u2
			if j == 1 {
				opp = ai
			}
			g = create(kind, storage.StatusActive, u1, opp, j != 1)
			play(g, 4)
			g.Status = storage.StatusFinished
			if res.Reason == "timeout" {
				g.Status = storage.StatusForfeited
			}
			_, err := s.FinishGame(ctx, g, res)
			must(err)
			if j == 0 {
				must(s.ClaimRematch(ctx, g.ID))
			}
		}
	}
	// Enough games between two players for established ratings (rank keys).
	for i := range 40 {
		a, b := user("40"), user("41")
		if i%2 == 1 {
			a, b = b, a
		}
		g := create(storage.Kind("tictactoe"), storage.StatusActive, a, b, true)
		play(g, 5)
		g.Status = storage.StatusFinished
		_, err := s.FinishGame(ctx, g, storage.Result{Winner: i % 3 % 2})
		must(err)
	}
	// A user who asked for their data to be deleted: ended games anonymised,
	// open ones removed.
	g := create(storage.Kind("connect4"), storage.StatusActive, user("50"), user("51"), true)
	play(g, 6)
	g.Status = storage.StatusFinished
	_, err = s.FinishGame(ctx, g, storage.Result{Winner: 1})
	must(err)
	create(storage.Kind("tictactoe"), storage.StatusActive, user("50"), user("51"), true)
	_, err = s.DeleteUser(ctx, "50")
	must(err)

	must(s.PutGuildSettings(ctx, guild, storage.GuildSettings{MoveTime: 3 * time.Second, TurnTimeout: 36 * time.Hour,
		AllowedGames: []storage.Kind{storage.Kind("connect4"), storage.Kind("tictactoe")}}))
	must(s.PutGuildSettings(ctx, "900000000000000002", storage.GuildSettings{TurnTimeout: time.Hour}))
	problems, err := s.Check(ctx)
	must(err)
	if len(problems) > 0 {
		t.Fatalf("Check: %q", problems)
	}
}
