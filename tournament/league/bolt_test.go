package league_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
	"github.com/gambitbot/gambit/storage/storetest"
	"github.com/gambitbot/gambit/tournament/league"
)

// boardGames returns the new games of the boards that are not byes, as
// PairRound takes them: active, of t's kind and guild, White in seat 0.
func boardGames(t *storage.Tournament, boards []storage.Board) []*storage.Game {
	var games []*storage.Game
	for _, b := range boards {
		if !b.IsBye() {
			games = append(games, &storage.Game{Kind: t.Kind, Status: storage.StatusActive, GuildID: t.GuildID, ChannelID: t.ChannelID,
				Players: []storage.Player{{ID: b.White}, {ID: b.Black}}, Settings: storage.Settings{MoveTime: t.MoveTime}})
		}
	}
	return games
}

// endGame ends game id in s as the k-th game to end: White wins, Black
// wins on time (a forfeit), or a draw, in turn, after k%7+3 moves.
func endGame(tb testing.TB, s storage.Store, id storage.GameID, k int) {
	tb.Helper()
	ctx := context.Background()
	g, err := s.Game(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i < k%7+3; i++ {
		g.Moves = append(g.Moves, "a1")
	}
	g.Status = storage.StatusFinished
	res := storage.Result{Winner: 0}
	switch k % 3 {
	case 1:
		g.Status, res = storage.StatusForfeited, storage.Result{Winner: 1, Outcome: storage.TimedOut}
	case 2:
		res.Winner = storage.Draw
	}
	if _, err := s.FinishGame(ctx, g, res); err != nil {
		tb.Fatal(err)
	}
}

// TestRunOnBolt runs whole tournaments of each format through a real
// bbolt store, as a runner does: create, join (members and AIs), start,
// then Next → PairRound with the boards' games → end each game
// (FinishGame) → RecordTournamentResult → … until Over, and
// FinishTournament with the Placings; one player withdraws after the
// first round. The stored end holds the placings, each player's
// tournament history has it, and the standings of the stored record
// are the placings.
func TestRunOnBolt(t *testing.T) {
	for _, format := range []storage.Format{storage.FormatSwiss, storage.FormatRoundRobin, storage.FormatArena} {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			clock := start
			s, err := bolt.Open(filepath.Join(t.TempDir(), "gambit.db"), &bolt.Options{Clock: func() time.Time { return clock },
				AIRatings: storetest.AIRatings})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tr := storetest.NewTournament(format)
			if err := s.CreateTournament(ctx, tr, storage.DefaultTournamentCaps); err != nil {
				t.Fatal(err)
			}
			players := []storage.Player{{ID: storage.User("bob"), Name: "Bob"}, {ID: storage.User("carol"), Name: "Carol"},
				{ID: storage.User("dave"), Name: "Dave"}, {ID: storage.AI("minimax"), Name: "minimax"}, {ID: storage.AI("greedy"), Name: "greedy"}}
			for i, pl := range players {
				if _, err := s.JoinTournament(ctx, tr.ID, storage.Entrant{Player: pl, Rating: 1500 + 10*i}); err != nil {
					t.Fatal(err)
				}
			}
			if tr, err = s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning); err != nil {
				t.Fatal(err)
			}
			ended, waves := 0, 0
			for step := 0; !league.Over(tr, clock); step++ {
				if step > 100 {
					t.Fatalf("not over after 100 steps: %d rounds", len(tr.Rounds))
				}
				r, ok, err := league.Next(tr, clock)
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					var recorded bool
					tr, recorded, err = s.PairRound(ctx, tr.ID, tr.Version, r, boardGames(tr, r.Boards))
					if err != nil || !recorded {
						t.Fatalf("round %d: recorded %v, %v", r.Number, recorded, err)
					}
					waves++
					if waves == 1 {
						if tr, err = s.LeaveTournament(ctx, tr.ID, storage.User("carol")); err != nil {
							t.Fatal(err)
						}
					}
				}
				for _, id := range tr.PendingGames() {
					endGame(t, s, id, ended)
					ended++
					if tr, ok, err = s.RecordTournamentResult(ctx, id); err != nil || !ok {
						t.Fatalf("result of %s: %v, %v", id, ok, err)
					}
				}
				if format == storage.FormatArena {
					clock = clock.Add(7 * time.Minute)
				}
			}
			want := league.Placings(tr)
			final, err := s.FinishTournament(ctx, tr.ID, want)
			if err != nil {
				t.Fatal(err)
			}
			if final.Status != storage.TournamentFinished {
				t.Fatalf("status %s", final.Status)
			}
			switch format {
			case storage.FormatSwiss:
				if len(final.Rounds) != final.SwissRounds {
					t.Errorf("%d rounds of %d", len(final.Rounds), final.SwissRounds)
				}
			case storage.FormatRoundRobin:
				if len(final.Rounds) != 5 {
					t.Errorf("%d rounds of five players' round robin", len(final.Rounds))
				}
			case storage.FormatArena:
				if len(final.Rounds) < 5 || clock.Before(league.End(final)) {
					t.Errorf("%d waves, over at %v before the end %v", len(final.Rounds), clock, league.End(final))
				}
			}
			for _, pl := range want {
				got, err := s.PlayerTournaments(ctx, pl.Player, 0)
				if err != nil || len(got) != 1 || got[0].Rank != pl.Rank || got[0].Score != pl.Score || got[0].Players != len(players) {
					t.Errorf("%s's tournaments: %+v, %v; want rank %d score %d", pl.Player, got, err, pl.Rank, pl.Score)
				}
			}
			for i, st := range league.Standings(final) {
				if e := final.Entrants[st.Entrant]; e.Rank != st.Rank || e.Score != st.Score || want[i].Player != e.Player.ID {
					t.Errorf("stored %s: rank %d score %d; the standings' %+v", e.Player.ID, e.Rank, e.Score, st)
				}
			}
			if s := league.Standings(final); s[0].Rank != 1 || len(s) != len(players) {
				t.Errorf("standings %+v", s)
			}
			t.Logf("%s: %d rounds, %d games, placings %v", format, len(final.Rounds), ended, want)
		})
	}
}
