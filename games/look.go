package games

import (
	"slices"

	"github.com/gambitbot/gambit/engine"
)

// Look is how a game's board is drawn: the emoji of its palette and a
// board model that a renderer turns into an emoji grid (or a picture).
type Look struct {
	// Mark is the emoji of a mark of engine.X and engine.O.
	Mark [2]string
	// Last is the emoji of the mark the last move placed, by side.
	Last [2]string
	// Empty is the emoji of an empty cell; "" for a game whose empty
	// cells show their label instead (Tic-Tac-Toe's numbers).
	Empty string
	// EmptyName names Empty in the help's legend ("empty"), "" if unused.
	EmptyName string
	// Colour is the colour of a side, for embeds while it is to move or
	// has won.
	Colour [2]int
	// Board returns the board model of pos; last is the game's last
	// change (nil before the first move), which the model marks.
	Board func(pos engine.Position, last *Change) Board
	// Describe says what the last move did, after "Last move: <who> ",
	// such as "played **c1**, capturing b1, c2".
	Describe func(last Change) string
	// Tally, if not nil, returns a side's count shown next to its player
	// ("12 marks") and used for the final score.
	Tally func(pos engine.Position, s engine.Side) (n int, unit string)
	// Progress, if not nil, says how far a game in progress has come
	// ("5 of 8 rounds left"); opts are the game's setup.
	Progress func(pos engine.Position, opts Options) Text
	// Picture is how the board is drawn as an image.
	Picture Picture
}

// Shape is how an image draws the marks.
type Shape int

// The shapes of marks.
const (
	// Discs: a filled disc in the side's colour.
	Discs Shape = iota
	// Letters: X draws a cross, O a ring.
	Letters
	// Queens: a chess queen, a crown on a base, in the side's colour.
	Queens
)

// Picture is the style of a board drawn as an image. Colours are 0xRRGGBB;
// the marks' colours should stay apart for colour-blind players (the
// Okabe–Ito palette's vermillion, blue and yellow do).
type Picture struct {
	// Board is the colour of the board around and between the cells.
	Board int
	// Cell is the colour of an empty cell; of a light square on a
	// checkerboard (Dark).
	Cell int
	// Dark, if not 0, draws the cells as a checkerboard, as a chessboard
	// is: Dark is the colour of the bottom-left square (a1) and of every
	// other square from there.
	Dark int
	// Mark is the colour of each side's marks.
	Mark [2]int
	// Shape is how marks are drawn.
	Shape Shape
	// Labels draws the Label of an unoccupied cell on it, in the colour of
	// X's marks, and a cell without a label as a hole in the board's
	// colour: the numbered tiles and the blank of a sliding-tile puzzle.
	Labels bool
}

// Change is what one move did, in the game's notation: the record a game
// keeps of its last move so that boards can mark it without replaying.
type Change struct {
	// Move is the move played.
	Move string
	// Changed lists other cells the move changed (captured marks), in the
	// game's cell notation, or the piece it moved (Game.Moved: a sliding
	// tile's number).
	Changed []string
}

// Board is a board model: rows of cells, top row first, with the labels
// of its rows and columns.
type Board struct {
	// Rows are the cells, top row first.
	Rows [][]Cell
	// RowLabels label the rows, left of them, top row first; nil for none.
	RowLabels []string
	// ColLabels label the columns, below them; nil for none.
	ColLabels []string
	// Lines are the winning lines of a won game, each from one end cell
	// to the other.
	Lines [][2]Spot
}

// Spot is a cell's place in a board model: its row (0 on top) and column.
type Spot struct{ Row, Col int }

// MarkLine records a winning line from one end cell to the other.
func (b *Board) MarkLine(from, to Spot) { b.Lines = append(b.Lines, [2]Spot{from, to}) }

// Cell is one cell of a board model.
type Cell struct {
	// Occupied reports whether a mark of Side is on the cell.
	Occupied bool
	// Side owns the mark.
	Side engine.Side
	// Label is shown on an empty cell instead of the Empty emoji, such as
	// Tic-Tac-Toe's cell numbers or a sliding tile's number; "" for none.
	Label string
	// Emoji, if not "", draws the cell in an emoji grid instead of the
	// palette or the label: a sliding tile whose number has no keycap.
	Emoji string
	// Move is the move that plays on this cell, for a board entered with
	// buttons; engine.NoMove if none does (its button is disabled).
	Move engine.Move
	// Last marks the cell of the last move.
	Last bool
	// Changed marks a cell the last move changed (a captured mark).
	Changed bool
	// Attacked marks a mark that another attacks: an N-Queens queen in
	// conflict, which a picture draws on a square of its own colour.
	Attacked bool
	// Legal marks an empty cell where the side to move may play, in a game
	// whose legal moves are not obvious (Othello's), which a picture draws
	// with a small dot.
	Legal bool
}

