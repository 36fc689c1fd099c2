package render

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies"
)

// legend explains a palette's emoji.
func legend(look games.Look) string {
	s := fmt.Sprintf("%s X · %s O", look.Mark[engine.X], look.Mark[engine.O])
	if look.EmptyName != "" {
		s += fmt.Sprintf(" · %s %s", look.Empty, look.EmptyName)
	}
	return s + fmt.Sprintf(" · %s/%s the last move", look.Last[engine.X], look.Last[engine.O])
}

// startBoard draws the start of a game with its legend, for its help
// page: Adjacency with the fewest rounds.
func startBoard(gm *games.Game) (string, error) {
	var opts games.Options
	if r := gm.Setup.Rounds; r != nil {
		opts.Rounds = r.Min
	}
	pos, err := gm.Start(opts)
	if err != nil {
		return "", err
	}
	return grid(gm.Look, gm.Look.Board(pos, nil)) + "\n" + legend(gm.Look), nil
}

// Rules returns the /help text of a game ("adjacency", "connect4",
// "tictactoe"), or, for "", an overview of Gambit's commands and games. It
// fails for an unknown game name.
func Rules(game string) (Message, error) {
	if strings.TrimSpace(game) == "" {
		return overview(), nil
	}
	g, err := catalog.Lookup(game)
	if err != nil {
		return Message{}, fmt.Errorf("render: rules: %w", err)
	}
	board, err := startBoard(g)
	if err != nil {
		return Message{}, fmt.Errorf("render: rules: %w", err)
	}
	embed := &discordgo.MessageEmbed{
		Title:       "📖 " + g.Title + " — rules",
		Description: g.Help.Rules,
		Color:       g.Look.Colour[engine.X],
		Fields: []*discordgo.MessageEmbedField{
			{Name: "How to move", Value: g.Help.Moving},
			{Name: "The board", Value: board},
			{Name: "Start a game", Value: fmt.Sprintf("`/play game:%s opponent:@friend`, or against an AI: `/play game:%s ai:minimax`", g.Name, g.Name)},
			{Name: "AI opponents", Value: fitLines(aiLines(g.Name), maxFieldValue)},
		},
		Footer: &discordgo.MessageEmbedFooter{Text: "/help lists every command"},
	}
	if g.Solo() {
		embed.Fields = puzzleHelpFields(g)
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
	for _, g := range catalog.All() {
		gameLines = append(gameLines, fmt.Sprintf("**%s** (`%s`): %s", g.Title, g.Name, g.Summary))
	}
	commands := []string{
		"`/play game:<" + strings.Join(catalog.Names(), "|") + "> [opponent:@user] [ai:<strategy>] [rounds:<2–28>] [first:<me|opponent|random>] [movetime:<seconds>]` — " +
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
