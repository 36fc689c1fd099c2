package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// shardedGames creates, with mk, a game in a guild of each of count
// shards, one in a guild whose id is above int64's range, one in a DM and
// one in a guild whose id is not a snowflake (the last two in shard 0),
// and returns their IDs by shard and all of them, sorted.
func shardedGames(t *testing.T, s storage.Store, count int, mk func(n int) *storage.Game) (inShard map[int][]storage.GameID, all []storage.GameID) {
	t.Helper()
	inShard = map[int][]storage.GameID{}
	add := func(guild string, shard int) {
		g := mk(len(all))
		g.GuildID = guild
		MustCreate(t, s, g)
		inShard[shard] = append(inShard[shard], g.ID)
		all = append(all, g.ID)
	}
	for shard := range count {
		// Snowflakes of 2025, whose high bits spread over every shard.
		id := uint64(1_300_000_000_000+shard)<<22 | 12345
		add(fmt.Sprint(id), int((id>>22)%uint64(count)))
	}
	big := uint64(1)<<63 | 5<<22 // above int64's range
	add(fmt.Sprint(big), int((big>>22)%uint64(count)))
	add("", 0)   // a DM
	add("g1", 0) // not a snowflake
	if len(inShard[0]) < 3 || len(inShard[1]) == 0 || len(inShard[3]) == 0 {
		t.Fatalf("the test's guilds do not cover the shards: %v", inShard)
	}
	for _, ids := range inShard {
		slices.Sort(ids)
	}
	slices.Sort(all)
	return inShard, all
}

// checkShards checks that list selects the games of the shards asked for
// among those shardedGames made: every game with the zero Shards and with
// one shard, none with no shard IDs.
func checkShards(t *testing.T, name string, count int, inShard map[int][]storage.GameID, all []storage.GameID, list func(storage.Shards) ([]*storage.Game, error)) {
	t.Helper()
	sorted := func(ids ...[]storage.GameID) []storage.GameID {
		out := slices.Concat(ids...)
		slices.Sort(out)
		return out
	}
	for _, tc := range []struct {
		shards storage.Shards
		want   []storage.GameID
	}{
		{storage.Shards{}, all},
		{storage.Shards{Count: 1, IDs: []int{0}}, all},
		{storage.Shards{Count: count, IDs: []int{0}}, inShard[0]},
		{storage.Shards{Count: count, IDs: []int{1, 3}}, sorted(inShard[1], inShard[3])},
		{storage.Shards{Count: count, IDs: []int{0, 1, 2, 3}}, all},
		{storage.Shards{Count: count}, nil},
	} {
		games, err := list(tc.shards)
		if err != nil {
			t.Fatal(err)
		}
		got := IDs(games)
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s(%+v) = %v, want %v", name, tc.shards, got, tc.want)
		}
	}
}

// testDueGamesOfShards: DueGames lists the due games of the guilds in the
// shards asked for, by Discord's formula (guild_id >> 22) % count, with the
// games of DMs and of guild ids that are not snowflakes in shard 0; the
// zero Shards and a bot of one shard list every due game.
func testDueGamesOfShards(t *testing.T, o Opener) {
	s, clk := openTest(t, o)
	const count = 4
	inShard, all := shardedGames(t, s, count, func(n int) *storage.Game {
		g := UserVsUser("connect4", fmt.Sprintf("a%d", n), fmt.Sprintf("b%d", n))
		g.Deadline = clk.Now().Add(time.Minute)
		return g
	})
	notDue := UserVsUser("connect4", "x", "y")
	notDue.GuildID = fmt.Sprint(uint64(1_300_000_000_000) << 22)
	notDue.Deadline = clk.Now().Add(time.Hour)
	MustCreate(t, s, notDue)
	clk.Advance(time.Minute)
	checkShards(t, "DueGames", count, inShard, all, func(sh storage.Shards) ([]*storage.Game, error) {
		return s.DueGames(context.Background(), sh)
	})
}

// testOpenAndAwaitingAIOfShards: AwaitingAI and OpenGames list the games
// of the guilds in the shards asked for, as DueGames does.
func testOpenAndAwaitingAIOfShards(t *testing.T, o Opener) {
	s, _ := openTest(t, o)
	ctx := context.Background()
	const count = 4
	inShard, all := shardedGames(t, s, count, func(n int) *storage.Game {
		g := UserVsAI("connect4", fmt.Sprintf("a%d", n))
		g.Players[0], g.Players[1] = g.Players[1], g.Players[0] // the AI to move
		return g
	})
	ended := UserVsAI("connect4", "x")
	ended.GuildID = fmt.Sprint(uint64(1_300_000_000_000) << 22)
	MustCreate(t, s, ended)
	ended.Status = storage.StatusFinished
	if _, err := s.FinishGame(ctx, ended, storage.Result{Winner: 1, Outcome: storage.Resigned}); err != nil {
		t.Fatal(err)
	}
	checkShards(t, "AwaitingAI", count, inShard, all, func(sh storage.Shards) ([]*storage.Game, error) {
		return s.AwaitingAI(ctx, sh)
	})
	checkShards(t, "OpenGames", count, inShard, all, func(sh storage.Shards) ([]*storage.Game, error) {
		return s.OpenGames(ctx, sh, nil)
	})
}
