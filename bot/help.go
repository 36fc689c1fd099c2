package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/games/catalog"
)

// cmdHelp handles /help [game] [ai]: the overview of every command
// registered, a game's rules or an AI's page (the AI's if both are given).
func (b infoFlow) cmdHelp(_ context.Context, ix *command) error {
	opts := ix.Opts
	if ai := opts.Str("ai"); ai != "" {
		msg, err := render.AIRules(ix.Lang(), ai)
		if err != nil {
			return mux.Err("help.no_ai", "Name", mux.Quote(ai))
		}
		return ix.Reply(msg, true)
	}
	game := opts.Str("game")
	if strings.TrimSpace(game) == "" {
		return ix.Reply(render.Overview(ix.Lang(), b.defs), true)
	}
	msg, err := render.Rules(ix.Lang(), game)
	if err != nil {
		return mux.Err("error.unknown_game", "Game", mux.Quote(opts.Str("game")), "Choices", duelNames())
	}
	return ix.Reply(msg, true)
}

// routes declares the commands that show or change no game in play, and
// their components: Re-post, the confirmation of /privacy delete.
func (b infoFlow) routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "leaderboard", Description: "The best players of a game",
		Options: []*discordgo.ApplicationCommandOption{
			gameOption(true),
			mux.ChoiceOption("scope", "This server or everyone (default: server; everyone outside servers)", false, []*discordgo.ApplicationCommandOptionChoice{
				{Name: "server", Value: "server"}, {Name: "global", Value: "global"},
			}),
		},
	}, b.cmdLeaderboard, nil)
	m.Command(&discordgo.ApplicationCommand{
		Name: "stats", Description: "Ratings and recent games of a player",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose stats (default: yours)"},
		},
	}, b.cmdStats, nil)
	m.Command(&discordgo.ApplicationCommand{Name: "games", Description: "Your games in progress"}, b.cmdGames, nil)
	m.Command(&discordgo.ApplicationCommand{
		Name: "help", Description: "How to play",
		Options: []*discordgo.ApplicationCommandOption{
			// Every game has a help page, the puzzles too.
			mux.ChoiceOption("game", "The game", false, choicesOf(catalog.All())),
			{Type: discordgo.ApplicationCommandOptionString, Name: "ai", Description: "An AI opponent", Autocomplete: true,
				MaxLength: maxAIName},
		},
	}, b.cmdHelp, b.games.completeAI)
	m.Command(&discordgo.ApplicationCommand{
		Name: "privacy", Description: "Your data in Gambit",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "delete", Description: "Erase your data (asks to confirm)"},
		},
	}, b.cmdPrivacy, nil)
	mux.NewGroup(m, b.withGame).Component(customid.Repost, b.clickRepost)
	m.Component(customid.PrivacyDelete, b.clickPrivacyDelete)
}
