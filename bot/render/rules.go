package render

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/buildinfo"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// legend explains a palette's emoji: each side's mark by the side's name
// in the game (its texts' side_x and side_o: Black and White in Othello;
// X and O where it has none).
func legend(l *i18n.Localizer, gm *games.Game) string {
	look := gm.Look
	s := l.T("help.legend", "X", look.Mark[engine.X], "XName", gameText(l, gm, "side_x", "X"),
		"O", look.Mark[engine.O], "OName", gameText(l, gm, "side_o", "O"))
	if look.EmptyName != "" {
		s += " · " + l.T("help.legend_empty", "Empty", look.Empty, "Name", gameText(l, gm, "empty", look.EmptyName))
	}
	return s + " · " + l.T("help.legend_last", "X", look.Last[engine.X], "O", look.Last[engine.O])
}

// startBoard draws the start of a game with its legend, for its help
// page: Adjacency with the fewest rounds.
func startBoard(l *i18n.Localizer, gm *games.Game) (string, error) {
	var opts games.Options
	if r := gm.Setup.Rounds; r != nil {
		opts.Rounds = r.Min
	}
	pos, err := gm.Start(opts)
	if err != nil {
		return "", err
	}
	return grid(gm.Look, gm.Look.Board(pos, nil)) + "\n" + legend(l, gm), nil
}

// Rules returns the /help text of a game ("adjacency", "connect4",
// "tictactoe") in l's language. It fails for an unknown game name.
func Rules(l *i18n.Localizer, game string) (Message, error) {
	g, err := catalog.Lookup(game)
	if err != nil {
		return Message{}, fmt.Errorf("render: rules: %w", err)
	}
	board, err := startBoard(l, g)
	if err != nil {
		return Message{}, fmt.Errorf("render: rules: %w", err)
	}
	embed := &discordgo.MessageEmbed{
		Title:       l.T("help.rules_title", "Game", gameText(l, g, "title", g.Title)),
		Description: gameText(l, g, "rules", g.Help.Rules),
		Color:       g.Look.Colour[engine.X],
		Fields: []*discordgo.MessageEmbedField{
			{Name: l.T("help.how_to_move"), Value: gameText(l, g, "moving", g.Help.Moving)},
			{Name: l.T("help.the_board"), Value: board},
			{Name: l.T("help.start_game"), Value: l.T("help.start_game_text", "Name", g.Name)},
			{Name: l.T("help.ai_opponents"), Value: fitLines(aiLines(l, g.Name), maxFieldValue)},
		},
		Footer: &discordgo.MessageEmbedFooter{Text: l.T("help.footer")},
	}
	if g.Solo() {
		embed.Fields = puzzleHelpFields(l, g)
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}, nil
}

// aiLines lists the strategies that play a game by their difficulty in
// it, from easy to perfect, each as its display name and its ID for
// /play's ai option.
func aiLines(l *i18n.Localizer, game string) []string {
	infos := strategies.ForGame(game)
	var lines []string
	for _, d := range strategies.Difficulties {
		var names []string
		for _, i := range infos {
			if i.DifficultyIn(game) == d {
				names = append(names, fmt.Sprintf("%s `%s`", AIName(l, i), i.Name))
			}
		}
		if len(names) > 0 {
			lines = append(lines, fmt.Sprintf("**%s** %s", l.T("difficulty."+string(d)), strings.Join(names, ", ")))
		}
	}
	return lines
}

// strongest returns the display names of the strongest strategies in
// every game between two players with an AI: those whose lowest
// difficulty over those games is the highest (hard or perfect in each,
// where one is). The overview's recommendation, which a one-game strategy
// (Tic-Tac-Toe's perfect player) or one that is hard in some games only
// must not take.
func strongest(l *i18n.Localizer) []string {
	var duels []string
	for _, g := range catalog.All() {
		if g.Players == 2 && g.AI != nil {
			duels = append(duels, g.Name)
		}
	}
	floor := func(i strategies.Info) int {
		low := len(strategies.Difficulties)
		for _, g := range duels {
			low = min(low, slices.Index(strategies.Difficulties, i.DifficultyIn(g))) // -1 where it does not play g
		}
		return low
	}
	best := 0
	for _, i := range strategies.All() {
		best = max(best, floor(i))
	}
	var names []string
	for _, i := range strategies.All() {
		if floor(i) == best {
			names = append(names, fmt.Sprintf("%s (`%s`)", AIName(l, i), i.Name))
		}
	}
	return names
}

