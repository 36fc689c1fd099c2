// Package review is the flow of a game's review: the Review button under
// an ended duel's board, and /review game:. A member may look at the
// review of a game they could see (play.MayReview), privately. The click
// is answered at once with a deferred reply (Discord's "thinking…"); the
// review is then made outside the game's lock, on review threads
// (Config.Threads): threads of their own beside the AI's search threads
// and at a lower priority than theirs (Config.LowPriority), so that no
// review ever holds up an AI turn — this process's, or with Config.Queue
// (River's, on PostgreSQL) those of whichever process takes the job
// (Flow.Make, jobs.go). It is searched within the game's node budget
// (Minimax: review.Standard, a long game's positions share it), stops
// between positions when its context ends, and is kept with the game
// (storage.Review), so that the next click on it only draws the pictures.
// One review of a game is made at a time in a process: a click meanwhile
// waits for it rather than making it again.
//
// The limits hold across every process sharing the store, as claims in it
// (Store.Claim, limits.go): a member has one review in the making at a
// time (their claim, taken for the click's 15 minutes when asked and taken
// over — renewed by Config.KeepClaim — by whoever makes it, so that a
// process that dies making it lets it go within the claims' time to live),
// and the members of one server (or one DM or group DM) may have
// Config.Rate reviews made per Config.Window (Rate slots per place, each
// claimed for the window and left to expire). A review kept with its game
// is shown without taking a slot. Stop ends a review in the making on
// this process's threads (it may take a minute): the member is told to
// ask again after the restart.
package review

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/bot/scheduler"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
	gamereview "github.com/gambitbot/gambit/strategies/review"
)

// Store is what the flow reads and keeps in the store: the games and a
// member's finished ones, the reviews kept with games, and the claims
// that limit reviews over every process sharing it.
type Store interface {
	Game(ctx context.Context, id storage.GameID) (*storage.Game, error)
	History(ctx context.Context, p storage.PlayerID, limit int) ([]*storage.Game, error)
	Review(ctx context.Context, id storage.GameID, version uint64) (*storage.Review, error)
	PutReview(ctx context.Context, r *storage.Review) error
	Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	Claims(ctx context.Context, prefix string) (map[string]string, error)
	Release(ctx context.Context, key, owner string) error
}

// KeepClaim takes the claim key in the store for owner and renews it until
// release is called, which gives it up; ok is false when another owner
// holds it. The claimed context ends once the claim is lost, so that the
// work it guards stops. what and attrs name the work in the logs. It is the
// bot's, shared with the AI turns' claims.
type KeepClaim func(ctx context.Context, key, owner, what string, attrs ...any) (claimed context.Context, release func(), ok bool, err error)

// Config is what the flow needs of the bot: the operator's settings of
// reviews (bot.Config.Review, its defaults filled in) and the parts of the
// bot a review goes through.
type Config struct {
	// Rate is how many reviews the members of one place (a server, a DM
	// or a group DM) may have made per Window, over every process sharing
	// the store; a review kept with its game takes none.
	Rate   int
	Window time.Duration
	// ProgressInterval is the least time, on Now's clock, between two
	// edits of a review's "thinking…" with how far it got, and before
	// the first.
	ProgressInterval time.Duration
	// Threads is how many reviews this process makes at once when Queue
	// is nil.
	Threads int
	// Queue, if not nil, takes the reviews for the workers of every
	// process sharing it (Make); nil makes them on this process's
	// Threads.
	Queue Queue
	// Analyst makes the reviews, and Draw their pictures; nil draws them
	// as Pictures does.
	Analyst Analyst
	Draw    func(gm *games.Game, start engine.Position, moves []string, rev *gamereview.Review, turning int) (render.ReviewPictures, error)
	// LowPriority runs f on a thread at the review threads' OS priority
	// and returns when f has; nil runs f as it is.
	LowPriority func(f func())
	// KeepClaim keeps a member's claim on their review in the making
	// while it is made.
	KeepClaim KeepClaim
	// Answers and Outgoing are where a review taken from the queue is
	// shown: the answers to interactions (the bot's REST session) and
	// the bookkeeping of what goes out (its egress).
	Answers  mux.Responder
	Outgoing mux.Outgoing
	// Instance names this process as the owner of its claims.
	Instance string
	// Now is the bot's clock.
	Now func() time.Time
	// Log receives what went wrong that the member is not told.
	Log *slog.Logger
}

