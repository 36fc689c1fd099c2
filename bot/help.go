package bot

import (
	"context"

	"github.com/gambitbot/gambit/bot/render"
)

// cmdHelp handles /help [game] [ai]: the overview, a game's rules or an
// AI's page (the AI's if both are given).
func (b *Bot) cmdHelp(_ context.Context, ix *interaction, opts options) error {
	if ai := opts.str("ai"); ai != "" {
		msg, err := render.AIRules(ai)
		if err != nil {
			return userErrorf("There is no AI %q: start typing in the ai option to see them, or use /help game:<game> for a game's AIs.", echo(ai))
		}
		return ix.reply(msg, true)
	}
	msg, err := render.Rules(opts.str("game"))
	if err != nil {
		return userErrorf("Unknown game %q: choose %s.", echo(opts.str("game")), duelNames())
	}
	return ix.reply(msg, true)
}
