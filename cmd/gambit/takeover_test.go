package main

import (
	"strconv"
	"testing"
	"time"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage/postgres/pgtest"
)

// TestShardTakeoverDrill runs two real `gambit bot` processes on one
// PostgreSQL database with GAMBIT_SHARD_IDS=auto over two shards, lets the
// members play in a guild of the first process's shard, and kills that
// process with SIGKILL mid-game while games and AI turns run (at a moment
// when an AI turn is queued or searching, if one comes). The survivor
// must take the dead process's shard once its claims expire, and the
// bolt drill's checks must hold (TestBotCrashDrill): no acknowledged move
// lost, none doubled, every game replaying legally, every AI turn pending
// at the kill played once and shown, every board the kill left behind
// redrawn and every board it left unposted posted — by the survivor. It
// needs a PostgreSQL server (pgtest: GAMBIT_TEST_DATABASE_URL; CI has one).
func TestShardTakeoverDrill(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	began := time.Now()
	// The members' guild is on shard 0, which the first process keeps
	// when the second joins (a process gives up its highest shards).
	const discordEpoch = 1420070400000
	guild := strconv.FormatInt((time.Now().UnixMilli()-discordEpoch)&^1<<22, 10)
	d := newCrashDrill(t, crashSetup{command: "bot", processes: 2, dbURL: url,
		env: []string{"GAMBIT_SHARDS=2", "GAMBIT_SHARD_IDS=auto", "GAMBIT_CLAIM_TTL=3s"}},
		discordtest.WithShards(2, 2), discordtest.WithIdentity(discordtest.Identity{GuildID: guild}))
	if shard := discordtest.ShardOf(d.srv.GuildID(), 2); shard != 0 {
		t.Fatalf("the members' guild %s is on shard %d, want 0", d.srv.GuildID(), shard)
	}

	d.start() // the first alone takes both shards; the second then takes one
	survivor := d.procs[1].logs
	if !survivor.waitFor(t, `msg="took a shard" shard=1`) {
		t.Fatalf("the second process did not take shard 1; its output:\n%s", survivor)
	}
	if _, err := d.srv.WaitShards(t.Context()); err != nil {
		t.Fatal(err)
	}

	d.burst(2) // "search": kills the first process while an AI turn is queued or searching
	killed := time.Now()
	awaiting, stale, unboarded := d.afterKill("the kill", nil)
	if !survivor.waitFor(t, `msg="took a shard" shard=0`) {
		t.Fatalf("the survivor did not take the dead process's shard; its output:\n%s", survivor)
	}
	d.answered(awaiting, stale, unboarded, killed)
	d.windUp("the survivor's stop", awaiting, 1, began)
}
