package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
	"github.com/gambitbot/gambit/storage/postgres"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
	"github.com/gambitbot/gambit/storage/storetest"
)

// dump collects everything a store exports.
type dump struct {
	Games   []*storage.Game
	Ratings map[string][]storage.Rating
	Guilds  map[string]storage.GuildSettings
	Users   map[string]storage.UserSettings
	Daily   []storage.DailyAttempt
	Posts   []string
	Secrets map[string][]byte
}

func (d *dump) Game(g *storage.Game) error { d.Games = append(d.Games, g); return nil }
func (d *dump) Rating(l storage.Ladder, r storage.Rating) error {
	d.Ratings[l.String()] = append(d.Ratings[l.String()], r)
	return nil
}
func (d *dump) GuildSettings(id string, s storage.GuildSettings) error { d.Guilds[id] = s; return nil }
func (d *dump) UserSettings(id string, s storage.UserSettings) error   { d.Users[id] = s; return nil }
func (d *dump) DailyAttempt(a storage.DailyAttempt) error              { d.Daily = append(d.Daily, a); return nil }
func (d *dump) DailyPost(guild, day string) error {
	d.Posts = append(d.Posts, guild+"/"+day)
	return nil
}
func (d *dump) Secret(name string, value []byte) error { d.Secrets[name] = value; return nil }

