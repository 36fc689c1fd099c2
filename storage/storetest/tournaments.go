package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// runTournaments runs the tournament tests of the suite, each in
// parallel on a store of its own.
func runTournaments(t *testing.T, o Opener) {
	for _, tc := range []struct {
		name string
		run  func(*testing.T, Opener)
	}{
		{"TournamentCreateAndCaps", testTournamentCreateAndCaps},
		{"TournamentEntries", testTournamentEntries},
		{"TournamentSwissFromStartToPodium", testTournamentSwissFromStartToPodium},
		{"TournamentArenaWaves", testTournamentArenaWaves},
		{"TournamentNoShow", testTournamentNoShow},
		{"TournamentRoundRobinRounds", testTournamentRoundRobinRounds},
		{"TournamentsCopied", testTournamentsCopied},
		{"TournamentsForgetDeletedUsers", testTournamentsForgetDeletedUsers},
		{"TournamentMessageAndThreads", testTournamentMessageAndThreads},
		{"TournamentBoardsSetting", testTournamentBoardsSetting},
		{"TournamentPauseStopsClocks", testTournamentPauseStopsClocks},
		{"RacingTournament", func(t *testing.T, o Opener) {
			s, _ := openTest(t, o)
			RaceTournament(t, s)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, o)
		})
	}
}

// NewTournament returns a new tournament of format in guild g1 created
// by alice: tic-tac-toe, a minute a move, open to AIs; a Swiss of three
// rounds, a single round robin, or an Arena of an hour.
func NewTournament(format storage.Format) *storage.Tournament {
	t := &storage.Tournament{GuildID: "g1", ChannelID: "c1", Creator: storage.User("alice"), Name: "Friday " + string(format),
		Format: format, Kind: "tictactoe", MoveTime: time.Minute, OpenToAI: true}
	switch format {
	case storage.FormatSwiss:
		t.SwissRounds = 3
	case storage.FormatRoundRobin:
		t.Cycles = 1
	case storage.FormatArena:
		t.Duration = time.Hour
	}
	return t
}

// entrant returns the entry of player p (a user name or "ai:strategy")
// with rating.
func entrant(p string, rating int) storage.Entrant {
	id := storage.User(p)
	if strategy, ok := storage.PlayerID(p).Strategy(); ok {
		id = storage.AI(strategy)
	}
	return storage.Entrant{Player: storage.Player{ID: id, Name: p}, Rating: rating}
}

// boardGames returns the new games of the boards of round that are not
// byes, as PairRound takes them: active, of t's kind and guild, White in
// seat 0.
func boardGames(t *storage.Tournament, boards []storage.Board) []*storage.Game {
	var games []*storage.Game
	for _, b := range boards {
		if !b.IsBye() {
			games = append(games, &storage.Game{Kind: t.Kind, Status: storage.StatusActive, GuildID: t.GuildID, ChannelID: t.ChannelID,
				Players: []storage.Player{{ID: b.White}, {ID: b.Black}}, Settings: storage.Settings{MoveTime: time.Second}})
		}
	}
	return games
}

// mustCreateTournament creates t in s with no cap on a server's
// tournaments and the default cap on players.
func mustCreateTournament(tb testing.TB, s storage.Store, t *storage.Tournament) *storage.Tournament {
	tb.Helper()
	if err := s.CreateTournament(context.Background(), t, storage.TournamentCaps{MaxPlayers: storage.DefaultTournamentCaps.MaxPlayers}); err != nil {
		tb.Fatal(err)
	}
	return t
}

