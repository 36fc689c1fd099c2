package ops

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Metrics are the bot's Prometheus collectors, registered in their own
// registry (not the global default one) so that tests can create several.
// Every field is set by [NewMetrics]; the bot updates them, [Handler]
// exposes them on /metrics.
type Metrics struct {
	// Registry holds the collectors below and the Go runtime and process
	// collectors.
	Registry *prometheus.Registry
	// Interactions measure the interactions the bot answers.
	Interactions InteractionMetrics
	// AI measures the AI's turns: its queue and its searches.
	AI AIMetrics
	// REST measures the bot's requests to Discord's REST API and its rate
	// limits.
	REST RESTMetrics
	// Games measures the games and challenges in the store.
	Games GameMetrics
}

// InteractionMetrics measure the interactions the bot answers.
type InteractionMetrics struct {
	// Handled counts handled interactions by kind ("command:/play",
	// "component:move", "autocomplete:/play": the bot chooses) and outcome
	// ("ok", "user_error", "error", "panic").
	Handled *prometheus.CounterVec
	// FirstResponse is the time from receiving an interaction to sending
	// its first response, in seconds, by kind. Its buckets run from 1 ms to
	// Discord's 3 s deadline.
	FirstResponse *prometheus.HistogramVec
}

// AIMetrics measure the AI's turns.
type AIMetrics struct {
	// Queue is the number of AI searches waiting for a worker.
	Queue prometheus.Gauge
	// Wait is the time searches wait in the queue, in seconds.
	Wait prometheus.Histogram
	// SearchSeconds is the AI search time by game, in seconds.
	SearchSeconds *prometheus.HistogramVec
	// SearchDepth is the depth a search completed, in plies, by game.
	SearchDepth *prometheus.HistogramVec
	// Overshoot is the time a search ran past its move deadline, in
	// seconds, by game. Its buckets run from 1 ms to 1 s.
	Overshoot *prometheus.HistogramVec
}

// RESTMetrics measure the requests to Discord's REST API.
type RESTMetrics struct {
	// Errors counts Discord REST errors by HTTP status ("404", "429")
	// and Discord JSON error code ("10008"; "0" when the body had none).
	Errors *prometheus.CounterVec
	// Waits is the time Discord REST requests waited for Discord's
	// rate limits before they went, in seconds: one observation for each
	// request that waited.
	Waits prometheus.Histogram
	// TooMany counts the 429s Discord answered, by scope ("global",
	// "user", "shared", "cloudflare" for a ban).
	TooMany *prometheus.CounterVec
	// Invalid is the count of invalid requests (401, 403, 429 but
	// "shared") in the last 10 minutes, as last seen: Discord bans at
	// 10,000.
	Invalid prometheus.Gauge
	// LimitsOpen is 1 while the shared store of Discord's rate limits
	// (Redis) fails and this process keeps the limits on its own (the
	// limiter's breaker is open), 0 otherwise.
	LimitsOpen prometheus.Gauge
	// LimitsFallbacks counts the questions to the store of Discord's
	// rate limits this process's own memory answered because the shared
	// store failed or was not asked while it fails.
	LimitsFallbacks prometheus.Counter
}

// GameMetrics measure the games and challenges in the store.
type GameMetrics struct {
	// Active is the number of games in progress.
	Active prometheus.Gauge
	// ChallengesPending is the number of challenges awaiting an answer.
	ChallengesPending prometheus.Gauge
	// CorruptSkipped counts the open games the bot left out of its
	// listings (the boards refreshed at start, AI turns to resume,
	// deadlines, the games counted, a guild's games when the bot leaves
	// it) because their records are corrupt, each game once.
	CorruptSkipped prometheus.Counter
}

// Label names of the vectors in [Metrics].
const (
	labelKind    = "kind"
	labelOutcome = "outcome"
	labelGame    = "game"
	labelStatus  = "status"
	labelCode    = "code"
	labelScope   = "scope"
)

// Histogram buckets, in seconds unless said otherwise.
var (
	// firstResponseBuckets run from 1 ms to Discord's 3 s limit on an
	// interaction's first response.
	firstResponseBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3}
	// waitBuckets cover a queue that is empty (about nothing) to one that
	// holds a search up for longer than any move may take.
	waitBuckets = []float64{0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}
	// searchBuckets cover searches from a trivial position to the longest
	// move budget.
	searchBuckets = []float64{0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30}
	// depthBuckets are plies, up to beyond the longest game's length.
	depthBuckets = []float64{1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 42, 64}
	// overshootBuckets run from 1 ms to 1 s.
	overshootBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1}
)

