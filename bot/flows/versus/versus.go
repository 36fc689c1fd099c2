// Package versus is the flow of /versus: a game between two AI
// strategies, started by a member in a channel for everyone there to
// watch — the showcase a class on game AI runs. The board is posted in
// the channel and edited as each AI moves, with both sides' last search
// figures (render.Search); its turns go through the AI turns' seam like
// any other (the bot's workers, or the queue on PostgreSQL), each turn
// queuing the next, within the game's move time. The member who started
// it, or anyone who may manage the server, stops it with Stop (the game
// is cancelled: no result, no rating).
//
// A showcase is casual unless asked otherwise: the AIs' ratings are fixed
// calibrations, which no game moves, but a rated game counts in the
// strategies' records (games, wins, losses) on the ladders, which a
// showcase should leave alone unless its starter wants it counted.
//
// Caps hold over every process sharing the store, after any restart, as
// they are counted from its open games: a showcase is a stored game that
// names the member who started it (storage.Settings.StartedBy), and the
// store lists it under its starter and its place (storage.ShowcasesOf,
// storage.ShowcasesIn). A showcase counts against its starter's open
// games (Config.MaxOpen, with the games they play: the store's one cap
// check, which /play and /challenge meet too), and a server — or a DM —
// runs at most Config.PerPlace at once. A short claim on the place
// ("versus-lock/<place>") makes counting and starting one step for
// every process.
package versus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// Store is what the flow reads and changes in the store: the showcases'
// games, the open games and showcases that cap them, and the claim that
// locks a place while one starts.
type Store interface {
	Game(ctx context.Context, id storage.GameID) (*storage.Game, error)
	CreateGame(ctx context.Context, g *storage.Game, limits storage.Limits) error
	UpdateGame(ctx context.Context, g *storage.Game) error
	ActiveGames(ctx context.Context, p storage.PlayerID) ([]*storage.Game, error)
	Claim(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	Release(ctx context.Context, key, owner string) error
}

// Games is what the flow needs of the code that starts games.
type Games interface {
	// Begin sets g up to start: its start position and who moves first.
	Begin(ctx context.Context, g *storage.Game) error
	// Settings are a server's settings: the games it allows and its AI
	// move time; the zero value for none or on error.
	Settings(ctx context.Context, guildID string) storage.GuildSettings
}

// Boards is the bot's board code, as a showcase meets it.
type Boards interface {
	// View renders g's board at pos, saying the AI is thinking if
	// thinking is not nil, with notice.
	View(g *storage.Game, pos engine.Position, thinking *render.Thinking, changes []storage.RatingChange, notice string) render.Message
	// ShowNew shows msg as g's new board through ix and saves its ID.
	ShowNew(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error
	// Show answers a click on g's board by updating it to msg.
	Show(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error
	// OnBoard reports whether the click came from g's board.
	OnBoard(ix *mux.Interaction, g *storage.Game) bool
}

// Turns is the game seam as a showcase meets it.
type Turns interface {
	// Hold runs fn holding game id's lock for ix, until fn returns or
	// first calls Discord through ix.
	Hold(ctx context.Context, ix *mux.Interaction, id storage.GameID, fn func() error) error
	// QueueAIFor queues g's first AI turn for owner, whose share of the
	// AI workers the game's turns take, to start once the handler
	// returned, and returns what the board shows.
	QueueAIFor(ctx context.Context, ix *mux.Interaction, g *storage.Game, owner storage.PlayerID) *render.Thinking
}

// DefaultPerPlace is how many showcases a server (or a DM) runs at once
// by default: each takes one AI search thread, turn after turn, for its
// whole length, where a person's game takes one only while they wait for
// the AI's answer; two leave the workers to everyone else however many
// members a server has, and let a class compare two pairings side by side.
const DefaultPerPlace = 2

// Config is the flow's settings.
type Config struct {
	// MaxMoveTime bounds the movetime option.
	MaxMoveTime time.Duration
	// MaxOpen is a member's cap of open games (bot.Config.MaxGamesPerUser),
	// which their showcases count against.
	MaxOpen int
	// PerPlace is how many showcases a server or DM runs at once;
	// DefaultPerPlace if 0.
	PerPlace int
	// Instance names this process as the owner of its claims.
	Instance string
	// Log takes what goes wrong out of a member's sight.
	Log *slog.Logger
}

// Flow answers /versus and Stop.
type Flow struct {
	store  Store
	games  Games
	boards Boards
	turns  Turns
	seam   play.GameRoutes
	cfg    Config
	log    *slog.Logger
}

// New returns the flow over store, games, boards and turns, its Stop
// button a route of one game running in seam.
func New(store Store, games Games, boards Boards, turns Turns, seam play.GameRoutes, cfg Config) *Flow {
	if cfg.PerPlace <= 0 {
		cfg.PerPlace = DefaultPerPlace
	}
	return &Flow{store: store, games: games, boards: boards, turns: turns, seam: seam, cfg: cfg, log: cfg.Log}
}

// Routes declares /versus, with the autocomplete of its strategies, and
// Stop, a route of one game.
func (f *Flow) Routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "versus", Description: "Watch two AI strategies play each other here",
		Options: []*discordgo.ApplicationCommandOption{
			gamenames.DuelOption(true),
			{Type: discordgo.ApplicationCommandOptionString, Name: "first", Description: "The AI strategy that moves first", Required: true,
				Autocomplete: true, MaxLength: gamenames.MaxAIName},
			{Type: discordgo.ApplicationCommandOptionString, Name: "second", Description: "The AI strategy that moves second", Required: true,
				Autocomplete: true, MaxLength: gamenames.MaxAIName},
			{Type: discordgo.ApplicationCommandOptionNumber, Name: "movetime", Description: "AI seconds per move (at least 1)",
				MinValue: mux.Ptr(MinMoveTime.Seconds()), MaxValue: f.cfg.MaxMoveTime.Seconds()},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated",
				Description: "Count the game in the strategies' records (default: no)"},
		},
	}, f.cmdVersus, gamenames.CompleteStrategies("first", "second"))
	games := mux.NewGroup(m, f.seam)
	games.Component(customid.VersusStop, f.clickStop)
}

