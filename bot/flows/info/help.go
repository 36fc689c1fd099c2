package info

import (
	"context"
	"strings"

	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
)

// cmdHelp handles /help [game] [ai]: the overview of every command
// registered, a game's rules or an AI's page (the AI's if both are given).
func (f *Flow) cmdHelp(_ context.Context, ix *mux.Command) error {
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
		return ix.Reply(render.Overview(ix.Lang(), f.commands()), true)
	}
	msg, err := render.Rules(ix.Lang(), game)
	if err != nil {
		return mux.Err("error.unknown_game", "Game", mux.Quote(opts.Str("game")), "Choices", gamenames.DuelNames())
	}
	return ix.Reply(msg, true)
}
