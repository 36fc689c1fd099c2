package bolt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
)

// rawFile is what a database file holds, read with bbolt alone: every
// record's JSON and every key of every bucket.
type rawFile struct {
	schema  uint64
	games   map[storage.GameID][]byte
	ratings map[storage.Ladder]map[storage.PlayerID][]byte
	guilds  map[string][]byte
	keys    map[string][]string // bucket path → keys
}

func readRaw(t *testing.T, db *bbolt.DB) rawFile {
	t.Helper()
	f := rawFile{games: map[storage.GameID][]byte{}, ratings: map[storage.Ladder]map[storage.PlayerID][]byte{},
		guilds: map[string][]byte{}, keys: map[string][]string{}}
	body := func(v []byte) []byte {
		if len(v) == 0 || v[0] != recordV1 {
			t.Fatalf("record %q is not of format 1", v)
		}
		return bytes.Clone(v[1:])
	}
	var walk func(path string, b *bbolt.Bucket) error
	walk = func(path string, b *bbolt.Bucket) error {
		return b.ForEach(func(k, v []byte) error {
			if v == nil {
				return walk(path+"/"+string(k), b.Bucket(k))
			}
			f.keys[path] = append(f.keys[path], string(k))
			return nil
		})
	}
	if err := db.View(func(tx *bbolt.Tx) error {
		var err error
		if f.schema, err = readSchema(tx); err != nil {
			return err
		}
		if err := tx.ForEach(func(name []byte, b *bbolt.Bucket) error { return walk(string(name), b) }); err != nil {
			return err
		}
		_ = tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
			f.games[storage.GameID(k)] = body(v)
			return nil
		})
		_ = tx.Bucket(bucketGuilds).ForEach(func(k, v []byte) error {
			f.guilds[string(k)] = body(v)
			return nil
		})
		return tx.Bucket(bucketRatings).ForEachBucket(func(name []byte) error {
			l, err := storage.ParseLadder(string(name))
			if err != nil {
				return err
			}
			f.ratings[l] = map[storage.PlayerID][]byte{}
			return tx.Bucket(bucketRatings).Bucket(name).ForEach(func(k, v []byte) error {
				f.ratings[l][storage.PlayerID(k)] = body(v)
				return nil
			})
		})
	}); err != nil {
		t.Fatal(err)
	}
	return f
}

// sameJSON fails the test unless got encodes to exactly want.
func sameJSON(t *testing.T, what string, got any, want []byte) {
	t.Helper()
	data, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, want) {
		t.Errorf("%s reads as\n%s\nstored\n%s", what, data, want)
	}
}