// startedTournament creates and starts a tournament of format with the
// players given (see entrant), rated 1500 down by 10 in their order.
func startedTournament(tb testing.TB, s storage.Store, format storage.Format, players ...string) *storage.Tournament {
	tb.Helper()
	ctx := context.Background()
	t := mustCreateTournament(tb, s, NewTournament(format))
	for i, p := range players {
		if _, err := s.JoinTournament(ctx, t.ID, entrant(p, 1500-10*i)); err != nil {
			tb.Fatal(err)
		}
	}
	t, err := s.SetTournamentStatus(ctx, t.ID, storage.TournamentRunning)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// pair records the next round of t with boards, as the pairer of a
// process would, and fails the test unless this call recorded it.
func pair(tb testing.TB, s storage.Store, t *storage.Tournament, boards ...storage.Board) *storage.Tournament {
	tb.Helper()
	r := storage.Round{Number: len(t.Rounds) + 1, Boards: boards}
	got, ok, err := s.PairRound(context.Background(), t.ID, t.Version, r, boardGames(t, boards))
	if err != nil || !ok {
		tb.Fatalf("pairing round %d: recorded %v, %v", r.Number, ok, err)
	}
	return got
}

// board returns the board of white against black (a bye when black is
// empty), by user name or "ai:strategy".
func board(white, black string) storage.Board {
	id := func(p string) storage.PlayerID {
		if p == "" {
			return ""
		}
		return entrant(p, 0).Player.ID
	}
	return storage.Board{White: id(white), Black: id(black)}
}

// endGame ends game id in s: winner is a seat or storage.Draw, and
// forfeit ends it forfeited (a timeout).
func endGame(tb testing.TB, s storage.Store, id storage.GameID, winner int, forfeit bool) {
	tb.Helper()
	ctx := context.Background()
	g, err := s.Game(ctx, id)
	if err != nil {
		tb.Fatal(err)
	}
	g.Moves = []string{"a", "b", "c"}
	g.Status = storage.StatusFinished
	res := storage.Result{Winner: winner}
	if forfeit {
		g.Status, res.Outcome = storage.StatusForfeited, storage.TimedOut
	}
	if _, err := s.FinishGame(ctx, g, res); err != nil {
		tb.Fatal(err)
	}
}

// record records the result of game id and fails the test unless this
// call set it.
func record(tb testing.TB, s storage.Store, id storage.GameID) *storage.Tournament {
	tb.Helper()
	t, ok, err := s.RecordTournamentResult(context.Background(), id)
	if err != nil || !ok {
		tb.Fatalf("result of game %s: recorded %v, %v", id, ok, err)
	}
	return t
}

// testTournamentCreateAndCaps creates tournaments: the store assigns the
// id, version, status and the cap on players; a record that breaks the
// rules is refused; a server's tournaments at once are capped, an ended
// one freeing its place; a player cap above the server's is refused.
func testTournamentCreateAndCaps(t *testing.T, o Opener) {
	ctx := context.Background()
	s, clk := openTest(t, o)
	caps := storage.TournamentCaps{MaxOpen: 2, MaxPlayers: 8}
	first := NewTournament(storage.FormatSwiss)
	if err := s.CreateTournament(ctx, first, caps); err != nil {
		t.Fatal(err)
	}
	if first.ID == "" || first.Version != 1 || first.Status != storage.TournamentAnnounced || first.MaxPlayers != 8 || !first.CreatedAt.Equal(clk.Now()) {
		t.Fatalf("created %+v", first)
	}
	if got, err := s.Tournament(ctx, first.ID); err != nil || got.Name != "Friday swiss" || got.Version != 1 {
		t.Fatalf("loaded %+v, %v", got, err)
	}
	if _, err := s.Tournament(ctx, "nope"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a tournament that does not exist: %v", err)
	}
	for name, bad := range map[string]func(*storage.Tournament){
		"no rounds":        func(t *storage.Tournament) { t.SwissRounds = 0 },
		"unknown format":   func(t *storage.Tournament) { t.Format = "knockout" },
		"no time per move": func(t *storage.Tournament) { t.MoveTime = 0 },
		"created by an AI": func(t *storage.Tournament) { t.Creator = storage.AI("minimax") },
		"above the cap":    func(t *storage.Tournament) { t.MaxPlayers = 9 },
		"with an entrant":  func(t *storage.Tournament) { t.Entrants = []storage.Entrant{entrant("bob", 0)} },
	} {
		tr := NewTournament(storage.FormatSwiss)
		bad(tr)
		if err := s.CreateTournament(ctx, tr, caps); !errors.Is(err, storage.ErrInvalid) {
			t.Errorf("a tournament %s: %v, want ErrInvalid", name, err)
		}
	}
	rr := NewTournament(storage.FormatRoundRobin)
	if err := s.CreateTournament(ctx, rr, storage.TournamentCaps{}); err != nil || rr.MaxPlayers != 12 {
		t.Fatalf("a round robin without caps: room for %d, %v; want 12", rr.MaxPlayers, err)
	}
	err := s.CreateTournament(ctx, NewTournament(storage.FormatArena), caps)
	var le *storage.TournamentLimitError
	if !errors.As(err, &le) || !errors.Is(err, storage.ErrLimit) || le.Limit != storage.LimitTournaments || le.Count != 2 || le.Max != 2 {
		t.Fatalf("a third tournament at a cap of 2: %v", err)
	}
	other := NewTournament(storage.FormatArena)
	other.GuildID = "g2"
	if err := s.CreateTournament(ctx, other, caps); err != nil {
		t.Fatalf("another server's tournament: %v", err)
	}
	if _, err := s.SetTournamentStatus(ctx, first.ID, storage.TournamentCancelled); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTournament(ctx, NewTournament(storage.FormatArena), caps); err != nil {
		t.Fatalf("a tournament once one was cancelled: %v", err)
	}
}

// testTournamentEntries joins and leaves before the start (once each, an
// AI only when open to AIs, up to the cap), starts once with the
// entrants seeded by rating, then refuses joins; leaving a started
// tournament withdraws.
func testTournamentEntries(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	closed := NewTournament(storage.FormatSwiss)
	closed.OpenToAI, closed.MaxPlayers = false, 3
	tr := mustCreateTournament(t, s, closed)
	if _, err := s.JoinTournament(ctx, tr.ID, entrant("ai:minimax", 1700)); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("an AI joining a tournament closed to AIs: %v, want ErrInvalid", err)
	}
	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("starting without players: %v, want ErrInvalid", err)
	}
	for i, p := range []string{"bob", "carol", "dave"} {
		if _, err := s.JoinTournament(ctx, tr.ID, entrant(p, 1400+100*i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.JoinTournament(ctx, tr.ID, entrant("bob", 1400)); !errors.Is(err, storage.ErrEntered) {
		t.Errorf("bob joining twice: %v, want ErrEntered", err)
	}
	var le *storage.TournamentLimitError
	if _, err := s.JoinTournament(ctx, tr.ID, entrant("erin", 1400)); !errors.As(err, &le) || le.Limit != storage.LimitPlayers || le.Max != 3 {
		t.Errorf("erin joining a full tournament: %v, want its players cap", err)
	}
	if _, err := s.LeaveTournament(ctx, tr.ID, storage.User("erin")); !errors.Is(err, storage.ErrNotEntered) {
		t.Errorf("erin leaving: %v, want ErrNotEntered", err)
	}
	got, err := s.LeaveTournament(ctx, tr.ID, storage.User("carol"))
	if err != nil || len(got.Entrants) != 2 {
		t.Fatalf("carol leaving before the start: %+v, %v", got, err)
	}
	if _, err := s.JoinTournament(ctx, tr.ID, entrant("erin", 1450)); err != nil {
		t.Fatalf("erin joining in carol's place: %v", err)
	}
	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentPaused); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("pausing an announced tournament: %v, want ErrInvalid", err)
	}

	s.Admin = s.reopen()
	started, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []storage.PlayerID
	for _, e := range started.Entrants {
		seeds = append(seeds, e.Player.ID)
	}
	if want := []storage.PlayerID{storage.User("dave"), storage.User("erin"), storage.User("bob")}; !slices.Equal(seeds, want) || started.StartedAt.IsZero() {
		t.Errorf("seeded %v (started %v), want %v by rating", seeds, started.StartedAt, want)
	}
	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("starting twice: %v, want ErrConflict", err)
	}
	if _, err := s.JoinTournament(ctx, tr.ID, entrant("frank", 1400)); !errors.Is(err, storage.ErrStarted) {
		t.Errorf("joining a started tournament: %v, want ErrStarted", err)
	}
	got, err = s.LeaveTournament(ctx, tr.ID, storage.User("bob"))
	if err != nil || len(got.Entrants) != 3 || !got.Entrants[2].Withdrawn {
		t.Fatalf("bob leaving a started tournament: %+v, %v; want him withdrawn", got, err)
	}
	if _, err := s.LeaveTournament(ctx, tr.ID, storage.User("bob")); !errors.Is(err, storage.ErrNotEntered) {
		t.Errorf("bob withdrawing twice: %v, want ErrNotEntered", err)
	}
	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentCancelled); err != nil {
		t.Fatal(err)
	}
	if _, err := s.JoinTournament(ctx, tr.ID, entrant("frank", 1400)); !errors.Is(err, storage.ErrGameOver) {
		t.Errorf("joining a cancelled tournament: %v, want ErrGameOver", err)
	}
	if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning); !errors.Is(err, storage.ErrGameOver) {
		t.Errorf("restarting a cancelled tournament: %v, want ErrGameOver", err)
	}
}

