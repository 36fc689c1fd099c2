package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// challengeGames is what the challenges flow (bot/flows/challenges) needs
// of the code that starts games.
type challengeGames struct{ gameFlow }

// Begin sets g up to start (begin).
func (b challengeGames) Begin(ctx context.Context, g *storage.Game) error { return b.begin(ctx, g) }

// CheckLimits refuses a member at their caps (checkLimits).
func (b challengeGames) CheckLimits(ctx context.Context, userID string, challenge bool) error {
	return b.checkLimits(ctx, userID, challenge)
}

// Limits are the caps of one member's games (limits).
func (b challengeGames) Limits() storage.Limits { return b.limits() }

// Settings are a server's settings (guildSettings).
func (b challengeGames) Settings(ctx context.Context, guildID string) storage.GuildSettings {
	return b.guildSettings(ctx, guildID)
}

// challengeBoards is what the challenges flow needs of the boards.
type challengeBoards struct{ duelBoards }

// Update answers the click by updating g's message: the board of a game
// begun, the challenge as answered otherwise (updateBoard).
func (b challengeBoards) Update(ctx context.Context, ix *mux.Interaction, g *storage.Game) error {
	var pos engine.Position
	if g.Status == storage.StatusActive {
		p, err := position(g)
		if err != nil {
			return err
		}
		pos = p
	}
	return b.boards.updateBoard(ctx, ix, g, b.boards.view(g, pos, nil, nil, ""))
}

// Rematched renders an ended game whose rematch was taken: the board with
// the notice and no Rematch button, or the notice alone if the record
// cannot be drawn. The rating changes that shown, the board clicked (nil
// if unknown), has are kept: the store does not keep them.
func (b challengeBoards) Rematched(g *storage.Game, notice string, shown *discordgo.Message) render.Message {
	pos, err := position(g)
	if err != nil {
		return render.Note(notice)
	}
	l := b.boards.boardLang(g)
	return render.Game(render.View{Game: g, Pos: pos, Notice: notice, Rematched: true, Lang: l, ShownChanges: render.ShownChanges(l, g, shown),
		Board: b.boards.boardForm(g)})
}
