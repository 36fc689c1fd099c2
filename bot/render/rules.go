package render

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
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

// aiLines lists the strategies that play a game by difficulty, from easy
// to perfect, each as its display name and its ID for /play's ai option.
func aiLines(game string) []string {
	infos := strategies.ForGame(game)
	var lines []string
	for _, d := range []strategies.Difficulty{strategies.Easy, strategies.Medium, strategies.Hard, strategies.Perfect} {
		var names []string
		for _, i := range infos {
			if i.Difficulty == d {
				names = append(names, fmt.Sprintf("%s `%s`", i.DisplayName, i.Name))
			}
		}
		if len(names) > 0 {
			lines = append(lines, fmt.Sprintf("**%s** %s", d, strings.Join(names, ", ")))
		}
	}
	return lines
}

// strongest returns the display names of the strongest strategies that
// play every game between two players with an AI: the overview's
// recommendation, which a one-game strategy (Tic-Tac-Toe's perfect player)
// must not take.
func strongest() []string {
	duels := catalog.All()
	everywhere := func(i strategies.Info) bool {
		for _, g := range duels {
			if g.Players == 2 && g.AI != nil && !i.Supports(g.Name) {
				return false
			}
		}
		return true
	}
	for _, d := range []strategies.Difficulty{strategies.Perfect, strategies.Hard, strategies.Medium, strategies.Easy} {
		var names []string
		for _, i := range strategies.All() {
			if i.Difficulty == d && everywhere(i) {
				names = append(names, fmt.Sprintf("%s (`%s`)", i.DisplayName, i.Name))
			}
		}
		if len(names) > 0 {
			return names
		}
	}
	return nil
}

// AIRules returns the /help page of an AI strategy, by its ID. It fails
// for an unknown one.
func AIRules(name string) (Message, error) {
	i, err := strategies.Lookup(name)
	if err != nil {
		return Message{}, fmt.Errorf("render: ai rules: %w", err)
	}
	var titles []string
	for _, g := range i.Games {
		titles = append(titles, gameTitle(storage.Kind(g)))
	}
	embed := &discordgo.MessageEmbed{
		Title:       clip(PlayerName(storage.Player{ID: storage.AI(i.Name)}), maxTitle),
		Description: clip(upperFirst(i.Blurb)+".", maxDescription),
		Color:       colourBlurple,
		Fields: []*discordgo.MessageEmbedField{
			{Name: "Plays", Value: strings.Join(titles, ", ")},
			{Name: "Play it", Value: fmt.Sprintf("`/play game:%s ai:%s`", i.Games[0], i.Name)},
			{Name: "How it works", Value: clip(upperFirst(i.Description)+".", maxFieldValue)},
		},
		Footer: &discordgo.MessageEmbedFooter{Text: "/help game:<name> lists a game's AIs"},
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}, nil
}

// upperFirst capitalises the first letter of a sentence.
func upperFirst(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// overview is the /help page: what Gambit is, how to start, the games and
// the commands, one short line each, to fit on one screen.
func overview() Message {
	var gameLines []string
	for _, g := range catalog.All() {
		gameLines = append(gameLines, fmt.Sprintf("**%s** (`%s`): %s", g.Title, g.Name, g.Summary))
	}
	commands := []string{
		"`/play game:… opponent:@friend` or `ai:…` — start a game",
		"`/move cell:…` — type a move instead of clicking",
		"`/games` — your games in progress",
		"`/leaderboard game:…` · `/stats` — ratings",
		"`/help game:…` · `/help ai:…` — a game's rules, an AI",
		"`/settings` — this server's defaults (Manage Server)",
		"`/privacy delete` — erase your data",
	}
	embed := &discordgo.MessageEmbed{
		Title: "♟️ Gambit — board games in Discord",
		Description: "Play against each other or against AI opponents; games are rated on this server and everywhere.\n\n" +
			strings.Join(commands, "\n"),
		Color: colourBlurple,
		Fields: []*discordgo.MessageEmbedField{
			{Name: "Games", Value: strings.Join(gameLines, "\n")},
			{Name: "AI opponents", Value: fmt.Sprintf("%d to choose from (`/help game:…` lists a game's). The strongest in every game: %s.", len(strategies.All()), strings.Join(strongest(), ", "))},
		},
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
}