// testTournamentSwissFromStartToPodium plays a Swiss of three players
// and an AI through two rounds: each round's games are created with it
// and its byes scored, results come from the ended games once each (a
// redelivery changes nothing, a forfeit is a forfeit), the next round
// waits for the last, a pause stops pairing, a withdrawn player is not
// paired, everything survives a restart, and the finish keeps the
// standings for the server's history and each player's results.
func testTournamentSwissFromStartToPodium(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	tr := startedTournament(t, s, storage.FormatSwiss, "bob", "carol", "ai:minimax", "dave", "erin")
	r1 := []storage.Board{board("bob", "carol"), board("ai:minimax", "dave"), board("erin", "")}
	if _, ok, err := s.PairRound(ctx, tr.ID, tr.Version, storage.Round{Number: 1, Boards: r1}, nil); ok || !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a round without its games: %v, %v; want ErrInvalid", ok, err)
	}
	if _, ok, err := s.PairRound(ctx, tr.ID, tr.Version, storage.Round{Number: 1, Boards: []storage.Board{board("bob", "frank")}}, boardGames(tr, []storage.Board{board("bob", "frank")})); ok || !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("pairing a player who did not enter: %v, %v; want ErrInvalid", ok, err)
	}
	tr = pair(t, s, tr, r1...)
	if len(tr.Rounds) != 1 || tr.Rounds[0].Boards[2].Result != storage.BoardBye || tr.Rounds[0].Boards[2].Game != "" {
		t.Fatalf("round 1: %+v", tr.Rounds)
	}
	games := tr.Games()
	for i, id := range games {
		g, err := s.Game(ctx, id)
		if err != nil || g.Status != storage.StatusActive || g.Players[0].ID != r1[i].White || g.Players[1].ID != r1[i].Black {
			t.Fatalf("the game of board %d: %+v, %v", i+1, g, err)
		}
	}
	// The game of minimax and dave awaits the AI, as any other game.
	if ai, err := s.AwaitingAI(ctx, storage.Shards{}); err != nil || !slices.Equal(IDs(ai), games[1:2]) {
		t.Errorf("games awaiting the AI: %v, %v; want round 1's second board", IDs(ai), err)
	}
	if _, _, err := s.PairRound(ctx, tr.ID, tr.Version, storage.Round{Number: 2, Boards: []storage.Board{board("erin", "bob")}}, boardGames(tr, []storage.Board{board("erin", "bob")})); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("pairing round 2 before round 1 is done: %v, want ErrInvalid", err)
	}
	if _, _, err := s.RecordTournamentResult(ctx, games[0]); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("the result of a game on: %v, want ErrInvalid", err)
	}
	endGame(t, s, games[0], 1, false)
	endGame(t, s, games[1], 0, true)
	record(t, s, games[0])

	s.Admin = s.reopen() // a restart between a game's end and its result
	tr = record(t, s, games[1])
	if again, ok, err := s.RecordTournamentResult(ctx, games[1]); err != nil || ok || again.Version != tr.Version {
		t.Errorf("a redelivered result: recorded %v, %v, version %d; want nothing changed at %d", ok, err, again.Version, tr.Version)
	}
	if b := tr.Rounds[0].Boards; b[0].Result != storage.BoardBlack || b[0].Plies != 3 || b[1].Result != storage.BoardWhiteForfeit {
		t.Errorf("round 1's results: %+v; want Black's win and White's by forfeit", b)
	}
	if _, _, err := s.RecordTournamentResult(ctx, "nope"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("the result of a game in no tournament: %v, want ErrNotFound", err)
	}

	if tr, err := s.LeaveTournament(ctx, tr.ID, storage.User("dave")); err != nil || tr.Entrants[3].WithdrawnAfter != 1 {
		t.Fatalf("dave withdrawing after round 1: %+v, %v", tr, err)
	}
	paused, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentPaused)
	if err != nil {
		t.Fatal(err)
	}
	r2 := []storage.Board{board("carol", "erin"), board("bob", "ai:minimax")}
	if _, _, err := s.PairRound(ctx, tr.ID, paused.Version, storage.Round{Number: 2, Boards: r2}, boardGames(tr, r2)); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("pairing a paused tournament: %v, want ErrInvalid", err)
	}
	if _, err := s.FinishTournament(ctx, tr.ID, nil); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("finishing without standings: %v, want ErrInvalid", err)
	}
	tr, err = s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning)
	if err != nil {
		t.Fatal(err)
	}
	withDave := append(slices.Clone(r2[:1]), board("dave", "bob"))
	if _, _, err := s.PairRound(ctx, tr.ID, tr.Version, storage.Round{Number: 2, Boards: withDave}, boardGames(tr, withDave)); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("pairing dave, withdrawn: %v, want ErrInvalid", err)
	}
	tr = pair(t, s, tr, r2...)
	placings := []storage.Placing{
		{Player: storage.User("carol"), Rank: 1, Score: 4}, {Player: storage.AI("minimax"), Rank: 2, Score: 4},
		{Player: storage.User("erin"), Rank: 3, Score: 2}, {Player: storage.User("bob"), Rank: 4, Score: 0},
		{Player: storage.User("dave"), Rank: 5, Score: 0},
	}
	if _, err := s.FinishTournament(ctx, tr.ID, placings); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("finishing with games on: %v, want ErrInvalid", err)
	}
	for _, id := range tr.Games()[2:] {
		endGame(t, s, id, 0, false)
		tr = record(t, s, id)
	}
	if _, err := s.FinishTournament(ctx, tr.ID, placings[:4]); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("finishing without dave's placing: %v, want ErrInvalid", err)
	}
	done, err := s.FinishTournament(ctx, tr.ID, placings)
	if err != nil || done.Status != storage.TournamentFinished || done.EndedAt.IsZero() {
		t.Fatalf("finish: %+v, %v", done, err)
	}
	if _, err := s.FinishTournament(ctx, tr.ID, placings); !errors.Is(err, storage.ErrGameOver) {
		t.Errorf("finishing twice: %v, want ErrGameOver", err)
	}

	s.Admin = s.reopen()
	mine, err := s.PlayerTournaments(ctx, storage.User("carol"), 0)
	if err != nil || len(mine) != 1 || mine[0].Tournament != tr.ID || mine[0].Rank != 1 || mine[0].Score != 4 || mine[0].Players != 5 {
		t.Errorf("carol's tournaments: %+v, %v", mine, err)
	}
	if ai, err := s.PlayerTournaments(ctx, storage.AI("minimax"), 0); err != nil || len(ai) != 1 || ai[0].Rank != 2 {
		t.Errorf("minimax's tournaments: %+v, %v", ai, err)
	}
	later := mustCreateTournament(t, s, NewTournament(storage.FormatArena))
	list, err := s.GuildTournaments(ctx, "g1", 5)
	if err != nil || len(list) != 2 || list[0].ID != later.ID || list[1].ID != tr.ID {
		t.Errorf("the server's tournaments: %v, %v; want the announced one, then the finished", tournamentIDs(list), err)
	}
	if list, err := s.GuildTournaments(ctx, "g1", 0); err != nil || len(list) != 1 {
		t.Errorf("the server's tournaments without history: %v, %v", tournamentIDs(list), err)
	}
	if open, err := s.OpenTournaments(ctx, storage.Shards{}); err != nil || len(open) != 1 || open[0].ID != later.ID {
		t.Errorf("open tournaments: %v, %v", tournamentIDs(open), err)
	}
}

