package strategies

import (
	"fmt"
	"github.com/gambitbot/gambit/games/catalog"
	"slices"
	"strings"
)

// Difficulty is how strong a strategy plays a game, in a small fixed
// vocabulary that the bot shows next to strategy names. A strategy has one
// in each game it plays (Info.DifficultyIn), read from that game's
// measured ratings.
type Difficulty string

// The difficulty labels, from weakest to strongest.
const (
	// Easy: among the game's weakest AIs.
	Easy Difficulty = "easy"
	// Medium: between the game's weakest and strongest AIs.
	Medium Difficulty = "medium"
	// Hard: among the game's strongest AIs.
	Hard Difficulty = "hard"
	// Perfect: plays the game-theoretic best move (games.AI.Perfect).
	Perfect Difficulty = "perfect"
)

// Difficulties lists the labels from weakest to strongest.
var Difficulties = []Difficulty{Easy, Medium, Hard, Perfect}

// Info describes a registered strategy.
type Info struct {
	// Name is the stable lowercase name the command line and the bot use;
	// never renamed once released.
	Name string
	// Games lists the names of the games it plays (games/catalog).
	Games []string
	// DisplayName is the name players see ("Hill climber"); it may change
	// between releases, unlike Name.
	DisplayName string
	// Blurb is one line a player understands: how it plays, and how it
	// differs from a player of a similar name ("improves a three-move plan
	// step by step"), in a player's words. Label puts it after the name
	// and difficulty in at most MaxLabel characters.
	Blurb string
	// Description is one technical line for developers: the algorithm.
	Description string
	// Strategy is the player.
	Strategy Strategy
}

// Supports reports whether the strategy plays the named game.
func (i Info) Supports(game string) bool { return slices.Contains(i.Games, game) }

// allGames are the games every generic strategy plays: the duels whose
// plug-in tells a search how to evaluate them.
var allGames = func() []string {
	var names []string
	for _, g := range catalog.All() {
		if g.Players == 2 && g.AI != nil {
			names = append(names, g.Name)
		}
	}
	return names
}()

// registry lists every strategy, in the order listings show them; each
// family declares its own list beside its code.
var registry = slices.Concat(
	searchStrategies,
	localStrategies,
	geneticStrategies,
	seedStrategies,
	mctsStrategies,
	randomStrategies,
)

// All returns every registered strategy.
func All() []Info { return slices.Clone(registry) }

// ForGame returns the strategies that play the named game.
func ForGame(game string) []Info {
	var out []Info
	for _, i := range registry {
		if i.Supports(game) {
			out = append(out, i)
		}
	}
	return out
}

// Lookup finds a strategy by name (either case).
func Lookup(name string) (Info, error) {
	for _, i := range registry {
		if strings.EqualFold(i.Name, strings.TrimSpace(name)) {
			return i, nil
		}
	}
	return Info{}, fmt.Errorf("strategies: unknown strategy %q: want one of %s", name, names(registry))
}

// LookupFor finds a strategy by name (either case) that plays the named
// game; its errors list only the strategies that do.
func LookupFor(name, game string) (Info, error) {
	i, err := Lookup(name)
	switch {
	case err != nil:
		return Info{}, fmt.Errorf("strategies: unknown strategy %q: want one of %s for %s", name, names(ForGame(game)), game)
	case !i.Supports(game):
		return Info{}, fmt.Errorf("strategies: %s does not play %s: want one of %s", i.Name, game, names(ForGame(game)))
	}
	return i, nil
}

// names lists strategies' names for an error message.
func names(infos []Info) string {
	out := make([]string, len(infos))
	for k, i := range infos {
		out[k] = i.Name
	}
	return strings.Join(out, ", ")
}

// MaxLabel is the length Label keeps within: Discord's limit on an
// autocomplete choice's name.
const MaxLabel = 100

// Label is the strategy as a player sees it in game's list: "Hill
// climber (medium) — improves a three-move plan step by step"; without
// the difficulty for a game it does not play, or "" (no one game).
func (i Info) Label(game string) string {
	if d := i.DifficultyIn(game); d != "" {
		return fmt.Sprintf("%s (%s) — %s", i.DisplayName, d, i.Blurb)
	}
	return i.DisplayName + " — " + i.Blurb
}
