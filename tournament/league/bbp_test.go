package league_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/tournament"
	"github.com/gambitbot/gambit/tournament/league"
)

// bbpDir holds the random tournaments bbpPairings paired (see its
// README).
const bbpDir = "../testdata/bbp"

// bbpShort are the files -short replays: small and large fields, with
// forfeits, double forfeits and players who retired.
var bbpShort = []string{"p06-s1.trf", "p13-s2.trf", "p24-s1.trf", "p41-s3.trf", "p60-s1.trf"}

// playerID is the stored id of pairing number n in the tests.
func playerID(n int) storage.PlayerID { return storage.User(fmt.Sprint(1000 + n)) }

// storedBefore returns s as the store would hold it before round k was
// paired: entrants by pairing number, rounds 1 to k-1 as boards with
// their results, and a player absent from some round up to k and never
// paired after it (through round k) withdrawn before that round. ok is
// false when the state has what the store cannot hold: a half- or
// full-point bye asked for, or an absence from which the player came
// back.
func storedBefore(s *tournament.Swiss, k int) (*storage.Tournament, bool) {
	t := &storage.Tournament{ID: "T1", Version: 1, GuildID: "g1", ChannelID: "c1", Creator: storage.User("alice"), Name: s.Name,
		Format: storage.FormatSwiss, SwissRounds: s.Rounds, Kind: "tictactoe", MoveTime: time.Minute, MaxPlayers: 60,
		Status: storage.TournamentRunning, StartedAt: time.Unix(0, 0)}
	for i, p := range s.Players {
		e := storage.Entrant{Player: storage.Player{ID: playerID(i + 1), Name: p.Name}, Rating: p.Rating}
		away := 0 // the first round of the absence that lasts to round k
		for r := 1; r <= k; r++ {
			switch p.Results[r-1].Result {
			case tournament.HalfBye, tournament.FullBye:
				return nil, false
			case tournament.NotPaired, tournament.ZeroBye:
				if away == 0 {
					away = r
				}
			default:
				if away != 0 {
					return nil, false
				}
			}
		}
		if away != 0 {
			e.Withdrawn, e.WithdrawnAfter = true, away-1
		}
		t.Entrants = append(t.Entrants, e)
	}
	for r := 1; r < k; r++ {
		round := storage.Round{Number: r}
		for i, p := range s.Players {
			e := p.Results[r-1]
			b := storage.Board{White: playerID(i + 1), Game: storage.GameID(fmt.Sprintf("g%d-%d", r, i+1))}
			switch {
			case e.Result == tournament.PairingBye:
				b.Game, b.Result = "", storage.BoardBye
			case e.Opponent == 0 || e.Color != tournament.White:
				continue
			default:
				b.Black = playerID(e.Opponent)
				b.Result = map[tournament.Result]storage.BoardResult{tournament.Win: storage.BoardWhite, tournament.Loss: storage.BoardBlack,
					tournament.Draw: storage.BoardDraw, tournament.ForfeitWin: storage.BoardWhiteForfeit}[e.Result]
				if e.Result == tournament.ForfeitLoss {
					b.Result = storage.BoardBlackForfeit
					if s.Players[e.Opponent-1].Results[r-1].Result == tournament.ForfeitLoss {
						b.Result = storage.BoardUnplayed
					}
				}
			}
			round.Boards = append(round.Boards, b)
		}
		t.Rounds = append(t.Rounds, round)
	}
	return t, true
}

// recordedBoards returns the boards the file records for round k.
func recordedBoards(s *tournament.Swiss, k int) []storage.Board {
	var out []storage.Board
	for i, p := range s.Players {
		switch e := p.Results[k-1]; {
		case e.Result == tournament.PairingBye:
			out = append(out, storage.Board{White: playerID(i + 1)})
		case e.Opponent != 0 && e.Color == tournament.White:
			out = append(out, storage.Board{White: playerID(i + 1), Black: playerID(e.Opponent)})
		}
	}
	return sortBoards(out)
}

func sortBoards(bs []storage.Board) []storage.Board {
	out := slices.Clone(bs)
	slices.SortFunc(out, func(a, b storage.Board) int {
		if a.White != b.White {
			return compare(a.White, b.White)
		}
		return compare(a.Black, b.Black)
	})
	return out
}

func compare(a, b storage.PlayerID) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// decodeFile reads the bbpPairings file name.
func decodeFile(tb testing.TB, name string) *tournament.Swiss {
	tb.Helper()
	f, err := os.Open(filepath.Join(bbpDir, name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	s, err := tournament.DecodeTRF(f)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return s
}

// TestNextSwissMatchesBBPPairings builds, for every round of
// bbpPairings' random tournaments that the store can hold, the stored
// tournament before it (storedBefore: forfeits, double forfeits as
// unplayed boards, pairing byes, retirements as withdrawals), checks it
// is a valid record, and asks Next for the round: the boards must be the
// pairings and colours bbpPairings gave. Round 1 takes the lot's colour
// from the file: Next gives the top seed White, so a file that drew
// Black for round 1 is compared on round 1's pairs alone.
func TestNextSwissMatchesBBPPairings(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(bbpDir, "*.trf"))
	if err != nil || len(files) < 100 {
		t.Fatalf("%s holds %d files (%v)", bbpDir, len(files), err)
	}
	if testing.Short() {
		files = nil
		for _, name := range bbpShort {
			files = append(files, filepath.Join(bbpDir, name))
		}
	}
	compared, skipped, withdrawals, forfeits := 0, 0, 0, 0
	for _, path := range files {
		s := decodeFile(t, filepath.Base(path))
		for k := 1; k <= s.Played(); k++ {
			st, ok := storedBefore(s, k)
			if !ok {
				skipped++
				continue
			}
			if err := st.Validate(); err != nil {
				t.Fatalf("%s round %d: the stored tournament is not valid: %v", filepath.Base(path), k, err)
			}
			for _, e := range st.Entrants {
				if e.Withdrawn {
					withdrawals++
				}
			}
			for _, r := range st.Rounds {
				for _, b := range r.Boards {
					if b.Result == storage.BoardWhiteForfeit || b.Result == storage.BoardBlackForfeit || b.Result == storage.BoardUnplayed {
						forfeits++
					}
				}
			}
			round, ok, err := league.Next(st, st.StartedAt)
			if err != nil || !ok || round.Number != k {
				t.Fatalf("%s round %d: Next gave round %d, %v, %v", filepath.Base(path), k, round.Number, ok, err)
			}
			got, want := sortBoards(round.Boards), recordedBoards(s, k)
			if k == 1 && s.FirstColor == tournament.Black {
				for _, bs := range [][]storage.Board{got, want} {
					for i, b := range bs {
						if b.Black != "" && b.Black < b.White {
							bs[i].White, bs[i].Black = b.Black, b.White
						}
					}
				}
				got, want = sortBoards(got), sortBoards(want)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s round %d:\n  Next %v\n  bbp  %v", filepath.Base(path), k, got, want)
			}
			compared++
		}
	}
	t.Logf("%d files: %d rounds compared (%d withdrawn entrants and %d forfeited or unplayed boards over them), %d the store cannot hold",
		len(files), compared, withdrawals, forfeits, skipped)
	if compared < len(files)*3 {
		t.Errorf("only %d rounds compared", compared)
	}
}
