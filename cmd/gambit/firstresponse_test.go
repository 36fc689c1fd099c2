package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
)

var serveBenchGames = flag.Int("servebench.games", 40, "games played at once in BenchmarkFirstResponseTwoServeProcesses, one click each a second")

// BenchmarkFirstResponseTwoServeProcesses measures what a member waits
// for with two machines: two `gambit serve` processes (the test binary
// running gambit's main, as in the crash drills) on one PostgreSQL
// database, the stand-in delivering each interaction over HTTP to them in
// turn. It keeps -servebench.games two-player Adjacency games going (40,
// as the in-process benchmark of two replicas, bot's
// BenchmarkLoadFirstResponseHTTP2Replicas); in each iteration every game's
// player to move clicks a cell, the clicks spread over one second (40
// clicks/s), and the time from the delivery to the bot's first
// response is recorded; a click the bot did not answer within Discord's 3
// seconds (which the stand-in refuses, as Discord does) counts as
// unanswered instead, and the next click on that game may then be refused
// as made on a board that is behind (counted, and timed all the same). Run it with
//
//	nice -n 19 go test ./cmd/gambit -run '^$' -bench FirstResponseTwoServeProcesses -benchtime 20x -servebench.games 40
//
// (GAMBIT_TEST_DATABASE_URL names the server, as for the store's tests).
func BenchmarkFirstResponseTwoServeProcesses(b *testing.B) {
	games := *serveBenchGames
	d := newCrashDrill(b, crashSetup{command: "serve", processes: 2, dbURL: pgtest.URL(b)})
	d.start()
	users := make([]string, 2*games)
	for i := range users {
		users[i] = d.srv.AddUser(fmt.Sprintf("player%d", i)).ID
	}
	ids := make([]storage.GameID, games)
	var wg sync.WaitGroup
	setup := make(chan struct{}, 8) // 8 at a time: the setup is not measured
	for i := range games {
		wg.Go(func() {
			setup <- struct{}{}
			defer func() { <-setup }()
			ids[i] = d.duel(b, users[2*i], users[2*i+1])
		})
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}

	var mu sync.Mutex
	var lat []time.Duration
	var unanswered, refused atomic.Int64
	b.ResetTimer()
	for b.Loop() {
		for i, id := range ids {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(i), uint64(b.N)))
				time.Sleep(time.Duration(rng.Int64N(int64(time.Second))))
				board := d.boards.board(id)
				if board.status != storage.StatusActive || len(board.controls) == 0 {
					return // over
				}
				c := board.controls[rng.IntN(len(board.controls))]
				t0 := time.Now()
				ix, err := board.press(d.srv, board.mover, c)
				if err != nil {
					b.Errorf("game %s: %v", id, err)
					return
				}
				ctx, cancel := context.WithTimeout(context.Background(), crashReplyWait)
				defer cancel()
				if _, err := ix.Response(ctx); err != nil {
					unanswered.Add(1) // answered after Discord's 3 s (refused), or never
					return
				}
				took := time.Since(t0)
				mu.Lock()
				lat = append(lat, took)
				mu.Unlock()
				if m, err := ix.Reply(ctx); err != nil || m.Ephemeral() {
					// Refused: the board this member clicked was behind (an
					// earlier answer came too late for Discord, and the bot
					// edited the board instead).
					refused.Add(1)
					return
				}
				// The board the next iteration reads is the one this reply showed.
				d.boards.until(ctx, func() bool { return d.boards.beyond(id, board.ply) })
			})
		}
		wg.Wait()
	}
	b.StopTimer()
	d.stopAll()
	slices.Sort(lat)
	at := func(p int) float64 { return float64(lat[(len(lat)-1)*p/100].Microseconds()) / 1000 }
	b.ReportMetric(at(50), "p50-ms")
	b.ReportMetric(at(99), "p99-ms")
	b.ReportMetric(at(100), "max-ms")
	b.ReportMetric(float64(len(lat)), "clicks")
	b.ReportMetric(float64(unanswered.Load()), "unanswered")
	b.ReportMetric(float64(refused.Load()), "refused")
}

// duel starts an Adjacency game of 28 rounds between two members: a
// challenge and its acceptance, and returns its ID.
func (d *crashDrill) duel(tb testing.TB, challenger, opponent string) storage.GameID {
	ctx, cancel := discordtest.UntilTestDeadline(tb, context.Background())
	defer cancel()
	ix, err := d.srv.SendCommand(discordtest.SlashCommand{UserID: challenger, Name: "play", Options: []discordtest.Option{
		{Name: "game", Value: "adjacency"}, {Name: "opponent", Value: opponent}, {Name: "rounds", Value: 28}}})
	if err != nil {
		tb.Error(err)
		return ""
	}
	m, err := ix.Reply(ctx)
	b, ok := parseCrashBoard(m.Readable())
	if err != nil || !ok || b.status != storage.StatusPending {
		tb.Errorf("/play: %q, %v", m.Content, err)
		return ""
	}
	if ix, err = d.srv.ClickButton(opponent, m.ID, customid.Accept.Build(string(b.game))); err == nil {
		m, err = ix.Reply(ctx)
	}
	if a, ok := parseCrashBoard(m.Readable()); err != nil || !ok || a.status != storage.StatusActive {
		tb.Errorf("accept %s: %q, %v", b.game, m.Content, err)
	}
	return b.game
}
