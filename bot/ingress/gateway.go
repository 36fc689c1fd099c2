// Package ingress is how interactions reach the bot: the gateway's shards
// (Gateway, and the keeper that shares them between processes) and the
// signed HTTP endpoint (HTTP). Either hands every interaction to a Handler
// and knows nothing of what it means; the gateway also tells a Guilds the
// news of the bot's guilds.
package ingress

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Handler handles the interactions, however they arrive.
type Handler interface {
	// Interaction handles one interaction; answered, if not nil, is
	// called once its first response has been sent.
	Interaction(i *discordgo.Interaction, answered func())
}

// HandlerFunc is a function that is a Handler.
type HandlerFunc func(i *discordgo.Interaction, answered func())

// Interaction implements Handler.
func (f HandlerFunc) Interaction(i *discordgo.Interaction, answered func()) { f(i, answered) }

// Guilds receives what the gateway says of the bot's guilds.
type Guilds interface {
	// GuildLocale tells a guild's preferred locale: at connect, and when
	// it changes.
	GuildLocale(guildID, locale string)
	// GuildRemoved tells that the bot was removed from a guild (kicked,
	// or the guild deleted); an outage is not a removal.
	GuildRemoved(guildID string)
}

// Claims is where the processes of a bot share the shards: expiring
// claims on keys (storage.Store is one).
type Claims interface {
	Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	Release(ctx context.Context, key, owner string) error
	Claims(ctx context.Context, prefix string) (map[string]string, error)
}

// Config is what a Gateway needs.
type Config struct {
	// Primary is the session that makes the REST calls; it runs the
	// first shard this process runs.
	Primary *discordgo.Session
	// NewSession makes a session for one more shard.
	NewSession func() (*discordgo.Session, error)
	// Observe, if not nil, is told the error of each REST call the
	// gateway makes (nil for none).
	Observe func(error)
	// ShardCount, ShardIDs, Auto, Instance and ClaimTTL are the bot's
	// Config.Shards: Count, IDs, Auto, Instance and ClaimTTL.
	ShardCount int
	ShardIDs   []int
	Auto       bool
	Instance   string
	ClaimTTL   time.Duration
	// Claims is where the shards are shared (Auto) and the identify
	// buckets taken.
	Claims Claims
	// Handler receives every interaction, Guilds the guilds' news.
	Handler Handler
	Guilds  Guilds
	// TookShard is called once the keeper took over a shard (Auto), with
	// its ID and the bot's shard count: what a start does for its shards,
	// redrawing recent boards, is due for its guilds. It must not block:
	// the keeper is waiting. The keeper's last call comes before kept
	// (Start) closes.
	TookShard func(ctx context.Context, shard, count int)
	// Logger receives the gateway's logs.
	Logger *slog.Logger
	// Now is the clock of the waits for Discord's session start limit;
	// nil means time.Now.
	Now func() time.Time
}

// Gateway runs the bot's gateway shards: this process's share of them, as
// Config says, each one discordgo session.
type Gateway struct {
	cfg    Config
	log    *slog.Logger
	shards shards
	keeper *shardKeeper // with Config.Auto

	mu             sync.Mutex
	ctx            context.Context // Start's: the waits of the identifies end with it
	maxConcurrency int             // Discord's, for the identify queue; 0 for a bot of one shard
	limit          startLimit      // Discord's session start limit
	identifies     atomic.Int64    // identifies queued, to name their claims
}

// NewGateway returns the gateway of cfg, not connected yet (Start). It
// listens to the primary session at once.
func NewGateway(cfg Config) *Gateway {
	g := &Gateway{cfg: cfg, log: cfg.Logger, shards: shards{up: map[*discordgo.Session]bool{}}, ctx: context.Background()}
	g.gate(cfg.Primary)
	g.listen(cfg.Primary)
	return g
}

