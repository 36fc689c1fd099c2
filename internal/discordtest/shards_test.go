package discordtest_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// identifyShard sends IDENTIFY for shard [id, n] on a raw connection.
func identifyShard(t *testing.T, srv *discordtest.Server, id, n int) (first gatewayFrame, ws func() gatewayFrame) {
	t.Helper()
	conn := rawGateway(t, srv)
	if err := conn.WriteJSON(map[string]any{"op": 2, "d": map[string]any{
		"token": "Bot " + srv.Token(), "intents": 1, "shard": []int{id, n},
		"properties": map[string]string{"os": "linux", "browser": "test", "device": "test"},
	}}); err != nil {
		t.Fatal(err)
	}
	next := func() gatewayFrame { return readFrame(t, conn) }
	return next(), next
}

func TestShardsGetTheirOwnGuildsAndEvents(t *testing.T) {
	t.Parallel()
	clock := discordtest.NewManualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	srv := newServer(t, discordtest.WithClock(clock), discordtest.WithShards(2, 2))
	var guilds [2]discordtest.Guild
	for shard := range guilds {
		guilds[shard], _ = srv.AddGuildOnShard("Guild", shard)
		if got := discordtest.ShardOf(guilds[shard].ID, 2); got != shard {
			t.Fatalf("AddGuildOnShard(%d) made guild %s of shard %d", shard, guilds[shard].ID, got)
		}
	}
	dms := discordtest.ShardOf("", 2)
	if dms != 0 {
		t.Fatalf("DMs belong to shard %d, want 0", dms)
	}

	// Two shards in different buckets start at once; each is told only of
	// its own guilds.
	for shard := range 2 {
		ready, next := identifyShard(t, srv, shard, 2)
		var r struct {
			Shard  [2]int `json:"shard"`
			Guilds []struct {
				ID string `json:"id"`
			} `json:"guilds"`
		}
		if ready.T != "READY" || json.Unmarshal(ready.D, &r) != nil || r.Shard != [2]int{shard, 2} {
			t.Fatalf("shard %d: first frame %s %s", shard, ready.T, ready.D)
		}
		for _, g := range r.Guilds {
			if discordtest.ShardOf(g.ID, 2) != shard {
				t.Errorf("shard %d was told of guild %s of another shard", shard, g.ID)
			}
		}
		for range r.Guilds {
			if f := next(); f.T != "GUILD_CREATE" {
				t.Fatalf("shard %d: frame %s %s, want GUILD_CREATE", shard, f.T, f.D)
			}
		}
		// A new guild's GUILD_CREATE reaches its shard only: the next
		// frame on this connection is the guild made for it, not the one
		// of the other shard made just before.
		srv.AddGuildOnShard("Other", 1-shard)
		mine, _ := srv.AddGuildOnShard("New", shard)
		var g struct {
			ID string `json:"id"`
		}
		if f := next(); f.T != "GUILD_CREATE" || json.Unmarshal(f.D, &g) != nil || g.ID != mine.ID {
			t.Fatalf("shard %d: frame %s %s, want the GUILD_CREATE of %s", shard, f.T, f.D, mine.ID)
		}
	}
	if ids := srv.Identifies(); len(ids) != 2 || ids[0].Refused || ids[1].Refused {
		t.Fatalf("identifies = %+v, want two accepted", ids)
	}
}

func TestIdentifiesBeyondMaxConcurrencyAreRefused(t *testing.T) {
	t.Parallel()
	clock := discordtest.NewManualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	srv := newServer(t, discordtest.WithClock(clock), discordtest.WithShards(4, 2))
	for _, shard := range []int{0, 1} { // buckets 0 and 1
		if f, _ := identifyShard(t, srv, shard, 4); f.T != "READY" {
			t.Fatalf("shard %d: %d %s, want READY", shard, f.Op, f.T)
		}
	}
	// Shard 2 is in bucket 0 again, within 5 seconds: INVALID SESSION.
	clock.Advance(4 * time.Second)
	if f, _ := identifyShard(t, srv, 2, 4); f.Op != 9 {
		t.Fatalf("an identify too soon in its bucket got op %d %s, want 9 (INVALID SESSION)", f.Op, f.T)
	}
	clock.Advance(time.Second)
	if f, _ := identifyShard(t, srv, 2, 4); f.T != "READY" {
		t.Fatalf("an identify 5 s later got op %d %s, want READY", f.Op, f.T)
	}
	ids := srv.Identifies()
	if len(ids) != 4 || !ids[2].Refused || ids[3].Refused || ids[3].Shard != [2]int{2, 4} {
		t.Fatalf("identifies = %+v", ids)
	}

	// A shard the server does not run is refused: 4010 Invalid shard.
	conn := rawGateway(t, srv)
	_ = conn.WriteJSON(map[string]any{"op": 2, "d": map[string]any{"token": srv.Token(), "intents": 1, "shard": []int{0, 3}}})
	if code := closeCode(t, conn); code != 4010 {
		t.Fatalf("shard [0, 3] of 4: close %d, want 4010", code)
	}
}
