// Package bot is Gambit's Discord transport: it assembles the flows
// (those in bot/flows, built with what each uses, and those not yet moved
// there), registers the slash commands they declare, routes interactions
// to them through bot/mux, hands AI turns to this process's workers or to
// the queue of every process's (one seam, chosen in New) and keeps every
// game in a storage.Store.
//
// The flow of a move: a click arrives as an interaction; its handler loads
// the game under the game's lock, checks who clicked and whether the board
// is current, plays the move on the engine, commits the new state to the
// store and only then answers, updating the board message (interaction
// response type 7). When an AI moves next, the board says so and the
// search is queued; its worker searches until the move deadline, counted
// from the click, commits the AI's move and edits the board again.
//
// Nothing in the Store is lost by a crash: every reply shows only what is
// committed, and at start the bot resumes the AI turns that were pending
// and the deadlines that passed while it was down.
package bot

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/egress/ratelimit"
	"github.com/gambitbot/gambit/bot/flows/daily"
	"github.com/gambitbot/gambit/bot/flows/review"
	"github.com/gambitbot/gambit/bot/ingress"
	"github.com/gambitbot/gambit/bot/ops"
	"github.com/gambitbot/gambit/bot/scheduler"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// Defaults of Config's zero fields; docs/server-admins.md, "Settings", lists them.
const (
	DefaultMoveTime         = 2 * time.Second
	DefaultChallengeTTL     = 5 * time.Minute
	DefaultTurnTimeout      = 24 * time.Hour
	DefaultAI               = "minimax"
	DefaultTickInterval     = time.Second
	DefaultProgressInterval = 2 * time.Second
	DefaultCountInterval    = 15 * time.Second
	DefaultRefreshWindow    = 15 * time.Minute
	DefaultHashMiB          = 32
	DefaultMaxGamesPerUser  = 10
	DefaultMaxChallenges    = 3
	DefaultClaimTTL         = 30 * time.Second
	// DefaultReviewRate and DefaultReviewWindow let the members of a
	// server have 20 reviews made an hour: a busy server's members
	// reviewing the games they finish, while a server's maximal reviews
	// (about 15 s of a thread each, review.Standard) take at most a
	// seventh of one review thread, leaving the rest to the other servers.
	DefaultReviewRate   = 20
	DefaultReviewWindow = time.Hour
	// DefaultReviewProgressInterval is the least time between two edits
	// of a review's "thinking…" with how far the review got: a few a
	// minute, well within what Discord lets a bot edit.
	DefaultReviewProgressInterval = 5 * time.Second
	// DefaultShutdownTimeout leaves, within the 10 seconds Docker gives
	// a container to stop, time to close the gateway (about a second).
	DefaultShutdownTimeout = 7 * time.Second
	// MaxMoveTime bounds the movetime option and settings.
	MaxMoveTime = 60 * time.Second
)

// Config is what the bot needs to know, grouped by what an operator
// tunes. Zero fields take the defaults above.
type Config struct {
	// Token is the bot token, without the "Bot " prefix. It is never
	// logged.
	Token string
	// GuildID, if set, registers the commands in that guild only (they
	// appear at once) instead of globally.
	GuildID string
	// REST is where the bot's Discord REST requests go and how their
	// rate limits are kept.
	REST RESTConfig
	// AI is the settings of the AI's turns.
	AI AIConfig
	// Games is the settings of games and challenges: their time limits
	// and a member's caps.
	Games GameConfig
	// Review is the settings of games' reviews.
	Review ReviewConfig
	// Timers is how often the bot's timers run and how far back it looks
	// at start.
	Timers TimerConfig
	// Shards is how this process shares the bot with the others on its
	// store: the gateway shards it runs, its name and its claims.
	Shards ShardConfig
	// Lifecycle bounds an interaction's work and a stop, and says when
	// the bot serves.
	Lifecycle LifecycleConfig
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives the bot's logs; nil means slog.Default(). The bot
	// removes its token and every interaction token from what it logs.
	Logger *slog.Logger
	// Metrics, if not nil, receives the bot's measurements.
	Metrics *ops.Metrics
}

