package storage

import (
	"slices"
	"strconv"
)

// Shards names the gateway shards a process runs, to select the games
// it looks after (Store.DueGames, AwaitingAI, OpenGames). Discord sends a guild's events
// to shard (guild_id >> 22) % Count; a game without a guild (in a DM), or
// whose guild id is not a Discord snowflake, belongs to shard 0. The zero
// value selects every game: a process without a gateway, or a bot of one
// shard.
type Shards struct {
	// Count is the number of shards of the whole bot; 0 for all games.
	Count int
	// IDs are the shards the process runs.
	IDs []int
}

// All reports whether s selects every game.
func (s Shards) All() bool { return s.Count <= 0 }

// Has reports whether the games of a guild are in s.
func (s Shards) Has(guildID string) bool {
	return s.All() || slices.Contains(s.IDs, ShardOf(guildID, s.Count))
}

// ShardOf returns the shard of a guild among count shards, as Discord
// routes its events: (guild_id >> 22) % count; shard 0 without a guild.
// It is the bot's one copy of the formula in Go; storage/postgres
// computes it in SQL on the games' shard_key column.
func ShardOf(guildID string, count int) int {
	key, ok := ShardKey(guildID)
	if !ok || count <= 1 {
		return 0
	}
	return int(key % uint64(count))
}

// ShardKey returns guild_id >> 22, the part of a guild's id its shard
// depends on, ok false without a guild or for an id that is not a
// snowflake (the guild is then in shard 0).
func ShardKey(guildID string) (uint64, bool) {
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0, false
	}
	return id >> 22, true
}
