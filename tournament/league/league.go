// Package league runs a stored tournament by the rules: it reads a
// server's tournament as the store keeps it (storage.Tournament: members
// and AIs by PlayerID, boards with their results) and asks package
// tournament for what comes next — the next round's pairings (Next),
// whether it is over (Over), the standings (Standings, Placings) and
// the FIDE report file (WriteTRF). It is the one place the Discord flow
// and the command line turn a stored tournament into the pairing
// engine's values, so both run a tournament the same way. It holds no
// state and does no I/O but writing the TRF: the caller loads the
// tournament, records what Next returns with storage's PairRound, and
// asks again when a board's result is recorded.
//
// An entrant's pairing number is their index in Entrants plus one (the
// store seeds them at the start). A board's White moves first (seat 0).
//
// How the store's results read as FIDE's (tournament.Result):
//
//   - storage.BoardWhite, BoardBlack, BoardDraw: a game played.
//   - BoardWhiteForfeit, BoardBlackForfeit (a no-show or a move-timer
//     loss): a forfeit, + and − — the points of a win and a loss, but no
//     game played: the two may meet again, and the game counts for
//     neither player's colours (FIDE C.04.3 A.5, A.6; bbpPairings reads
//     it so).
//   - BoardUnplayed (an aborted or cancelled game): a double forfeit,
//     nothing for either side, no game played.
//   - BoardBye: in a Swiss the pairing-allocated bye, worth a win (U); in
//     a round robin the free round of an odd field, worth nothing (Z).
//   - A withdrawn entrant is absent from every round paired after they
//     left (Entrant.WithdrawnAfter): not paired, no points (Z, a known
//     absence); their results before it stay. A no-show is withdrawn so
//     (storage.Game.NoShow); one who joined a Swiss again is absent
//     from the rounds they missed the same way. In a round robin each game the Berger
//     table gave them after they left is scored as the opponent's win
//     by forfeit (see Next).
package league

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/tournament"
)

// arenaRules are the Arena's scoring thresholds: none, as the offline
// Arena of gambit tournament has — Lichess's quick-draw thresholds are
// chess's, and a short draw of Tic-Tac-Toe is no ploy.
var arenaRules = tournament.ArenaRules{}

// Next returns the next round of t, a running tournament, to pair at
// now: its Number is len(t.Rounds)+1, its Boards have White and Black set
// and no games or results (a bye is a board without Black). ok is false
// when nothing is to pair now: t is not running (announced, paused or
// ended), or
//
//   - in a Swiss, the last round is not done, SwissRounds are paired, or
//     fewer than two entrants are left; otherwise the round is paired by
//     tournament.PairDutch over the stored rounds. Withdrawn entrants sit
//     the round out. Round 1 gives the top seed White (the lot of FIDE
//     C.04.3 E.5, drawn the same on every replica).
//   - in a round robin, the last round is not done, every round of the
//     Berger tables (tournament.RoundRobin of all the entrants, Cycles
//     times) is paired, or fewer than two entrants are left. Games of a
//     withdrawn entrant get no board: the opponent wins them by forfeit
//     (the result FIDE gives a game not played because a player did not
//     come), which Standings and WriteTRF read from the table. When every
//     game of a round is such a forfeit and no one has the table's bye,
//     the round has one board, a bye for the first of its players still
//     in, so that the round is recorded; it too reads from the table.
//   - in an Arena, now is not before End(t), or fewer than two entrants
//     are waiting (not withdrawn, no board on); otherwise the waiting
//     are paired by tournament.PairArena, each wave of pairings a round.
//
// err reports a tournament whose stored state the rules reject; it wraps
// tournament.ErrNoPairing (no Swiss pairing is left: Over is true then)
// or tournament.ErrTournament.
func Next(t *storage.Tournament, now time.Time) (storage.Round, bool, error) {
	if t.Status != storage.TournamentRunning || (t.Format != storage.FormatArena && !allDone(t)) || active(t) < 2 {
		return storage.Round{}, false, nil
	}
	var boards []storage.Board
	var err error
	switch t.Format {
	case storage.FormatSwiss:
		if len(t.Rounds) >= t.SwissRounds {
			return storage.Round{}, false, nil
		}
		boards, err = nextSwiss(t)
	case storage.FormatRoundRobin:
		boards, err = nextRoundRobin(t)
	case storage.FormatArena:
		if !now.Before(End(t)) {
			return storage.Round{}, false, nil
		}
		boards = nextArena(t)
	default:
		err = fmt.Errorf("format %q: %w", t.Format, tournament.ErrTournament)
	}
	if err != nil {
		return storage.Round{}, false, fmt.Errorf("league: tournament %s: round %d: %w", t.ID, len(t.Rounds)+1, err)
	}
	if len(boards) == 0 {
		return storage.Round{}, false, nil
	}
	return storage.Round{Number: len(t.Rounds) + 1, Boards: boards}, true, nil
}

