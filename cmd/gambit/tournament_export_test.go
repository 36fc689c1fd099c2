package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
	"github.com/gambitbot/gambit/tournament"
	"github.com/gambitbot/gambit/tournament/league"
)

// storedTournaments writes a bbolt file at path with a Swiss of five
// members and AIs, two rounds played (White wins every game but the
// first, which Black wins on time) and one player withdrawn, and an
// Arena started; it returns the Swiss as stored and the Arena's id.
func storedTournaments(t *testing.T, path string) (*storage.Tournament, storage.TournamentID) {
	t.Helper()
	ctx := context.Background()
	s, err := bolt.Open(path, &bolt.Options{AIRatings: storetest.AIRatings})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := func(format storage.Format) *storage.Tournament {
		tr := storetest.NewTournament(format)
		if err := s.CreateTournament(ctx, tr, storage.DefaultTournamentCaps); err != nil {
			t.Fatal(err)
		}
		for i, name := range []string{"Bob", "Carol", "Dave", "minimax", "greedy"} {
			id := storage.User(strings.ToLower(name))
			if i > 2 {
				id = storage.AI(name)
			}
			if _, err := s.JoinTournament(ctx, tr.ID, storage.Entrant{Player: storage.Player{ID: id, Name: name}, Rating: 1500 + 10*i}); err != nil {
				t.Fatal(err)
			}
		}
		tr, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	sw, arena := start(storage.FormatSwiss), start(storage.FormatArena)
	ended := 0
	for round := 1; round <= 2; round++ {
		r, ok, err := league.Next(sw, sw.StartedAt)
		if err != nil || !ok {
			t.Fatalf("round %d: %v, %v", round, ok, err)
		}
		var games []*storage.Game
		for _, b := range r.Boards {
			if !b.IsBye() {
				games = append(games, &storage.Game{Kind: sw.Kind, Status: storage.StatusActive, GuildID: sw.GuildID, ChannelID: sw.ChannelID,
					Players: []storage.Player{{ID: b.White}, {ID: b.Black}}, Settings: storage.Settings{MoveTime: sw.MoveTime}})
			}
		}
		if sw, _, err = s.PairRound(ctx, sw.ID, sw.Version, r, games); err != nil {
			t.Fatal(err)
		}
		for _, id := range sw.PendingGames() {
			g, err := s.Game(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			g.Moves, g.Status = []string{"a1", "b2", "c3"}, storage.StatusFinished
			res := storage.Result{Winner: 0}
			if ended == 0 {
				g.Status, res = storage.StatusForfeited, storage.Result{Winner: 1, Outcome: storage.TimedOut}
			}
			ended++
			if _, err := s.FinishGame(ctx, g, res); err != nil {
				t.Fatal(err)
			}
			if sw, _, err = s.RecordTournamentResult(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if sw, err = s.LeaveTournament(ctx, sw.ID, storage.User("carol")); err != nil {
		t.Fatal(err)
	}
	return sw, arena.ID
}

// TestTournamentExport exports a server's Swiss from a bbolt file as a
// TRF, to stdout and with --out: the file is the league's, FIDE's format
// reads it back with its two rounds and the forfeit, and gambit
// tournament pair pairs its next round as the bot would. An unknown id,
// an Arena, a missing id or database are refused with a clear error.
func TestTournamentExport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "gambit.db")
	sw, arena := storedTournaments(t, db)
	id := string(sw.ID)

	code, out, errOut := gambit("tournament", "export", id, "--db", db)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	var want strings.Builder
	if err := league.WriteTRF(&want, sw); err != nil {
		t.Fatal(err)
	}
	if out != want.String() {
		t.Errorf("export wrote\n%s\nwant\n%s", out, want.String())
	}
	s, err := tournament.DecodeTRF(strings.NewReader(out))
	if err != nil {
		t.Fatalf("the export is no TRF: %v\n%s", err, out)
	}
	if s.Played() != 2 || s.Rounds != 3 || len(s.Players) != 5 || s.Players[0].Name != "greedy" || s.Name != "Friday swiss" {
		t.Errorf("read back %d rounds of %d, %d players, first %q, name %q", s.Played(), s.Rounds, len(s.Players), s.Players[0].Name, s.Name)
	}
	if !strings.Contains(out, " - ") || !strings.Contains(out, " + ") {
		t.Errorf("the forfeit of round 1 is not in the TRF:\n%s", out)
	}

	trf := filepath.Join(dir, "friday.trf")
	code, out, errOut = gambit("tournament", "export", id, "--db", db, "--out", trf)
	if code != 0 || out != "" || !strings.Contains(errOut, "wrote tournament "+id) {
		t.Fatalf("export --out: exit %d, %q, %q", code, out, errOut)
	}
	if data, err := os.ReadFile(trf); err != nil || string(data) != want.String() {
		t.Fatalf("the file: %v\n%s", err, data)
	}

	// gambit tournament pair pairs the exported Swiss's round 3 as the
	// bot does: without Carol, who withdrew.
	code, out, errOut = gambit("tournament", "pair", trf)
	if code != 0 {
		t.Fatalf("pair the export: exit %d, %q", code, errOut)
	}
	r, ok, err := league.Next(sw, sw.StartedAt)
	if err != nil || !ok {
		t.Fatalf("Next: %v, %v", ok, err)
	}
	number := map[storage.PlayerID]string{"": "bye"}
	for i, e := range sw.Entrants {
		number[e.Player.ID] = fmt.Sprintf("%s (%d)", e.Player.Name, i+1)
	}
	lines := []string{"# Round 3 of 3, by the Dutch system", "", "| board | white | black |", "|---:|---|---|"}
	for i, b := range r.Boards {
		lines = append(lines, fmt.Sprintf("| %d | %s | %s |", i+1, number[b.White], number[b.Black]))
	}
	if want := strings.Join(lines, "\n") + "\n"; out != want || strings.Contains(out, "Carol") {
		t.Errorf("pair the export:\n%s\nwant the bot's round 3, without Carol:\n%s", out, want)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "export", "999", "--db", db}, "no tournament 999"},
		{[]string{"tournament", "export", string(arena), "--db", db}, "an Arena has no rounds"},
		{[]string{"tournament", "export", "--db", db}, "takes the tournament's ID first"},
		{[]string{"tournament", "export", id, "--db", filepath.Join(dir, "none.db")}, "no database at"},
		{[]string{"tournament", "export", id, id, "--db", db}, "unexpected argument"},
	} {
		code, out, errOut := gambit(tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("gambit %v: exit %d, %q, %q; want an error with %q", tc.args, code, out, errOut, tc.want)
		}
	}
	if code, out, _ := gambit("tournament", "export", "--help"); code != 0 || !strings.Contains(out, "FIDE tournament report file") {
		t.Errorf("export --help: exit %d, %q", code, out)
	}
}

// TestTournamentExportFromPostgres copies the bbolt file of
// TestTournamentExport into PostgreSQL (gambit db copy) and exports the
// Swiss from there with --url: the same TRF.
func TestTournamentExportFromPostgres(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	db := filepath.Join(t.TempDir(), "gambit.db")
	sw, _ := storedTournaments(t, db)
	if code, _, errOut := gambit("db", "copy", "--from", "bolt:"+db, "--to", "postgres:"+url); code != 0 {
		t.Fatalf("copy: exit %d: %s", code, errOut)
	}
	code, out, errOut := gambit("tournament", "export", string(sw.ID), "--url", url)
	if code != 0 {
		t.Fatalf("export --url: exit %d: %s", code, errOut)
	}
	var want strings.Builder
	if err := league.WriteTRF(&want, sw); err != nil {
		t.Fatal(err)
	}
	if out != want.String() {
		t.Errorf("export from PostgreSQL wrote\n%s\nwant\n%s", out, want.String())
	}
}
