package render

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/engine/connect4"
	"github.com/gambitbot/gambit/engine/games"
	"github.com/gambitbot/gambit/engine/tictactoe"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// gameRules are the texts of a game's help page.
type gameRules struct {
	summary string // one line for the overview
	rules   string // the rules, in full
	moving  string // how to move in Gambit
	board   func() string
}

// rulesOf holds the help of each game.
var rulesOf = map[storage.Kind]gameRules{
	storage.Adjacency: {
		summary: "claim cells on an 8×8 board and capture the neighbours; most marks after the agreed rounds wins",
		rules: strings.Join([]string{
			"**Board.** 8×8, cells named like a chessboard: files **a–h** from left to right, ranks **1–8** from bottom to top. " +
				"X starts with a1, b1, a2, b2 (bottom-left corner), O with g7, h7, g8, h8 (top-right corner).",
			"**A move.** Put one of your marks on any empty cell; passing is not allowed. Every opponent mark directly " +
				"above, below, left or right of that cell (not diagonally) becomes yours. Nothing else changes: captured marks " +
				"do not capture further.",
			"**Length.** The players agree on 2–28 rounds (`rounds:` of `/play`) of one move each, so a game lasts exactly twice that many moves; " +
				"28 rounds fill the board. X moves first unless the players agree otherwise.",
			"**Winning.** After the last round the player with more marks on the board wins; equal counts are a draw.",
			"**Who starts matters.** The last move has the last capture: with best play on both sides, games of 5, 6 and 7 " +
				"rounds are won by whoever moves second, by two marks (2–4 rounds are drawn), and in Gambit's AI tournaments " +
				"the second mover wins most short games. `first:` of `/play` decides who starts.",
		}, "\n\n"),
		moving: "Choose a cell in one of the menus under the board (ranks 1–3, 4–6 and 7–8; each option says how many " +
			"marks it captures), or type `/move cell:e4`.",
		board: func() string {
			b, err := adjacency.NewBoard(adjacency.MinRounds, engine.X)
			if err != nil {
				panic(err) // constant arguments known to be valid
			}
			return adjacencyGrid(b, engine.NoMove) + "\n" + legend(adjacencyPalette, "empty")
		},
	},
	storage.ConnectFour: {
		summary: "drop discs into 7 columns; four in a row across, up or diagonally wins",
		rules: strings.Join([]string{
			"**Board.** 7 columns, 6 rows, standing upright.",
			"**A move.** Drop one of your discs into a column that is not full: it falls to the lowest empty cell. " +
				"🔴 moves first, then the players take turns.",
			"**Winning.** The first to line up four of their discs in a row, across, up and down or diagonally, wins. " +
				"A full board without four in a row is a draw.",
		}, "\n\n"),
		moving: "Press a column's button (1–7) under the board, or type `/move cell:4` with the column's number.",
		board: func() string {
			return connect4Grid(connect4.New(), -1) + "\n" + legend(connect4Palette, "empty")
		},
	},
	storage.TicTacToe: {
		summary: "three in a row on a 3×3 board",
		rules: strings.Join([]string{
			"**Board.** 3×3, cells numbered **1–9** row by row from the top-left.",
			"**A move.** Put your mark on an empty cell. ❌ moves first, then the players take turns.",
			"**Winning.** Three of your marks in a row, a column or a diagonal win. A full board without a line is a draw.",
		}, "\n\n"),
		moving: "Press an empty cell's button under the board, or type `/move cell:5` with the cell's number.",
		board: func() string {
			return tictactoeGrid(tictactoe.New(), engine.NoMove) + "\n" + legend(tictactoePalette, "")
		},
	},
}

// legend explains a palette's emoji.
func legend(p palette, empty string) string {
	s := fmt.Sprintf("%s X · %s O", p.mark[engine.X], p.mark[engine.O])
	if empty != "" {
		s += fmt.Sprintf(" · %s %s", p.empty, empty)
	}
	return s + fmt.Sprintf(" · %s/%s the last move", p.last[engine.X], p.last[engine.O])
}