// testTournamentArenaWaves pairs an Arena in waves: a player whose game
// is on is not paired again, one whose game ended is, while others play.
func testTournamentArenaWaves(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	tr := startedTournament(t, s, storage.FormatArena, "bob", "carol", "dave", "erin")
	if _, _, err := s.PairRound(ctx, tr.ID, tr.Version, storage.Round{Number: 1, Boards: []storage.Board{board("bob", "")}}, nil); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a bye in an Arena: %v, want ErrInvalid", err)
	}
	tr = pair(t, s, tr, board("bob", "carol"), board("dave", "erin"))
	endGame(t, s, tr.Games()[0], storage.Draw, false)
	tr = record(t, s, tr.Games()[0])
	busy := []storage.Board{board("bob", "dave")}
	if _, _, err := s.PairRound(ctx, tr.ID, tr.Version, storage.Round{Number: 2, Boards: busy}, boardGames(tr, busy)); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("pairing dave while his game is on: %v, want ErrInvalid", err)
	}
	tr = pair(t, s, tr, board("carol", "bob"))
	if len(tr.Rounds) != 2 || tr.Rounds[0].Boards[0].Result != storage.BoardDraw || tr.Rounds[0].Boards[1].Result != storage.BoardPending {
		t.Errorf("the Arena's waves: %+v", tr.Rounds)
	}
}

