package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestShardKeyMigration: games stored before schema 3 get their shard
// key from their record when the schema is upgraded, the same key as a
// game written since (Check compares the column with the record), so
// that their due games are found by shard.
func TestShardKeyMigration(t *testing.T) {
	t.Parallel()
	s, url := openTest(t, time.Now)
	ctx := context.Background()
	guilds := []string{
		fmt.Sprint(uint64(1_300_000_000_001)<<22 | 77), // shard 1 of 4
		fmt.Sprint(uint64(1)<<63 | 6<<22),              // above int64, shard 2 of 4
		"",                                             // a DM: shard 0
		"g1",                                           // not a snowflake: shard 0
		"18446744073709551616",                         // above uint64: shard 0
	}
	for i, guild := range guilds {
		g := storetest.UserVsUser("connect4", fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i))
		g.GuildID = guild
		g.Deadline = time.Now().Add(-time.Minute)
		storetest.MustCreate(t, s, g)
	}
	// Back to schema 2, as a database written by an older Gambit.
	if _, err := s.pool.Exec(ctx, "ALTER TABLE games DROP COLUMN shard_key; DROP TABLE users; DROP TABLE daily_attempts, daily_posts; DROP TABLE reviews; DROP TABLE interactions, secrets; DELETE FROM schema_migrations WHERE version >= 3"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err := Open(ctx, url, &Options{AIRatings: storetest.AIRatings})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if problems, err := s.Check(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("Check after the upgrade: %v %q", err, problems)
	}
	for shard, want := range map[int]int{0: 3, 1: 1, 2: 1, 3: 0} {
		due, err := s.DueGames(ctx, storage.Shards{Count: 4, IDs: []int{shard}})
		if err != nil || len(due) != want {
			t.Errorf("due games of shard %d after the upgrade: %d (%v), want %d", shard, len(due), err, want)
		}
	}
}