// Rules returns the /help text of a game ("adjacency", "connect4",
// "tictactoe"), or, for "", an overview of Gambit's commands and games. It
// fails for an unknown game name.
func Rules(game string) (Message, error) {
	if strings.TrimSpace(game) == "" {
		return overview(), nil
	}
	g, err := games.Lookup(game)
	if err != nil {
		return Message{}, fmt.Errorf("render: rules: %w", err)
	}
	kind := storage.Kind(g.Name)
	r, ok := rulesOf[kind]
	if !ok {
		return Message{}, fmt.Errorf("render: rules: no help for game %q", g.Name)
	}
	embed := &discordgo.MessageEmbed{
		Title:       "📖 " + g.Title + " — rules",
		Description: r.rules,
		Color:       paletteOf(kind).colour[engine.X],
		Fields: []*discordgo.MessageEmbedField{
			{Name: "How to move", Value: r.moving},
			{Name: "The board", Value: r.board()},
			{Name: "Start a game", Value: fmt.Sprintf("`/play game:%s opponent:@friend`, or against an AI: `/play game:%s ai:minimax`", g.Name, g.Name)},
			{Name: "AI opponents", Value: fitLines(aiLines(g.Name), maxFieldValue)},
		},
		Footer: &discordgo.MessageEmbedFooter{Text: "/help lists every command"},
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}, nil
}

// aiLines lists the strategies that play a game (every game for ""), by
// difficulty from easy to perfect.
func aiLines(game string) []string {
	infos := strategies.All()
	if game != "" {
		infos = strategies.ForGame(game)
	}
	var lines []string
	for _, d := range []strategies.Difficulty{strategies.Easy, strategies.Medium, strategies.Hard, strategies.Perfect} {
		var names []string
		for _, i := range infos {
			if i.Difficulty == d {
				names = append(names, "`"+i.Name+"`")
			}
		}
		if len(names) > 0 {
			lines = append(lines, fmt.Sprintf("**%s** %s", d, strings.Join(names, ", ")))
		}
	}
	return lines
}

// overview is the /help page: the games and the commands.
func overview() Message {
	var gameLines []string
	for _, k := range storage.Kinds() {
		gameLines = append(gameLines, fmt.Sprintf("**%s** (`%s`): %s", gameTitle(k), k, rulesOf[k].summary))
	}
	commands := []string{
		"`/play game:<adjacency|connect4|tictactoe> [opponent:@user] [ai:<strategy>] [rounds:<2–28>] [first:<me|opponent|random>] [movetime:<seconds>]` — " +
			"challenge someone or play an AI; `rounds` is for Adjacency, `movetime` is the AI's time per move",
		"`/move cell:<…> [game:<…>]` — play a move by typing it; `game` is the game ID in a board's footer, needed when you play several games",
		"`/leaderboard game:<…> [scope:server|global]` — the best ratings of a game, on this server or everywhere",
		"`/stats [user]` — your ratings and recent games, or someone else's",
		"`/games` — your challenges and games in progress",
		"`/help [game]` — this overview, or the rules of a game",
		"`/privacy delete` — erase your data: your ratings and open games go, your finished games stay with your name removed",
		"`/settings` — the server's defaults: AI move time, turn timeout, allowed games (needs Manage Server)",
	}
	embed := &discordgo.MessageEmbed{
		Title: "♟️ Gambit — board games in Discord",
		Description: "Play board games in your channels against each other or against AI opponents, " +
			"from the classic algorithms of game-AI courses to a strong search of our own. " +
			"Games are rated (Glicko-2) per server and globally; a rating shows a `?` while it is provisional, " +
			"for about the first dozen games.\n\n" +
			"**Commands**\n" + strings.Join(commands, "\n\n"),
		Color: colourBlurple,
		Fields: []*discordgo.MessageEmbedField{
			{Name: "Games", Value: strings.Join(gameLines, "\n")},
			{Name: "AI opponents (not every AI plays every game)", Value: fitLines(aiLines(""), maxFieldValue)},
		},
		Footer: &discordgo.MessageEmbedFooter{Text: "/help game:<name> explains a game's rules"},
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
}
