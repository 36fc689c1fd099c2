package aiqueue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestPrivacyDeleteLeavesTheMemberInNoTable: after /privacy delete on a
// bot whose AI turns go to River, the member's Discord ID is in no row of
// any table of the database, River's included — and before it, it was in
// the queue's jobs: one waiting for a worker (with the token of the
// interaction that shows its board) and one that failed its 5 attempts
// and was kept as given up, beside a rated duel, a game against the AI
// and their own settings.
func TestPrivacyDeleteLeavesTheMemberInNoTable(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	store, err := postgres.Open(ctx, url, &postgres.Options{AIRatings: bot.AIRatings})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	ds := discordtest.New(discordtest.AnswerUntilTestDeadline(t))
	t.Cleanup(ds.Close)
	alice, bob := ds.AddUser("alice").ID, ds.AddUser("bob").ID
	storetest.Play(t, store, "connect4", storage.User(alice), storage.User(bob), 0)
	q, err := NewQueue(store.Pool(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}

	// A turn whose every attempt fails is given up after MaxAttempts.
	given := storetest.UserVsAI("tictactoe", alice)
	given.Players[0], given.Players[1] = given.Players[1], given.Players[0] // the AI to move
	storetest.MustCreate(t, store, given)
	failing := &rig{t: t, url: url, store: store, ds: ds}
	w := failing.worker("worker-a", playerFunc(func(context.Context, bot.AITurn) error { return errors.New("the search failed") }))
	discarded, stop := w.client.Subscribe(river.EventKindJobFailed)
	if err := q.EnqueueAI(ctx, bot.AITurn{Game: given.ID, Owner: string(storage.User(alice)), Deadline: time.Now(), MoveTime: time.Millisecond, Queued: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for e := range discarded {
		if e.Job.State == rivertype.JobStateDiscarded {
			break
		}
	}
	stop()
	if err := w.client.Stop(ctx); err != nil {
		t.Fatal(err)
	}

	// The bot: alice's game against the AI, which moves first, waits in
	// the queue with nobody working it.
	ready := make(chan struct{})
	b, err := bot.New(bot.Config{
		Token: ds.Token(), REST: bot.RESTConfig{APIURL: ds.URL()}, Shards: bot.ShardConfig{Instance: "bot-a"}, AI: bot.AIConfig{Queue: q, SearchThreads: 1},
		Lifecycle: bot.LifecycleConfig{InteractionTimeout: time.Hour, Ready: func() { close(ready) }}, Logger: slog.New(slog.DiscardHandler),
	}, store)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stopBot := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- b.Run(runCtx) }()
	t.Cleanup(func() {
		stopBot()
		if err := <-ran; err != nil {
			t.Errorf("the bot stopped with %v", err)
		}
	})
	select {
	case <-ready:
	case err := <-ran:
		t.Fatalf("the bot stopped at start: %v", err)
	case <-ctx.Done():
		t.Fatal("the bot did not come up")
	}
	command := func(name string, opts ...discordtest.Option) discordtest.Message {
		t.Helper()
		ix, err := ds.SendCommand(discordtest.SlashCommand{UserID: alice, Name: name, Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		m, err := ix.Reply(ctx)
		if err != nil {
			t.Fatalf("/%s: %v", name, err)
		}
		return m
	}
	if m := command("play", discordtest.Option{Name: "game", Value: "tictactoe"}, discordtest.Option{Name: "ai", Value: "minimax"},
		discordtest.Option{Name: "first", Value: "opponent"}); m.Ephemeral() {
		t.Fatalf("/play: %s", m.Content)
	}
	command("board", discordtest.Option{Name: "form", Value: "emoji"})
	waiting := func() bool {
		res, err := w.client.JobList(ctx, river.NewJobListParams().Kinds(Args{}.Kind()).States(rivertype.JobStateAvailable))
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range res.Jobs {
			if strings.Contains(string(j.EncodedArgs), alice) && strings.Contains(string(j.EncodedArgs), `"token"`) {
				return true
			}
		}
		return false
	}
	for !waiting() {
		select {
		case <-ctx.Done():
			t.Fatal("the AI's turn was not queued")
		case <-time.After(5 * time.Millisecond):
		}
	}
	// A review she asked for, waiting for a review worker: it holds her
	// ID and the interaction token too.
	if err := q.EnqueueReview(ctx, bot.ReviewJob{Game: given.ID, Member: alice, Interaction: "1", Token: "review-token", Queued: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if where := findInEveryTable(ctx, t, store, alice); !strings.Contains(strings.Join(where, "\n"), "river_job") {
		t.Fatalf("before /privacy delete the member's ID is in %q, and in no River job: the test looks in the wrong place", where)
	}

	ask := command("privacy", discordtest.Option{Name: "delete"})
	ix, err := ds.ClickButton(alice, ask.ID, customid.PrivacyDelete.Build(alice))
	if err != nil {
		t.Fatal(err)
	}
	if done, err := ix.Reply(ctx); err != nil || !strings.Contains(done.Content, "Your data was erased") {
		t.Fatalf("erasing answered %q, %v", done.Content, err)
	}
	for _, where := range findInEveryTable(ctx, t, store, alice) {
		t.Errorf("the member's ID is still in %s", where)
	}
}

// findInEveryTable reads every row of every table of the store's schema,
// River's included, as text, and returns where text is found.
func findInEveryTable(ctx context.Context, t *testing.T, store *postgres.Store, text string) []string {
	t.Helper()
	rows, err := store.Pool().Query(ctx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) < 10 {
		t.Fatalf("only tables %v in the schema", tables)
	}
	var where []string
	for _, table := range tables {
		rows, err := store.Pool().Query(ctx, "SELECT r::text FROM "+pgx.Identifier{table}.Sanitize()+" r")
		if err != nil {
			t.Fatal(err)
		}
		found, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range found {
			if strings.Contains(row, text) {
				where = append(where, fmt.Sprintf("%s: %s", table, row))
			}
		}
	}
	return where
}

// TestForgetAIScrubsARunningTurn: River does not let go of a job being
// worked, so ForgetAI leaves a running turn's job but takes the owner and
// the interaction token out of it; the member's other jobs go, and other
// members' stay as they were.
func TestForgetAIScrubsARunningTurn(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ctx := context.Background()
	q := r.queue()
	owner := string(r.game.Players[1].ID)
	running := r.turn(time.Second)
	running.Token = "interaction-token-of-the-board"
	waiting := running
	waiting.Ply = 2
	other := running
	other.Ply, other.Owner = 4, string(storage.User("someone-else"))
	if err := q.EnqueueAI(ctx, running, waiting, other); err != nil {
		t.Fatal(err)
	}
	if _, err := r.store.Pool().Exec(ctx, `UPDATE river_job SET state = 'running', attempt = 1, attempted_at = now()
		WHERE args->>'key' = $1`, running.Key()); err != nil {
		t.Fatal(err)
	}
	if err := q.ForgetAI(ctx, owner); err != nil {
		t.Fatal(err)
	}
	rows, err := r.store.Pool().Query(ctx, `SELECT args->>'key', state, args->'turn' FROM river_job WHERE kind = $1 ORDER BY id`, Args{}.Kind())
	if err != nil {
		t.Fatal(err)
	}
	type job struct{ key, state, turn string }
	jobs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (job, error) {
		var j job
		return j, row.Scan(&j.key, &j.state, &j.turn)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || jobs[0].key != running.Key() || jobs[1].key != other.Key() {
		t.Fatalf("jobs left: %+v; want the running one and the other member's", jobs)
	}
	if j := jobs[0]; j.state != "running" || strings.Contains(j.turn, owner) || strings.Contains(j.turn, "token") || !strings.Contains(j.turn, string(r.game.ID)) {
		t.Errorf("the running job: %s %s; want it running, of its game, without owner or token", j.state, j.turn)
	}
	if j := jobs[1]; !strings.Contains(j.turn, other.Owner) || !strings.Contains(j.turn, running.Token) {
		t.Errorf("the other member's job was changed: %s", j.turn)
	}
}