// Start connects the shards this process runs and, with Config.Auto,
// starts the keeper that shares them with the other processes, returning
// after its first round (or once ctx is done). Once ctx is done the keeper
// gives its shards up; kept closes when it has.
func (g *Gateway) Start(ctx context.Context) (kept <-chan struct{}, err error) {
	maxConcurrency, err := g.plan()
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.ctx, g.maxConcurrency = ctx, maxConcurrency
	g.mu.Unlock()
	if g.shards.auto {
		g.keeper = &shardKeeper{g: g}
	}
	if err := g.open(); err != nil {
		return nil, err
	}
	done := make(chan struct{})
	if !g.shards.auto {
		close(done)
		return done, nil
	}
	balanced := make(chan struct{})
	go func() {
		defer close(done)
		g.keeper.run(ctx, balanced)
	}()
	select {
	case <-balanced:
	case <-ctx.Done():
	}
	return done, nil
}

// IDs returns the shards this process runs now, in order.
func (g *Gateway) IDs() []int { return g.shards.ids() }

// Count returns the number of shards of the whole bot.
func (g *Gateway) Count() int {
	g.shards.mu.Lock()
	defer g.shards.mu.Unlock()
	return g.shards.count
}

// Connected reports whether every shard's gateway connection is up.
func (g *Gateway) Connected() bool { return g.shards.connected() }

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

// shards is the gateway side of the bot: one discordgo session per shard
// this process runs, and which of them are connected.
type shards struct {
	count    int                        // shards of the whole bot, ≥ 1
	auto     bool                       // Config.Auto: the sessions change as processes come and go
	sessions map[int]*discordgo.Session // by shard ID: the ones this process runs

	mu      sync.Mutex
	up      map[*discordgo.Session]bool
	closing map[*discordgo.Session]chan struct{} // sessions closed on purpose: their Disconnect handler closes the channel
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
func (g *Gateway) closeSession(s *discordgo.Session) error {
	done := make(chan struct{})
	g.shards.mu.Lock()
	if g.shards.closing == nil {
		g.shards.closing = map[*discordgo.Session]chan struct{}{}
	}
	g.shards.closing[s] = done
	g.shards.mu.Unlock()
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

// newSession makes a session for one more shard and listens to it.
func (g *Gateway) newSession() (*discordgo.Session, error) {
	s, err := g.cfg.NewSession()
	if err != nil {
		return nil, err
	}
	g.gate(s)
	g.listen(s)
	return s, nil
}

// listen registers the gateway's handlers on a session.
func (g *Gateway) listen(s *discordgo.Session) {
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.InteractionCreate) {
		g.cfg.Handler.Interaction(e.Interaction, nil)
	})
	g.listenGuilds(s)
	s.AddHandler(func(s *discordgo.Session, e *discordgo.Ready) {
		g.shards.setUp(s, true)
		g.log.Info("gateway ready", "user", e.User.Username, "guilds", len(e.Guilds), "shard", s.ShardID, "shards", s.ShardCount)
	})
	s.AddHandler(func(s *discordgo.Session, _ *discordgo.Resumed) {
		g.shards.setUp(s, true)
		g.log.Info("gateway resumed", "shard", s.ShardID)
	})
	s.AddHandler(func(s *discordgo.Session, _ *discordgo.Disconnect) {
		g.shards.setUp(s, false)
		if handled, ok := g.shards.closed(s); ok {
			g.log.Info("gateway closed", "shard", s.ShardID)
			handled()
			return
		}
		g.log.Warn("gateway disconnected; reconnecting", "shard", s.ShardID)
	})
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.RateLimit) {
		// The URL of an interaction route holds its token: log the bucket.
		var bucket string
		var retryAfter time.Duration
		if e.TooManyRequests != nil {
			bucket, retryAfter = e.Bucket, e.RetryAfter
		}
		g.log.Warn("rate limited by Discord", "bucket", bucket, "retry_after", retryAfter)
	})
}

// plan settles the shard count (asking Discord for ShardsAuto) and
// makes a session per shard this process runs. One shard of one (the
// default) needs no planning: the primary session is its session. It returns
// Discord's max_concurrency, 0 when it did not ask.
func (g *Gateway) plan() (maxConcurrency int, err error) {
	count, ids := g.cfg.ShardCount, g.cfg.ShardIDs
	if count <= 1 && count != ShardsAuto && len(ids) == 0 && !g.cfg.Auto {
		g.shards.set(1, map[int]*discordgo.Session{0: g.cfg.Primary})
		return 0, nil
	}
	gw, err := g.cfg.Primary.GatewayBot()
	g.observe(err)
	if err != nil {
		return 0, fmt.Errorf("bot: ask Discord for the shard count and start limit: %w", err)
	}
	g.learn(gw.SessionStartLimit, g.now())
	if count == ShardsAuto {
		count = gw.Shards
	}
	count = max(count, 1)
	g.shards.auto = g.cfg.Auto
	if g.shards.auto {
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
		s := g.cfg.Primary
		if len(sessions) > 0 {
			if s, err = g.newSession(); err != nil {
				return 0, err
			}
		}
		s.ShardID, s.ShardCount = id, count
		sessions[id] = s
	}
	g.shards.set(count, sessions)
	return max(gw.SessionStartLimit.MaxConcurrency, 1), nil
}