// TestOpensADatabaseOfSchema1 opens testdata/schema1.db, which the code of
// commit 04234db — the main branch before solo puzzles, schema version 1 —
// wrote with testdata/schema1/fixture_test.go (see testdata/README.md). The
// current code must upgrade it, read every game, rating and guild's
// settings as they were stored, byte for byte, keep every index entry,
// pass Check, and go on playing and finishing its games.
func TestOpensADatabaseOfSchema1(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join("testdata", "schema1.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "gambit.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	before := readRaw(t, db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if before.schema != 1 || len(before.games) < 50 || len(before.guilds) != 2 || len(before.keys["rank/tictactoe"]) == 0 {
		t.Fatalf("the fixture is not what testdata/README.md says: schema %d, %d games, %d guilds, rank keys %q",
			before.schema, len(before.games), len(before.guilds), before.keys["rank/tictactoe"])
	}

	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if problems, err := s.Check(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("Check after the upgrade: %v %q", err, problems)
	}
	if st, err := s.Stats(ctx); err != nil || st.Schema != uint64(len(migrations)) {
		t.Fatalf("schema after Open: %+v, %v; want %d", st, err, len(migrations))
	}
	after := readRaw(t, s.db)
	for bucket, keys := range before.keys {
		if bucket == string(bucketMeta) {
			continue
		}
		if got := after.keys[bucket]; !slices.Equal(got, keys) {
			t.Errorf("bucket %s: keys changed by the upgrade: %q, were %q", bucket, got, keys)
		}
	}
	for id, rec := range after.games {
		if !bytes.Equal(rec, before.games[id]) {
			t.Errorf("game %s: record rewritten by the upgrade", id)
		}
	}

	outcomes := map[storage.Outcome]int{}
	for id, want := range before.games {
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, "game "+string(id), g, want)
		if g.Result != nil {
			outcomes[g.Result.Outcome]++
		}
		if len(g.Players) != 2 || g.Solo() {
			t.Errorf("game %s has players %+v", id, g.Players)
		}
		if g.Position != "" {
			gm, err := catalog.Lookup(string(g.Kind))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := gm.Parse(g.Position); err != nil {
				t.Errorf("game %s: position %q: %v", id, g.Position, err)
			}
		}
	}
	if outcomes[storage.Resigned] == 0 || outcomes[storage.TimedOut] == 0 || outcomes[storage.ByRules] == 0 {
		t.Errorf("outcomes of the old games: %v; want resignations, timeouts and ends by the rules", outcomes)
	}
	for l, players := range before.ratings {
		for p, want := range players {
			v, err := s.Rank(ctx, l, p, 0)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, "rating of "+string(p)+" in "+l.String(), v.Player.Rating, want)
		}
	}
	for id, want := range before.guilds {
		gs, err := s.GuildSettings(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, "settings of guild "+id, gs, want)
	}

	// Play on: a move in an active duel with a person to move, then its end.
	open, err := s.OpenGames(ctx, storage.Shards{}, func(g *storage.Game) bool {
		return g.Status == storage.StatusActive && !g.AwaitingAI() && g.GuildID != ""
	})
	if err != nil || len(open) == 0 {
		t.Fatalf("active games with a person to move: %d, %v", len(open), err)
	}
	g := open[0]
	gm, err := catalog.Lookup(string(g.Kind))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gm.Parse(g.Position)
	if err != nil {
		t.Fatal(err)
	}
	change := gm.Play(pos, pos.Moves(nil)[0])
	g.Moves = append(g.Moves, change.Move)
	g.Last = &storage.LastMove{Move: change.Move, Changed: change.Changed}
	g.Position, g.Turn = pos.String(), g.Next(g.Turn)
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatalf("a move in game %s: %v", g.ID, err)
	}
	g.Status = storage.StatusFinished
	changes, err := s.FinishGame(ctx, g, storage.Result{Winner: 1, Outcome: storage.Resigned})
	if err != nil || len(changes) != 4 {
		t.Fatalf("finishing game %s: %d rating changes, %v; want 4 (two players, two ladders)", g.ID, len(changes), err)
	}
	for _, c := range changes {
		if stored, ok := before.ratings[c.Ladder][c.Before.Player]; ok {
			sameJSON(t, "rating before the game of "+string(c.Before.Player), c.Before, stored)
		}
	}
	// And a solo puzzle beside the old games.
	p := &storage.Game{Kind: storage.Kind("tictactoe"), Status: storage.StatusActive, Players: []storage.Player{g.Players[0]}}
	if err := s.CreateGame(ctx, p, storage.Limits{}); err != nil {
		t.Fatal(err)
	}
	p.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, p, storage.Result{MovesUsed: 3}); err != nil {
		t.Fatal(err)
	}
	if problems, err := s.Check(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("Check after playing on: %v %q", err, problems)
	}
}

// TestReadsTheReasonsOfOldRecords opens testdata/reasons.db, written by the
// last version that stored how a game ended as free text (a result's
// "reason"), and loads every game: each reason reads as its outcome, and
// the records read back unchanged.
func TestReadsTheReasonsOfOldRecords(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join("testdata", "reasons.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "gambit.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := readRaw(t, s.db)
	want := []struct {
		status  storage.Status
		winner  int
		outcome storage.Outcome
	}{
		{storage.StatusFinished, 0, storage.ByRules},
		{storage.StatusFinished, storage.Draw, storage.ByRules},
		{storage.StatusFinished, 1, storage.Resigned},
		{storage.StatusForfeited, 0, storage.TimedOut},
		{storage.StatusFinished, 0, storage.ByRules},
		{storage.StatusAbandoned, storage.Nobody, storage.GaveUp},
		{storage.StatusAbandoned, storage.Nobody, storage.NoWayOn},
		{storage.StatusAbandoned, storage.Nobody, storage.SolvedByGambit},
	}
	if len(before.games) != len(want) {
		t.Fatalf("the fixture holds %d games, testdata/README.md says %d", len(before.games), len(want))
	}
	for i, w := range want {
		id := storage.GameID(fmt.Sprintf("%08x", i+1))
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatalf("game %s: %v", id, err)
		}
		if g.Status != w.status || g.Result == nil || g.Result.Winner != w.winner || g.Result.Outcome != w.outcome {
			t.Errorf("game %s loaded as %s with result %+v, want %s, winner %d, %s", id, g.Status, g.Result, w.status, w.winner, w.outcome)
		}
		sameJSON(t, "game "+string(id), g, before.games[id])
	}
	if problems, err := s.Check(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("Check: %v %q", err, problems)
	}
}