// testTournamentNoShow: the result of a game lost on the move timer
// without a move withdraws its loser in the store, once, so that no
// process pairs them again; Join brings them back into the Arena.
func testTournamentNoShow(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	tr := startedTournament(t, s, storage.FormatArena, "bob", "carol", "dave", "erin")
	tr = pair(t, s, tr, board("bob", "carol"), board("dave", "erin"))
	g, err := s.Game(ctx, tr.Games()[0])
	if err != nil {
		t.Fatal(err)
	}
	g.Status = storage.StatusForfeited // bob, White, never moved
	if _, err := s.FinishGame(ctx, g, storage.Result{Winner: 1, Outcome: storage.TimedOut}); err != nil {
		t.Fatal(err)
	}
	record(t, s, g.ID)
	if _, ok, err := s.RecordTournamentResult(ctx, g.ID); err != nil || ok {
		t.Fatalf("recording the no-show's game again: %v, %v", ok, err)
	}
	tr, err = s.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	bob := board("bob", "").White
	if i := slices.IndexFunc(tr.Entrants, func(e storage.Entrant) bool { return e.Player.ID == bob }); tr.Entered(bob) || !tr.Entrants[i].NoShow {
		t.Fatalf("the stored no-show: %+v", tr.Entrants[i])
	}
	again := []storage.Board{board("bob", "carol")}
	if _, _, err := s.PairRound(ctx, tr.ID, tr.Version, storage.Round{Number: 2, Boards: again}, boardGames(tr, again)); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("pairing the no-show: %v, want ErrInvalid", err)
	}
	tr, err = s.JoinTournament(ctx, tr.ID, entrant("bob", 1500))
	if err != nil || !tr.Entered(bob) {
		t.Fatalf("the no-show joins again: %v", err)
	}
	pair(t, s, tr, board("bob", "carol"))
}

// testTournamentRoundRobinRounds plays a round robin of three players,
// a bye each round, and refuses a round beyond its three.
func testTournamentRoundRobinRounds(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	tr := startedTournament(t, s, storage.FormatRoundRobin, "bob", "carol", "dave")
	for _, r := range [][]storage.Board{
		{board("bob", "carol"), board("dave", "")},
		{board("dave", "bob"), board("carol", "")},
		{board("carol", "dave"), board("bob", "")},
	} {
		tr = pair(t, s, tr, r...)
		id := tr.Games()[len(tr.Games())-1]
		endGame(t, s, id, 1, false)
		tr = record(t, s, id)
	}
	extra := []storage.Board{board("bob", "carol")}
	if _, _, err := s.PairRound(ctx, tr.ID, tr.Version, storage.Round{Number: 4, Boards: extra}, boardGames(tr, extra)); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("a fourth round of a round robin of three: %v, want ErrInvalid", err)
	}
}