// Over reports whether t is complete at now, so that the runner finishes
// it with Placings: a Swiss or round robin when its last round is done
// and no round is left to pair (all paired, fewer than two entrants
// left, or — a Swiss — no valid pairing left, as Lichess's Swiss ends
// then); an Arena when its time is up (End) and every board is done. A
// game still on at the end of an Arena keeps the Arena open until it
// ends, and counts: the store keeps no board's end time to tell it from
// a game that ended in time. Lichess counts only the games that end in
// time; a runner that wants its rule ends the games still on at End (an
// aborted game, BoardUnplayed, scores nothing). An ended tournament is
// over; an announced one is not.
func Over(t *storage.Tournament, now time.Time) bool {
	switch {
	case t.Status.Ended():
		return true
	case !t.Status.Started() || !allDone(t):
		return false
	case t.Format == storage.FormatArena:
		return !now.Before(End(t))
	case active(t) < 2:
		return true
	case t.Format == storage.FormatRoundRobin:
		return len(t.Rounds) >= rounds(t)
	}
	if len(t.Rounds) >= t.SwissRounds {
		return true
	}
	_, err := nextSwiss(t)
	return errors.Is(err, tournament.ErrNoPairing)
}

// End returns when an Arena ends: Duration after it started. A pause
// stops the pairing but not the clock, as an Arena on Lichess cannot be
// paused at all: the end is where the announcement said. End is zero for
// the other formats, and before the start.
func End(t *storage.Tournament) time.Time {
	if t.Format != storage.FormatArena || t.StartedAt.IsZero() {
		return time.Time{}
	}
	return t.StartedAt.Add(t.Duration)
}

// allDone reports whether every round of t is done.
func allDone(t *storage.Tournament) bool {
	return !slices.ContainsFunc(t.Rounds, func(r storage.Round) bool { return !r.Done() })
}

// active counts the entrants who have not withdrawn.
func active(t *storage.Tournament) int {
	n := 0
	for _, e := range t.Entrants {
		if !e.Withdrawn {
			n++
		}
	}
	return n
}

// in reports whether entrant e plays round number r: they had not
// withdrawn when it was paired.
func in(e storage.Entrant, r int) bool { return !e.Withdrawn || e.WithdrawnAfter >= r }

// rounds returns the number of rounds a Swiss or round robin plays: for
// the TRF's XXR.
func rounds(t *storage.Tournament) int {
	if t.Format == storage.FormatRoundRobin {
		n := len(t.Entrants)
		return (n + n%2 - 1) * t.Cycles
	}
	return t.SwissRounds
}

// nextSwiss pairs the next round of a Swiss whose rounds are all done.
func nextSwiss(t *storage.Tournament) ([]storage.Board, error) {
	s := swiss(t, len(t.Rounds))
	s.Rounds = t.SwissRounds
	absent(t, s)
	pairings, err := tournament.PairDutch(s)
	if err != nil {
		return nil, err
	}
	return boardsOf(t, pairings), nil
}

// absent gives each withdrawn entrant of s, t as a Swiss, an absence
// (tournament.ZeroBye) from the round after its rounds: they sit it out.
func absent(t *storage.Tournament, s *tournament.Swiss) {
	for i, e := range t.Entrants {
		if e.Withdrawn {
			s.Players[i].Results = append(s.Players[i].Results, tournament.Entry{Result: tournament.ZeroBye})
		}
	}
}

// boardsOf turns pairings by pairing number into boards.
func boardsOf(t *storage.Tournament, pairings []tournament.Pairing) []storage.Board {
	var boards []storage.Board
	for _, p := range pairings {
		b := storage.Board{White: t.Entrants[p.White-1].Player.ID}
		if !p.IsBye() {
			b.Black = t.Entrants[p.Black-1].Player.ID
		}
		boards = append(boards, b)
	}
	return boards
}

// berger returns t's Berger tables.
func berger(t *storage.Tournament) ([][]tournament.Pairing, error) {
	return tournament.RoundRobin(len(t.Entrants), t.Cycles)
}

// nextRoundRobin returns the next round of the Berger tables, without
// the games of withdrawn entrants.
func nextRoundRobin(t *storage.Tournament) ([]storage.Board, error) {
	table, err := berger(t)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", tournament.ErrTournament, err)
	}
	r := len(t.Rounds) + 1
	if r > len(table) {
		return nil, nil
	}
	var pairings []tournament.Pairing
	first := 0 // the first pairing number of the round still in
	for _, p := range table[r-1] {
		w := in(t.Entrants[p.White-1], r)
		b := !p.IsBye() && in(t.Entrants[p.Black-1], r)
		switch {
		case w && (p.IsBye() || b):
			pairings = append(pairings, p)
		case first == 0 && w:
			first = p.White
		case first == 0 && b:
			first = p.Black
		}
	}
	if len(pairings) == 0 && first != 0 {
		pairings = append(pairings, tournament.Pairing{White: first})
	}
	return boardsOf(t, pairings), nil
}