// MinMoveTime is the least time per move of a showcase: its board is
// edited once a move, and a channel takes only a few edits a second from
// Discord's bots, which its other boards need too.
const MinMoveTime = time.Second

// request is a showcase as /versus asked for it.
type request struct {
	kind     storage.Kind
	sides    [2]string // the strategies, first mover first
	moveTime time.Duration
	casual   bool
}

// cmdVersus handles /versus: it checks the request and the caps, starts
// the game and shows its board, queuing the first AI's turn.
func (f *Flow) cmdVersus(ctx context.Context, ix *mux.Command) error {
	req, err := f.read(ctx, ix)
	if err != nil {
		return err
	}
	if ix.InteractionOnly() {
		return mux.Err("versus.not_here")
	}
	if err := play.CheckChannelPermissions(ix.Interaction); err != nil {
		return err
	}
	starter := ix.Caller().ID
	where := place(ix.Interaction)
	unlock, err := f.lockPlace(ctx, where)
	if err != nil {
		return err
	}
	defer unlock()
	if err := f.checkCaps(ctx, where, starter); err != nil {
		return err
	}
	g, err := f.create(ctx, ix.Interaction, req, starter)
	if err != nil {
		return err
	}
	return f.turns.Hold(ctx, ix.Interaction, g.ID, func() error {
		pos, err := play.Position(g)
		if err != nil {
			return err
		}
		return f.boards.ShowNew(ctx, ix.Interaction, g, f.boards.View(g, pos, f.turns.QueueAIFor(ctx, ix.Interaction, g, storage.User(starter)), nil, ""))
	})
}

// read reads and checks /versus's options: a duel the server allows, two
// different strategies that play it, the move time within its bounds
// (the server's by default, at least MinMoveTime; the bot's if the server
// set none), casual unless rated is asked for.
func (f *Flow) read(ctx context.Context, ix *mux.Command) (request, error) {
	opts := ix.Opts
	kind, err := gamenames.Kind(opts, "game")
	if err != nil {
		return request{}, err
	}
	settings := f.games.Settings(ctx, ix.GuildID)
	if !settings.Allows(kind) {
		return request{}, mux.Err("play.not_allowed", "Game", titleIn(kind), "Allowed", gamenames.List(settings.AllowedGames))
	}
	req := request{kind: kind, moveTime: settings.MoveTime, casual: true}
	if req.moveTime > 0 {
		req.moveTime = max(req.moveTime, MinMoveTime)
	}
	for i, name := range []string{opts.Str("first"), opts.Str("second")} {
		info, err := strategies.Lookup(name)
		if err != nil {
			return request{}, mux.Err("play.no_ai", "Name", mux.Quote(name))
		}
		if !info.Supports(string(kind)) {
			return request{}, mux.Err("versus.ai_game", "AI", info.Name, "Game", titleIn(kind), "Choices", strategyList(string(kind)))
		}
		req.sides[i] = info.Name
	}
	if req.sides[0] == req.sides[1] {
		return request{}, mux.Err("versus.same", "AI", req.sides[0])
	}
	if d, given, err := opts.Seconds("movetime", MinMoveTime, f.cfg.MaxMoveTime); err != nil {
		return request{}, err
	} else if given {
		req.moveTime = d
	}
	if rated, given, err := opts.Flag("rated"); err != nil {
		return request{}, err
	} else if given {
		req.casual = !rated
	}
	return req, nil
}

// titleIn is a game's title in the language of the message it is put in.
func titleIn(k storage.Kind) mux.Localized {
	return func(l *i18n.Localizer) string { return render.Title(l, k) }
}

// strategyList names the strategies that play game.
func strategyList(game string) string {
	var names []string
	for _, i := range strategies.ForGame(game) {
		names = append(names, i.Name)
	}
	return strings.Join(names, ", ")
}

// place is where ix's member asks, whose showcases share a cap: the
// server, or the DM or group DM.
func place(ix *mux.Interaction) string {
	if ix.GuildID != "" {
		return ix.GuildID
	}
	return ix.ChannelID
}

