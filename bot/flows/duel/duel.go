// Package duel is the flow of a game in play, from its board: moves (a
// click on the board, a column then a cell on a board too large for one
// menu, /move typed), draw offers between people (Offer draw, Accept draw,
// Decline draw), and ending it early — Resign (Give up on a solo puzzle)
// and Abort, each after a confirmation.
package duel

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// Store is what the flow reads and changes in the store: a member's games
// in play, and the game played.
type Store interface {
	ActiveGames(ctx context.Context, p storage.PlayerID) ([]*storage.Game, error)
	UpdateGame(ctx context.Context, g *storage.Game) error
	FinishGame(ctx context.Context, g *storage.Game, res storage.Result) ([]storage.RatingChange, error)
}

// Boards is the bot's board code, as a click on a game's board meets it.
type Boards interface {
	// EndedBehind reports whether the click came from g's board while it
	// is behind g, which ended meanwhile; CatchUp then brings the board up
	// to date and tells the clicker nothing was done (as it does for a
	// click on a board behind its game's moves).
	EndedBehind(ix *mux.Interaction, g *storage.Game) bool
	CatchUp(ctx context.Context, ix *mux.Interaction, g *storage.Game) error
	// OnBoard reports whether the click came from g's board (a forged
	// custom ID can name g from elsewhere).
	OnBoard(ix *mux.Interaction, g *storage.Game) bool
	// Adopt records the clicked message as g's board when its ID was
	// never saved.
	Adopt(ctx context.Context, ix *mux.Interaction, g *storage.Game) error
	// View renders g's board at pos (nil before it started), saying the
	// AI is thinking if thinking is not nil, with the rating changes of
	// its end and a notice.
	View(g *storage.Game, pos engine.Position, thinking *render.Thinking, changes []storage.RatingChange, notice string) render.Message
	// Show answers the click by showing msg on g's board, the message
	// clicked.
	Show(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error
	// EditTo edits g's board, which is not the message clicked (a
	// confirmation, a picker or a typed move only the clicker sees), to
	// msg.
	EditTo(ctx context.Context, g *storage.Game, msg render.Message) error
	// ShowNew shows msg as g's new board through ix, where the bot reaches
	// the channel only through interactions, and saves its message ID.
	ShowNew(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error
	// Lang is the language of g's board: its guild's.
	Lang(g *storage.Game) *i18n.Localizer
}

// Turns is the game seam below the flows: a move committed, the AI's turn
// queued after it, a command run on a game under its lock.
type Turns interface {
	// Commit plays mv for the player to move in g, at pos, and commits
	// it: the game goes on or ends, with the rating changes of its end.
	// g and pos are changed; on error the caller must not use them.
	Commit(ctx context.Context, g *storage.Game, pos engine.Position, mv engine.Move) ([]storage.RatingChange, error)
	// QueueAI queues the AI's turn if g awaits it, to start once the
	// handler returned, and returns what the board should show; nil if
	// the AI is not to move.
	QueueAI(ctx context.Context, ix *mux.Interaction, g *storage.Game) *render.Thinking
	// OnGame runs h on game id, loaded under its lock for ix.
	OnGame(ctx context.Context, ix *mux.Interaction, id string, h func(context.Context, *storage.Game) error) error
}

// Flow answers moves and the draw, Resign and Abort buttons of a game's
// board.
type Flow struct {
	store  Store
	boards Boards
	turns  Turns
	games  play.GameRoutes
	log    *slog.Logger
}

// New returns the flow over store, boards and turns, its routes running
// in games, the game seam; log takes what goes wrong out of a player's
// sight.
func New(store Store, boards Boards, turns Turns, games play.GameRoutes, log *slog.Logger) *Flow {
	return &Flow{store: store, boards: boards, turns: turns, games: games, log: log}
}

// Routes declares /move, the move components, the draw, Resign and Abort
// buttons and their confirmations: all but /move routes of one game.
func (f *Flow) Routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "move", Description: "Play a move by typing it",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "cell", Description: "The cell or column, e.g. e4 or 4",
				Required: true, Autocomplete: true, MaxLength: 8},
			{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Which of your games here (its ID)",
				Autocomplete: true, MaxLength: 32},
		},
	}, f.cmdMove, f.completeMove)
	games := mux.NewGroup(m, f.games)
	games.Component(customid.Move, f.clickMove)
	games.Component(customid.Pick, f.clickMove)
	games.Component(customid.File, f.clickFile)
	games.Component(customid.Cell, f.clickCell)
	games.Component(customid.Resign, f.clickResign)
	games.Component(customid.ResignConfirm, f.clickResignConfirm)
	games.Component(customid.Abort, f.clickAbort)
	games.Component(customid.AbortConfirm, f.clickAbortConfirm)
	games.Component(customid.DrawOffer, f.clickDrawOffer)
	games.Component(customid.DrawAccept, f.clickDrawAnswer(true))
	games.Component(customid.DrawDecline, f.clickDrawAnswer(false))
}

// update answers a click by showing g as it now is on its board, the
// message clicked, with the rating changes of its end and a notice.
func (f *Flow) update(ctx context.Context, ix *mux.Interaction, g *storage.Game, changes []storage.RatingChange, notice string) error {
	pos, err := play.Position(g)
	if err != nil {
		return fmt.Errorf("duel: show game %s: %w", g.ID, err)
	}
	return f.boards.Show(ctx, ix, g, f.boards.View(g, pos, nil, changes, notice))
}

// edit shows g, just ended with changes, on its board, which is not the
// message clicked. A board no valid token reaches (play.ErrUnreachable)
// is left behind, and the next click on it shows the end: the player,
// told the end already, is not told of a failure.
func (f *Flow) edit(ctx context.Context, g *storage.Game, changes []storage.RatingChange) error {
	pos, err := play.Position(g)
	if err != nil {
		return fmt.Errorf("duel: show game %s: %w", g.ID, err)
	}
	err = f.boards.EditTo(ctx, g, f.boards.View(g, pos, nil, changes, ""))
	if errors.Is(err, play.ErrUnreachable) {
		return nil
	}
	return err
}