// NewMetrics creates the bot's collectors in a new registry, together with
// the Go runtime and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		Interactions: InteractionMetrics{
			Handled: prometheus.NewCounterVec(prometheus.CounterOpts{
				Name: "gambit_interactions_total",
				Help: "Discord interactions handled, by kind (command, component or autocomplete and its name) and outcome (ok, user_error, error, panic).",
			}, []string{labelKind, labelOutcome}),
			FirstResponse: prometheus.NewHistogramVec(prometheus.HistogramOpts{
				Name:    "gambit_interaction_first_response_seconds",
				Help:    "Time from receiving an interaction to sending its first response, by kind; Discord drops interactions not answered within 3 s.",
				Buckets: firstResponseBuckets,
			}, []string{labelKind}),
		},
		AI: AIMetrics{
			Queue: prometheus.NewGauge(prometheus.GaugeOpts{
				Name: "gambit_ai_queue_length",
				Help: "AI searches waiting for a worker.",
			}),
			Wait: prometheus.NewHistogram(prometheus.HistogramOpts{
				Name:    "gambit_ai_queue_wait_seconds",
				Help:    "Time AI searches waited in the queue for a worker.",
				Buckets: waitBuckets,
			}),
			SearchSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
				Name:    "gambit_ai_search_seconds",
				Help:    "Time an AI search took to choose a move, by game.",
				Buckets: searchBuckets,
			}, []string{labelGame}),
			SearchDepth: prometheus.NewHistogramVec(prometheus.HistogramOpts{
				Name:    "gambit_ai_search_depth",
				Help:    "Depth in plies of the last iteration an AI search completed, by game.",
				Buckets: depthBuckets,
			}, []string{labelGame}),
			Overshoot: prometheus.NewHistogramVec(prometheus.HistogramOpts{
				Name:    "gambit_ai_overshoot_seconds",
				Help:    "Time an AI search ran past its move deadline, by game.",
				Buckets: overshootBuckets,
			}, []string{labelGame}),
		},
		REST: RESTMetrics{
			Errors: prometheus.NewCounterVec(prometheus.CounterOpts{
				Name: "gambit_discord_rest_errors_total",
				Help: "Failed Discord REST requests, by HTTP status and Discord JSON error code (0 when the response had none).",
			}, []string{labelStatus, labelCode}),
			Waits: prometheus.NewHistogram(prometheus.HistogramOpts{
				Name:    "gambit_discord_rest_wait_seconds",
				Help:    "Time Discord REST requests waited for Discord's rate limits (shared by the bot's processes) before they went; requests that did not wait are not counted.",
				Buckets: waitBuckets,
			}),
			TooMany: prometheus.NewCounterVec(prometheus.CounterOpts{
				Name: "gambit_discord_rest_429_total",
				Help: "Discord REST answers 429 Too Many Requests, by scope (global, user, shared; cloudflare for a ban).",
			}, []string{labelScope}),
			Invalid: prometheus.NewGauge(prometheus.GaugeOpts{
				Name: "gambit_discord_rest_invalid_requests",
				Help: "Invalid Discord REST requests (401, 403, 429 but shared) in the last 10 minutes, as last counted; Discord bans at 10,000.",
			}),
			LimitsOpen: prometheus.NewGauge(prometheus.GaugeOpts{
				Name: "gambit_discord_rest_limits_breaker_open",
				Help: "1 while the shared store of Discord's rate limits (Redis) fails and this process keeps the limits on its own, 0 while it shares them.",
			}),
			LimitsFallbacks: prometheus.NewCounter(prometheus.CounterOpts{
				Name: "gambit_discord_rest_limits_fallbacks_total",
				Help: "Questions to the store of Discord's rate limits answered by this process's own memory because the shared store (Redis) failed or was not asked while it fails.",
			}),
		},
		Games: GameMetrics{
			Active: prometheus.NewGauge(prometheus.GaugeOpts{
				Name: "gambit_games_active",
				Help: "Games in progress.",
			}),
			ChallengesPending: prometheus.NewGauge(prometheus.GaugeOpts{
				Name: "gambit_challenges_pending",
				Help: "Challenges waiting for the challenged player to accept or decline.",
			}),
			CorruptSkipped: prometheus.NewCounter(prometheus.CounterOpts{
				Name: "gambit_corrupt_records_skipped_total",
				Help: "Open games left out of the bot's listings (boards refreshed at start, AI turns, deadlines, games counted) because their records are corrupt, each once; gambit db check lists them.",
			}),
		},
	}
	m.Registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.Interactions.Handled, m.Interactions.FirstResponse,
		m.AI.Queue, m.AI.Wait,
		m.AI.SearchSeconds, m.AI.SearchDepth, m.AI.Overshoot,
		m.REST.Errors, m.REST.Waits, m.REST.TooMany, m.REST.Invalid,
		m.REST.LimitsOpen, m.REST.LimitsFallbacks,
		m.Games.Active, m.Games.ChallengesPending, m.Games.CorruptSkipped,
	)
	return m
}
