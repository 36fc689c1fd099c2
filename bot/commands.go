package bot

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// The slash commands' names and options are a contract: documentation and
// checks outside the code rely on them. Add options; never rename.

// gameChoices are the games of /play, /leaderboard and /help: every
// registered game between two players.
func gameChoices() []*discordgo.ApplicationCommandOptionChoice {
	return choicesOf(duels())
}

// choicesOf lists games as the choices of a game option.
func choicesOf(list []*games.Game) []*discordgo.ApplicationCommandOptionChoice {
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, g := range list {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: g.Title, Value: g.Name})
	}
	return choices
}

func ptr[T any](v T) *T { return &v }

// choiceOption returns a string option limited to choices. Its max_length
// is the longest choice's value: Discord accepts only the choices anyway,
// and the limit says so to any client that might not.
func choiceOption(name, description string, required bool, list []*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	n := 0
	for _, c := range list {
		n = max(n, utf8.RuneCountInString(fmt.Sprint(c.Value)))
	}
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: name, Description: description,
		Required: required, Choices: list, MaxLength: n,
	}
}

// maxAIName is the max_length of the ai option: room for every
// strategy's name (the longest has 17 characters; a test checks they fit).
const maxAIName = 32

// commandDefinitions returns the commands Gambit registers. Every string
// option has a max_length; answers still quote typed text only through
// echo, since only Discord's client enforces the limit.
//
// Installed to a server, every command works in its channels; installed to
// a user's account (docs/server-admins.md, "Install to your account"), every command but
// /settings also works in the user's DMs with Gambit, group DMs and servers
// that did not add Gambit (reach.go says how boards work there).
func commandDefinitions() []*discordgo.ApplicationCommand {
	anywhere := &[]discordgo.InteractionContextType{
		discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel,
	}
	bothInstalls := &[]discordgo.ApplicationIntegrationType{
		discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall,
	}
	game := func(required bool) *discordgo.ApplicationCommandOption {
		return choiceOption("game", "The game", required, gameChoices())
	}
	rounds := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "rounds", Description: "Adjacency rounds (2–28)",
		MinValue: ptr(2.0), MaxValue: 28}
	first := choiceOption("first", "Who moves first (default: me)", false, []*discordgo.ApplicationCommandOptionChoice{
		{Name: "me", Value: "me"}, {Name: "opponent", Value: "opponent"}, {Name: "random", Value: "random"},
	})
	rated := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated",
		Description: "Whether the game moves ratings (default: this server's setting, rated)"}
	cmds := []*discordgo.ApplicationCommand{
		{
			Name: "play", Description: "Start a game against someone or against an AI",
			Options: []*discordgo.ApplicationCommandOption{
				game(true),
				{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Challenge this member"},
				{Type: discordgo.ApplicationCommandOptionString, Name: "ai", Description: "Play this AI strategy", Autocomplete: true,
					MaxLength: maxAIName},
				rounds, first,
				{Type: discordgo.ApplicationCommandOptionNumber, Name: "movetime", Description: "AI seconds per move",
					MinValue: ptr(0.1), MaxValue: MaxMoveTime.Seconds()},
				rated,
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "open", Description: "Post the challenge for anyone here to accept"},
			},
		},
		{
			// Without a user the challenge is open: anyone here may accept
			// it. Discord wants required options first, so game leads.
			Name: "challenge", Description: "Challenge someone to a game",
			Options: []*discordgo.ApplicationCommandOption{
				game(true),
				{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Who to challenge (leave out: anyone here may accept)"},
				rounds, first, rated,
			},
		},
		{Name: challengeMenu, Type: discordgo.UserApplicationCommand},
		{
			Name: "move", Description: "Play a move by typing it",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "cell", Description: "The cell or column, e.g. e4 or 4",
					Required: true, Autocomplete: true, MaxLength: 8},
				{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Which of your games here (its ID)",
					Autocomplete: true, MaxLength: 32},
			},
		},
		{
			Name: "leaderboard", Description: "The best players of a game",
			Options: []*discordgo.ApplicationCommandOption{
				game(true),
				choiceOption("scope", "This server or everyone (default: server; everyone outside servers)", false, []*discordgo.ApplicationCommandOptionChoice{
					{Name: "server", Value: "server"}, {Name: "global", Value: "global"},
				}),
			},
		},
		{
			Name: "stats", Description: "Ratings and recent games of a player",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose stats (default: yours)"},
			},
		},
		{Name: "games", Description: "Your games in progress"},
		{
			Name: "help", Description: "How to play",
			Options: []*discordgo.ApplicationCommandOption{
				// Every game has a help page, the puzzles too.
				choiceOption("game", "The game", false, choicesOf(catalog.All())),
				{Type: discordgo.ApplicationCommandOptionString, Name: "ai", Description: "An AI opponent", Autocomplete: true,
					MaxLength: maxAIName},
			},
		},
		{
			Name: "privacy", Description: "Your data in Gambit",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "delete", Description: "Erase your data (asks to confirm)"},
			},
		},
		puzzleDefinition(),
		dailyDefinition(),
		{
			Name: "review", Description: "Look back at a finished game: each move against the best one",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "The game (its ID, as its board's footer shows)",
					Required: true, Autocomplete: true, MaxLength: 32},
			},
		},
		{
			Name: "board", Description: "How the boards of your games look: picture, emoji grid or both",
			Options: []*discordgo.ApplicationCommandOption{
				choiceOption("form", "Your choice, over the server's (server: as the server says)", false, formChoices(true)),
			},
		},
	}
	for _, c := range cmds {
		c.Contexts, c.IntegrationTypes = anywhere, bothInstalls
	}
	return localizeCommands(append(cmds, &discordgo.ApplicationCommand{
		// A server's settings: only where Gambit is installed to the server.
		Name: "settings", Description: "Gambit's settings for this server",
		Contexts:                 &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
		IntegrationTypes:         &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall},
		DefaultMemberPermissions: ptr(int64(discordgo.PermissionManageGuild)),
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionNumber, Name: "movetime", Description: "Default AI seconds per move",
				MinValue: ptr(0.1), MaxValue: MaxMoveTime.Seconds()},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "turn-timeout", Description: "Hours a player may take per move before forfeiting",
				MinValue: ptr(1.0), MaxValue: 24 * 14},
			{Type: discordgo.ApplicationCommandOptionString, Name: "games", Description: "The games allowed: all, or a list like Connect Four, Othello",
				Autocomplete: true, MaxLength: maxGamesOption},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "Whether new games are rated unless their players choose"},
			choiceOption("board", "How boards look, unless a player chose for themselves with /board", false, formChoices(false)),
			{Type: discordgo.ApplicationCommandOptionChannel, Name: "daily-channel", Description: "Post a daily puzzle in this channel, every day at 00:00 UTC",
				ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText}},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "daily", Description: "False stops the daily puzzle's posts"},
		},
	}))
}