// testTournamentsCopied copies a store holding a running and a finished
// tournament into a new one (storage.Copy): the tournaments come with
// their games' boards, results and indexes, and the copy's next
// tournament and games get new ids.
func testTournamentsCopied(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	done := startedTournament(t, s, storage.FormatArena, "bob", "carol")
	done = pair(t, s, done, board("bob", "carol"))
	endGame(t, s, done.Games()[0], 0, false)
	record(t, s, done.Games()[0])
	done, err := s.FinishTournament(ctx, done.ID, []storage.Placing{{Player: storage.User("bob"), Rank: 1, Score: 2}, {Player: storage.User("carol"), Rank: 2}})
	if err != nil {
		t.Fatal(err)
	}
	running := startedTournament(t, s, storage.FormatSwiss, "dave", "erin")
	running = pair(t, s, running, board("dave", "erin"))

	to, _ := openTest(t, o)
	importer, ok := to.Admin.(storage.Importer)
	if !ok {
		t.Skip("the store takes no copy")
	}
	if err := storage.Copy(ctx, s, importer); err != nil {
		t.Fatal(err)
	}
	for _, want := range []*storage.Tournament{done, running} {
		got, err := to.Tournament(ctx, want.ID)
		if err != nil || got.Version != want.Version || !slices.Equal(got.Games(), want.Games()) || got.Status != want.Status {
			t.Errorf("tournament %s copied as %+v, %v", want.ID, got, err)
		}
	}
	if mine, err := to.PlayerTournaments(ctx, storage.User("bob"), 0); err != nil || len(mine) != 1 || mine[0].Rank != 1 {
		t.Errorf("bob's tournaments in the copy: %+v, %v", mine, err)
	}
	id := running.Games()[0]
	endGame(t, to, id, storage.Draw, false)
	if got := record(t, to, id); got.Rounds[0].Boards[0].Result != storage.BoardDraw {
		t.Errorf("a result in the copy: %+v", got.Rounds[0].Boards)
	}
	next := mustCreateTournament(t, to, NewTournament(storage.FormatArena))
	if next.ID <= running.ID {
		t.Errorf("the copy's next tournament is %s, not after %s", next.ID, running.ID)
	}
}

// testTournamentsForgetDeletedUsers erases a member's data: their entry
// in an announced tournament goes, in a running one they become an
// erased entrant, withdrawn, their game on (deleted with their other open
// games) scored as their opponent's forfeit win, and in a finished one
// their place stays, no one's; a creator's name goes too. The others'
// results stand.
func testTournamentsForgetDeletedUsers(t *testing.T, o Opener) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	announced := mustCreateTournament(t, s, NewTournament(storage.FormatSwiss))
	for _, p := range []string{"bob", "carol"} {
		if _, err := s.JoinTournament(ctx, announced.ID, entrant(p, 1500)); err != nil {
			t.Fatal(err)
		}
	}
	finished := startedTournament(t, s, storage.FormatArena, "bob", "carol")
	finished = pair(t, s, finished, board("bob", "carol"))
	endGame(t, s, finished.Games()[0], 0, false)
	record(t, s, finished.Games()[0])
	if _, err := s.FinishTournament(ctx, finished.ID, []storage.Placing{{Player: storage.User("bob"), Rank: 1, Score: 2}, {Player: storage.User("carol"), Rank: 2}}); err != nil {
		t.Fatal(err)
	}
	running := startedTournament(t, s, storage.FormatSwiss, "dave", "bob", "carol")
	running = pair(t, s, running, board("bob", "carol"), board("dave", ""))

	rep, err := s.DeleteUser(ctx, "bob")
	if err != nil || !slices.Equal(IDs(rep.Removed), running.Games()) {
		t.Fatalf("deleting bob: %+v, %v; want his tournament game removed", rep, err)
	}
	if got, err := s.Tournament(ctx, announced.ID); err != nil || len(got.Entrants) != 1 || got.Entrants[0].Player.ID != storage.User("carol") {
		t.Errorf("the announced tournament after deleting bob: %+v, %v; want carol alone", got, err)
	}
	got, err := s.Tournament(ctx, running.ID)
	gone := storage.ErasedEntrant(2)
	if err != nil || got.Entrants[1].Player != (storage.Player{ID: gone}) || !got.Entrants[1].Withdrawn ||
		got.Rounds[0].Boards[0] != (storage.Board{White: gone, Black: storage.User("carol"), Game: running.Games()[0], Result: storage.BoardBlackForfeit}) {
		t.Errorf("the running tournament after deleting bob: %+v, %v; want him erased, withdrawn, his game carol's by forfeit", got, err)
	}
	if got, err := s.Tournament(ctx, finished.ID); err != nil || got.Entrants[0].Player.ID != storage.ErasedEntrant(1) || got.Entrants[0].Rank != 1 ||
		got.Rounds[0].Boards[0].White != storage.ErasedEntrant(1) {
		t.Errorf("the finished tournament after deleting bob: %+v, %v; want his place kept, no one's", got, err)
	}
	if mine, err := s.PlayerTournaments(ctx, storage.User("bob"), 0); err != nil || len(mine) != 0 {
		t.Errorf("bob's tournaments after his deletion: %+v, %v", mine, err)
	}
	if theirs, err := s.PlayerTournaments(ctx, storage.User("carol"), 0); err != nil || len(theirs) != 1 || theirs[0].Rank != 2 {
		t.Errorf("carol's tournaments after bob's deletion: %+v, %v", theirs, err)
	}
	if _, err := s.JoinTournament(ctx, announced.ID, storage.Entrant{Player: storage.Player{ID: gone}}); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("an erased entrant joining: %v, want ErrInvalid", err)
	}
	if _, err := s.DeleteUser(ctx, "alice"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Tournament(ctx, announced.ID); err != nil || got.Creator != storage.Anonymous {
		t.Errorf("the tournament alice created after deleting her: creator %q, %v", got.Creator, err)
	}
}

