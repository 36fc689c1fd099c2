// Package info is the flow of the commands that show what Gambit knows
// and change nothing: /help (the commands, a game's rules, an AI's page),
// /leaderboard and /stats.
package info

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
)

// Store is what the flow reads of the store: ratings and finished games.
type Store interface {
	Leaderboard(ctx context.Context, l storage.Ladder, n int) ([]storage.Standing, error)
	Rank(ctx context.Context, l storage.Ladder, p storage.PlayerID, around int) (storage.RankView, error)
	History(ctx context.Context, p storage.PlayerID, limit int) ([]*storage.Game, error)
	PlayerTournaments(ctx context.Context, p storage.PlayerID, limit int) ([]storage.PlayerTournament, error)
}

// Locales gives the language of the messages an interaction shows to
// everyone in its channel (a leaderboard): the guild's.
type Locales interface {
	Shared(ix *mux.Interaction) *i18n.Localizer
}

// Flow answers /help, /leaderboard and /stats.
type Flow struct {
	store    Store
	locales  Locales
	commands func() []*discordgo.ApplicationCommand
}

// New returns the flow over store, with the languages of locales, whose
// /help lists the commands commands returns (the bot's, once every flow
// declared its own).
func New(store Store, locales Locales, commands func() []*discordgo.ApplicationCommand) *Flow {
	return &Flow{store: store, locales: locales, commands: commands}
}

// Routes declares /leaderboard, /stats and /help.
func (f *Flow) Routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "leaderboard", Description: "The best players of a game",
		Options: []*discordgo.ApplicationCommandOption{
			gamenames.DuelOption(true),
			mux.ChoiceOption("scope", "This server or everyone (default: server; everyone outside servers)", false, []*discordgo.ApplicationCommandOptionChoice{
				{Name: "server", Value: "server"}, {Name: "global", Value: "global"},
			}),
		},
	}, f.cmdLeaderboard, nil)
	m.Command(&discordgo.ApplicationCommand{
		Name: "stats", Description: "Ratings and recent games of a player",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose stats (default: yours)"},
		},
	}, f.cmdStats, nil)
	m.Command(&discordgo.ApplicationCommand{
		Name: "help", Description: "How to play",
		Options: []*discordgo.ApplicationCommandOption{
			// Every game has a help page, the puzzles too.
			mux.ChoiceOption("game", "The game", false, gamenames.Choices(catalog.All())),
			{Type: discordgo.ApplicationCommandOptionString, Name: "ai", Description: "An AI opponent", Autocomplete: true,
				MaxLength: gamenames.MaxAIName},
		},
	}, f.cmdHelp, gamenames.CompleteAI)
}