// challengeMenu is the name of the user command (in a member's context
// menu) that challenges them.
const challengeMenu = "Challenge to a game"

// routes sets up the handlers of commands, autocompletes and components.
// A component of one game routes to b.withGame(handler): the seam takes
// the game's lock and loads it (seam.go).
func (b *Bot) routes() {
	b.commands = map[string]commandHandler{
		"play": b.games.cmdPlay, "move": b.moves.cmdMove, "leaderboard": b.info.cmdLeaderboard, "stats": b.info.cmdStats,
		"games": b.info.cmdGames, "help": b.info.cmdHelp, "privacy": b.info.cmdPrivacy, "settings": b.info.cmdSettings,
		"puzzle": b.solo.cmdPuzzle, "board": b.info.cmdBoard, "challenge": b.games.cmdChallenge, challengeMenu: b.games.cmdChallengeMenu,
		"daily":  b.solo.cmdDaily,
		"review": reviewFlow{b}.cmdReview,
	}
	b.complete = map[string]completeHandler{"play": b.games.completeAI, "help": b.games.completeAI, "move": b.moves.completeMove,
		"review": reviewFlow{b}.completeReview, "settings": b.info.completeGames}
	b.router = router{
		{customid.Move, b.withGame(b.moves.clickMove)},
		{customid.Pick, b.withGame(b.moves.clickMove)},
		{customid.File, b.withGame(b.moves.clickFile)},
		{customid.Cell, b.withGame(b.moves.clickCell)},
		{customid.Resign, b.withGame(b.moves.clickResign)},
		{customid.ResignConfirm, b.withGame(b.moves.clickResignConfirm)},
		{customid.Abort, b.withGame(b.moves.clickAbort)},
		{customid.AbortConfirm, b.withGame(b.moves.clickAbortConfirm)},
		{customid.DrawOffer, b.withGame(b.games.clickDrawOffer)},
		{customid.DrawAccept, b.withGame(b.games.clickDrawAnswer(true))},
		{customid.DrawDecline, b.withGame(b.games.clickDrawAnswer(false))},
		{customid.Rematch, b.games.clickRematch}, // the seam for the old game, then a new one (rematch.go)
		{customid.Accept, b.withGame(b.games.clickAccept)},
		{customid.Decline, b.withGame(b.games.clickDecline)},
		{customid.Take, b.withGame(b.games.clickTake)},
		{customid.Repost, b.withGame(b.info.clickRepost)},
		{customid.PrivacyDelete, b.info.clickPrivacyDelete},
		{customid.Hint, b.withGame(b.solo.clickHint)},
		{customid.Solve, b.withGame(b.solo.clickSolve)},
		{customid.Compare, b.withGame(b.solo.clickCompare)},
		{customid.ChallengePick, b.games.clickChallengePick},
		{customid.DailyPlay, b.solo.clickDailyPlay},
		{customid.DailyMove, b.solo.clickDailyMove},
		{customid.DailyHint, b.solo.clickDailyHint},
		{customid.DailyGiveUp, b.solo.clickDailyGiveUp},
		{customid.NewPuzzle, b.solo.clickNewPuzzle},
		{customid.PracticeNew, b.solo.clickPracticeNew},
		{customid.PracticeMove, b.solo.clickPracticeMove},
		{customid.PracticeHint, b.solo.clickPracticeHint},
		{customid.PracticeGiveUp, b.solo.clickPracticeGiveUp},
		{customid.Review, reviewFlow{b}.clickReview}, // anyone's who could see the game, outside its lock (review.go)
	}
}