// Layout is how moves are entered under the board.
type Layout int

// The layouts.
const (
	// MoveButtons: one button per legal move, labelled with the move,
	// five to a row (Connect Four's columns).
	MoveButtons Layout = iota + 1
	// BoardButtons: the board itself as buttons, one per cell of the
	// board model, at most 5×5 (Tic-Tac-Toe).
	BoardButtons
	// Menus: select menus of the legal moves, one per group that has any
	// (Adjacency's ranks).
	Menus
)

// Input is how a player enters moves on the board.
type Input struct {
	// Layout is the kind of components.
	Layout Layout
	// Groups are the menus of the Menus layout, each with at most 25
	// moves; every legal move must be in exactly one group.
	Groups []Group
	// Hint, if not nil, describes a move for its menu option ("captures 2").
	Hint func(pos engine.Position, m engine.Move) Text
	// Order, if not nil, sorts the moves of a menu: a negative result puts
	// a first.
	Order func(a, b engine.Move) int
	// Columns adds two-click entry to the Menus layout: a button per column
	// of the board model (at most 15, three rows, with the menus that fit
	// below them), and for the chosen column a button per cell of it (at
	// most 15 rows), the legal ones enabled, in the order of Order (top
	// row first without it), with the column buttons again if they fit in
	// Discord's five rows.
	Columns bool
	// Prompt, for Columns, asks for the cell of a chosen column ("File
	// **e**: choose a rank…").
	Prompt func(column string) string
	// Tag, if not nil, is a short note on a move for its button ("+2":
	// what it captures), "" for none.
	Tag func(pos engine.Position, m engine.Move) string
	// Picks, if not nil, are the moves of the one menu the Columns layout
	// shows under its column buttons instead of the Groups' menus: the
	// legal moves that matter most in pos, at most MaxPicks, in the order
	// the menu lists them (Othello's legal moves, Gomoku's points next to
	// the stones), so that the menu that fits under a large board offers
	// what a player looks for rather than one row of it. Its placeholder
	// is the game's text "picks" (PicksPlaceholder in English).
	Picks            func(pos engine.Position) []engine.Move
	PicksPlaceholder string
}

// MaxPicks is the most options of a select menu in Discord, and so of
// Input.Picks.
const MaxPicks = 25

// Best returns the n moves of moves that score highest (ties kept in
// their order), then sorted by order if it is not nil: Input.Picks'
// usual shape.
func Best(moves []engine.Move, n int, score func(engine.Move) int, order func(a, b engine.Move) int) []engine.Move {
	out := slices.Clone(moves)
	if len(out) > n {
		slices.SortStableFunc(out, func(a, b engine.Move) int { return score(b) - score(a) })
		out = out[:n]
	}
	if order != nil {
		slices.SortFunc(out, order)
	}
	return out
}

// Text is what a game says about a position for people, in English and as
// a message of the bot's catalogue, which translates it: the message
// game.<game name>.<ID> with the placeholders Args (name, value pairs).
type Text struct {
	// English is the text in English.
	English string
	// ID names the catalogue's message under the game's ("progress").
	ID string
	// Args are the message's placeholders as name, value pairs.
	Args []any
	// GridOnly marks a text that explains the emoji grid (the 15-puzzle's
	// letters for tiles 10–15): a board shown as a picture alone leaves it
	// out.
	GridOnly bool
}

// Group is one select menu of the Menus layout.
type Group struct {
	// Placeholder is the menu's text before a choice ("Ranks 1–3: choose
	// a cell"). {{.From}} and {{.To}} in it stand for the menu's first and
	// last options, for a menu whose cells depend on the board's size
	// ("Squares {{.From}} to {{.To}}").
	Placeholder string
	// Has reports whether a move belongs to the group.
	Has func(m engine.Move) bool
}

// GroupOf returns the index of the group of m, or -1.
func (in Input) GroupOf(m engine.Move) int {
	for i, g := range in.Groups {
		if g.Has(m) {
			return i
		}
	}
	return -1
}

// Help is a game's help page.
type Help struct {
	// Rules are the rules in full, as Markdown paragraphs.
	Rules string
	// Moving says how to move in Gambit.
	Moving string
	// Goal, for a solo puzzle, is its goal in one line, which its board
	// states (its texts' goal); "" for a duel.
	Goal string
}

