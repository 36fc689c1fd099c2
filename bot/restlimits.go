package bot

import (
	"time"

	"github.com/gambitbot/gambit/bot/egress/ratelimit"
	"github.com/gambitbot/gambit/bot/ops"
)

// restLimiter returns the limiter of the bot's Discord REST requests:
// Discord's rate limits kept in cfg.RESTLimits, shared with the other
// processes of the bot, or in this process's memory.
func restLimiter(cfg Config) *ratelimit.Limiter {
	rc := ratelimit.Config{Store: cfg.REST.Limits, Global: cfg.REST.Global, Logger: cfg.Logger, StoreTimeout: cfg.REST.LimitsTimeout, Now: cfg.Now}
	if cfg.Metrics != nil {
		rc.Observer = limitMetrics{cfg.Metrics}
	}
	return ratelimit.New(rc)
}

// limitMetrics passes the limiter's measurements to the metrics.
type limitMetrics struct{ m *ops.Metrics }

func (l limitMetrics) Waited(d time.Duration) { l.m.REST.Waits.Observe(d.Seconds()) }
func (l limitMetrics) TooMany(scope string)   { l.m.REST.TooMany.WithLabelValues(scope).Inc() }
func (l limitMetrics) Invalid(n int)          { l.m.REST.Invalid.Set(float64(n)) }
func (l limitMetrics) Fallback()              { l.m.REST.LimitsFallbacks.Inc() }

func (l limitMetrics) Breaker(open bool) {
	v := 0.0
	if open {
		v = 1
	}
	l.m.REST.LimitsOpen.Set(v)
}