// RESTConfig is where the bot's Discord REST requests go and how
// Discord's rate limits of them are kept (Config.REST). Zero fields take
// bot/egress/ratelimit's defaults.
type RESTConfig struct {
	// APIURL, if set, is a base URL such as http://127.0.0.1:8080 (without
	// /api/vN) that receives every REST request, and so the gateway
	// lookup, instead of discord.com.
	APIURL string
	// Limits, if not nil, keeps Discord's rate limits of the REST
	// requests (see bot/egress/ratelimit), shared by every process of the
	// bot that uses it: a ratelimit.Redis. Nil keeps them in this
	// process's memory, for this process alone.
	Limits ratelimit.Store
	// Global is Discord's global limit of the bot's REST requests per
	// second, over all its processes; 0 means ratelimit.DefaultGlobal.
	Global int
	// LimitsTimeout is how long a REST request waits for Limits' answer
	// before this process keeps the limits on its own (for a second, then
	// it asks again); 0 means ratelimit.DefaultStoreTimeout. Interaction
	// callbacks never ask Limits.
	LimitsTimeout time.Duration
}

// AIConfig is the settings of the AI's turns (Config.AI). Zero fields
// take the defaults.
type AIConfig struct {
	// MoveTime is the default AI move time; 0 means DefaultMoveTime.
	MoveTime time.Duration
	// Default is the strategy /play uses when given neither opponent nor
	// ai; "" means DefaultAI.
	Default string
	// HashMiB is the transposition table of each AI search, in MiB; the
	// tables are most of the bot's memory (one per search thread, kept
	// for reuse). 0 means DefaultHashMiB.
	HashMiB int
	// SearchThreads is the total of threads AI searches may use at once;
	// 0 means the machine's cores (runtime.NumCPU).
	SearchThreads int
	// Queue, if not nil, takes the AI turns this process queues, for
	// the workers of every process sharing it (see PlayAI); nil runs them
	// on this process's workers.
	Queue AIQueue
}

// setDefaults fills in the zero fields of c.
func (c *AIConfig) setDefaults() {
	positive(&c.MoveTime, DefaultMoveTime)
	if c.Default == "" {
		c.Default = DefaultAI
	}
	positive(&c.HashMiB, DefaultHashMiB)
	positive(&c.SearchThreads, runtime.NumCPU())
}

// GameConfig is the settings of games and challenges (Config.Games): how
// long they wait and how many a member may have. Zero fields take the
// defaults.
type GameConfig struct {
	// ChallengeTTL is how long a challenge waits for an answer; 0 means
	// DefaultChallengeTTL.
	ChallengeTTL time.Duration
	// TurnTimeout is how long a player may take to move before forfeiting,
	// unless a guild's settings say otherwise; 0 means DefaultTurnTimeout.
	TurnTimeout time.Duration
	// MaxPerUser caps a member's open games — those in progress and the
	// challenges they sent; a challenge to them once they accept it
	// (storage.Limits.MaxOpen) — so that one member cannot flood a server
	// or the AI workers. 0 means DefaultMaxGamesPerUser.
	MaxPerUser int
	// MaxChallenges caps the challenges a member has waiting for an
	// answer; 0 means DefaultMaxChallenges.
	MaxChallenges int
	// Deadlines, if not nil, runs the games' deadlines as jobs of a queue
	// the processes share (see EndDeadline); nil looks for the due games
	// every Timers.TickInterval.
	Deadlines Deadlines
	// Tournaments, if not nil, runs the tournaments' advances as jobs of
	// a queue the processes share (see AdvanceTournament); nil has the
	// timers start, end and sweep them every Timers.TickInterval.
	Tournaments TournamentJobs
}