// syncCommands registers the commands, overwriting the registered set
// only when a definition changed; the overwrite also removes stale
// commands.
func (b *Bot) syncCommands() error {
	want := commandDefinitions()
	have, err := b.session.ApplicationCommands(b.appID, b.cfg.GuildID)
	b.egress.Observe(err)
	if err != nil {
		return fmt.Errorf("bot: list registered commands: %w", err)
	}
	if sameCommands(have, want) {
		b.log.Info("slash commands up to date", "count", len(want))
		return nil
	}
	_, err = b.session.ApplicationCommandBulkOverwrite(b.appID, b.cfg.GuildID, want)
	b.egress.Observe(err)
	if err != nil {
		return fmt.Errorf("bot: register commands: %w", err)
	}
	scope := "globally"
	if b.cfg.GuildID != "" {
		scope = "in guild " + b.cfg.GuildID
	}
	b.log.Info("slash commands registered", "count", len(want), "scope", scope, "replaced", len(have))
	return nil
}

// sameCommands reports whether the registered commands have exactly the
// wanted definitions, ignoring what Discord adds (IDs, versions, default
// values).
func sameCommands(have, want []*discordgo.ApplicationCommand) bool {
	if len(have) != len(want) {
		return false
	}
	byName := map[string]*discordgo.ApplicationCommand{}
	for _, c := range have {
		byName[c.Name] = c
	}
	for _, w := range want {
		h, ok := byName[w.Name]
		if !ok || !reflect.DeepEqual(canonicalCommand(h), canonicalCommand(w)) {
			return false
		}
	}
	return true
}

// canonicalCommand is the part of a command definition that Gambit sets,
// in a form where defaults and absent values compare equal.
func canonicalCommand(c *discordgo.ApplicationCommand) map[string]any {
	typ := c.Type
	if typ == 0 {
		typ = discordgo.ChatApplicationCommand
	}
	perms := ""
	if c.DefaultMemberPermissions != nil {
		perms = fmt.Sprint(*c.DefaultMemberPermissions)
	}
	var contexts []discordgo.InteractionContextType
	if c.Contexts != nil {
		contexts = *c.Contexts
	}
	var installs []discordgo.ApplicationIntegrationType
	if c.IntegrationTypes != nil {
		installs = *c.IntegrationTypes
	}
	return map[string]any{
		"type": typ, "name": c.Name, "description": c.Description, "permissions": perms,
		"contexts": fmt.Sprint(contexts), "integration_types": fmt.Sprint(installs), "options": canonicalOptions(c.Options),
		"names": canonicalLocalizations(c.NameLocalizations), "descriptions": canonicalLocalizations(c.DescriptionLocalizations),
	}
}

func canonicalOptions(opts []*discordgo.ApplicationCommandOption) []string {
	out := make([]string, 0, len(opts))
	for _, o := range opts {
		cp := *o
		cp.Options = nil
		choices := make([]string, len(o.Choices))
		for i, ch := range o.Choices {
			choices[i] = fmt.Sprintf("%s=%v%v", ch.Name, ch.Value, canonicalLocalizations(&ch.NameLocalizations))
		}
		cp.Choices = nil
		raw, _ := json.Marshal(cp) // a struct of plain fields always marshals
		out = append(out, string(raw)+"|"+strings.Join(choices, ",")+"|"+strings.Join(canonicalOptions(o.Options), ";"))
	}
	return out
}

// canonicalLocalizations is a command's localizations in a canonical form: absent and
// empty compare equal.
func canonicalLocalizations(m *map[discordgo.Locale]string) string {
	if m == nil || len(*m) == 0 {
		return ""
	}
	return fmt.Sprint(*m) // fmt sorts map keys
}