// tournamentIDs lists the ids of list.
func tournamentIDs(list []*storage.Tournament) []storage.TournamentID {
	var out []storage.TournamentID
	for _, t := range list {
		out = append(out, t.ID)
	}
	return out
}

// RaceTournament races what two replicas of the bot would do at the same
// moment to one tournament, through the stores given — one Store value
// shared by goroutines, or several opened on one database as processes
// would be: joins beyond the cap (the cap holds), starts (one starts
// it), the pairing of round 1 from one version (one records it and
// creates its games, every other sees the winner's boards, no game is
// created twice), the result of a game (set once), the record that
// the round's pairings were posted (set once) and the finish (once).
func RaceTournament(t *testing.T, stores ...storage.Store) {
	ctx := context.Background()
	const racers = 6
	at := func(i int) storage.Store { return stores[i%len(stores)] }
	created := NewTournament(storage.FormatSwiss)
	created.MaxPlayers = 4
	tr := mustCreateTournament(t, at(0), created)

	race := func(f func(i int) error) []error {
		errs := make([]error, racers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range racers {
			wg.Go(func() {
				<-start
				errs[i] = f(i)
			})
		}
		close(start)
		wg.Wait()
		return errs
	}
	ok := func(what string, errs []error, want int, other error) {
		t.Helper()
		n := 0
		for _, err := range errs {
			switch {
			case err == nil:
				n++
			case !errors.Is(err, other):
				t.Errorf("%s: %v, want success or %v", what, err, other)
			}
		}
		if n != want {
			t.Errorf("%s: %d succeeded, want %d", what, n, want)
		}
	}

	ok("racing joins", race(func(i int) error {
		_, err := at(i).JoinTournament(ctx, tr.ID, entrant(fmt.Sprintf("member%d", i), 1500))
		return err
	}), 4, storage.ErrLimit)
	ok("racing starts", race(func(i int) error {
		_, err := at(i).SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning)
		return err
	}), 1, storage.ErrConflict)

	tr, err := at(0).Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	e := tr.Entrants
	if len(e) != 4 {
		t.Fatalf("%d entrants after the racing joins, want 4", len(e))
	}
	boards := []storage.Board{{White: e[0].Player.ID, Black: e[2].Player.ID}, {White: e[3].Player.ID, Black: e[1].Player.ID}}
	seen := make([]*storage.Tournament, racers)
	won := make([]bool, racers)
	race(func(i int) error {
		var err error
		seen[i], won[i], err = at(i).PairRound(ctx, tr.ID, tr.Version, storage.Round{Number: 1, Boards: boards}, boardGames(tr, boards))
		if err != nil {
			t.Errorf("racer %d pairing round 1: %v", i, err)
		}
		return err
	})
	if n := len(slices.DeleteFunc(slices.Clone(won), func(w bool) bool { return !w })); n != 1 {
		t.Fatalf("%d racers recorded round 1, want 1", n)
	}
	for i, got := range seen {
		if got == nil || !slices.Equal(got.Games(), seen[slices.Index(won, true)].Games()) || len(got.Games()) != 2 {
			t.Fatalf("racer %d saw round 1 as %+v, not the winner's", i, got)
		}
	}
	for _, en := range e {
		if active, err := at(0).ActiveGames(ctx, en.Player.ID); err != nil || len(active) != 1 {
			t.Errorf("%s has %d games after the racing pairings (%v), want 1", en.Player.ID, len(active), err)
		}
	}

	game := seen[0].Games()[0]
	endGame(t, at(0), game, 0, false)
	results := make([]bool, racers)
	race(func(i int) error {
		_, set, err := at(i).RecordTournamentResult(ctx, game)
		results[i] = set
		if err != nil {
			t.Errorf("racer %d recording a result: %v", i, err)
		}
		return err
	})
	if n := len(slices.DeleteFunc(results, func(set bool) bool { return !set })); n != 1 {
		t.Errorf("%d racers recorded the one result, want 1", n)
	}
	final, err := at(0).Tournament(ctx, tr.ID)
	if err != nil || final.Rounds[0].Boards[0].Result != storage.BoardWhite || final.Version != tr.Version+2 {
		t.Errorf("after the races: %+v, %v; want round 1 and one result recorded (version %d)", final, err, tr.Version+2)
	}
	raceTournamentEnd(t, final, race, ok, at)
}

