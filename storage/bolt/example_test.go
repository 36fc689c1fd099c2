package bolt_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

// A store keeps games from challenge to result. Here alice plays bob at
// Connect Four in a bbolt file: the game is created, loaded, moved on
// under its version, and finished when bob resigns, which rates both
// players on the game's global ladder (and the guild's).
func Example() {
	dir, err := os.MkdirTemp("", "gambit-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	s, err := bolt.Open(filepath.Join(dir, "gambit.db"), &bolt.Options{Clock: func() time.Time { return now }})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	ctx := context.Background()

	g := &storage.Game{
		Kind:    storage.Kind("connect4"),
		Status:  storage.StatusActive,
		Players: []storage.Player{{ID: storage.User("1"), Name: "alice"}, {ID: storage.User("2"), Name: "bob"}},
		GuildID: "g1",
	}
	if err := s.CreateGame(ctx, g, storage.Limits{}); err != nil {
		fmt.Println(err)
		return
	}
	g, err = s.Game(ctx, g.ID)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("game %s, version %d, %s\n", g.ID, g.Version, g.Status)

	g.Moves, g.Position, g.Turn = []string{"4"}, "4", 1 // the engine's texts
	if err := s.UpdateGame(ctx, g); err != nil {
		fmt.Println(err)
		return
	}
	status, res := g.GiveUp(1)
	g.Status = status
	changes, err := s.FinishGame(ctx, g, res)
	if err != nil {
		fmt.Println(err)
		return
	}
	g, _ = s.Game(ctx, g.ID)
	fmt.Printf("version %d, %s: winner %s, %s\n", g.Version, g.Status, g.Players[g.Result.Winner].Name, g.Result.Outcome)
	for _, c := range changes {
		fmt.Printf("%s %s: %.0f → %.0f\n", c.Ladder, c.After.Player, c.Before.Rating, c.After.Rating)
	}
	// Output:
	// game 00000001, version 1, active
	// version 3, finished: winner alice, resigned
	// connect4 user:1: 1500 → 1662
	// connect4 user:2: 1500 → 1338
	// connect4/g1 user:1: 1500 → 1662
	// connect4/g1 user:2: 1500 → 1338
}
