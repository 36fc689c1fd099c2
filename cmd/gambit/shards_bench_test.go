package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
)

// BenchmarkTwoProcessesFirstResponse measures the time from a click to the
// bot's first response with the bot split over two real `gambit bot`
// processes, one shard each, on one PostgreSQL database (pgtest: needs
// GAMBIT_TEST_DATABASE_URL): 20 members in a server of each shard play
// Connect Four against the random AI, every member clicking a move per
// iteration and waiting for the AI's answer. It reports the 50th and 99th
// percentiles and the slowest over all clicks.
func BenchmarkTwoProcessesFirstResponse(b *testing.B) {
	const perShard = 20
	url := pgtest.URL(b)
	srv := discordtest.New(discordtest.WithShards(2, 2), discordtest.WithoutChecks())
	b.Cleanup(srv.Close)
	for shard := range 2 {
		startServing(b, srv, os.Args[0], "bot", b.TempDir(), envDatabaseURL+"="+url, "GAMBIT_SHARDS=2",
			"GAMBIT_SHARD_IDS="+strconv.Itoa(shard), "GAMBIT_MOVE_TIME=100ms")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	type player struct {
		user, channel string
		board         string // the board message of the current game
	}
	var players []*player
	for shard := range 2 {
		g, ch := srv.AddGuildOnShard(fmt.Sprintf("Shard %d", shard), shard)
		for i := range perShard {
			u := srv.AddUser(fmt.Sprintf("s%dp%d", shard, i))
			if err := srv.AddMember(g.ID, u.ID); err != nil {
				b.Fatal(err)
			}
			players = append(players, &player{user: u.ID, channel: ch.ID})
		}
	}
	newGame := func(p *player) error {
		ix, err := srv.SendCommand(discordtest.SlashCommand{UserID: p.user, ChannelID: p.channel, Name: "play",
			Options: []discordtest.Option{{Name: "game", Value: "connect4"}, {Name: "ai", Value: "random"}}})
		if err != nil {
			return err
		}
		m, err := ix.Reply(ctx)
		if err != nil {
			return err
		}
		p.board = m.ID
		return nil
	}
	// myTurn waits until the player's board asks them to move and returns
	// it; ok is false once the game is over.
	myTurn := func(p *player) (board crashBoard, ok bool, err error) {
		for {
			m, found := srv.Message(p.board)
			if !found {
				return board, false, fmt.Errorf("board %s is gone", p.board)
			}
			board, parsed := parseCrashBoard(m.Readable())
			if parsed && board.status != storage.StatusActive && board.status != "" {
				return board, false, nil
			}
			if parsed && board.mover == p.user && !board.thinking && len(board.controls) > 0 {
				return board, true, nil
			}
			select {
			case <-ctx.Done():
				return board, false, ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	for _, p := range players {
		if err := newGame(p); err != nil {
			b.Fatal(err)
		}
	}

	var mu sync.Mutex
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		var wg sync.WaitGroup
		for _, p := range players {
			wg.Go(func() {
				board, ok, err := myTurn(p)
				if err == nil && !ok {
					err = newGame(p)
					if err == nil {
						board, ok, err = myTurn(p)
					}
				}
				if err != nil || !ok {
					b.Errorf("player %s: no board to play on: %v", p.user, err)
					return
				}
				c := board.controls[rand.IntN(len(board.controls))]
				t0 := time.Now()
				ix, err := srv.ClickButton(p.user, board.msg.ID, c.customID)
				if err != nil {
					b.Error(err)
					return
				}
				if _, err := ix.Response(ctx); err != nil {
					b.Error(err)
					return
				}
				d := time.Since(t0)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[int(float64(len(lat)-1)*p/100)].Microseconds()) / 1000
	}
	b.ReportMetric(pct(50), "p50-ms")
	b.ReportMetric(pct(99), "p99-ms")
	b.ReportMetric(pct(100), "max-ms")
	b.ReportMetric(float64(len(lat)), "clicks")
}