// lockPrefix begins the key of a place's lock.
const lockPrefix = "versus-lock/"

// lockTTL bounds a place's lock: counting and starting a showcase take a
// few store calls; a process that dies holding it lets it go so soon.
const lockTTL = 30 * time.Second

// lockPlace takes the place's lock for counting and starting a showcase,
// over every process sharing the store, and returns its release; a lock
// held by another start is the member's error: try again.
func (f *Flow) lockPlace(ctx context.Context, where string) (func(), error) {
	// An owner of its own: two starts in one process exclude each other
	// too (a claim's owner renews it).
	key, owner := lockPrefix+where, fmt.Sprintf("%s/%016x", f.cfg.Instance, rand.Uint64())
	ok, err := f.store.Claim(ctx, key, owner, lockTTL)
	if err != nil {
		return nil, fmt.Errorf("versus: lock the showcases of %s: %w", where, err)
	}
	if !ok {
		return nil, mux.Err("versus.busy")
	}
	return func() {
		if err := f.store.Release(context.WithoutCancel(ctx), key, owner); err != nil {
			f.log.Warn("versus: release the place's lock", "err", err)
		}
	}, nil
}

// checkCaps refuses a showcase when the place runs PerPlace already, or
// when its starter's open games and showcases reach MaxOpen: a look
// ahead, for the reason in the member's words, of what the store checks
// again as it stores the game (create).
func (f *Flow) checkCaps(ctx context.Context, where, starter string) error {
	here, err := f.store.ActiveGames(ctx, storage.ShowcasesIn(where))
	if err != nil {
		return fmt.Errorf("versus: showcases of %s: %w", where, err)
	}
	if len(here) >= f.cfg.PerPlace {
		return mux.Err("versus.cap_place", "Max", f.cfg.PerPlace)
	}
	p := storage.User(starter)
	var open []*storage.Game
	for _, key := range storage.CappedKeys(p) {
		games, err := f.store.ActiveGames(ctx, key)
		if err != nil {
			return fmt.Errorf("versus: games of %s: %w", starter, err)
		}
		open = append(open, games...)
	}
	if err := f.limits().Check(p, open, false); err != nil {
		return mux.Err("versus.cap_member", "Max", f.cfg.MaxOpen)
	}
	return nil
}

// limits are the caps a showcase's starter meets.
func (f *Flow) limits() storage.Limits { return storage.Limits{MaxOpen: f.cfg.MaxOpen} }

// create stores the showcase's game, started by starter: the first
// strategy in seat 0, to move first. The store counts it against the
// starter's cap in the transaction that stores it.
func (f *Flow) create(ctx context.Context, ix *mux.Interaction, req request, starter string) (*storage.Game, error) {
	g := &storage.Game{
		Kind: req.kind,
		Players: []storage.Player{
			{ID: storage.AI(req.sides[0]), Name: req.sides[0]},
			{ID: storage.AI(req.sides[1]), Name: req.sides[1]},
		},
		Settings:  storage.Settings{First: "me", MoveTime: req.moveTime, Casual: req.casual, StartedBy: storage.User(starter)},
		GuildID:   ix.GuildID,
		ChannelID: ix.ChannelID,
	}
	if err := f.games.Begin(ctx, g); err != nil {
		return nil, err
	}
	err := f.store.CreateGame(ctx, g, f.limits())
	switch {
	case errors.Is(err, storage.ErrLimit): // a game of the starter's began since checkCaps
		return nil, mux.Err("versus.cap_member", "Max", f.cfg.MaxOpen)
	case err != nil:
		return nil, fmt.Errorf("versus: create showcase: %w", err)
	}
	return g, nil
}

// clickStop stops a showcase: its starter's click, or a server manager's,
// on its board cancels the game (no result, no rating) and shows the
// board stopped.
func (f *Flow) clickStop(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if !f.boards.OnBoard(ix.Interaction, g) || !render.BetweenAIs(g) {
		return mux.Err("error.no_game", "ID", g.ID)
	}
	if !g.Status.Open() {
		return mux.Err("versus.over")
	}
	// A showcase started before its record named its starter is stopped
	// by a manager only.
	if storage.User(ix.Caller().ID) != g.Settings.StartedBy && !manager(ix.Interaction) {
		return mux.Err("versus.not_yours")
	}
	g.Status, g.Deadline = storage.StatusCancelled, time.Time{}
	if err := f.store.UpdateGame(ctx, g); err != nil {
		return play.Conflict(err, "stop showcase", g.ID)
	}
	pos, err := play.Position(g)
	if err != nil {
		return err
	}
	notice := ix.Lang().T("versus.stopped", "Player", play.PlayerOf(ix.Caller()).Name)
	return f.boards.Show(ctx, ix.Interaction, g, f.boards.View(g, pos, nil, nil, notice))
}

// manager reports whether ix's member may manage the server (Manage
// Server, or Administrator).
func manager(ix *mux.Interaction) bool {
	return ix.Member != nil && ix.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0
}
