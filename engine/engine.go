// Package engine is the vocabulary shared by Gambit's game rules: sides,
// moves, results and the Position interface through which a strategy can
// play any of the games without knowing which.
//
// Each game's rules live in a subpackage of their own, engine/<game>
// (engine/adjacency, engine/othello, …; engine/enginetest holds checks
// their tests share); the plug-ins under games, listed in games/catalog,
// give them names and everything else the program needs.
// The packages under engine are pure rules: they do no I/O and import
// nothing else of Gambit's. The package's examples are the place to start
// reading.
package engine

import "fmt"

// Side is one of the two players. X is the side that the games call
// "first" by default (Connect Four's first player, Tic-Tac-Toe's x);
// Adjacency lets either side start.
type Side uint8

const (
	// X is the player of the x marks (Connect Four: the first player).
	X Side = 0
	// O is the player of the o marks (Connect Four: the second player).
	O Side = 1
)

// Other returns the opponent of s.
func (s Side) Other() Side { return s ^ 1 }

// String returns "x" or "o", the letter the position texts use.
func (s Side) String() string {
	switch s {
	case X:
		return "x"
	case O:
		return "o"
	}
	return fmt.Sprintf("Side(%d)", uint8(s))
}

// ParseSide reads "x" or "o" (either case).
func ParseSide(text string) (Side, error) {
	switch text {
	case "x", "X":
		return X, nil
	case "o", "O":
		return O, nil
	}
	return 0, fmt.Errorf("engine: side %q: want x or o", text)
}

// Move is a move in a game's own encoding: a cell index for Adjacency and
// Tic-Tac-Toe, a column index for Connect Four. Positions parse and format
// moves in the game's notation.
type Move uint16

// NoMove is the zero value of "no move": never legal in any game.
const NoMove Move = 0xFFFF

// Result is the outcome of a position for one side.
type Result int8

const (
	// Ongoing means the game has not ended.
	Ongoing Result = iota
	// Win means the side asked about has won.
	Win
	// Loss means the side asked about has lost.
	Loss
	// Draw means the game ended level.
	Draw
)

// String returns the lowercase name of r.
func (r Result) String() string {
	switch r {
	case Ongoing:
		return "ongoing"
	case Win:
		return "win"
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	}
	return fmt.Sprintf("Result(%d)", int8(r))
}

// Sign is 1 for a win, −1 for a loss and 0 otherwise: the score of a
// game that only counts who won.
func (r Result) Sign() int {
	switch r {
	case Win:
		return 1
	case Loss:
		return -1
	}
	return 0
}

// PuzzleResult is the Result of a one-player puzzle for side s: the
// player (X) wins once it is solved, O — nobody — loses, and it is
// Ongoing before.
func PuzzleResult(solved bool, s Side) Result {
	switch {
	case !solved:
		return Ongoing
	case s == X:
		return Win
	}
	return Loss
}

// MaxMoves is the most legal moves a position of a Gambit game may have; a
// move buffer of this capacity never grows. It allows a 15×15 board where
// every point is a move (N-Queens' largest board has 144 squares,
// Adjacency 64 cells).
const MaxMoves = 225

// Position is a game position that can be searched: it generates its legal
// moves, plays a move and takes it back. Implementations are mutable and
// not safe for concurrent use; Clone gives a goroutine its own copy.
//
// The hot methods (Moves, Play, Undo, Hash) allocate nothing.
type Position interface {
	// SideToMove returns the side whose turn it is.
	SideToMove() Side
	// Moves appends the legal moves to buf[:0] and returns the result; a
	// finished game has none. With a buffer of capacity MaxMoves it never
	// allocates.
	Moves(buf []Move) []Move
	// Play makes the legal move m. Playing an illegal move leaves the
	// position undefined; use Legal to check untrusted moves first.
	Play(m Move)
	// Undo takes back the last move played with Play. It panics if no
	// move has been played since the position was created or parsed.
	Undo()
	// Legal reports whether m is a legal move now.
	Legal(m Move) bool
	// Terminal reports whether the game has ended.
	Terminal() bool
	// Result returns the outcome for side s: Ongoing until the game ends.
	Result(s Side) Result
	// Score returns the game's score from side s's point of view, in the
	// game's own unit (see each game's package documentation).
	Score(s Side) int
	// PliesLeft returns an upper bound on the number of moves left to the
	// end of the game (exact for Adjacency).
	PliesLeft() int
	// Hash returns a 64-bit Zobrist hash of the position: equal positions
	// have equal hashes, whatever the order of moves that reached them.
	Hash() uint64
	// ParseMove reads a move in the game's notation and checks that it is
	// legal here.
	ParseMove(text string) (Move, error)
	// FormatMove writes m in the game's notation.
	FormatMove(m Move) string
	// String returns the position text, which the game's parser reads
	// back to an equal position.
	String() string
	// Clone returns an independent copy, history included.
	Clone() Position
}

// FillKeys fills keys with pseudo-random 64-bit values drawn from a
// splitmix64 sequence started at seed: the Zobrist keys of a game. The
// same seed always gives the same keys, so hashes are stable across runs.
func FillKeys(seed uint64, keys []uint64) {
	for i := range keys {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		keys[i] = z ^ (z >> 31)
	}
}
