package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// ShardsAuto, as Config.ShardCount, runs the number of shards Discord
// recommends (GET /gateway/bot).
const ShardsAuto = -1

// identifyWindow is how long a bucket of gateway identifies stays spent:
// Discord starts max_concurrency sessions per 5 seconds, one per bucket
// (shard ID modulo max_concurrency), and refuses more. The margin covers
// the time between taking the bucket's claim and Discord reading the
// IDENTIFY.
const identifyWindow = 5*time.Second + 500*time.Millisecond

// identifyPoll is how often a shard waiting for its bucket asks again.
const identifyPoll = 100 * time.Millisecond

// shardOf returns the shard that owns a guild among count shards, as
// Discord routes events: (guild_id >> 22) % count; DMs (no guild) reach
// shard 0.
func shardOf(guildID string, count int) int {
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil || count <= 1 {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// shards is the gateway side of the bot: one discordgo session per shard
// this process runs, and which of them are connected.
type shards struct {
	count    int                        // shards of the whole bot, ≥ 1
	auto     bool                       // Config.AutoShardIDs: the sessions change as processes come and go
	sessions map[int]*discordgo.Session // by shard ID: the ones this process runs

	mu      sync.Mutex
	up      map[*discordgo.Session]bool
	closing map[*discordgo.Session]chan struct{} // sessions closed on purpose: their Disconnect handler closes the channel
}

// owns reports whether this process runs the shard of a guild: timers and
// the start-up passes touch only such games, leaving the others to the
// processes that run their shards.
func (sh *shards) owns(guildID string) bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	_, ok := sh.sessions[shardOf(guildID, sh.count)]
	return ok
}

// set records the shards this process runs, before they connect.
func (sh *shards) set(count int, sessions map[int]*discordgo.Session) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.count, sh.sessions = count, sessions
}

// setUp records whether a session's gateway connection is up.
func (sh *shards) setUp(s *discordgo.Session, up bool) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.up[s] = up
}

// closeSession closes s on purpose — at shutdown, or handing its shard
// over — and returns once its Disconnect handler has run, so that nothing
// logs a reconnection of s, nor anything about it after the bot stopped.
// discordgo emits Disconnect at the end of every Close and runs handlers
// in goroutines of their own.
func (b *Bot) closeSession(s *discordgo.Session) error {
	done := make(chan struct{})
	b.shards.mu.Lock()
	if b.shards.closing == nil {
		b.shards.closing = map[*discordgo.Session]chan struct{}{}
	}
	b.shards.closing[s] = done
	b.shards.mu.Unlock()
	err := s.Close()
	<-done
	return err
}

// closed reports whether s is being closed on purpose (closeSession), and
// returns the function that tells closeSession its Disconnect was handled:
// the handler calls it after logging, so that the log has "gateway
// closed" before anything the stop logs next.
func (sh *shards) closed(s *discordgo.Session) (handled func(), ok bool) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	done, ok := sh.closing[s]
	if !ok {
		return nil, false
	}
	delete(sh.closing, s)
	return func() { close(done) }, true
}

// connected reports whether every shard's connection is up.
func (sh *shards) connected() bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for _, s := range sh.sessions {
		if !sh.up[s] {
			return false
		}
	}
	return len(sh.sessions) > 0 || sh.auto
}

// ids returns the shards this process runs, in order.
func (sh *shards) ids() []int {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	ids := make([]int, 0, len(sh.sessions))
	for id := range sh.sessions {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// newSession makes a session for one more shard, with the bot's handlers.
func (b *Bot) newSession() (*discordgo.Session, error) {
	s, err := b.egress.NewSession()
	if err != nil {
		return nil, err
	}
	b.listen(s)
	return s, nil
}

// listen registers the bot's gateway handlers on a session.
func (b *Bot) listen(s *discordgo.Session) {
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.InteractionCreate) { b.onInteraction(e.Interaction, nil) })
	b.handleGuildEvents(s)
	b.handleLocaleEvents(s)
	s.AddHandler(func(s *discordgo.Session, e *discordgo.Ready) {
		b.shards.setUp(s, true)
		b.log.Info("gateway ready", "user", e.User.Username, "guilds", len(e.Guilds), "shard", s.ShardID, "shards", s.ShardCount)
	})
	s.AddHandler(func(s *discordgo.Session, _ *discordgo.Resumed) {
		b.shards.setUp(s, true)
		b.log.Info("gateway resumed", "shard", s.ShardID)
	})
	s.AddHandler(func(s *discordgo.Session, _ *discordgo.Disconnect) {
		b.shards.setUp(s, false)
		if handled, ok := b.shards.closed(s); ok {
			b.log.Info("gateway closed", "shard", s.ShardID)
			handled()
			return
		}
		b.log.Warn("gateway disconnected; reconnecting", "shard", s.ShardID)
	})
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.RateLimit) {
		// The URL of an interaction route holds its token: log the bucket.
		var bucket string
		var retryAfter time.Duration
		if e.TooManyRequests != nil {
			bucket, retryAfter = e.Bucket, e.RetryAfter
		}
		b.log.Warn("rate limited by Discord", "bucket", bucket, "retry_after", retryAfter)
	})
}