// open connects the shards' gateways, in order, each identifying through
// Gateway.identify. On failure it closes what it opened.
func (g *Gateway) open() error {
	var opened []*discordgo.Session
	for _, id := range g.shards.ids() {
		s := g.shards.session(id)
		if err := s.Open(); err != nil {
			for _, o := range opened {
				_ = g.closeSession(o)
			}
			return fmt.Errorf("bot: connect shard %d to the gateway: %w", id, err)
		}
		opened = append(opened, s)
	}
	return nil
}

// awaitIdentify waits until shard id may identify: it takes the claim on
// its bucket, a claim in the store shared with every process of the bot
// that lasts identifyWindow and is not released, so that no more than
// maxConcurrency shards identify per 5 seconds across them all.
func (g *Gateway) awaitIdentify(ctx context.Context, id, maxConcurrency int) error {
	key := fmt.Sprintf("identify/%d/%d", maxConcurrency, id%maxConcurrency)
	// An owner of its own, so that no identify takes the bucket a recent
	// one of the same shard holds, as a claim's owner renews it.
	owner := fmt.Sprintf("%s/shard-%d/%d", g.cfg.Instance, id, g.identifies.Add(1))
	for waited := false; ; waited = true {
		ok, err := g.cfg.Claims.Claim(ctx, key, owner, identifyWindow)
		if err != nil {
			return fmt.Errorf("claim identify bucket: %w", err)
		}
		if ok {
			return nil
		}
		if !waited {
			g.log.Info("waiting for the identify queue", "shard", id, "bucket", id%maxConcurrency)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(identifyPoll):
		}
	}
}

// life returns the context the identifies' waits end with: Start's.
func (g *Gateway) life() context.Context {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.ctx
}

// concurrency returns Discord's max_concurrency for the identify queue, 0
// for a bot of one shard, which needs none.
func (g *Gateway) concurrency() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.maxConcurrency
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

// Close closes every shard's gateway connection.
func (g *Gateway) Close() error {
	var first error
	for _, id := range g.shards.ids() {
		if err := g.closeSession(g.shards.session(id)); err != nil && first == nil {
			first = fmt.Errorf("bot: close the gateway of shard %d: %w", id, err)
		}
	}
	return first
}

// observe tells Config.Observe a REST call's error.
func (g *Gateway) observe(err error) {
	if g.cfg.Observe != nil {
		g.cfg.Observe(err)
	}
}

// listenGuilds registers the handlers of the gateway's guild events, which
// go to Config.Guilds: each guild's locale at connect (GUILD_CREATE) and
// its changes (GUILD_UPDATE), and the bot's removal from a guild
// (GUILD_DELETE). GUILD_DELETE means one of two things: with unavailable
// true the guild is in an outage, and Discord will send GUILD_CREATE when
// it is back; with unavailable false the bot was removed.
func (g *Gateway) listenGuilds(s *discordgo.Session) {
	locale := func(guild *discordgo.Guild) {
		if guild != nil && guild.ID != "" && guild.PreferredLocale != "" {
			g.cfg.Guilds.GuildLocale(guild.ID, string(guild.PreferredLocale))
		}
	}
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.GuildCreate) { locale(e.Guild) })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.GuildUpdate) { locale(e.Guild) })
	s.AddHandler(func(_ *discordgo.Session, e *discordgo.GuildDelete) {
		if e.Guild == nil || e.ID == "" {
			return
		}
		if e.Unavailable {
			g.log.Warn("guild unavailable (a Discord outage); its games stay open", "guild", e.ID)
			return
		}
		g.cfg.Guilds.GuildRemoved(e.ID)
	})
}
