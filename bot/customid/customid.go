// Package customid names the custom IDs of Gambit's message components.
//
// A custom ID is a short, versioned path such as "v1/move/0001k/7/e4",
// routed like a URL path: a [Pattern] such as "v1/move/{game}/{ply}/{cell}"
// both builds IDs (so renderers never format them by hand) and matches
// them (so the router reads their parameters by name). The leading version
// segment lets a later release change an ID's shape while the buttons of
// old messages still route to code that understands them.
//
// Discord limits a custom ID to 100 characters; Build refuses longer ones.
package customid

import (
	"fmt"
	"strings"
)

// MaxLen is Discord's limit on the length of a custom ID.
const MaxLen = 100

// Pattern is a custom ID template: segments separated by '/', where a
// segment "{name}" is a parameter and any other segment is literal.
type Pattern string

// The patterns of Gambit's components. A game ID and ply (the number of
// moves played) identify the board a component was drawn for, so that a
// click on an outdated board is recognised.
const (
	// Move is a button that plays a move (Connect Four columns,
	// Tic-Tac-Toe cells).
	Move Pattern = "v1/move/{game}/{ply}/{cell}"
	// Pick is a select of legal cells (Adjacency); the chosen value is the
	// cell and group numbers the selects of one board.
	Pick Pattern = "v1/pick/{game}/{ply}/{group}"
	// File is a column button under a board (Adjacency's files a–h), the
	// first of two clicks: it shows the clicker alone the column's cells.
	// A File button on that picker switches it to another column.
	File Pattern = "v1/file/{game}/{ply}/{file}"
	// Cell is a cell button of the picker a File click shows, the second
	// click: it plays the cell.
	Cell Pattern = "v1/cell/{game}/{ply}/{cell}"
	// Resign asks the player to confirm resigning.
	Resign Pattern = "v1/resign/{game}/{ply}"
	// ResignConfirm resigns the game.
	ResignConfirm Pattern = "v1/resign/{game}/{ply}/yes"
	// Abort asks a player to confirm aborting a duel that has just begun
	// (storage.Game.Abortable).
	Abort Pattern = "v1/abort/{game}/{ply}"
	// AbortConfirm aborts the game: no result, no rating.
	AbortConfirm Pattern = "v1/abort/{game}/{ply}/yes"
	// DrawOffer offers the opponent a draw on the board of ply; the next
	// move ends the offer.
	DrawOffer Pattern = "v1/draw/{game}/{ply}"
	// DrawAccept accepts the draw offered on the board of ply.
	DrawAccept Pattern = "v1/draw/{game}/{ply}/accept"
	// DrawDecline declines the draw offered on the board of ply.
	DrawDecline Pattern = "v1/draw/{game}/{ply}/decline"
	// Rematch offers a finished game's players a new game with colours
	// swapped.
	Rematch Pattern = "v1/rematch/{game}"
	// Accept accepts a challenge.
	Accept Pattern = "v1/accept/{game}"
	// Take accepts an open challenge, one any member but its challenger
	// may accept: the first click takes it.
	Take Pattern = "v1/take/{game}"
	// Decline declines a challenge, or withdraws it when its challenger
	// clicks (an open challenge's Withdraw button).
	Decline Pattern = "v1/decline/{game}"
	// Repost posts a fresh copy of a game's board in its channel.
	Repost Pattern = "v1/repost/{game}"
	// PrivacyDelete confirms the erasure of a user's data.
	PrivacyDelete Pattern = "v1/privacy/delete/{user}"
	// Hint shows a solo puzzle's player, privately, the next move of an
	// optimal solution.
	Hint Pattern = "v1/hint/{game}/{ply}"
	// Solve plays an optimal solution of a solo puzzle out on its board;
	// the puzzle then counts as solved by Gambit.
	Solve Pattern = "v1/solve/{game}/{ply}"
	// Compare shows, privately, the puzzle solvers side by side on a solo
	// puzzle's position.
	Compare Pattern = "v1/compare/{game}/{ply}"
	// VersusStop stops a game between two AIs (/versus): its starter's
	// or a server manager's click cancels it.
	VersusStop Pattern = "v1/versus/stop/{game}"
	// Review shows, privately, the review of an ended duel: its moves
	// labelled against the best ones, its turning point and its replay.
	// Anyone who could see the game may click it (bot/reviewaccess.go).
	Review Pattern = "v1/review/{game}"
	// ChallengePick is the game select of the "Challenge to a game"
	// context menu, shown only to the challenger: the chosen value is the
	// game, and the challenge goes to the user.
	ChallengePick Pattern = "v1/challenge/{user}"
	// DailyPlay starts the clicker's attempt at a server's daily sliding
	// or N-Queens puzzle of day: a puzzle of their own to solve.
	DailyPlay Pattern = "v1/daily/{guild}/{day}/play"
	// DailyMove plays cell as the clicker's one answer to a server's daily
	// "find the best move" puzzle of day.
	DailyMove Pattern = "v1/daily/{guild}/{day}/move/{cell}"
	// DailyHint narrows, privately, the moves of a daily best-move puzzle
	// down; the hint is recorded.
	DailyHint Pattern = "v1/daily/{guild}/{day}/hint"
	// DailyGiveUp shows the answer of a daily best-move puzzle; the
	// attempt ends given up.
	DailyGiveUp Pattern = "v1/daily/{guild}/{day}/giveup"
	// NewPuzzle deals the clicker a practice puzzle of the kind of an
	// ended daily puzzle's game.
	NewPuzzle Pattern = "v1/newpuzzle/{game}"
	// PracticeNew deals the clicker a practice best-move puzzle of a kind
	// (connect4, adjacency), privately.
	PracticeNew Pattern = "v1/practice/{kind}/new"
	// PracticeMove answers the practice best-move puzzle made from seed
	// with cell.
	PracticeMove Pattern = "v1/practice/{kind}/{seed}/{cell}"
	// PracticeHint shows the practice best-move puzzle made from seed
	// again with the moves left after n hints.
	PracticeHint Pattern = "v1/practice-hint/{kind}/{seed}/{n}"
	// PracticeGiveUp shows the answer of the practice best-move puzzle
	// made from seed.
	PracticeGiveUp Pattern = "v1/practice-giveup/{kind}/{seed}"
	// TournamentJoin enters the clicker in an announced tournament.
	TournamentJoin Pattern = "v1/tournament/{tournament}/join"
	// TournamentLeave takes the clicker out of a tournament: their entry
	// before the start, a withdrawal after it.
	TournamentLeave Pattern = "v1/tournament/{tournament}/leave"
	// TournamentStart starts an announced tournament (its creator).
	TournamentStart Pattern = "v1/tournament/{tournament}/start"
	// TournamentCancel cancels a tournament (its creator or a member
	// with Manage Server).
	TournamentCancel Pattern = "v1/tournament/{tournament}/cancel"
	// TournamentAI is the select of AI strategies its creator enters in a
	// tournament open to AIs: the chosen value is the strategy.
	TournamentAI Pattern = "v1/tournament/{tournament}/ai"
	// TournamentAIOut is the select of a tournament's AI entrants by
	// which its creator, or a member with Manage Server, takes one out:
	// its entry before the start, a withdrawal after it. The chosen value
	// is the strategy.
	TournamentAIOut Pattern = "v1/tournament/{tournament}/ai-out"
	// TournamentWithdraw confirms a withdrawal from a started tournament
	// (the Withdraw button asks first): the clicker is paired no more
	// and their game under way is lost.
	TournamentWithdraw Pattern = "v1/tournament/{tournament}/withdraw"
	// TournamentStay answers the question of a withdrawal with no: the
	// clicker stays in.
	TournamentStay Pattern = "v1/tournament/{tournament}/stay"
)