// planShards settles the shard count (asking Discord for ShardsAuto) and
// makes a session per shard this process runs. One shard of one (the
// default) needs no planning: b.session is its session. It returns
// Discord's max_concurrency, 0 when it did not ask.
func (b *Bot) planShards() (maxConcurrency int, err error) {
	count, ids := b.cfg.ShardCount, b.cfg.ShardIDs
	if count <= 1 && count != ShardsAuto && len(ids) == 0 && !b.cfg.AutoShardIDs {
		b.shards.set(1, map[int]*discordgo.Session{0: b.session})
		return 0, nil
	}
	gw, err := b.session.GatewayBot()
	b.egress.Observe(err)
	if err != nil {
		return 0, fmt.Errorf("bot: ask Discord for the shard count and start limit: %w", err)
	}
	if count == ShardsAuto {
		count = gw.Shards
	}
	count = max(count, 1)
	b.shards.auto = b.cfg.AutoShardIDs
	if b.shards.auto {
		ids = nil // keepShards takes them
	} else if len(ids) == 0 {
		for id := range count {
			ids = append(ids, id)
		}
	}
	sessions := map[int]*discordgo.Session{}
	for _, id := range ids {
		if id < 0 || id >= count {
			return 0, fmt.Errorf("bot: shard %d is not one of the %d shards (0–%d)", id, count, count-1)
		}
		s := b.session
		if len(sessions) > 0 {
			if s, err = b.newSession(); err != nil {
				return 0, err
			}
		}
		s.ShardID, s.ShardCount = id, count
		sessions[id] = s
	}
	b.shards.set(count, sessions)
	return max(gw.SessionStartLimit.MaxConcurrency, 1), nil
}

// openShards connects the shards' gateways, in order. With maxConcurrency
// set, each shard first waits for its bucket: a claim in the store, shared
// with every process of the bot, that lasts identifyWindow, so that no
// more than maxConcurrency shards identify per 5 seconds across them all.
// On failure it closes what it opened.
func (b *Bot) openShards(ctx context.Context, maxConcurrency int) error {
	var opened []*discordgo.Session
	for _, id := range b.shards.ids() {
		s := b.shards.session(id)
		err := error(nil)
		if maxConcurrency > 0 {
			err = b.awaitIdentify(ctx, id, maxConcurrency)
		}
		if err == nil {
			err = s.Open()
		}
		if err != nil {
			for _, o := range opened {
				_ = b.closeSession(o)
			}
			return fmt.Errorf("bot: connect shard %d to the gateway: %w", id, err)
		}
		opened = append(opened, s)
	}
	return nil
}

// awaitIdentify waits until shard id may identify: it takes the claim on
// its bucket, which lasts identifyWindow and is not released.
func (b *Bot) awaitIdentify(ctx context.Context, id, maxConcurrency int) error {
	key := fmt.Sprintf("identify/%d/%d", maxConcurrency, id%maxConcurrency)
	owner := fmt.Sprintf("%s/shard-%d", b.cfg.Instance, id)
	for {
		ok, err := b.store.Claim(ctx, key, owner, identifyWindow)
		if err != nil {
			return fmt.Errorf("claim identify bucket: %w", err)
		}
		if ok {
			return nil
		}
		if b.keeper != nil {
			b.keeper.renew(ctx) // a long wait must not let the shards held expire
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(identifyPoll):
		}
	}
}

// session returns the session of shard id, nil if this process does not
// run it.
func (sh *shards) session(id int) *discordgo.Session {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.sessions[id]
}

// put adds (s not nil) or removes shard id's session.
func (sh *shards) put(id int, s *discordgo.Session) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if s == nil {
		delete(sh.sessions, id)
		return
	}
	sh.sessions[id] = s
}

// closeShards closes every shard's gateway connection.
func (b *Bot) closeShards() error {
	var first error
	for _, id := range b.shards.ids() {
		if err := b.closeSession(b.shards.session(id)); err != nil && first == nil {
			first = fmt.Errorf("bot: close the gateway of shard %d: %w", id, err)
		}
	}
	return first
}