// setDefaults fills in the zero fields of c.
func (c *GameConfig) setDefaults() {
	positive(&c.ChallengeTTL, DefaultChallengeTTL)
	positive(&c.TurnTimeout, DefaultTurnTimeout)
	positive(&c.MaxPerUser, DefaultMaxGamesPerUser)
	positive(&c.MaxChallenges, DefaultMaxChallenges)
}

// TimerConfig is how often the bot's timers run and how far back it
// looks at start (Config.Timers). Zero fields take the defaults.
type TimerConfig struct {
	// TickInterval is how often the bot's timers run: expired challenges
	// and turns are looked for (unless Games.Deadlines runs them as
	// jobs), the AI turns nobody plays are swept up (every
	// Shards.ClaimTTL with an AI.Queue), daily puzzles are posted and,
	// with Metrics, open games counted; it also paces the "thinking…"
	// edits' progress watch. 0 means DefaultTickInterval.
	TickInterval time.Duration
	// ProgressInterval is the least time between two "thinking…" edits;
	// 0 means DefaultProgressInterval.
	ProgressInterval time.Duration
	// CountInterval is how often open games are counted for Metrics; 0
	// means DefaultCountInterval.
	CountInterval time.Duration
	// RefreshWindow is how far back in time, at start, the bot looks for
	// open games whose boards a crash may have left behind, and redraws
	// them (posting them again if they are gone); 0 means
	// DefaultRefreshWindow.
	RefreshWindow time.Duration
}

// setDefaults fills in the zero fields of c.
func (c *TimerConfig) setDefaults() {
	positive(&c.TickInterval, DefaultTickInterval)
	positive(&c.ProgressInterval, DefaultProgressInterval)
	positive(&c.CountInterval, DefaultCountInterval)
	positive(&c.RefreshWindow, DefaultRefreshWindow)
}

// ShardConfig is how this process shares the bot with the other
// processes on its store (Config.Shards): the gateway shards it runs, the
// name it claims work by, and how long a claim lasts. Zero fields take
// the defaults.
type ShardConfig struct {
	// Count is the number of gateway shards of the whole bot, over all
	// its processes; 0 means one, ShardsAuto what Discord recommends.
	Count int
	// IDs are the shards this process runs (each below the count); empty
	// means all of them. Processes sharing a store split the shards
	// between them; each handles the timers and boards of its shards'
	// guilds (DMs belong to shard 0), and any of them plays AI turns.
	IDs []int
	// Auto shares the shards among the live processes of the bot (those
	// sharing the store) instead of IDs: each runs its share and takes
	// over the shards of a process that died once its claims expire
	// (ClaimTTL). See bot/ingress's shardKeeper.
	Auto bool
	// Instance names this process to the others sharing its store, as
	// the owner of its claims (AI turns, shards); empty means the host
	// name, the process ID and a random suffix. Two running processes
	// must never share one.
	Instance string
	// ClaimTTL is how long a claim on an AI turn (or a shard) lasts
	// without being renewed: a process that dies holding one delays its
	// work by at most this much, and then another process takes it. 0
	// means DefaultClaimTTL.
	ClaimTTL time.Duration
}

// setDefaults fills in the zero fields of c.
func (c *ShardConfig) setDefaults() {
	positive(&c.ClaimTTL, DefaultClaimTTL)
	if c.Instance == "" {
		c.Instance = instanceName()
	}
}

// LifecycleConfig bounds the work of an interaction and of a stop, and
// says when the bot serves (Config.Lifecycle). Zero fields take the
// defaults.
type LifecycleConfig struct {
	// InteractionTimeout bounds the work of one interaction's handler, by
	// the wall clock; 0 means 10 seconds. Discord wants the first answer
	// within 3 seconds, so past this nobody would see it. Tests that run
	// Discord's deadlines on a manual clock raise it, so that a slow
	// machine cannot make the bot give up.
	InteractionTimeout time.Duration
	// ShutdownTimeout bounds how long a stop waits for the work under way
	// (interactions, AI searches, board edits) — which Discord's rate
	// limits can hold up for as long as they last — before it gives up on
	// it and closes the gateway. What it gave up is redone at the next
	// start: AI turns are resumed and the boards of recently changed games
	// redrawn (Timers.RefreshWindow). 0 means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// After returns a channel that receives after d, for ShutdownTimeout;
	// nil means time.After. Tests drive it.
	After func(d time.Duration) <-chan time.Time
	// Ready, if not nil, is called once the bot serves: connected, its
	// commands registered and its pending AI turns queued.
	Ready func()
}