// AIRules returns the /help page of an AI strategy, by its ID, in l's
// language. It fails for an unknown one.
func AIRules(l *i18n.Localizer, name string) (Message, error) {
	i, err := strategies.Lookup(name)
	if err != nil {
		return Message{}, fmt.Errorf("render: ai rules: %w", err)
	}
	var titles []string
	for _, g := range i.Games {
		titles = append(titles, fmt.Sprintf("%s (%s)", gameTitle(l, storage.Kind(g)), l.T("difficulty."+string(i.DifficultyIn(g)))))
	}
	embed := &discordgo.MessageEmbed{
		Title:       clip(PlayerName(l, "", storage.Player{ID: storage.AI(i.Name)}), maxTitle),
		Description: clip(upperFirst(aiText(l, i, "blurb", i.Blurb))+".", maxDescription),
		Color:       colourBlurple,
		Fields: []*discordgo.MessageEmbedField{
			{Name: l.T("help.plays"), Value: strings.Join(titles, ", ")},
			{Name: l.T("help.play_it"), Value: l.T("help.play_ai", "Game", i.Games[0], "AI", i.Name)},
			{Name: l.T("help.how_it_works"), Value: clip(upperFirst(aiText(l, i, "how", i.Description))+".", maxFieldValue)},
		},
		Footer: &discordgo.MessageEmbedFooter{Text: l.T("help.ai_footer")},
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}, nil
}

// versionLine is the build as players read it: "Gambit v0.3.0
// (e64b12e)", or for a build without a release version "Gambit,
// development build e64b12e" rather than the toolchain's "devel".
func versionLine(l *i18n.Localizer, info buildinfo.Info) string {
	if info.Version == buildinfo.Unreleased {
		return l.T("help.dev_footer", "Commit", info.ShortCommit())
	}
	return l.T("help.version_footer", "Version", info.Short())
}

// upperFirst capitalises the first letter of a sentence.
func upperFirst(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// Overview is the /help page in l's language: what Gambit is, the games
// and every command of commands (those Gambit registers, so that the page
// lists what a member can use), one short line each, to fit on one
// screen. A command's name and description are the catalogue's
// (cmd.<name>.name and .desc), as the member's Discord shows them.
func Overview(l *i18n.Localizer, commands []*discordgo.ApplicationCommand) Message {
	var gameLines []string
	for _, g := range catalog.All() {
		// A game is named by its command name only where that is not its
		// title in lower case (connect4, not othello), to keep to one screen.
		name := g.Name
		if strings.EqualFold(g.Title, g.Name) {
			name = ""
		}
		gameLines = append(gameLines, l.T("help.game_line", "Title", gameText(l, g, "title", g.Title), "Name", name, "Summary", gameText(l, g, "summary", g.Summary)))
	}
	var lines []string
	for _, c := range commands {
		lines = append(lines, commandLine(l, c))
	}
	embed := &discordgo.MessageEmbed{
		Title:       l.T("help.overview_title"),
		Description: l.T("help.overview_intro") + "\n" + strings.Join(lines, "\n"),
		Color:       colourBlurple,
		Fields: []*discordgo.MessageEmbedField{
			{Name: l.T("help.games"), Value: strings.Join(gameLines, "\n")},
			{Name: l.T("help.ai_opponents"), Value: l.T("help.ais", "Count", len(strategies.All()), "Strongest", strings.Join(strongest(l), ", "))},
		},
		Footer: &discordgo.MessageEmbedFooter{Text: versionLine(l, buildinfo.Read())},
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
}

// commandLine is a command's line in the overview: a slash command's name
// and description, with the permission it needs if any, or where a user
// command is found.
func commandLine(l *i18n.Localizer, c *discordgo.ApplicationCommand) string {
	name := l.T("cmd." + c.Name + ".name")
	if c.Type == discordgo.UserApplicationCommand {
		return l.T("help.user_command", "Name", name)
	}
	desc := l.T("cmd." + c.Name + ".desc")
	if c.DefaultMemberPermissions != nil && *c.DefaultMemberPermissions&discordgo.PermissionManageGuild != 0 {
		desc += " (" + l.T("permission.manage_server") + ")"
	}
	return l.T("help.command", "Name", name, "Desc", desc)
}