// entries returns the entries of a board's two players, from its result.
func entries(b storage.Board, white, black int) (tournament.Entry, tournament.Entry) {
	var wr, br tournament.Result
	switch b.Result {
	case storage.BoardWhite:
		wr, br = tournament.Win, tournament.Loss
	case storage.BoardBlack:
		wr, br = tournament.Loss, tournament.Win
	case storage.BoardDraw:
		wr, br = tournament.Draw, tournament.Draw
	case storage.BoardWhiteForfeit:
		wr, br = tournament.ForfeitWin, tournament.ForfeitLoss
	case storage.BoardBlackForfeit:
		wr, br = tournament.ForfeitLoss, tournament.ForfeitWin
	default: // unplayed
		wr, br = tournament.ForfeitLoss, tournament.ForfeitLoss
	}
	return tournament.Entry{Opponent: black, Color: tournament.White, Result: wr},
		tournament.Entry{Opponent: white, Color: tournament.Black, Result: br}
}

// swiss returns the first n rounds of t, a Swiss or round robin whose
// first n rounds are done, as package tournament's Swiss: the players by
// pairing number, with an entry a round each, a withdrawn entrant's
// rounds after they left absences (tournament.ZeroBye) but for a round
// robin's forfeits, and so every round of a Swiss a player is on no
// board of (one who joined again after a no-show). Boards of players who are not entrants are left out
// (the store's validation keeps them out).
func swiss(t *storage.Tournament, n int) *tournament.Swiss {
	s := &tournament.Swiss{Name: t.Name, Rounds: rounds(t), RoundRobin: t.Format == storage.FormatRoundRobin}
	if s.Name == "" {
		s.Name = "Gambit tournament " + string(t.ID)
	}
	number := map[storage.PlayerID]int{}
	for i, e := range t.Entrants {
		number[e.Player.ID] = i + 1
		s.Players = append(s.Players, tournament.Player{Name: e.Player.Name, Rating: e.Rating,
			Results: make([]tournament.Entry, n)})
	}
	var table [][]tournament.Pairing
	if t.Format == storage.FormatRoundRobin {
		table, _ = berger(t) // nil for a field the store refuses
	}
	for r := 1; r <= n && r <= len(t.Rounds); r++ {
		set := func(p int, e tournament.Entry) { s.Players[p-1].Results[r-1] = e }
		for _, b := range t.Rounds[r-1].Boards {
			w, b2 := number[b.White], number[b.Black]
			switch {
			case w == 0:
			case b.IsBye() && t.Format == storage.FormatSwiss:
				set(w, tournament.Entry{Result: tournament.PairingBye})
			case b.IsBye() || b2 == 0 || b.Result == storage.BoardPending:
				// A round robin's byes read from the table.
			default:
				we, be := entries(b, w, b2)
				set(w, we)
				set(b2, be)
			}
		}
		for i, e := range t.Entrants {
			if (t.Format == storage.FormatSwiss || !in(e, r)) && s.Players[i].Results[r-1] == (tournament.Entry{}) {
				set(i+1, tournament.Entry{Result: tournament.ZeroBye}) // absent: withdrawn then
			}
		}
		if r > len(table) {
			continue
		}
		for _, p := range table[r-1] {
			if p.IsBye() && in(t.Entrants[p.White-1], r) {
				set(p.White, tournament.Entry{Result: tournament.ZeroBye})
			}
		}
		for _, f := range forfeits(t, table, r) {
			we, be := entries(f, number[f.White], number[f.Black])
			set(we.Opponent, be)
			set(be.Opponent, we)
		}
	}
	return s
}

// Forfeits returns the games of round number r of t, a round robin, that
// are won by forfeit because one of their two players withdrew before
// the round was paired (Entrant.WithdrawnAfter): boards without a game,
// whose Result names the winner (BoardWhiteForfeit, BoardBlackForfeit).
// The round's pairings list them beside its boards; the standings count
// them. A Swiss or an Arena has none: a withdrawn player is paired no
// more.
func Forfeits(t *storage.Tournament, r int) []storage.Board {
	if t.Format != storage.FormatRoundRobin {
		return nil
	}
	table, err := berger(t)
	if err != nil {
		return nil // a field the store refuses
	}
	return forfeits(t, table, r)
}

// forfeits is Forfeits, given t's Berger tables.
func forfeits(t *storage.Tournament, table [][]tournament.Pairing, r int) []storage.Board {
	if r < 1 || r > len(table) {
		return nil
	}
	var out []storage.Board
	for _, p := range table[r-1] {
		if p.IsBye() {
			continue
		}
		w, b := in(t.Entrants[p.White-1], r), in(t.Entrants[p.Black-1], r)
		if w == b {
			continue // a game on a board, or between two who left
		}
		f := storage.Board{White: t.Entrants[p.White-1].Player.ID, Black: t.Entrants[p.Black-1].Player.ID, Result: storage.BoardWhiteForfeit}
		if b {
			f.Result = storage.BoardBlackForfeit
		}
		out = append(out, f)
	}
	return out
}
