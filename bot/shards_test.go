package bot_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// shardSpy records what one process does in a store shared by several:
// the guilds of the games it creates, and the identify buckets it was
// refused.
type shardSpy struct {
	storage.Store
	refused chan string   // identify claims refused
	ticks   chan struct{} // a value per look for due games

	mu      sync.Mutex
	created []madeGame
}

// madeGame is a game a process created.
type madeGame struct {
	id    storage.GameID
	guild string
}

func newShardSpy(s storage.Store) *shardSpy {
	return &shardSpy{Store: s, refused: make(chan string, 1000), ticks: make(chan struct{}, 1000)}
}

func (s *shardSpy) CreateGame(ctx context.Context, g *storage.Game, l storage.Limits) error {
	err := s.Store.CreateGame(ctx, g, l)
	if err == nil {
		s.mu.Lock()
		s.created = append(s.created, madeGame{g.ID, g.GuildID})
		s.mu.Unlock()
	}
	return err
}

func (s *shardSpy) DueGames(ctx context.Context, shards storage.Shards) ([]*storage.Game, error) {
	select {
	case s.ticks <- struct{}{}:
	default:
	}
	return s.Store.DueGames(ctx, shards)
}

func (s *shardSpy) Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	ok, err := s.Store.Claim(ctx, key, owner, ttl)
	if !ok && err == nil && strings.HasPrefix(key, "identify/") {
		select {
		case s.refused <- key:
		default:
		}
	}
	return ok, err
}

// games returns the games the process created, oldest first.
func (s *shardSpy) games() []madeGame {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.created)
}

// guilds returns the guilds of the games the process created.
func (s *shardSpy) guilds() []string {
	var out []string
	for _, g := range s.games() {
		out = append(out, g.guild)
	}
	return out
}

// TestTwoProcessesSplitTheShards: two bots sharing a store each run one
// of two shards against one stand-in, through the real discordgo client.
// Each serves only its shard's guilds, and with max_concurrency 1 the
// second waits for the first's identify window instead of being refused.
func TestTwoProcessesSplitTheShards(t *testing.T) {
	t.Parallel()
	var spyA *shardSpy
	madeB := make(chan *shardSpy, 1)
	h := start(t, withClock(), withServer(discordtest.WithShards(2, 1)), withConfig(func(c *bot.Config) {
		c.Shards.Count, c.Shards.IDs, c.Shards.Instance = 2, []int{0}, "process-a"
	}), withStoreWrapped(func(s storage.Store) storage.Store { spyA = newShardSpy(s); return spyA }))

	// Process B starts within shard 0's identify window: it must wait,
	// on the clock, until the window has passed.
	var waited []discordtest.Identify
	advanced := make(chan struct{})
	go func() {
		defer close(advanced)
		spyB := <-madeB
		select {
		case <-spyB.refused:
		case <-time.After(waitTimeout()):
			return
		}
		waited = h.srv.Identifies()
		h.clock.Advance(6 * time.Second)
	}()
	var spyB *shardSpy
	_, stopB := h.another(func(c *bot.Config) { c.Shards.IDs, c.Shards.Instance = []int{1}, "process-b" }, func(s storage.Store) storage.Store {
		spyB = newShardSpy(s)
		madeB <- spyB
		return spyB
	})
	<-advanced
	if len(waited) != 1 || waited[0].Shard != [2]int{0, 2} {
		t.Fatalf("while process B waited for its bucket the stand-in saw identifies %+v, want shard 0's only", waited)
	}
	ids := h.srv.Identifies()
	if len(ids) != 2 || ids[1].Shard != [2]int{1, 2} || ids[1].Refused || ids[1].At.Sub(ids[0].At) < 5*time.Second {
		t.Fatalf("identifies = %+v, want shard 1 accepted 5 s or more after shard 0", ids)
	}

	// A game in each shard's guild is made by the process of that shard.
	alice := h.srv.AddUser("alice").ID
	var guilds, channels [2]string
	for shard := range guilds {
		g, ch := h.srv.AddGuildOnShard("Guild", shard)
		guilds[shard], channels[shard] = g.ID, ch.ID
		if err := h.srv.AddMember(g.ID, alice); err != nil {
			t.Fatal(err)
		}
		ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: alice, ChannelID: ch.ID, Name: "play",
			Options: []discordtest.Option{opt("game", "tictactoe"), opt("ai", "random")}})
		if err != nil {
			t.Fatal(err)
		}
		if m, err := ix.Reply(h.ctx()); err != nil || readable(m).Ephemeral() {
			t.Fatalf("/play in the guild of shard %d: %+v, %v", shard, m, err)
		}
	}
	if a, b := spyA.guilds(), spyB.guilds(); len(a) != 1 || a[0] != guilds[0] || len(b) != 1 || b[0] != guilds[1] {
		t.Fatalf("process A made games in %v and B in %v; want A in %s (shard 0) and B in %s (shard 1)", a, b, guilds[0], guilds[1])
	}

	// Deadlines are the business of the shard's process: with B down,
	// A expires the challenge in its guild and leaves B's alone.
	bob := h.srv.AddUser("bob").ID
	var challenges [2]storage.GameID
	for shard, guild := range guilds {
		if err := h.srv.AddMember(guild, bob); err != nil {
			t.Fatal(err)
		}
		ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: alice, ChannelID: channels[shard], Name: "play",
			Options: []discordtest.Option{opt("game", "tictactoe"), opt("opponent", bob)}})
		if err != nil {
			t.Fatal(err)
		}
		if m, err := ix.Reply(h.ctx()); err != nil || readable(m).Ephemeral() {
			t.Fatalf("a challenge in the guild of shard %d: %+v, %v", shard, m, err)
		}
	}
	for shard, spy := range []*shardSpy{spyA, spyB} {
		made := spy.games()
		challenges[shard] = made[len(made)-1].id
	}
	stopB()
	h.clock.Advance(bot.DefaultChallengeTTL + time.Minute)
	for range 3 { // three looks for due games by A after the clock moved
		for len(spyA.ticks) > 0 {
			<-spyA.ticks
		}
		select {
		case <-spyA.ticks:
		case <-time.After(waitTimeout()):
			t.Fatal("process A stopped looking for due games")
		}
	}
	h.waitGame(challenges[0], "process A to expire the challenge of its shard", func(g *storage.Game) bool { return g.Status == storage.StatusExpired })
	if g := h.game(challenges[1]); g.Status != storage.StatusPending {
		t.Fatalf("process A ended a challenge of process B's shard: %s", g.Status)
	}
}