// Flow answers /review and the Review button, and makes the reviews.
type Flow struct {
	store Store
	cfg   Config
	log   *slog.Logger // cfg.Log

	threads  *scheduler.Pool // this process's review threads (Config.Threads)
	stopping context.Context // ends when Stop is called, for the reviews on threads
	stop     context.CancelFunc

	mu     sync.Mutex
	making map[storage.GameID]*call // the reviews being made in this process, by game
}

// call is one review being made; done is closed once rev or err is set.
type call struct {
	done chan struct{}
	rev  *gamereview.Review
	err  error
}

// New returns the flow over store with cfg. Its threads run once Start is
// called.
func New(store Store, cfg Config) *Flow {
	f := &Flow{store: store, cfg: cfg, log: cfg.Log, threads: scheduler.NewPool(cfg.Threads, nil), making: map[storage.GameID]*call{}}
	f.stopping, f.stop = context.WithCancel(context.Background())
	return f
}

// Start starts the review threads; wait returns once they have stopped
// after Stop.
func (f *Flow) Start() (wait func()) { return f.threads.Start().Wait }

// Stop stops the reviews being made on this process's threads, between
// positions (the member is told to ask again after the restart), and
// refuses new ones.
func (f *Flow) Stop() {
	f.stop()
	f.threads.Stop()
}

// Routes declares /review and the Review button, which anyone who could
// see the game may click, outside its lock.
func (f *Flow) Routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "review", Description: "Look back at a finished game: each move against the best one",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "The game (its ID, as its board's footer shows)",
				Required: true, Autocomplete: true, MaxLength: 32},
		},
	}, f.cmdReview, f.completeReview)
	m.Component(customid.Review, f.clickReview)
}

// clickReview handles the Review button under an ended duel's board.
func (f *Flow) clickReview(ctx context.Context, ix *mux.Component) error {
	return f.start(ctx, ix.Interaction, storage.GameID(ix.Params["game"]))
}

// cmdReview handles /review game:.
func (f *Flow) cmdReview(ctx context.Context, ix *mux.Command) error {
	return f.start(ctx, ix.Interaction, storage.GameID(strings.TrimSpace(ix.Opts.Str("game"))))
}

// completeReview offers the member's ended duels, newest first, whose IDs
// begin with what they typed.
func (f *Flow) completeReview(ctx context.Context, ix *mux.Autocomplete) error {
	me := ix.Caller().ID
	ended, err := f.store.History(ctx, storage.User(me), 50)
	if err != nil {
		return fmt.Errorf("review: history of %s: %w", me, err)
	}
	typed, l := strings.ToLower(strings.TrimSpace(ix.Opts.Str("game"))), ix.Lang()
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, g := range ended {
		if !render.Reviewable(g) || !strings.HasPrefix(strings.ToLower(string(g.ID)), typed) {
			continue
		}
		name := fmt.Sprintf("%s · %s", g.ID, render.Title(l, g.Kind))
		if opp, ok := g.Opponent(g.Seat(storage.User(me))); ok {
			who := render.PlayerName(l, g.Kind, opp) // an AI by its name and difficulty
			if !opp.ID.IsAI() {
				who = cmp.Or(opp.Name, who) // a member by name: a mention does not show in a suggestion
			}
			name += " · " + l.T("board.vs", "Player", who)
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: render.ClipWords(name, 100), Value: string(g.ID)})
	}
	return ix.Choices(out)
}

// start answers ix with game id's review: it checks the game and the
// limits, defers the answer and hands the review's making and drawing
// over (hand, jobs.go).
func (f *Flow) start(ctx context.Context, ix *mux.Interaction, id storage.GameID) error {
	if id == "" {
		return mux.Err("review.none")
	}
	g, err := f.store.Game(ctx, id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && !play.MayReview(ix, g) {
		return mux.Err("review.no_game", "ID", mux.Echo(string(id)))
	}
	if err != nil {
		return fmt.Errorf("review: load game %s: %w", id, err)
	}
	switch {
	case g.Solo():
		return mux.Err("review.puzzle")
	case !g.Status.Ended():
		return mux.Err("review.not_over")
	case len(g.Moves) == 0:
		return mux.Err("review.no_moves")
	}
	gm, start, err := render.StartOf(g)
	if err != nil {
		return err
	}
	admitted, err := f.admit(ctx, ix, g)
	if err != nil {
		return err
	}
	if err := ix.DeferReply(true); err != nil {
		admitted.cancel()
		return err
	}
	return f.hand(ix, admitted, &game{g, gm, start})
}

// now returns the bot's clock time.
func (f *Flow) now() time.Time { return f.cfg.Now() }
