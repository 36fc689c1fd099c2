package bot

import (
	"context"

	"github.com/gambitbot/gambit/bot/render"
)

// cmdHelp handles /help [game].
func (b *Bot) cmdHelp(_ context.Context, ix *interaction, opts options) error {
	msg, err := render.Rules(opts.str("game"))
	if err != nil {
		return userErrorf("Unknown game %q: choose %s.", echo(opts.str("game")), duelNames())
	}
	return ix.reply(msg, true)
}
