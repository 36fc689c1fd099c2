package bot

import (
	"context"
	"time"

	"github.com/gambitbot/gambit/bot/flows/review"
)

// ReviewConfig is the operator's settings of games' reviews (Config.Review,
// bot/flows/review). Zero fields take the defaults.
type ReviewConfig struct {
	// Threads is how many games' reviews this process makes at once,
	// each on a thread of its own beside the SearchThreads and at a lower
	// priority than the AI's searches, so that a review never holds up an
	// AI turn; 0 means SearchThreads − 1, at least 1.
	Threads int
	// Nice is the OS priority (nice, on Linux) of the review threads:
	// from 10, the AI searches', to 19, the lowest; 0 means 19, so that a
	// review takes only what the searches and interactions leave. Beside
	// other work at normal priority a thread at 19 gets under 1% of a
	// core: a host busy with other programs may want 10.
	Nice int
	// Rate is how many reviews the members of one server (or of one DM
	// or group DM) may have made per Window, over all the processes
	// sharing the store; a review kept with its game is shown again
	// without counting. 0 means DefaultReviewRate.
	Rate int
	// Window is the window of Rate; 0 means DefaultReviewWindow.
	Window time.Duration
	// ProgressInterval is the least time, on Config.Now's clock, between
	// two edits of a review's "thinking…" with how far it got, and before
	// the first; 0 means DefaultReviewProgressInterval.
	ProgressInterval time.Duration
	// Queue, if not nil, takes the games' reviews this process is asked
	// for, for the review workers of every process sharing it (see
	// MakeReview); nil makes them on this process's Threads.
	Queue ReviewQueue
	// Analyst makes the reviews; nil means review.Minimax{}, within each
	// game's standard budget (review.Standard). Tests give their own.
	Analyst review.Analyst
}

// setDefaults fills in the zero fields of c, a process's with
// searchThreads AI search threads.
func (c *ReviewConfig) setDefaults(searchThreads int) {
	if c.Nice == 0 {
		c.Nice = reviewNice
	}
	positive(&c.Threads, max(searchThreads-1, 1))
	positive(&c.Rate, DefaultReviewRate)
	positive(&c.Window, DefaultReviewWindow)
	positive(&c.ProgressInterval, DefaultReviewProgressInterval)
	if c.Analyst == nil {
		c.Analyst = review.Minimax{}
	}
}

// ReviewJob is a game's review handed to a ReviewQueue (review.Job).
type ReviewJob = review.Job

// ReviewQueue takes games' reviews for workers that may run in other
// processes (review.Queue).
type ReviewQueue = review.Queue

// MakeReview makes a review taken from the review queue and shows it
// through the interaction of the click that asked for it, in ctx (the
// worker's): see review.Flow.Make.
func (b *Bot) MakeReview(ctx context.Context, j ReviewJob) error { return b.reviews.Make(ctx, j) }
