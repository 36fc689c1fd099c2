package discordtest

import (
	"context"
	"encoding/json"
	"strconv"
	"time"
)

// identifyWindow is how long a bucket of identifies stays spent: Discord
// lets max_concurrency sessions start every 5 seconds, one per bucket
// (shard ID modulo max_concurrency).
const identifyWindow = 5 * time.Second

// closeInvalidShard is the close code of an IDENTIFY whose shard Discord
// does not accept.
const closeInvalidShard = 4010

// sharding is the server's model of Discord's shards: how many the bot is
// told to run (GET /gateway/bot), how many sessions may start at once, and
// the identifies seen. The caller holds Server.mu.
type sharding struct {
	count          int               // 0 means 1
	maxConcurrency int               // 0 means 1
	last           map[int]time.Time // bucket → last accepted identify
	identifies     []Identify
}

// Identify is an IDENTIFY the server received, as [Server.Identifies]
// reports it.
type Identify struct {
	// Shard is the shard the session asked for: ID and count.
	Shard [2]int
	// At is when it came, by the server's clock.
	At time.Time
	// Refused is set when it came too soon after another identify in its
	// bucket: the server answered INVALID SESSION, as Discord does.
	Refused bool
}

// WithShards makes GET /gateway/bot recommend count shards and allow
// maxConcurrency identifies per 5 seconds, and makes the gateway require
// a shard of that count in IDENTIFY and refuse identifies beyond that
// rate with INVALID SESSION (without WithShards: one shard, no limit). Events reach only the sessions of the
// shard that owns their guild ((guild_id >> 22) % count; DMs go to shard
// 0), as Discord routes them; an interaction for a shard nobody runs goes
// nowhere.
func WithShards(count, maxConcurrency int) ServerOption {
	return func(s *Server) {
		s.shards.count, s.shards.maxConcurrency = max(count, 1), max(maxConcurrency, 1)
	}
}

func (sh *sharding) shardCount() int { return max(sh.count, 1) }

func (sh *sharding) concurrency() int { return max(sh.maxConcurrency, 1) }

// ShardOf returns the shard that owns a guild among count shards, as
// Discord computes it: (guild_id >> 22) % count; shard 0 for DMs (no
// guild).
func ShardOf(guildID string, count int) int {
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil || count <= 1 {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// admit checks an IDENTIFY's shard and its bucket's rate and records it.
// It returns a close code for a shard that is not valid, and refused for
// an identify that came too early. The caller holds Server.mu.
func (s *Server) admit(shard *[2]int) (id int, code int, refused bool) {
	sh := &s.shards
	want := [2]int{0, 1}
	if shard != nil {
		want = *shard
	}
	if want[1] != sh.shardCount() || want[0] < 0 || want[0] >= want[1] {
		return 0, closeInvalidShard, false
	}
	now := s.clock.Now()
	bucket := want[0] % sh.concurrency()
	last, seen := sh.last[bucket]
	// Without WithShards the rate is not enforced: tests restart bots and
	// drop sessions faster than Discord would let them identify again.
	refused = sh.count > 0 && seen && now.Sub(last) < identifyWindow
	if !refused {
		if sh.last == nil {
			sh.last = map[int]time.Time{}
		}
		sh.last[bucket] = now
	}
	sh.identifies = append(sh.identifies, Identify{Shard: want, At: now, Refused: refused})
	s.broadcast()
	return want[0], 0, refused
}

// Identifies returns the IDENTIFYs the server has received, oldest first.
func (s *Server) Identifies() []Identify {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Identify(nil), s.shards.identifies...)
}

// WaitShards waits until every shard of the server has a connected
// session, and returns the number of shards.
func (s *Server) WaitShards(ctx context.Context) (int, error) {
	return waitFor(ctx, s, func() (int, bool, error) {
		up := map[int]bool{}
		for _, sess := range s.sessions {
			if sess.conn != nil {
				up[sess.shard] = true
			}
		}
		n := s.shards.shardCount()
		return n, len(up) == n, nil
	})
}

// eventShard returns the shard an event belongs to: that of its guild
// (the payload's guild_id, or id for the GUILD_ events), shard 0 for an
// event outside any guild.
func (s *Server) eventShard(event string, d any) int {
	if s.shards.shardCount() == 1 {
		return 0
	}
	data, _ := json.Marshal(d) // payloads are plain data
	var ids struct {
		ID      string `json:"id"`
		GuildID string `json:"guild_id"`
	}
	_ = json.Unmarshal(data, &ids)
	guild := ids.GuildID
	switch event {
	case "GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE":
		guild = ids.ID
	}
	return ShardOf(guild, s.shards.shardCount())
}

// AddGuildOnShard creates a guild, as AddGuild does, whose ID falls on the
// given shard of the server's shard count (see WithShards), with a text
// channel "general". Snowflakes made in one millisecond share a shard, so
// a test that needs guilds on several shards asks for them here.
func (s *Server) AddGuildOnShard(name string, shard int) (Guild, Channel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := uint64(s.shards.shardCount())
	s.idSeq++
	ms := uint64(max(s.clock.Now().UnixMilli()-discordEpoch, 0))
	ms += (uint64(shard)%n + n - ms%n) % n
	g := s.addGuild(name, strconv.FormatUint(ms<<22|s.idSeq&(1<<22-1), 10))
	ch := s.addChannel(g.ID, "general", "")
	s.dispatch("GUILD_CREATE", s.wireGuild(g), intentGuilds)
	return g.Guild, *ch
}