// Build returns the custom ID of p with its parameters replaced by values,
// in order. It panics if the count of values is wrong, a value is empty or
// contains '/', or the result exceeds MaxLen: those are programming errors
// of the caller, since every value comes from our own records.
func (p Pattern) Build(values ...string) string {
	segs := strings.Split(string(p), "/")
	n := 0
	for i, s := range segs {
		if !isParam(s) {
			continue
		}
		if n >= len(values) {
			panic(fmt.Sprintf("customid: %s: too few values %q", p, values))
		}
		v := values[n]
		if v == "" || strings.Contains(v, "/") {
			panic(fmt.Sprintf("customid: %s: bad value %q for %s", p, v, s))
		}
		segs[i] = v
		n++
	}
	if n != len(values) {
		panic(fmt.Sprintf("customid: %s: too many values %q", p, values))
	}
	id := strings.Join(segs, "/")
	if len(id) > MaxLen {
		panic(fmt.Sprintf("customid: %q is longer than %d characters", id, MaxLen))
	}
	return id
}

// Match reports whether id has the shape of p and returns its parameters
// by name. Parameters match any non-empty segment; checking their values
// is the handler's job.
func (p Pattern) Match(id string) (Params, bool) {
	segs := strings.Split(string(p), "/")
	parts := strings.Split(id, "/")
	if len(parts) != len(segs) {
		return nil, false
	}
	var params Params
	for i, s := range segs {
		switch {
		case isParam(s):
			if parts[i] == "" {
				return nil, false
			}
			if params == nil {
				params = Params{}
			}
			params[s[1:len(s)-1]] = parts[i]
		case s != parts[i]:
			return nil, false
		}
	}
	return params, true
}

// Params are the parameters of a matched custom ID, by name.
type Params map[string]string

func isParam(seg string) bool {
	return len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}'
}

// AnyoneHere is the user of the challenge menu's second select
// (ChallengePick), which posts an open challenge: no Discord user ID is a
// word.
const AnyoneHere = "anyone"
