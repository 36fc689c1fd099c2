package bot

import (
	"context"
	"strings"

	"github.com/gambitbot/gambit/bot/render"
)

// cmdHelp handles /help [game] [ai]: the overview of every command
// registered, a game's rules or an AI's page (the AI's if both are given).
func (b infoFlow) cmdHelp(_ context.Context, ix *command) error {
	opts := ix.opts
	if ai := opts.str("ai"); ai != "" {
		msg, err := render.AIRules(ix.lang(), ai)
		if err != nil {
			return userErr("help.no_ai", "Name", quote(ai))
		}
		return ix.reply(msg, true)
	}
	game := opts.str("game")
	if strings.TrimSpace(game) == "" {
		return ix.reply(render.Overview(ix.lang(), commandDefinitions()), true)
	}
	msg, err := render.Rules(ix.lang(), game)
	if err != nil {
		return userErr("error.unknown_game", "Game", quote(opts.str("game")), "Choices", duelNames())
	}
	return ix.reply(msg, true)
}