// AI is what a search knows of a game. Scores are in internal units: the
// game's score unit (engine.Position.Score) times Unit.
type AI struct {
	// Unit is the number of internal units in one unit of the game's score.
	// Every score the search meets, Unit × Score of a finished game and
	// every Evaluate, must stay within ±29,999: the search's transposition
	// table holds scores in 16 bits.
	Unit int
	// Evaluate estimates an unfinished position for the side to move.
	Evaluate func(p engine.Position) int
	// Order ranks the moves of p for search order, higher first; values in
	// 0–255.
	Order func(p engine.Position, m engine.Move) int
	// Local, if not nil, replaces Evaluate in the local and genetic
	// searches, whose shallow look-ahead wants a smoother estimate.
	Local func(p engine.Position) int
	// Gain, if not nil, returns what the legal move m gains the side to
	// move in p at once, 0 or more (Adjacency: the marks it captures):
	// greedy plays a move of most gain, and MCTS's playouts prefer one
	// half the time. Without it greedy evaluates every move and playouts
	// are uniformly random.
	Gain func(p engine.Position, m engine.Move) int
	// Book, if not nil, is the game's opening book, which minimax plays
	// from before searching: the book's move in p, the value of p (its
	// best move's score) in internal units and the depth in plies the book
	// searched it to, with ok false when
	// p is not in the book. With seed 0 it is the book's best move;
	// otherwise one of its near-equal moves, the same for the same seed
	// and position (Limits.Seed: games vary, replays repeat).
	Book func(p engine.Position, seed uint64) (m engine.Move, score, depth int, ok bool)
	// Ratings are the calibrated ratings of the strategies that play the
	// game, by strategy name: the Elo figures of one round robin of all of
	// them in `gambit arena`, whose fit puts the mean strategy at 1500
	// (docs/ai.md, "Calibrated ratings"); the arena command that
	// measured them stands in a comment beside the figures. The bot rates
	// players against these fixed figures (strategies.Rating,
	// storage.AIRatings). Every strategy that plays the game needs one
	// (TestEveryStrategyHasACalibratedRating in strategies).
	Ratings map[string]float64
	// Perfect names the strategies that play the game perfectly: they
	// solve it from any position well within the bot's move time, so
	// players see them labelled perfect rather than by their rating
	// (strategies.Info.DifficultyIn). nil for none.
	Perfect []string
	// Final, if not nil, replaces Unit × Score as the exact value of a
	// finished position for the side to move, in internal units: for a
	// game scored by its result alone (Tic-Tac-Toe), a win sooner worth a
	// little more and a loss later a little less, within a unit, so that
	// the search wins as fast and holds out as long as it can, and its
	// exact values tell how far the end is (Distance). The value depends
	// on the position alone, as the search's table needs.
	Final func(p engine.Position) int
	// Distance, if not nil, reads how far the end of the game is from an
	// exact value of the unfinished position p for its side to move, in
	// internal units (Connect Four's Pons score, Final's values): the plies
	// to the end under perfect play, the winner winning as soon as it can
	// and the loser holding out as long as it can, and true; false for a
	// value that does not tell (a draw). Reviews compare the moves of a
	// won or lost position by it.
	Distance func(p engine.Position, units int) (plies int, ok bool)
	// Review, if not nil, is how a review of the game (strategies/review)
	// judges its moves and how much it may search, where the defaults do
	// not fit; nil takes them all.
	Review *Review
}

// Review is what a review of a game (strategies/review) needs to know of
// it beyond its search: each field, if not nil, replaces the review's
// default.
type Review struct {
	// Thresholds replace the default labels' thresholds (2, 4 and 8 in
	// the game's unit: marks, as Adjacency scores), for a game whose unit
	// they do not fit.
	Thresholds *ReviewThresholds
	// Budget replaces the default node caps of the standard review, the
	// bot's and gambit review's (4 million nodes a position and 120
	// million in all), for a game whose search they do not fit. The
	// comment beside a game's budget says how it was measured
	// (docs/ai.md, "Reviews").
	Budget *ReviewBudget
}

// ReviewThresholds say how much value, in the game's unit (Score's), a
// move may lose against the best and keep its label: up to Good it is
// good, up to Inaccuracy an inaccuracy, up to Mistake a mistake, and
// beyond a blunder (strategies/review.Thresholds labels the moves).
type ReviewThresholds struct {
	Good, Inaccuracy, Mistake float64
	// Results, for a game whose exact values say how soon it is won
	// rather than by how much (Connect Four's Pons score), counts an
	// exact value as its result alone — 1 won, 0 drawn, −1 lost — so
	// that, where the distance does not decide, a move keeping an exact
	// result is good, and an exact value compares with an estimate in
	// wins. Such a comparison is at worst a mistake: a blunder is a
	// result proven lost, and the estimate proves nothing.
	Results bool
}

// ReviewBudget are the node caps of a game's standard review; a zero
// field takes the default's.
type ReviewBudget struct {
	// Nodes caps each position's search.
	Nodes uint64
	// Game caps the nodes of the whole review.
	Game uint64
}

// Terminal returns the exact score of a finished position for the side to
// move, in internal units: Final's, or Unit × Score.
func (ai *AI) Terminal(p engine.Position) int {
	if ai.Final != nil {
		return ai.Final(p)
	}
	return ai.Unit * p.Score(p.SideToMove())
}