// setDefaults fills in the zero fields of c.
func (c *LifecycleConfig) setDefaults() {
	positive(&c.InteractionTimeout, interactionTimeout)
	positive(&c.ShutdownTimeout, DefaultShutdownTimeout)
	if c.After == nil {
		c.After = time.After
	}
}

// positive sets *v to d when *v is not positive: a setting's zero (or
// negative) value takes its default.
func positive[T int | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

func (c *Config) setDefaults() {
	c.AI.setDefaults()
	c.Games.setDefaults()
	c.Review.setDefaults(c.AI.SearchThreads)
	c.Timers.setDefaults()
	c.Shards.setDefaults()
	c.Lifecycle.setDefaults()
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}

// Procs returns the GOMAXPROCS a process that runs the bot should set:
// the machine's cores for interactions, plus one per search thread and
// per review thread. Those threads run at a lower OS priority (on Linux),
// so with a processor of their own each, Go's scheduler never makes a
// click wait behind a search: the operating system gives the cores to
// interaction handling first, then to the searches, and the rest to the
// reviews.
func Procs(cfg Config) int {
	cfg.setDefaults()
	return runtime.NumCPU() + cfg.AI.SearchThreads + cfg.Review.Threads
}

// ReviewThreads returns how many reviews a process with cfg makes at once
// (Config.Review.Threads, or its default), the review workers of a
// process that works the review queue.
func ReviewThreads(cfg Config) int {
	cfg.setDefaults()
	return cfg.Review.Threads
}

// Bot is a running Gambit bot: the flows not yet moved into packages of
// their own, what they share, and the lifecycle (Run, Serve). Its state
// is grouped by what it is for (state.go).
type Bot struct {
	// The flows (flows.go).
	boards boardFlow
	games  gameFlow
	turns  aiFlow
	timers timerFlow

	cfg     Config
	store   storage.Store
	log     *slog.Logger
	discord discordLink // Discord's side: requests, answers, the application's ID
	intake  intake      // an interaction's way to its handler: duplicates dropped, routes, commands
	locks   gameLocks
	ai      aiWorkers // this process's AI workers and where AI turns go
	// reviews is the review flow (bot/flows/review), which makes games'
	// reviews on threads of its own: a review never holds up an AI turn.
	reviews *review.Flow
	life    lifecycle    // the gateway or endpoint, and the work a stop waits for
	places  places       // what the bot learnt of where boards are shown: reach, locales, forms
	corrupt corruptGames // the games found corrupt and reported (listed)
}

// lifecycle is how the bot receives interactions (the gateway's shards
// or the HTTP endpoint) and the work under way, which a stop waits for.
type lifecycle struct {
	work     workInFlight                    // interactions and passes under way, which a stop waits for
	gateway  atomic.Pointer[ingress.Gateway] // the gateway's shards (Run)
	endpoint atomic.Pointer[ingress.HTTP]    // the interactions endpoint (Serve)
	shards   func() storage.Shards           // the shards whose due games this process ends; nil for every game
}

// connected reports whether interactions reach the bot (Bot.Connected).
func (l *lifecycle) connected() bool {
	if ep := l.endpoint.Load(); ep != nil && ep.Listening() {
		return true
	}
	gw := l.gateway.Load()
	return gw != nil && gw.Connected()
}

// myShards returns the shards whose games this process looks after:
// its gateway's, every game's without one (Serve).
func (l *lifecycle) myShards() storage.Shards {
	if l.shards == nil {
		return storage.Shards{}
	}
	return l.shards()
}

// New checks cfg and prepares a bot that keeps its games in store. It
// does not connect; Run does.
func New(cfg Config, store storage.Store) (*Bot, error) {
	cfg.setDefaults()
	if cfg.Token == "" {
		return nil, errors.New("bot: no Discord token")
	}
	if _, err := strategies.Lookup(cfg.AI.Default); err != nil {
		return nil, fmt.Errorf("bot: default AI: %w", err)
	}
	if cfg.AI.MoveTime > MaxMoveTime {
		return nil, fmt.Errorf("bot: move time %v is above the maximum %v", cfg.AI.MoveTime, MaxMoveTime)
	}
	// Every log line goes through the redactor: an error quoting a
	// request's URL would otherwise leak the interaction token in it.
	cfg.Logger = slog.New(egress.NewRedactor(cfg.Logger.Handler(), cfg.Token))
	out, err := egress.New(egress.Config{Token: cfg.Token, APIURL: cfg.REST.APIURL, Logger: cfg.Logger, Metrics: cfg.Metrics, Limit: restLimiter(cfg).Transport})
	if err != nil {
		return nil, err
	}
	b := &Bot{cfg: cfg, log: cfg.Logger, discord: discordLink{egress: out, answers: out.Session}}
	b.store = tournamentRecorder{Store: daily.Recorder(store, cfg.Logger), log: cfg.Logger,
		ended: func(ctx context.Context, id storage.TournamentID) { b.timers.tournaments.Kick(ctx, id) }}
	b.corrupt.log, b.corrupt.metrics = cfg.Logger, cfg.Metrics
	pool := scheduler.NewPool(cfg.AI.SearchThreads, func(waiting int) {
		if m := cfg.Metrics; m != nil {
			m.AI.Queue.Set(float64(waiting))
		}
	})
	b.ai = aiWorkers{Scheduler: pool, pool: pool, searchContext: context.WithDeadline}
	// The one choice of where AI turns go: this process's workers, or the
	// queue the workers of every process share.
	b.ai.turns = poolTurns{pool}
	if cfg.AI.Queue != nil {
		b.ai.turns = queuedTurns{queue: cfg.AI.Queue, claimTTL: cfg.Shards.ClaimTTL}
	}
	b.assemble()
	return b, nil
}

// assemble makes the flows and the Mux of their routes, with the
// middleware chain and the command definitions.
func (b *Bot) assemble() {
	b.boards, b.games, b.turns, b.timers = boardFlow{b}, gameFlow{b}, aiFlow{b}, timerFlow{Bot: b}
	b.timers.daily = daily.New(b.store, soloGames{b.games}, gameBoards{b.boards}, seamTurns{b}, daily.Config{
		Outgoing: b.discord.egress, Lang: b.places.locales.of, Shards: b.life.myShards, Now: b.now, Log: b.log,
	})
	b.timers.tournaments = newTournaments(b)
	rc := b.cfg.Review
	b.reviews = review.New(b.store, review.Config{
		Rate: rc.Rate, Window: rc.Window, ProgressInterval: rc.ProgressInterval, Threads: rc.Threads, Queue: rc.Queue,
		Analyst: rc.Analyst, LowPriority: func(f func()) { reviewPriority(rc.Nice, f) }, KeepClaim: b.keepClaim,
		Answers: b.discord.answers, Outgoing: b.discord.egress, Instance: b.cfg.Shards.Instance, Now: b.now, Log: b.log,
	})
	b.intake.mux = b.routes()
	b.intake.handle, b.intake.defs = b.intake.mux.Handler(), commandDefinitions(b.intake.mux)
}

// Run connects to Discord, brings the slash commands up to date, resumes
// pending AI turns, and serves until ctx is cancelled. Then it stops
// taking interactions, lets running AI searches finish (queued ones stay
// parked in storage and resume at the next start) — waiting at most
// Config.Lifecycle.ShutdownTimeout for the work under way — and closes the gateway
// connections of its shards. The store is the caller's to close.
func (b *Bot) Run(ctx context.Context) error {
	started := b.now()
	// The application ID is learnt before the gateway opens: handlers
	// read it as soon as interactions arrive.
	if err := b.discord.whoAmI(); err != nil {
		return err
	}
	if err := b.timers.daily.LoadKey(ctx); err != nil {
		return err
	}
	gw := ingress.NewGateway(ingress.Config{
		Primary: b.discord.egress.Session, NewSession: b.discord.egress.NewSession, Observe: b.discord.egress.Observe,
		ShardCount: b.cfg.Shards.Count, ShardIDs: b.cfg.Shards.IDs, Auto: b.cfg.Shards.Auto, Instance: b.cfg.Shards.Instance, ClaimTTL: b.cfg.Shards.ClaimTTL,
		Claims: b.store, Handler: ingress.HandlerFunc(b.onInteraction), Guilds: guildEvents{b}, TookShard: b.tookShard, Logger: b.log, Now: b.now,
	})
	b.life.gateway.Store(gw)
	b.life.shards = func() storage.Shards { return storage.Shards{Count: gw.Count(), IDs: gw.IDs()} }
	kept, err := gw.Start(ctx)
	if err != nil {
		return err
	}
	err = b.serve(ctx, started, kept)
	if cerr := gw.Close(); cerr != nil {
		err = errors.Join(err, cerr)
	}
	if err == nil {
		b.log.Info("bot stopped")
	}
	return err
}

// serve is the part of Run and Serve that does not depend on how
// interactions arrive, once they do: it brings the slash commands up to
// date, starts the AI workers, the timers and the start-up passes, and
// serves until ctx is cancelled; then it stops taking interactions and
// waits for the running ones, the AI searches, the hand-over of the shards
// (kept closes when it is done) and the timers.
func (b *Bot) serve(ctx context.Context, started time.Time, kept <-chan struct{}) error {
	if err := b.discord.syncCommands(b.intake.defs, b.cfg.GuildID, b.log); err != nil {
		return err
	}
	workers, reviews := b.ai.pool.Start(), b.reviews.Start()
	if err := b.turns.sweepAI(ctx, 0); err != nil {
		b.log.Error("resume AI turns", "err", err)
	}
	if b.life.work.begin() {
		go func() {
			defer b.life.work.end()
			b.turns.refreshBoards(ctx, started, b.life.myShards())
		}()
	}
	// The 15-puzzle's pattern databases take a second or two to build,
	// once per process, and the 8-puzzle's exact table about as long
	// under the race detector: now, so that no deal or hint waits for
	// them (until then they use the 4-4 tables). Shutdown does not wait
	// for it: it holds nothing but memory.
	go func() {
		puzzles.DefaultPDB(4)
		if _, err := puzzles.PDB78(3, puzzles.Limits{}); err != nil {
			b.log.Warn("build the 8-puzzle's pattern database", "err", err)
		}
	}()
	timers := make(chan struct{})
	go func() {
		defer close(timers)
		b.timers.runTimers(ctx)
	}()
	ids, count := []int{0}, 1 // Serve: no gateway, and this process answers for every guild
	if gw := b.life.gateway.Load(); gw != nil {
		ids, count = gw.IDs(), gw.Count()
	}
	b.log.Info("bot running", "guild", b.cfg.GuildID, "move_time", b.cfg.AI.MoveTime, "search_threads", b.cfg.AI.SearchThreads,
		"shards", fmt.Sprint(ids), "shard_count", count, "instance", b.cfg.Shards.Instance)
	if b.cfg.Lifecycle.Ready != nil {
		b.cfg.Lifecycle.Ready()
	}

	<-ctx.Done()
	b.life.work.close()
	b.reviews.Stop() // a review in the making stops now: it can be asked for again after the restart
	b.log.Info("shutting down: finishing interactions and running searches", "within", b.cfg.Lifecycle.ShutdownTimeout)
	b.ai.pool.Stop()
	wound := make(chan struct{})
	go func() {
		defer close(wound)
		workers.Wait()
		reviews()
		<-kept // the shards handed over before the rest winds down
		b.life.work.wait()
		<-timers
	}()
	select {
	case <-wound:
	case <-b.cfg.Lifecycle.After(b.cfg.Lifecycle.ShutdownTimeout):
		b.discord.egress.Stop()
		b.log.Warn("shutdown ran out of time: stopped waiting for the work under way (Discord rate limits?); the next start resumes AI turns and redraws recent boards",
			"after", b.cfg.Lifecycle.ShutdownTimeout)
	}
	return nil
}

// Connected reports whether interactions reach the bot, for health
// checks: every shard's gateway connection is up (Run), or the
// interactions endpoint is listening (Serve).
func (b *Bot) Connected() bool { return b.life.connected() }

// tookShard redraws the recent boards of the guilds of shard (of count) this
// process took over from another (ingress.Config.TookShard), and runs the
// timers' safety net (tookOver).
func (b *Bot) tookShard(ctx context.Context, shard, count int) {
	if !b.life.work.begin() {
		return // stopping: the next start redraws them
	}
	go func() {
		defer b.life.work.end()
		b.turns.refreshBoards(ctx, b.now(), storage.Shards{Count: count, IDs: []int{shard}})
		b.timers.tookOver(ctx)
	}()
}

// The bot's public face for its transports' settings.
const (
	// ShardsAuto, as Config.Shards.Count, runs the number of shards
	// Discord recommends (GET /gateway/bot).
	ShardsAuto = ingress.ShardsAuto
	// DefaultEndpointPath is the path of the interactions endpoint when
	// Endpoint.Path is empty.
	DefaultEndpointPath = ingress.DefaultEndpointPath
)

// Endpoint configures the HTTP endpoint of Serve.
type Endpoint = ingress.Endpoint

// ParsePublicKey reads an application's public key as the developer
// portal shows it: 64 hexadecimal digits.
func ParsePublicKey(s string) (ed25519.PublicKey, error) { return ingress.ParsePublicKey(s) }

// Serve is Run without the gateway: it receives interactions on ln, as
// an HTTP endpoint (see Endpoint), and calls Discord through REST only. It
// brings the slash commands up to date, resumes pending AI turns, runs the
// timers and serves until ctx is cancelled. Then it stops listening — a
// load balancer sends new interactions to another replica — lets the
// requests in flight be answered and the running AI searches finish, and
// returns. ln is closed when Serve returns; the store is the caller's to
// close.
func (b *Bot) Serve(ctx context.Context, ln net.Listener, ep Endpoint) error {
	endpoint, err := ingress.NewHTTP(ep, ingress.HandlerFunc(b.onInteraction), b.now, b.log)
	if err != nil {
		_ = ln.Close()
		return err
	}
	started := b.now()
	if err := b.discord.whoAmI(); err != nil {
		_ = ln.Close()
		return err
	}
	if err := b.timers.daily.LoadKey(ctx); err != nil {
		_ = ln.Close()
		return err
	}
	endpoint.Serve(ctx, ln)
	b.life.endpoint.Store(endpoint)
	// No gateway, so no shards: this process answers for every guild.
	kept := make(chan struct{})
	close(kept)
	err = b.serve(ctx, started, kept)
	if serr := endpoint.Close(); serr != nil {
		err = errors.Join(err, serr)
	}
	if err == nil {
		b.log.Info("bot stopped")
	}
	return err
}

// instanceName names this process among those sharing a store: host,
// process ID and a random suffix (a restarted process in a container often
// gets the same host name and PID).
func instanceName() string {
	host, err := os.Hostname()
	if err != nil {
		host = "gambit"
	}
	var r [4]byte
	_, _ = rand.Read(r[:])
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(r[:]))
}

// now returns the bot's clock time.
func (b *Bot) now() time.Time { return b.cfg.Now() }
