package bot

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/bwmarrin/discordgo"
	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// /settings' games option takes what /settings shows: "all" or a list of
// games by their titles, in either language ("Connect Four, Othello",
// "Semua"), as well as the games' command names (connect4,tictactoe) and
// lists separated by spaces, "and" or "dan". Its autocomplete completes
// the game being typed at the end of the list.

// gameKey reduces a game's name to its letters and digits in lower case,
// so that "Tic-Tac-Toe", "tic tac toe" and "tictactoe" are one key.
func gameKey(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// listWords are what the games option reads: each duel under every name
// a member may give it, and the phrases for all of them, by gameKey.
type listWords struct {
	games map[string]storage.Kind
	all   map[string]bool
}

// gameWords are the words of the games option, made once.
var gameWords = sync.OnceValue(func() listWords {
	w := listWords{games: map[string]storage.Kind{}, all: map[string]bool{}}
	for _, g := range gamenames.Duels() {
		k := storage.Kind(g.Name)
		w.games[gameKey(g.Name)], w.games[gameKey(g.Title)] = k, k
		for _, loc := range i18n.Locales() {
			w.games[gameKey(render.Title(i18n.For(loc), k))] = k
		}
	}
	for _, loc := range i18n.Locales() {
		l := i18n.For(loc)
		for phrase := range strings.SplitSeq(l.T("play.all_games")+"|"+l.T("settings.all_words"), "|") {
			w.all[gameKey(phrase)] = true
		}
	}
	return w
})

// listSeparators split a list of games: commas, semicolons, slashes,
// ampersands and the words "and" and "dan".
var listSeparators = regexp.MustCompile(`(?i)\s*[,;/&]\s*|\s+(?:and|dan)\s+`)

// parseKinds reads the games option: nil for all of them, or the games
// listed, each once, in the order given.
func parseKinds(text string) ([]storage.Kind, error) {
	words := gameWords()
	if strings.TrimSpace(text) == "" || words.all[gameKey(text)] {
		return nil, nil
	}
	var kinds []storage.Kind
	for _, item := range listSeparators.Split(strings.TrimSpace(text), -1) {
		found, err := gamesIn(item)
		if err != nil {
			return nil, err
		}
		for _, k := range found {
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	return kinds, nil
}

// gamesIn reads one item of the list: a game's name, or several names
// separated by spaces ("connect4 othello", "Connect Four Othello"), read
// from the left taking the longest name each time.
func gamesIn(item string) ([]storage.Kind, error) {
	words := gameWords()
	if item == "" {
		return nil, nil
	}
	if k, ok := words.games[gameKey(item)]; ok {
		return []storage.Kind{k}, nil
	}
	fields := strings.Fields(item)
	var out []storage.Kind
	for i := 0; i < len(fields); {
		j := len(fields)
		for ; j > i; j-- {
			if k, ok := words.games[gameKey(strings.Join(fields[i:j], " "))]; ok {
				out = append(out, k)
				break
			}
		}
		if j == i {
			if words.all[gameKey(fields[i])] {
				return nil, mux.Err("settings.all_alone", "All", mux.Quote(fields[i]), "Choices", duelTitles())
			}
			return nil, mux.Err("settings.unknown_game", "Game", mux.Quote(fields[i]), "Choices", duelTitles())
		}
		i = j
	}
	return out, nil
}

// duelTitles lists the duels' titles in the message's language:
// "Adjacency, Connect Four, Tic-Tac-Toe, Othello or Gomoku".
func duelTitles() mux.Localized {
	return func(l *i18n.Localizer) string {
		var titles []string
		for _, g := range gamenames.Duels() {
			titles = append(titles, render.Title(l, storage.Kind(g.Name)))
		}
		return gamenames.Or(titles)(l)
	}
}

// completeGames suggests, for /settings' games option, the list typed so
// far with each game not yet in it completing its last item, by the
// titles of the member's language; and "all" at first.
func (b infoFlow) completeGames(_ context.Context, ix *autocomplete) error {
	if ix.Opts.Focused != "games" {
		return ix.Choices(nil)
	}
	l, typed := ix.Lang(), ix.Opts.Str("games")
	items := strings.Split(typed, ",")
	last := gameKey(items[len(items)-1])
	var have []storage.Kind
	for _, item := range items[:len(items)-1] {
		found, err := gamesIn(strings.TrimSpace(item))
		if err != nil {
			return ix.Choices(nil) // nothing completes a list with a mistake in it: the command will say what
		}
		have = append(have, found...)
	}
	var titles []string
	for _, k := range have {
		if t := render.Title(l, k); !slices.Contains(titles, t) {
			titles = append(titles, t)
		}
	}
	var out []*discordgo.ApplicationCommandOptionChoice
	add := func(value string) {
		if len(value) <= maxGamesOption {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: value, Value: value})
		}
	}
	if all := l.T("play.all_games"); len(have) == 0 && strings.HasPrefix(gameKey(all), last) {
		add(all)
	}
	for _, g := range gamenames.Duels() {
		k := storage.Kind(g.Name)
		title := render.Title(l, k)
		if slices.Contains(have, k) || !strings.HasPrefix(gameKey(title), last) && !strings.HasPrefix(gameKey(g.Name), last) {
			continue
		}
		add(strings.Join(append(slices.Clone(titles), title), ", "))
	}
	return ix.Choices(out)
}

// maxGamesOption is the games option's longest value (its MaxLength).
const maxGamesOption = 100