func export(t *testing.T, s storage.Admin) dump {
	t.Helper()
	d := dump{Ratings: map[string][]storage.Rating{}, Guilds: map[string]storage.GuildSettings{}, Users: map[string]storage.UserSettings{}, Secrets: map[string][]byte{}}
	if err := s.Export(context.Background(), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDBCopyBoltToPostgres fills a bbolt file with open, finished and
// anonymised games, a solved puzzle, ratings in two ladders and guild
// settings, daily attempts and the daily key, copies it with 'gambit db
// copy' over a daily key a start on the empty database made, and compares
// everything read back; the copy keeps working: its id sequence follows
// on, and its daily key is the source's. Then it copies the PostgreSQL
// database back into a new bbolt file, with the same checks.
func TestDBCopyBoltToPostgres(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "g.db")
	src, err := bolt.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		storetest.Play(t, src, "connect4", storage.User("alice"), storage.AI("minimax"), i%2)
	}
	storetest.Play(t, src, "tictactoe", storage.User("bob"), storage.User("carol"), storage.Draw)
	open := storetest.MustCreate(t, src, storetest.UserVsUser("connect4", "alice", "bob"))
	open.Deadline = time.Now().Add(time.Hour).Round(0)
	open.Moves = []string{"d"}
	if err := src.UpdateGame(ctx, open); err != nil {
		t.Fatal(err)
	}
	puzzle := storetest.MustCreate(t, src, storetest.Puzzle("tictactoe", "dave"))
	puzzle.Status = storage.StatusFinished
	if _, err := src.FinishGame(ctx, puzzle, storage.Result{MovesUsed: 3, Optimal: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := src.DeleteUser(ctx, "carol"); err != nil {
		t.Fatal(err)
	}
	if err := src.PutGuildSettings(ctx, "g1", storage.GuildSettings{MoveTime: time.Second, AllowedGames: []storage.Kind{"connect4"}, Board: storage.BoardBoth}); err != nil {
		t.Fatal(err)
	}
	if err := src.PutUserSettings(ctx, "alice", storage.UserSettings{Board: storage.BoardEmoji}); err != nil {
		t.Fatal(err)
	}
	if _, err := src.UpdateDailyAttempt(ctx, "g1", "2026-11-24", storage.Player{ID: storage.User("alice")}, func(a *storage.DailyAttempt) error {
		a.Status, a.Hints = storage.DailySolved, 2
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := src.ClaimDailyPost(ctx, "g1", "2026-11-24"); err != nil {
		t.Fatal(err)
	}
	key, err := src.Secret(ctx, storage.DailyKey)
	if err != nil {
		t.Fatal(err)
	}
	want := export(t, src)
	if err := src.Close(); err != nil {
		t.Fatal(err)
	}
	// A process started on the empty database before the copy made a
	// daily key of its own; the copy brings the source's in its place.
	early, err := postgres.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := early.Secret(ctx, storage.DailyKey); err != nil {
		t.Fatal(err)
	}
	early.Close()

	code, out, errOut := gambit("db", "copy", "--from", "bolt:"+path, "--to", "postgres:"+url)
	if code != 0 || !strings.Contains(out, "check ok") {
		t.Fatalf("copy: exit %d, %q %q", code, out, errOut)
	}
	if code, out, errOut := gambit("db", "copy", "--from", "bolt:"+path, "--to", "postgres:"+url); code == 0 || !strings.Contains(errOut, "not empty") {
		t.Errorf("a second copy into the same database: exit %d, %q %q; want it refused", code, out, errOut)
	}
	dst, err := postgres.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	got := export(t, dst)
	if !reflect.DeepEqual(jsonOf(t, got), jsonOf(t, want)) {
		t.Fatalf("copied data differs:\ngot  %s\nwant %s", jsonOf(t, got), jsonOf(t, want))
	}
	if len(want.Games) != 9 || len(want.Ratings) != 4 || len(want.Guilds) != 1 {
		t.Fatalf("the source held %d games, %d ladders, %d guilds; the test meant 9, 4, 1", len(want.Games), len(want.Ratings), len(want.Guilds))
	}
	if len(want.Daily) != 1 || len(want.Posts) != 1 || len(want.Secrets) != 1 {
		t.Fatalf("the source held %d daily attempts, %d posts and %d secrets; the test meant 1, 1 and 1", len(want.Daily), len(want.Posts), len(want.Secrets))
	}
	if got, err := dst.Secret(ctx, storage.DailyKey); err != nil || !bytes.Equal(got, key) {
		t.Errorf("the copy's daily key is not the source's (%v): the day's puzzles would change", err)
	}
	if h, err := dst.Solved(ctx, storage.User("dave"), "tictactoe", 0); err != nil || len(h) != 1 {
		t.Errorf("dave's solved puzzles in the copy: %v, %v", storetest.IDs(h), err)
	}
	if top, err := dst.Leaderboard(ctx, storage.Global("connect4"), 10); err != nil {
		t.Error(err)
	} else if v, err := dst.Rank(ctx, storage.Global("connect4"), storage.User("alice"), 1); err != nil || v.Player.Rating != want.Ratings["connect4"][1] ||
		!slices.ContainsFunc(top, func(st storage.Standing) bool { return st.Rating.Player == storage.User("alice") }) {
		t.Errorf("alice in the copy: %+v, %v (leaderboard %v: she is listed, provisional)", v, err, top)
	}
	next := storetest.MustCreate(t, dst, storetest.UserVsAI("connect4", "erin"))
	if last := want.Games[len(want.Games)-1].ID; next.ID <= last {
		t.Errorf("a game created after the copy got id %s, not after the copied %s", next.ID, last)
	}
	if code, out, errOut := gambit("db", "check", "--url", url); code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("check of the copy: exit %d, %q %q", code, out, errOut)
	}
	if code, out, _ := gambit("db", "stats", "--url", url); code != 0 || !hasFieldsLine(out, "finished", "8") {
		t.Errorf("stats of the copy: exit %d, %q", code, out)
	}

	// And back, into a new bbolt file: the same records, the same key.
	want = export(t, dst)
	back := filepath.Join(t.TempDir(), "back", "g.db")
	if code, out, errOut := gambit("db", "copy", "--from", "postgres:"+url, "--to", "bolt:"+back); code != 0 || !strings.Contains(out, "check ok") {
		t.Fatalf("copy back: exit %d, %q %q", code, out, errOut)
	}
	if code, out, errOut := gambit("db", "copy", "--from", "postgres:"+url, "--to", "bolt:"+back); code == 0 || !strings.Contains(errOut, "not empty") {
		t.Errorf("a second copy back into the same file: exit %d, %q %q; want it refused", code, out, errOut)
	}
	if code, out, errOut := gambit("db", "copy", "--from", "bolt:"+path, "--to", "bolt:"+back); code == 0 || !strings.Contains(errOut, "postgres:URL to bolt:PATH") {
		t.Errorf("a copy from bbolt to bbolt: exit %d, %q %q; want it refused", code, out, errOut)
	}
	if code, out, errOut := gambit("db", "check", "--db", back); code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("check of the copy back: exit %d, %q %q", code, out, errOut)
	}
	again, err := bolt.Open(back, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := export(t, again); !reflect.DeepEqual(jsonOf(t, got), jsonOf(t, want)) {
		t.Fatalf("data copied back differs:\ngot  %s\nwant %s", jsonOf(t, got), jsonOf(t, want))
	}
	if got, err := again.Secret(ctx, storage.DailyKey); err != nil || !bytes.Equal(got, key) {
		t.Errorf("the daily key copied back is not the first one (%v): the day's puzzles would change", err)
	}
	if later := storetest.MustCreate(t, again, storetest.UserVsAI("connect4", "erin")); later.ID <= next.ID {
		t.Errorf("a game created after the copy back got id %s, not after the copied %s", later.ID, next.ID)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
