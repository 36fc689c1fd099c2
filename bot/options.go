package bot

import (
	"strings"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/storage"
)

// kindOption returns the game option name as a storage.Kind: a duel's.
func kindOption(o mux.Options, name string) (storage.Kind, error) {
	k := storage.Kind(strings.ToLower(o.Str(name)))
	if !isDuel(k) {
		return "", mux.Err("error.unknown_game", "Game", mux.Quote(o.Str(name)), "Choices", duelNames())
	}
	return k, nil
}