// raceTournamentEnd goes on with RaceTournament's tournament tr, whose
// round 1 has one board left on: racing records that its pairings were
// posted (one records it; a round not paired is refused), then, its last result recorded, racing
// finishes (one finishes it, every other finds it ended).
func raceTournamentEnd(t *testing.T, tr *storage.Tournament, race func(func(int) error) []error, ok func(string, []error, int, error), at func(int) storage.Store) {
	t.Helper()
	ctx := context.Background()
	if !tr.Rounds[0].Unannounced {
		t.Errorf("round 1 is recorded announced before anyone said so")
	}
	if _, _, err := at(0).AnnounceRound(ctx, tr.ID, 2); !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("announcing a round not paired: %v, want %v", err, storage.ErrInvalid)
	}
	announced := race(func(i int) error {
		_, set, err := at(i).AnnounceRound(ctx, tr.ID, 1)
		if err == nil && !set {
			err = storage.ErrConflict // recorded already: the one expected failure
		}
		return err
	})
	ok("racing announcements of round 1", announced, 1, storage.ErrConflict)
	last := tr.Rounds[0].Boards[1].Game
	endGame(t, at(0), last, 1, false)
	record(t, at(0), last)
	var placings []storage.Placing
	for i, e := range tr.Entrants {
		placings = append(placings, storage.Placing{Player: e.Player.ID, Rank: i + 1, Score: 2 - i/2*2})
	}
	ok("racing finishes", race(func(i int) error {
		_, err := at(i).FinishTournament(ctx, tr.ID, placings)
		return err
	}), 1, storage.ErrGameOver)
	final, err := at(0).Tournament(ctx, tr.ID)
	if err != nil || final.Status != storage.TournamentFinished || final.Rounds[0].Unannounced || final.Version != tr.Version+3 {
		t.Errorf("after the racing finishes: %+v, %v; want finished, round 1 announced (version %d)", final, err, tr.Version+3)
	}
}

// TournamentRewriter replaces the stored record of tournament id in s by
// record, the JSON of a tournament, and returns a function that puts the
// record back as it was (see Rewriter).
type TournamentRewriter func(t testing.TB, s storage.Admin, id storage.TournamentID, record []byte) (restore func())

// CorruptTournamentIsSkipped: a tournament whose record no longer
// decodes is left out of the listings, named in a
// *storage.SkippedTournamentsError beside the others, reported by Check,
// and loading it says it is corrupt; still counted for the server's cap.
func CorruptTournamentIsSkipped(t *testing.T, o Opener, rewrite TournamentRewriter) {
	ctx := context.Background()
	s, _ := openTest(t, o)
	bad := mustCreateTournament(t, s, NewTournament(storage.FormatSwiss))
	good := mustCreateTournament(t, s, NewTournament(storage.FormatArena))
	restore := rewrite(t, s.Admin, bad.ID, []byte(`{"version": "x"}`))
	names := func(what string, err error) {
		t.Helper()
		var skipped *storage.SkippedTournamentsError
		if !errors.As(err, &skipped) || !errors.Is(err, storage.ErrCorrupt) || !slices.Equal(skipped.IDs, []storage.TournamentID{bad.ID}) {
			t.Errorf("%s: %v; want a *storage.SkippedTournamentsError naming %s alone", what, err, bad.ID)
		}
	}
	list, err := s.GuildTournaments(ctx, "g1", 10)
	names("GuildTournaments", err)
	if !slices.Equal(tournamentIDs(list), []storage.TournamentID{good.ID}) {
		t.Errorf("GuildTournaments with a corrupt record: %v, want %s", tournamentIDs(list), good.ID)
	}
	open, err := s.OpenTournaments(ctx, storage.Shards{})
	names("OpenTournaments", err)
	if !slices.Equal(tournamentIDs(open), []storage.TournamentID{good.ID}) {
		t.Errorf("OpenTournaments with a corrupt record: %v, want %s", tournamentIDs(open), good.ID)
	}
	if _, err := s.Tournament(ctx, bad.ID); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("loading the corrupt tournament: %v, want ErrCorrupt", err)
	}
	if _, err := s.JoinTournament(ctx, bad.ID, entrant("bob", 0)); !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("joining the corrupt tournament: %v, want ErrCorrupt", err)
	}
	if problems, err := s.Check(ctx); err != nil || len(problems) == 0 {
		t.Errorf("Check with a corrupt tournament: %q, %v; want it reported", problems, err)
	}
	if err := s.CreateTournament(ctx, NewTournament(storage.FormatArena), storage.TournamentCaps{MaxOpen: 2, MaxPlayers: 8}); !errors.Is(err, storage.ErrLimit) {
		t.Errorf("a third tournament at a cap of 2, one corrupt: %v, want ErrLimit", err)
	}
	restore()
	if list, err := s.GuildTournaments(ctx, "g1", 10); err != nil || len(list) != 2 {
		t.Errorf("GuildTournaments once restored: %v, %v", tournamentIDs(list), err)
	}
}
