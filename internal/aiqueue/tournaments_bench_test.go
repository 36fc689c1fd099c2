package aiqueue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"syscall"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
)

// benchStrategies are the twelve strategies that play tic-tac-toe: a
// Swiss of sixteen has them and four members.
var benchStrategies = []string{"minimax", "greedy", "hill-steepest", "hill-sideways", "hill-stochastic", "annealing",
	"beam", "genetic", "genetic-roulette", "seed003-minimax", "mcts", "random"}

// BenchmarkSwissOfSixteenOnRiver runs a Swiss of five rounds of
// tic-tac-toe, sixteen entrants — the twelve strategies that play it and
// four members, who resign each game as it is paired (through the store,
// as a timeout or a click would end it) — from its start to its podium
// on one worker's jobs alone: the AI turns at 10 ms a move and the
// tournament's advances. It reports the rounds, the tournament's jobs,
// the AI turns' jobs, and this process's CPU time (the bot, River and the
// stand-in; PostgreSQL apart) per run.
//
//	go test ./internal/aiqueue -run '^$' -bench SwissOfSixteen -benchtime 3x
func BenchmarkSwissOfSixteenOnRiver(b *testing.B) {
	url := pgtest.URL(b)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		s, ds, w, events := benchRig(b, url)
		tr := &storage.Tournament{GuildID: ds.GuildID(), ChannelID: ds.ChannelID(), Creator: storage.User(ds.AddUser("org").ID), Name: "Friday",
			Format: storage.FormatSwiss, SwissRounds: 5, Kind: "tictactoe", MoveTime: time.Minute, OpenToAI: true}
		if err := s.CreateTournament(ctx, tr, storage.DefaultTournamentCaps); err != nil {
			b.Fatal(err)
		}
		players := make([]storage.PlayerID, 0, 16)
		for _, name := range benchStrategies {
			players = append(players, storage.AI(name))
		}
		for i := range 4 {
			players = append(players, storage.User(ds.AddUser(fmt.Sprintf("member%d", i)).ID))
		}
		for _, p := range players {
			if _, err := s.JoinTournament(ctx, tr.ID, storage.Entrant{Player: storage.Player{ID: p, Name: string(p)}}); err != nil {
				b.Fatal(err)
			}
		}
		cpu := cpuTime()
		b.StartTimer()
		if _, err := s.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning); err != nil {
			b.Fatal(err)
		}
		done := benchFinish(b, s, events, tr.ID)
		b.StopTimer()
		b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond), "cpu-ms/op")
		b.ReportMetric(float64(len(done.Rounds)), "rounds/op")
		var tjobs, turns int
		if err := s.Pool().QueryRow(ctx, `SELECT count(*) FILTER (WHERE kind = $1), count(*) FILTER (WHERE kind = $2)
			FROM river_job WHERE state = 'completed'`, postgres.TournamentArgs{}.Kind(), Args{}.Kind()).Scan(&tjobs, &turns); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(tjobs), "tournament-jobs/op")
		b.ReportMetric(float64(turns), "ai-turn-jobs/op")
		if err := w.Stop(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Pool().Exec(ctx, "TRUNCATE river_job"); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// benchRig opens the database at url and a stand-in Discord, and starts
// a worker of a bot whose tournaments are jobs, with the AI turns and
// the tournaments' jobs, returning its completions.
func benchRig(b *testing.B, url string) (*postgres.Store, *discordtest.Server, *Worker, <-chan *river.Event) {
	b.Helper()
	s, err := postgres.Open(context.Background(), url, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	ds := discordtest.New()
	b.Cleanup(ds.Close)
	q, err := NewQueue(s.Pool(), slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	bt, err := bot.New(bot.Config{
		Token: ds.Token(), REST: bot.RESTConfig{APIURL: ds.URL()}, Shards: bot.ShardConfig{Instance: "bench"},
		AI: bot.AIConfig{Queue: q, MoveTime: 10 * time.Millisecond, SearchThreads: 2}, Games: bot.GameConfig{Tournaments: s},
		Timers: bot.TimerConfig{ProgressInterval: time.Hour}, Logger: slog.New(slog.DiscardHandler),
	}, s)
	if err != nil {
		b.Fatal(err)
	}
	if err := bt.PrepareWorker(); err != nil {
		b.Fatal(err)
	}
	w, err := NewWorker(s.Pool(), bt, Config{Workers: 2, Tournaments: bt, ID: "bench", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	events, cancel := w.client.Subscribe(river.EventKindJobCompleted)
	b.Cleanup(cancel)
	if err := w.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = w.client.StopAndCancel(context.Background()) })
	return s, ds, w, events
}

// benchFinish waits, on the worker's completions, until tournament id is
// finished, resigning the members' games as they are paired (two
// members draw), and returns it.
func benchFinish(b *testing.B, s *postgres.Store, events <-chan *river.Event, id storage.TournamentID) *storage.Tournament {
	b.Helper()
	ctx := context.Background()
	guard := time.After(10 * time.Minute)
	for {
		t, err := s.Tournament(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		if t.Status == storage.TournamentFinished {
			return t
		}
		for _, gid := range t.PendingGames() {
			if err := resignMembers(ctx, s, gid); err != nil {
				b.Fatal(err)
			}
		}
		select {
		case <-events:
		case <-guard:
			b.Fatalf("the tournament never finished: %s after %d rounds", t.Status, len(t.Rounds))
		}
	}
}

// resignMembers ends game id if a member plays it: the member resigns, or
// two members draw. A game the AI moved in meanwhile is read again.
func resignMembers(ctx context.Context, s *postgres.Store, id storage.GameID) error {
	for {
		g, err := s.Game(ctx, id)
		if err != nil {
			return err
		}
		ai := -1
		for i, p := range g.Players {
			if p.ID.IsAI() {
				ai = i
			}
		}
		if !g.Status.Open() || ai >= 0 && g.Players[1-ai].ID.IsAI() {
			return nil
		}
		res := storage.Result{Winner: storage.Draw}
		if ai >= 0 {
			res = storage.Result{Winner: ai, Outcome: storage.Resigned}
		}
		g.Status = storage.StatusFinished
		_, err = s.FinishGame(ctx, g, res)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
}

// cpuTime is this process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
