package bot

import (
	"context"

	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
)

// soloGames starts the members' solo games, for the flows of the puzzles
// (bot/flows/puzzles) and of the daily puzzle: a game's record, within
// the member's caps, and its first board, shown under the new game's lock.
type soloGames struct{ gameFlow }

// Start stores pos as the start of the member's new solo game of gm, the
// attempt at the daily puzzle of day if day is not empty, and shows its
// board once created, if not nil, accepts the game.
func (b soloGames) Start(ctx context.Context, ix *interaction, gm *games.Game, pos engine.Position, day string, created func(*storage.Game) error) error {
	g := &storage.Game{
		Kind: storage.Kind(gm.Name), Status: storage.StatusActive,
		Players:  []storage.Player{play.PlayerOf(ix.Caller())},
		Settings: storage.Settings{Daily: day},
		Start:    pos.String(),
		Position: pos.String(),
		GuildID:  ix.GuildID, ChannelID: ix.ChannelID,
	}
	if err := b.createGame(ctx, g); err != nil {
		return err
	}
	return b.holdGame(ctx, ix, g.ID, func() error {
		if created != nil {
			if err := created(g); err != nil {
				return err
			}
		}
		return b.boards.showNewBoard(ctx, ix, g, b.boards.view(g, pos, nil, nil, ""))
	})
}

// workerTasks queues the solvers of Compare algorithms (bot/flows/puzzles)
// as work of b's AI workers, each waiting its owner's turn among the AI
// turns (task).
func workerTasks(b *Bot) func(owner string, run func()) bool {
	return func(owner string, run func()) bool {
		_, ok := b.ai.Submit(context.Background(), &task{owner: owner, run: run})
		return ok
	}
}
