package bot

import (
	"github.com/gambitbot/gambit/bot/flows/daily"
	"github.com/gambitbot/gambit/bot/flows/tournament"
)

// What is left of the flows in package bot: every command and component
// is a flow package's (bot/flows, declared on the Mux by routes in
// commands.go), and what remains here is below them, one small type per
// part, each a field of Bot (New sets them): the boards, a game's start,
// the AI turns, the timers. The adapters the flow packages are given
// (duelBoards, soloGames, privacyBot…) call them. Bot itself keeps the
// wiring (Run, Serve, serve), the middleware chain, dispatch, the game
// seam and loading and committing games (gamestate.go); a part reaches
// what it needs through the *Bot it embeds, and another part through
// that part's field (b.boards.editBoard).

// boardFlow shows and edits a game's board message (board.go).
type boardFlow struct{ *Bot }

// gameFlow is what starts a game, below the flows that do (the
// challenges flow, the puzzles and the daily puzzle): the member's caps,
// the new game's record and its start (newgame.go), what the challenges
// flow needs of the bot (challenge.go) and a solo game's start
// (soloGames, puzzle.go).
type gameFlow struct{ *Bot }

// aiFlow plays the AI's turns: a turn as a scheduler job, its claim,
// search, commit and progress edits, and the passes at start (ai.go).
type aiFlow struct{ *Bot }

// timerFlow ends what ran out of time (timers.go) and the games of a
// guild the bot was removed from (guilds.go), and runs the clocks of the
// two flows that have one: tournaments is the tournament flow
// (bot/flows/tournament, tournament.go), whose Tick the timers run and
// which the end of a tournament's game advances; daily is the daily
// puzzle's (bot/flows/daily), which the timers post and whose key Run
// and Serve load.
type timerFlow struct {
	*Bot
	tournaments *tournament.Flow
	daily       *daily.Flow
}

// infoFlow gives the privacy flow (bot/flows/privacy) what it needs of
// the bot (privacy.go); routes makes it, as it is no field of Bot.
type infoFlow struct{ *Bot }
