// Package gamenames is how the bot's commands name the registered games
// and AIs to people, shared by the flows below which it sits: the duels
// (the games of /play, ratings and leaderboards), the game option and its
// choices, the AI option's completion, and lists of games in the reader's
// language.
package gamenames

import (
	"context"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// Duels returns the registered games between two players: the games of
// /play, ratings and leaderboards.
func Duels() []*games.Game {
	var out []*games.Game
	for _, g := range catalog.All() {
		if g.Players == 2 {
			out = append(out, g)
		}
	}
	return out
}

// IsDuel reports whether k names a registered game between two players.
func IsDuel(k storage.Kind) bool {
	g, err := catalog.Lookup(string(k))
	return err == nil && g.Name == string(k) && g.Players == 2
}

// DuelNames lists the names of the duels for error messages: "adjacency,
// connect4, tictactoe, othello or gomoku".
func DuelNames() mux.Localized {
	var names []string
	for _, g := range Duels() {
		names = append(names, g.Name)
	}
	return Or(names)
}

// Or lists choices as "a, b or c" in the message's language.
func Or(names []string) mux.Localized {
	return func(l *i18n.Localizer) string {
		if len(names) < 2 {
			return strings.Join(names, "")
		}
		return l.T("error.or", "List", strings.Join(names[:len(names)-1], ", "), "Last", names[len(names)-1])
	}
}

// List names games for people, in the reader's language: "Connect Four,
// Tic-Tac-Toe".
func List(kinds []storage.Kind) mux.Localized {
	return func(l *i18n.Localizer) string {
		s := make([]string, len(kinds))
		for i, k := range kinds {
			s[i] = render.Title(l, k)
		}
		return strings.Join(s, ", ")
	}
}

// Player is a player's name in a game of kind, as render.PlayerName
// writes it in the language of the message it is put in (an AI's name and
// difficulty are translated).
func Player(kind storage.Kind, p storage.Player) mux.Localized {
	return func(l *i18n.Localizer) string { return render.PlayerName(l, kind, p) }
}

// Kind returns the game option name as a storage.Kind: a duel's, or the
// user's error naming the duels.
func Kind(o mux.Options, name string) (storage.Kind, error) {
	k := storage.Kind(strings.ToLower(o.Str(name)))
	if !IsDuel(k) {
		return "", mux.Err("error.unknown_game", "Game", mux.Quote(o.Str(name)), "Choices", DuelNames())
	}
	return k, nil
}

// Choices lists games as the choices of a game option.
func Choices(list []*games.Game) []*discordgo.ApplicationCommandOptionChoice {
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, g := range list {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: g.Title, Value: g.Name})
	}
	return choices
}

// DuelOption is the game option of /play, /challenge and /leaderboard:
// one of the duels.
func DuelOption(required bool) *discordgo.ApplicationCommandOption {
	return mux.ChoiceOption("game", "The game", required, Choices(Duels()))
}

// CompleteAI suggests, for an ai option (/play's, /help's), the AI
// strategies that play the chosen game (every one if none is chosen)
// whose name or title in the member's language has what they typed.
func CompleteAI(ctx context.Context, ix *mux.Autocomplete) error {
	return CompleteStrategies("ai")(ctx, ix)
}

// CompleteStrategies is CompleteAI for the strategy options named names
// (/versus's first and second).
func CompleteStrategies(names ...string) mux.AutocompleteHandler {
	return func(_ context.Context, ix *mux.Autocomplete) error {
		if !slices.Contains(names, ix.Opts.Focused) {
			return ix.Choices(nil)
		}
		return completeStrategy(ix, ix.Opts.Focused)
	}
}

// completeStrategy answers the autocomplete of the strategy option name.
func completeStrategy(ix *mux.Autocomplete, name string) error {
	opts := ix.Opts
	typed := strings.ToLower(opts.Str(name))
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, info := range strategies.All() {
		if kind := opts.Str("game"); kind != "" && !info.Supports(kind) {
			continue
		}
		name := render.AIName(ix.Lang(), info)
		if !strings.Contains(info.Name, typed) && !strings.Contains(strings.ToLower(info.DisplayName), typed) &&
			!strings.Contains(strings.ToLower(name), typed) {
			continue
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: render.ClipWords(render.AILabel(ix.Lang(), storage.Kind(opts.Str("game")), info), 100), Value: info.Name})
	}
	return ix.Choices(out)
}

// MaxAIName is the max_length of an ai option: room for every strategy's
// name (the longest has 17 characters; a test checks they fit).
const MaxAIName = 32
