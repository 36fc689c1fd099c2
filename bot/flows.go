package bot

// The flows: the bot's handlers and their helpers, one small type per
// flow, each a field of Bot (New sets them) that declares its commands
// and components on the Mux (routes, commands.go). Bot itself keeps the wiring
// (Run, Serve, serve), the middleware chain, dispatch, the game seam and
// loading and committing games (gamestate.go); a flow reaches what it
// needs through the *Bot it embeds, and another flow through that flow's
// field (b.boards.editBoard).

// boardFlow shows and edits a game's board message (board.go).
type boardFlow struct{ *Bot }

// gameFlow is what starts a game, below the flows that do (the
// challenges flow, the puzzles): the member's caps, the new game's record
// and its start (newgame.go), and what the challenges flow needs of the
// bot (challenge.go).
type gameFlow struct{ *Bot }

// aiFlow plays the AI's turns: a turn as a scheduler job, its claim,
// search, commit and progress edits, and the passes at start (ai.go).
type aiFlow struct{ *Bot }

// soloFlow is the one-player puzzles: /puzzle, Hint and Solve (puzzle.go)
// and Compare (compare.go).
type soloFlow struct{ *Bot }

// timerFlow ends what ran out of time (timers.go) and the games of a
// guild the bot was removed from (guilds.go).
type timerFlow struct{ *Bot }

// infoFlow gives the privacy flow (bot/flows/privacy) what it needs of
// the bot (privacy.go); routes makes it, as it is no field of Bot.
type infoFlow struct{ *Bot }
