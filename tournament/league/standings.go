package league

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/tournament"
)

// Standing is one line of a tournament's table.
type Standing struct {
	// Rank is the place from 1; entrants tied on every criterion share
	// it.
	Rank int
	// Entrant is the entrant's index in the tournament's Entrants (their
	// pairing number minus one).
	Entrant int
	// Score is in the format's unit: half-points in a Swiss or round
	// robin (a win 2, a draw 1), points in an Arena.
	Score int
	// The tie-breaks of a Swiss or round robin, in order: Buchholz Cut 1
	// in half-points, Sonneborn-Berger in quarter-points, and the
	// half-points scored in the games among the entrants tied on the
	// others when they have all met (0 otherwise), as
	// tournament.Standings computes them.
	BuchholzCut1, SonnebornBerger, Direct int
	// Sheet is an Arena entrant's points game by game, and OnFire
	// whether they won their last two games (their next win counts
	// double).
	Sheet  []int
	OnFire bool
	// Played counts the games played over the board, Won, Drawn and Lost
	// their results; ForfeitWins and Forfeits count the boards won and
	// lost by forfeit (in a Swiss or round robin an unplayed board is a
	// forfeit lost by both; in an Arena it counts for neither), Byes the
	// rounds with a bye.
	Played, Won, Drawn, Lost int
	ForfeitWins, Forfeits    int
	Byes                     int
	// Withdrawn is set for an entrant who left the tournament.
	Withdrawn bool
}

// Standings ranks t's entrants, withdrawn ones too, after the results
// recorded so far: a Swiss or round robin after its rounds done
// (RoundsCounted: a round counts once its last board has its result), by
// score, then Buchholz Cut 1, Sonneborn-Berger and direct encounter; an
// Arena after every game ended, by points (tournament.ArenaScore: 2 a
// win, forfeits too, 1 a draw, doubled on fire; no quick-draw rule, as
// Lichess's thresholds are chess's), entrants level on points sharing a
// rank (listed by pairing number). Before the start every
// entrant shares rank 1 with nothing.
func Standings(t *storage.Tournament) []Standing {
	if t.Format == storage.FormatArena {
		return arenaStandings(t)
	}
	s := swiss(t, RoundsCounted(t))
	var out []Standing
	for _, st := range tournament.Standings(s) {
		line := Standing{Rank: st.Rank, Entrant: st.Player - 1, Score: st.HalfPoints, BuchholzCut1: st.BuchholzCut1,
			SonnebornBerger: st.SonnebornBerger, Direct: st.Direct, Withdrawn: t.Entrants[st.Player-1].Withdrawn}
		for _, e := range s.Players[st.Player-1].Results {
			switch e.Result {
			case tournament.Win:
				line.Won++
			case tournament.Draw:
				line.Drawn++
			case tournament.Loss:
				line.Lost++
			case tournament.ForfeitWin:
				line.ForfeitWins++
			case tournament.ForfeitLoss:
				line.Forfeits++
			case tournament.PairingBye, tournament.ZeroBye:
				line.Byes++
			}
		}
		line.Played = line.Won + line.Drawn + line.Lost
		out = append(out, line)
	}
	return out
}

// RoundsCounted returns the number of rounds Standings counts in a Swiss
// or round robin: the rounds paired, less the last while a board of it
// is on. An Arena counts every game that ended: its rounds paired.
func RoundsCounted(t *storage.Tournament) int {
	n := len(t.Rounds)
	if t.Format != storage.FormatArena && n > 0 && !t.Rounds[n-1].Done() {
		n--
	}
	return n
}

// arenaStandings ranks an Arena's entrants by points.
func arenaStandings(t *storage.Tournament) []Standing {
	var out []Standing
	for i, p := range arenaPlayers(t) {
		sheet := tournament.ArenaScore(p.games, arenaRules)
		out = append(out, Standing{Entrant: i, Score: sheet.Total, Sheet: sheet.Points, OnFire: sheet.OnFire,
			Played: p.won + p.drawn + p.lost, Won: p.won, Drawn: p.drawn, Lost: p.lost, ForfeitWins: p.forfeitWins,
			Forfeits: p.forfeits, Withdrawn: t.Entrants[i].Withdrawn})
	}
	slices.SortStableFunc(out, func(a, b Standing) int { return b.Score - a.Score })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Score == out[i-1].Score {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// Placings are t's final standings as storage's FinishTournament takes
// them: every entrant, withdrawn ones too, with their Standings rank and
// score.
func Placings(t *storage.Tournament) []storage.Placing {
	var out []storage.Placing
	for _, s := range Standings(t) {
		out = append(out, storage.Placing{Player: t.Entrants[s.Entrant].Player.ID, Rank: s.Rank, Score: s.Score})
	}
	return out
}

// ErrNoTRF reports a tournament that a TRF cannot hold: an Arena, which
// has no rounds in FIDE's sense.
var ErrNoTRF = errors.New("an Arena has no rounds for a tournament report file")

// trfNameLen is the width of a TRF's name column.
const trfNameLen = 33

// WriteTRF writes t, a Swiss or round robin, as FIDE's tournament report
// file (TRF-16, with TRF(x)'s XXR line of the rounds planned) through
// tournament.EncodeTRF, so an organiser can check it with FIDE's tools
// and the pairing programs (bbpPairings --check, JaVaFo). It holds the
// rounds Standings counts, with the results as the package doc reads
// them, and, while a Swiss has a round to pair, each withdrawn player's
// absence from it, so that a pairing program pairs it as Next does; players are named as they entered, in ASCII (other characters
// are written ?) cut to the 33 columns of a line, and rated with their
// entry rating (0 to 9999). An Arena fails with ErrNoTRF.
func WriteTRF(w io.Writer, t *storage.Tournament) error {
	if t.Format == storage.FormatArena {
		return fmt.Errorf("league: tournament %s: %w", t.ID, ErrNoTRF)
	}
	s := swiss(t, RoundsCounted(t))
	if t.Format == storage.FormatSwiss && !t.Status.Ended() && allDone(t) && len(t.Rounds) < t.SwissRounds {
		absent(t, s) // the next round's pairing leaves them out
	}
	s.Name = trfText(s.Name, 0)
	if len(t.Rounds) == 0 {
		s.FirstColor = tournament.White // what Next gives round 1
	}
	for i := range s.Players {
		p := &s.Players[i]
		p.Name = trfText(p.Name, trfNameLen)
		p.Rating = min(max(p.Rating, 0), 9999)
	}
	if err := tournament.EncodeTRF(w, s); err != nil {
		return fmt.Errorf("league: tournament %s: %w", t.ID, err)
	}
	return nil
}

// trfText returns s as a TRF holds it: on one line, in ASCII (a
// character beyond it is written ?: the file's columns are bytes to the
// tools that read it, and tournament.EncodeTRF pads a name by
// characters), cut to at most limit bytes (0: no limit).
func trfText(s string, limit int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < ' ' || r > '~':
			return '?'
		}
		return r
	}, s)
	if limit > 0 && len(s) > limit {
		s = s[:limit]
	}
	return s
}
