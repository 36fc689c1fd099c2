package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// gameBoards is what the flow of /games and Re-post (bot/flows/mygames)
// needs of the boards.
type gameBoards struct{ boardFlow }

// Message renders g's board as it stands.
func (b gameBoards) Message(g *storage.Game) (render.Message, error) { return b.gameMessage(g, "") }

// ShowNew shows msg as g's new board through ix (showNewBoard).
func (b gameBoards) ShowNew(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error {
	return b.showNewBoard(ctx, ix, g, msg)
}

// Post posts msg as g's new board in its channel (postBoard).
func (b gameBoards) Post(ctx context.Context, g *storage.Game, msg render.Message) error {
	return b.postBoard(ctx, g, msg)
}

// Moved turns old, g's board before it was posted again, into a note in
// the board's language that links to the new one; a board deleted
// meanwhile is left so, and another failure logged.
func (b gameBoards) Moved(_ context.Context, old, g *storage.Game, link string) {
	err := b.discord.egress.EditChannelMessage(old.ChannelID, old.MessageID, render.Note(b.boardLang(g).T("games.moved", "Link", link)))
	if err != nil && egress.Code(err) != discordgo.ErrCodeUnknownMessage {
		b.log.Warn("retire old board", "game", g.ID, "err", err)
	}
}
