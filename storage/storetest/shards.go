package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// testDueGamesOfShards: DueGames lists the due games of the guilds in the
// shards asked for, by Discord's formula (guild_id >> 22) % count, with the
// games of DMs and of guild ids that are not snowflakes in shard 0; the
// zero Shards and a bot of one shard list every due game.
func testDueGamesOfShards(t *testing.T, o Opener) {
	s, clk := openTest(t, o)
	ctx := context.Background()
	const count = 4
	inShard := map[int][]storage.GameID{}
	var all []storage.GameID
	add := func(guild string, shard int) {
		g := UserVsUser("connect4", fmt.Sprintf("a%d", len(all)), fmt.Sprintf("b%d", len(all)))
		g.GuildID = guild
		g.Deadline = clk.Now().Add(time.Minute)
		MustCreate(t, s, g)
		inShard[shard] = append(inShard[shard], g.ID)
		all = append(all, g.ID)
	}
	for shard := range count {
		// Snowflakes of 2025, whose high bits spread over every shard.
		id := uint64(1_300_000_000_000+shard)<<22 | 12345
		add(fmt.Sprint(id), int(id>>22)%count)
	}
	big := uint64(1)<<63 | 5<<22 // above int64's range
	add(fmt.Sprint(big), int((big>>22)%count))
	add("", 0)   // a DM
	add("g1", 0) // not a snowflake
	if len(inShard[0]) < 3 || len(inShard[1]) == 0 || len(inShard[3]) == 0 {
		t.Fatalf("the test's guilds do not cover the shards: %v", inShard)
	}
	notDue := UserVsUser("connect4", "x", "y")
	notDue.GuildID = fmt.Sprint(uint64(1_300_000_000_000) << 22)
	notDue.Deadline = clk.Now().Add(time.Hour)
	MustCreate(t, s, notDue)
	clk.Advance(time.Minute)

	due := func(sh storage.Shards) []storage.GameID {
		t.Helper()
		games, err := s.DueGames(ctx, sh)
		if err != nil {
			t.Fatal(err)
		}
		ids := IDs(games)
		slices.Sort(ids)
		return ids
	}
	sorted := func(ids ...[]storage.GameID) []storage.GameID {
		out := slices.Concat(ids...)
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		shards storage.Shards
		want   []storage.GameID
	}{
		{storage.Shards{}, sorted(all)},
		{storage.Shards{Count: 1, IDs: []int{0}}, sorted(all)},
		{storage.Shards{Count: count, IDs: []int{0}}, sorted(inShard[0])},
		{storage.Shards{Count: count, IDs: []int{1, 3}}, sorted(inShard[1], inShard[3])},
		{storage.Shards{Count: count, IDs: []int{0, 1, 2, 3}}, sorted(all)},
		{storage.Shards{Count: count}, nil},
	} {
		if got := due(tc.shards); !slices.Equal(got, tc.want) {
			t.Errorf("DueGames(%+v) = %v, want %v", tc.shards, got, tc.want)
		}
	}
}