// TestAutoShardsRunWhatDiscordRecommends: with ShardsAuto the bot asks
// GET /gateway/bot and runs every shard it names, the two of one bucket
// each 5 s apart on the clock, and serves a guild of each.
func TestAutoShardsRunWhatDiscordRecommends(t *testing.T) {
	t.Parallel()
	h := start(t, withFastClock(50*time.Millisecond), withServer(discordtest.WithShards(3, 2)), withConfig(func(c *bot.Config) {
		c.Shards.Count = bot.ShardsAuto
	}))
	if n, err := h.srv.WaitShards(h.ctx()); err != nil || n != 3 {
		t.Fatalf("WaitShards = %d, %v; want 3 shards up", n, err)
	}
	ids := h.srv.Identifies()
	last := map[int]time.Time{}
	for _, id := range ids {
		if id.Refused {
			t.Errorf("an identify was refused: %+v", ids)
		}
		bucket := id.Shard[0] % 2
		if at, ok := last[bucket]; ok && id.At.Sub(at) < 5*time.Second {
			t.Errorf("two identifies of bucket %d within 5 s: %+v", bucket, ids)
		}
		last[bucket] = id.At
	}
	alice := h.srv.AddUser("alice").ID
	for shard := range 3 {
		g, ch := h.srv.AddGuildOnShard("Guild", shard)
		if err := h.srv.AddMember(g.ID, alice); err != nil {
			t.Fatal(err)
		}
		ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: alice, ChannelID: ch.ID, Name: "help"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Reply(h.ctx()); err != nil {
			t.Fatalf("/help in the guild of shard %d: %v", shard, err)
		}
	}
}

// identified counts the IDENTIFYs of a shard the stand-in accepted.
func identified(srv *discordtest.Server, shard int) int {
	n := 0
	for _, id := range srv.Identifies() {
		if id.Shard[0] == shard && !id.Refused {
			n++
		}
	}
	return n
}

// waitIdentified waits until the stand-in accepted more than n
// IDENTIFYs of a shard: a bot that reports it runs the shard may not have
// its session yet, and an event of the shard sent before then reaches no
// session of it, as on Discord — a /help sent then got no answer ever
// (seen at load 25 on the two cores).
func waitIdentified(t *testing.T, srv *discordtest.Server, shard, n int) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for identified(srv, shard) <= n {
		if time.Now().After(deadline) {
			t.Fatalf("the stand-in accepted no new IDENTIFY of shard %d: %+v", shard, srv.Identifies())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitShards waits until cond holds of the shards each bot runs.
func waitShards(t *testing.T, what string, cond func(a, b []int) bool, a, b *bot.Bot) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout())
	for {
		sa, sb := bot.Shards(a), []int(nil)
		if b != nil {
			sb = bot.Shards(b)
		}
		if cond(sa, sb) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s: shards %v and %v", what, sa, sb)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAutoShardIDsShareAndTakeOver: processes with AutoShardIDs split the
// shards between them as they come, and the one left takes the shards of
// the one that went.
func TestAutoShardIDsShareAndTakeOver(t *testing.T) {
	t.Parallel()
	auto := func(instance string) func(*bot.Config) {
		return func(c *bot.Config) {
			c.Shards.Count, c.Shards.Auto, c.Shards.ClaimTTL, c.Shards.Instance = 2, true, 1500*time.Millisecond, instance
		}
	}
	h := start(t, withServer(discordtest.WithShards(2, 2)), withConfig(auto("process-a")))
	a := h.bot
	waitShards(t, "process A alone to run both shards", func(sa, _ []int) bool { return len(sa) == 2 }, a, nil)

	split := []int{identified(h.srv, 0), identified(h.srv, 1)}
	b, _ := h.another(auto("process-b"), nil)
	waitShards(t, "the shards to be split", func(sa, sb []int) bool {
		return len(sa) == 1 && len(sb) == 1 && sa[0] != sb[0]
	}, a, b)
	waitIdentified(t, h.srv, bot.Shards(b)[0], split[bot.Shards(b)[0]])
	// Each process serves the guild of its shard.
	alice := h.srv.AddUser("alice").ID
	help := func(shard int) {
		t.Helper()
		g, ch := h.srv.AddGuildOnShard("Guild", shard)
		if err := h.srv.AddMember(g.ID, alice); err != nil {
			t.Fatal(err)
		}
		ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: alice, ChannelID: ch.ID, Name: "help"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Reply(h.ctx()); err != nil {
			t.Fatalf("/help in the guild of shard %d: %v", shard, err)
		}
	}
	help(0)
	help(1)

	gone := bot.Shards(a)[0]
	took := identified(h.srv, gone)
	h.stop()
	waitShards(t, "process B to take process A's shard", func(sb, _ []int) bool { return len(sb) == 2 }, b, nil)
	waitIdentified(t, h.srv, gone, took)
	help(gone)
	if _, err := h.srv.WaitShards(h.ctx()); err != nil {
		t.Fatal(err)
	}
}
