package tournament

import (
	"errors"
	"fmt"
)

// Color is the colour of the side that moves first (White) or second
// (Black) in a game of a tournament round.
type Color uint8

// The colours. NoColor marks an unplayed round.
const (
	NoColor Color = iota
	White
	Black
)

// Invert returns the other colour (NoColor stays NoColor).
func (c Color) Invert() Color {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColor
}

// String names the colour.
func (c Color) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return "none"
}

// Result is what one round gave a player, in the terms of FIDE's
// tournament report file (TRF). Points are counted in half-points: a win
// or a full-point bye 2, a draw or a half-point bye 1.
type Result uint8

// The results of a round.
const (
	// NotPaired: the player was not in the round (not yet entered, or
	// withdrawn) and scores nothing.
	NotPaired Result = iota
	// Win, Draw, Loss: a game played.
	Win
	Draw
	Loss
	// ForfeitWin, ForfeitLoss: paired but not played; the one who came
	// wins.
	ForfeitWin
	ForfeitLoss
	// PairingBye: the bye the pairing gave to the odd player out, worth
	// a win.
	PairingBye
	// FullBye, HalfBye, ZeroBye: byes a player asked for before the
	// round was paired (a full point, half a point, nothing).
	FullBye
	HalfBye
	ZeroBye
)

// HalfPoints returns the half-points the result is worth.
func (r Result) HalfPoints() int {
	switch r {
	case Win, ForfeitWin, PairingBye, FullBye:
		return 2
	case Draw, HalfBye:
		return 1
	}
	return 0
}

// played reports whether a game was played over the board.
func (r Result) played() bool { return r == Win || r == Draw || r == Loss }

// paired reports whether the pairing of the round placed the player (a
// game, played or forfeited, or the pairing-allocated bye): the byes a
// player asked for and absences are set before pairing.
func (r Result) paired() bool {
	return r.played() || r == ForfeitWin || r == ForfeitLoss || r == PairingBye
}

// Entry is one round of one player: the opponent's pairing number (0
// for none), the player's colour, and the result.
type Entry struct {
	Opponent int
	Color    Color
	Result   Result
}

// Player is a player of a Swiss tournament. A player's pairing number is
// their index in Swiss.Players plus one.
type Player struct {
	Name    string
	Rating  int
	Results []Entry // round by round
}

// HalfPoints returns the player's score after the first n rounds.
func (p Player) HalfPoints(n int) int {
	total := 0
	for i, e := range p.Results {
		if i >= n {
			break
		}
		total += e.Result.HalfPoints()
	}
	return total
}

// Swiss is the state of a Swiss tournament: its players with their
// results round by round. It is a plain value: pairing a round reads it
// and returns the pairings, and the caller records them and the results
// in the players' Results.
type Swiss struct {
	// Name is the tournament's name (the TRF's line 012).
	Name string
	// Rounds is the number of rounds planned.
	Rounds int
	// FirstColor is the colour of the highest-ranked player in round 1,
	// which fixes the colours of round 1 (FIDE C.04.3 E.5: it is drawn
	// by lot). NoColor lets it be read from a round 1 already paired,
	// and means White before round 1 is.
	FirstColor Color
	// RoundRobin says the rounds are a round robin's (RoundRobin's
	// tables): a round in which a player has no game (ZeroBye, the free
	// round of an odd field or an absence) is then no round for the
	// tie-breaks (Standings). PairDutch and the TRF ignore it.
	RoundRobin bool
	// Players, by pairing number (index+1).
	Players []Player
}

// Pairing is one board of a round: the players' pairing numbers, or a
// bye (Black 0) for White's player.
type Pairing struct {
	White, Black int
}

// IsBye reports whether the pairing is the pairing-allocated bye.
func (p Pairing) IsBye() bool { return p.Black == 0 }

// Typed errors of the pairing systems; wrapped with their context.
var (
	// ErrNoPairing: no pairing of the round satisfies the absolute
	// criteria (no rematch, at most one bye each, colours).
	ErrNoPairing = errors.New("no valid pairing exists")
	// ErrTournament: the tournament's state is inconsistent (an
	// opponent out of range, a game recorded on one side only, a round
	// beyond the planned rounds).
	ErrTournament = errors.New("inconsistent tournament")
)

// Played returns the number of rounds paired so far: the last round in
// which someone was paired. Entries after it are set before its pairing
// (byes asked for, absences): those players sit the next round out.
func (s *Swiss) Played() int {
	played := 0
	for _, p := range s.Players {
		for r, e := range p.Results {
			if e.Result.paired() && r+1 > played {
				played = r + 1
			}
		}
	}
	return played
}

// check verifies that results are known, opponents exist, byes have
// none, and games are recorded alike on both sides (opposite colours,
// results adding up to one point).
func (s *Swiss) check() error {
	for i, p := range s.Players {
		for r, e := range p.Results {
			game := e.Result.played() || e.Result == ForfeitWin || e.Result == ForfeitLoss
			if e.Result > ZeroBye {
				return fmt.Errorf("player %d round %d: result %d: %w", i+1, r+1, e.Result, ErrTournament)
			}
			if e.Opponent == 0 {
				if game {
					return fmt.Errorf("player %d round %d: a game without an opponent: %w", i+1, r+1, ErrTournament)
				}
				continue
			}
			if !game {
				return fmt.Errorf("player %d round %d: a bye with an opponent: %w", i+1, r+1, ErrTournament)
			}
			if e.Result.played() && e.Color != White && e.Color != Black {
				return fmt.Errorf("player %d round %d: a game without a colour: %w", i+1, r+1, ErrTournament)
			}
			if e.Opponent < 1 || e.Opponent > len(s.Players) || e.Opponent == i+1 {
				return fmt.Errorf("player %d round %d: opponent %d: %w", i+1, r+1, e.Opponent, ErrTournament)
			}
			o := s.Players[e.Opponent-1]
			if len(o.Results) <= r || o.Results[r].Opponent != i+1 {
				return fmt.Errorf("player %d round %d: opponent %d does not record the game: %w", i+1, r+1, e.Opponent, ErrTournament)
			}
			if oe := o.Results[r]; e.Result.played() && (oe.Color == e.Color || oe.Result.HalfPoints()+e.Result.HalfPoints() != 2) {
				return fmt.Errorf("player %d round %d: the game with %d is recorded differently on each side: %w", i+1, r+1, e.Opponent, ErrTournament)
			}
		}
	}
	return nil
}
