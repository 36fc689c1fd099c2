// Package tournament is the flow of a server's tournaments: /tournament
// create (an announcement with Join, Leave, Start, Cancel, the
// creator's select of AI entrants and the select that takes one out),
// list, standings, pause, resume and
// cancel; and running them — the start by the creator or at the time set,
// each round's pairings posted in the channel and its boards in a thread
// of the round or the channel (thread.go), the results of
// the boards' games recorded as they end, the standings after each
// round and the podium at the end.
//
// The store keeps every tournament and makes each change one transaction
// (storage.TournamentStore), so that processes sharing it run one
// tournament without double pairings or lost results; this flow only
// decides when to advance a tournament (Kick, Tick) and what to show.
package tournament

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/tournament/league"
)

// Store is what the flow reads and changes in the store: the
// tournaments, and the games of their boards.
type Store interface {
	CreateTournament(ctx context.Context, t *storage.Tournament, caps storage.TournamentCaps) error
	Tournament(ctx context.Context, id storage.TournamentID) (*storage.Tournament, error)
	JoinTournament(ctx context.Context, id storage.TournamentID, e storage.Entrant) (*storage.Tournament, error)
	LeaveTournament(ctx context.Context, id storage.TournamentID, p storage.PlayerID) (*storage.Tournament, error)
	SetTournamentStatus(ctx context.Context, id storage.TournamentID, to storage.TournamentStatus) (*storage.Tournament, error)
	PairRound(ctx context.Context, id storage.TournamentID, version uint64, r storage.Round, games []*storage.Game) (*storage.Tournament, bool, error)
	RecordTournamentResult(ctx context.Context, game storage.GameID) (*storage.Tournament, bool, error)
	AnnounceRound(ctx context.Context, id storage.TournamentID, n int) (*storage.Tournament, bool, error)
	FinishTournament(ctx context.Context, id storage.TournamentID, placings []storage.Placing) (*storage.Tournament, error)
	GuildTournaments(ctx context.Context, guildID string, history int) ([]*storage.Tournament, error)
	OpenTournaments(ctx context.Context, shards storage.Shards) ([]*storage.Tournament, error)
	Game(ctx context.Context, id storage.GameID) (*storage.Game, error)
	Rank(ctx context.Context, l storage.Ladder, p storage.PlayerID, around int) (storage.RankView, error)
	SetTournamentMessage(ctx context.Context, id storage.TournamentID, messageID string) (*storage.Tournament, error)
	SetRoundThread(ctx context.Context, id storage.TournamentID, round int, thread string) (*storage.Tournament, bool, error)
	GuildSettings(ctx context.Context, guildID string) (storage.GuildSettings, error)
}

// Boards is what the flow needs of the bot's games and messages.
type Boards interface {
	// Begin sets g, a new game of a round, up to start: its start
	// position, White (seat 0) to move and the deadline of the player to
	// move.
	Begin(ctx context.Context, g *storage.Game) error
	// Show posts the board of game id, a game of a round, in its
	// channel, or edits the one it has to the game as it now is, and
	// starts the AI's turn when an AI is to move.
	Show(ctx context.Context, id storage.GameID) error
	// Forfeit ends game id, a board's game under way, as lost by p, who
	// withdrew: a forfeit, the board's result, shown on its board. It
	// reports whether it ended the game (false: it had ended already).
	Forfeit(ctx context.Context, id storage.GameID, p storage.PlayerID) (bool, error)
	// Post posts msg as a new message in a channel, once for nonce
	// (Send).
	Post(ctx context.Context, channelID, nonce string, msg render.Message) error
	// Lang is the language of the messages everyone sees in a guild's
	// channel.
	Lang(guildID, channelID string) *i18n.Localizer
	// Shared is the language of the messages an interaction shows
	// everyone in its channel.
	Shared(ix *mux.Interaction) *i18n.Localizer
	// Send posts msg as a new message in a channel or thread, and
	// returns its message's ID. Every post of a tournament is made once:
	// nonce (a nonce of once) names it, and a second send of it within
	// Discord's window for nonces, by any process, posts nothing and
	// returns the first's message.
	Send(ctx context.Context, channelID, nonce string, msg render.Message) (string, error)
	// StartThread starts a public thread named name from message
	// messageID of a channel, and returns the thread's channel ID; an
	// error wrapping ErrThreadsRefused when Discord refuses it for want
	// of a permission or in a channel that cannot have threads.
	StartThread(ctx context.Context, channelID, messageID, name string) (string, error)
	// Edit changes message messageID of a channel to msg.
	Edit(ctx context.Context, channelID, messageID string, msg render.Message) error
}

// Config is the flow's settings.
type Config struct {
	// Caps are the servers' caps (storage.DefaultTournamentCaps).
	Caps storage.TournamentCaps
	// AIMoveTime bounds an AI's time for a move in a tournament's games,
	// below the tournament's time per move.
	AIMoveTime time.Duration
	// SweepEvery is how often the timers' Tick advances every running
	// tournament (a safety net: a game's end advances its tournament at
	// once).
	SweepEvery time.Duration
	// Scheduled says the store schedules every advance as a job, in the
	// transaction of the change that makes it due (storage/postgres with
	// River), which runs RunDue: Kick does nothing, and nothing calls
	// Tick.
	Scheduled bool
	// Go runs an advance off the caller's path (the bot counts it as work
	// in flight); nil runs it on a goroutine of its own.
	Go func(func())
	// Now is the clock.
	Now func() time.Time
	// Log takes what goes wrong out of a player's sight.
	Log *slog.Logger
	// Left reports whether the bot was removed from a guild, whose
	// tournaments Tick leaves alone: nothing can be posted there. Nil for
	// none.
	Left func(guildID string) bool
}

// Flow runs the servers' tournaments.
type Flow struct {
	store  Store
	boards Boards
	cfg    Config
	log    *slog.Logger
	places placer    // where a round's boards go (thread.go)
	ann    announcer // the announcement kept current (thread.go)

	mu      sync.Mutex
	running map[storage.TournamentID]bool // an advance of the tournament is under way in this process
	again   map[storage.TournamentID]bool // and another was asked for meanwhile
	swept   time.Time                     // the last Tick that advanced every running tournament
}

// New returns the flow over store and boards.
func New(store Store, boards Boards, cfg Config) *Flow {
	if cfg.Go == nil {
		cfg.Go = func(f func()) { go f() }
	}
	f := &Flow{store: store, boards: boards, cfg: cfg, log: cfg.Log, places: placer{store, boards, cfg.Log},
		running: map[storage.TournamentID]bool{}, again: map[storage.TournamentID]bool{}}
	f.ann = announcer{store, boards, cfg.Log, f.announcement}
	return f
}

// The bounds of /tournament create's options.
const (
	minMoveTime     = 10 * time.Second
	maxMoveTime     = 24 * time.Hour
	defaultMoveTime = 2 * time.Minute
	maxStartIn      = 7 * 24 * 60 // minutes
	maxArena        = 24 * 60     // minutes
	defaultArena    = 30          // minutes
	defaultRounds   = 3
	maxName         = 100
	historyListed   = 10
)

// tournamentOption is the option naming a tournament by its ID; left out,
// the server's latest is meant (named).
func tournamentOption() *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "id",
		Description: "The tournament's ID (default: the one under way, else the newest)", MaxLength: 20}
}

// Routes declares /tournament and the announcement's buttons and select.
func (f *Flow) Routes(m *mux.Mux) {
	const sub = discordgo.ApplicationCommandOptionSubCommand
	m.Command(&discordgo.ApplicationCommand{
		Name: "tournament", Description: "Tournaments in this server",
		Contexts:         &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall},
		Options: []*discordgo.ApplicationCommandOption{
			{Type: sub, Name: "create", Description: "Announce a tournament in this channel", Options: []*discordgo.ApplicationCommandOption{
				mux.ChoiceOption("format", "How players are paired", true, []*discordgo.ApplicationCommandOptionChoice{
					{Name: "swiss", Value: "swiss"}, {Name: "arena", Value: "arena"}, {Name: "roundrobin", Value: "roundrobin"},
				}),
				gamenames.DuelOption(true),
				{Type: discordgo.ApplicationCommandOptionString, Name: "name", Description: "The tournament's name", MaxLength: maxName},
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "rounds", Description: "Swiss: the number of rounds (default 3)",
					MinValue: mux.Ptr(1.0), MaxValue: 20},
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "duration", Description: "Minutes an Arena lasts (default 30)",
					MinValue: mux.Ptr(5.0), MaxValue: maxArena},
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "double", Description: "Round robin: play everyone twice"},
				{Type: discordgo.ApplicationCommandOptionNumber, Name: "movetime", Description: "Seconds each player has for a move (default 120)",
					MinValue: mux.Ptr(minMoveTime.Seconds()), MaxValue: maxMoveTime.Seconds()},
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "start", Description: "Start in this many minutes (default: when you press Start)",
					MinValue: mux.Ptr(1.0), MaxValue: maxStartIn},
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "Whether the games move ratings (default: rated)"},
				{Type: discordgo.ApplicationCommandOptionBoolean, Name: "ai", Description: "Let you enter AI players"},
			}},
			{Type: sub, Name: "list", Description: "This server's tournaments"},
			{Type: sub, Name: "standings", Description: "A tournament's table", Options: []*discordgo.ApplicationCommandOption{tournamentOption()}},
			{Type: sub, Name: "pause", Description: "Pause a tournament: no new pairings, and the clocks of its games stop", Options: []*discordgo.ApplicationCommandOption{tournamentOption()}},
			{Type: sub, Name: "resume", Description: "Resume a paused tournament", Options: []*discordgo.ApplicationCommandOption{tournamentOption()}},
			{Type: sub, Name: "cancel", Description: "Cancel a tournament", Options: []*discordgo.ApplicationCommandOption{tournamentOption()}},
		},
	}, f.cmdTournament, nil)
	m.Component(customid.TournamentJoin, f.clickJoin)
	m.Component(customid.TournamentLeave, f.clickLeave)
	m.Component(customid.TournamentStart, f.clickStart)
	m.Component(customid.TournamentCancel, f.clickCancel)
	m.Component(customid.TournamentAI, f.clickAI)
	m.Component(customid.TournamentAIOut, f.clickAIOut)
	m.Component(customid.TournamentWithdraw, f.clickWithdraw)
	m.Component(customid.TournamentStay, clickStay)
}

// cmdTournament handles /tournament's subcommands, in a server's channel
// only: a tournament is a server's.
func (f *Flow) cmdTournament(ctx context.Context, ix *mux.Command) error {
	if ix.GuildID == "" || ix.InteractionOnly() {
		return mux.Err("tournament.server_only")
	}
	switch ix.Opts.Sub {
	case "create":
		return f.cmdCreate(ctx, ix)
	case "list":
		list, err := f.store.GuildTournaments(ctx, ix.GuildID, historyListed)
		if err != nil && !errors.Is(err, storage.ErrCorrupt) {
			return fmt.Errorf("tournament: list of guild %s: %w", ix.GuildID, err)
		}
		return ix.Reply(render.TournamentList(ix.Lang(), list), true)
	case "standings":
		t, err := f.named(ctx, ix)
		if err != nil {
			return err
		}
		return ix.Reply(render.TournamentStandings(ix.Lang(), t, doneRounds(t), standings(t)), true)
	case "pause":
		return f.cmdStatus(ctx, ix, storage.TournamentPaused)
	case "resume":
		return f.cmdStatus(ctx, ix, storage.TournamentRunning)
	case "cancel":
		return f.cmdStatus(ctx, ix, storage.TournamentCancelled)
	}
	return mux.Err("tournament.server_only")
}

// named loads the tournament a subcommand names by its id option, or
// the server's latest: the newest under way (running or paused), else the
// newest announced, else the newest ended — a tournament announced while
// another runs does not hide the one being played. A tournament of
// another server is answered as one that does not exist.
func (f *Flow) named(ctx context.Context, ix *mux.Command) (*storage.Tournament, error) {
	if id := ix.Opts.Str("id"); id != "" {
		return f.load(ctx, ix.Interaction, storage.TournamentID(id))
	}
	list, err := f.store.GuildTournaments(ctx, ix.GuildID, 1)
	if err != nil && !errors.Is(err, storage.ErrCorrupt) {
		return nil, fmt.Errorf("tournament: list of guild %s: %w", ix.GuildID, err)
	}
	rank := func(t *storage.Tournament) int { // higher is preferred
		switch {
		case t.Status.Started():
			return 2
		case !t.Status.Ended():
			return 1
		}
		return 0
	}
	var latest *storage.Tournament
	for _, t := range list {
		// open ones come first, oldest first: of a rank, the last open one
		// is the newest; the one ended (history 1) comes last.
		if latest == nil || rank(t) > rank(latest) || rank(t) == rank(latest) && rank(t) > 0 {
			latest = t
		}
	}
	if latest == nil {
		return nil, mux.Err("tournament.none")
	}
	return latest, nil
}

// load loads tournament id for an interaction of its server.
func (f *Flow) load(ctx context.Context, ix *mux.Interaction, id storage.TournamentID) (*storage.Tournament, error) {
	t, err := f.store.Tournament(ctx, id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && t.GuildID != ix.GuildID {
		return nil, mux.Err("tournament.not_found", "ID", mux.Quote(string(id)))
	}
	if err != nil {
		return nil, fmt.Errorf("tournament: load %s: %w", id, err)
	}
	return t, nil
}

// cmdCreate announces a new tournament in the channel.
func (f *Flow) cmdCreate(ctx context.Context, ix *mux.Command) error {
	t, err := f.request(ix)
	if err != nil {
		return err
	}
	if err := f.store.CreateTournament(ctx, t, f.cfg.Caps); err != nil {
		var le *storage.TournamentLimitError
		if errors.As(err, &le) {
			return mux.Err("tournament.too_many", "Max", le.Max)
		}
		return fmt.Errorf("tournament: create in guild %s: %w", ix.GuildID, err)
	}
	if err := ix.Reply(f.announcement(f.boards.Shared(ix.Interaction), t), false); err != nil {
		return err
	}
	f.ann.note(ctx, ix.Interaction, t)
	return nil
}

// request reads /tournament create's options into a new tournament, or
// the member's error.
func (f *Flow) request(ix *mux.Command) (*storage.Tournament, error) {
	o := ix.Opts
	kind, err := gamenames.Kind(o, "game")
	if err != nil {
		return nil, err
	}
	t := &storage.Tournament{
		GuildID: ix.GuildID, ChannelID: ix.ChannelID, Creator: storage.User(ix.Caller().ID),
		Name: strings.TrimSpace(o.Str("name")), Kind: kind, MoveTime: defaultMoveTime,
	}
	if len(t.Name) > maxName {
		return nil, mux.Err("tournament.long_name", "Max", maxName)
	}
	rounds, roundsGiven, err := o.Integer("rounds")
	if err != nil {
		return nil, err
	}
	minutes, durationGiven, err := o.Integer("duration")
	if err != nil {
		return nil, err
	}
	double, doubleGiven, err := o.Flag("double")
	if err != nil {
		return nil, err
	}
	switch o.Str("format") {
	case "swiss":
		t.Format, t.SwissRounds = storage.FormatSwiss, defaultRounds
		if roundsGiven {
			t.SwissRounds = int(rounds)
		}
		if durationGiven || doubleGiven {
			return nil, mux.Err("tournament.swiss_options")
		}
	case "arena":
		t.Format, t.Duration = storage.FormatArena, defaultArena*time.Minute
		if durationGiven {
			t.Duration = time.Duration(minutes) * time.Minute
		}
		if roundsGiven || doubleGiven {
			return nil, mux.Err("tournament.arena_options")
		}
	case "roundrobin":
		t.Format, t.Cycles = storage.FormatRoundRobin, 1
		if double {
			t.Cycles = 2
		}
		if roundsGiven || durationGiven {
			return nil, mux.Err("tournament.roundrobin_options")
		}
	default:
		return nil, mux.Err("tournament.bad_format", "Format", mux.Quote(o.Str("format")))
	}
	if t.Format == storage.FormatSwiss && (t.SwissRounds < 1 || t.SwissRounds > 20) ||
		t.Format == storage.FormatArena && (t.Duration < 5*time.Minute || t.Duration > maxArena*time.Minute) {
		return nil, mux.Err("tournament.bad_length")
	}
	if d, given, err := o.Seconds("movetime", minMoveTime, maxMoveTime); err != nil {
		return nil, err
	} else if given {
		t.MoveTime = d
	}
	if in, given, err := o.Integer("start"); err != nil {
		return nil, err
	} else if given {
		if in < 1 || in > maxStartIn {
			return nil, mux.Err("tournament.bad_start", "Max", maxStartIn)
		}
		t.StartAt = f.cfg.Now().Add(time.Duration(in) * time.Minute)
	}
	if rated, given, err := o.Flag("rated"); err != nil {
		return nil, err
	} else if given {
		t.Settings.Casual = !rated
	}
	if ai, _, err := o.Flag("ai"); err != nil {
		return nil, err
	} else {
		t.OpenToAI = ai
	}
	return t, nil
}

// announcement renders t's announcement, with the AIs of its game.
func (f *Flow) announcement(l *i18n.Localizer, t *storage.Tournament) render.Message {
	return render.TournamentAnnouncement(l, t, strategies.ForGame(string(t.Kind)))
}

// manages reports whether the member of ix may pause, resume or cancel t,
// or take an AI out of it: its creator, or a member with Manage Server.
func manages(ix *mux.Interaction, t *storage.Tournament) bool {
	if storage.User(ix.Caller().ID) == t.Creator {
		return true
	}
	return ix.Member != nil && ix.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0
}

// cmdStatus pauses, resumes or cancels the tournament a subcommand names,
// and says so in the channel.
func (f *Flow) cmdStatus(ctx context.Context, ix *mux.Command, to storage.TournamentStatus) error {
	t, err := f.named(ctx, ix)
	if err != nil {
		return err
	}
	t, err = f.setStatus(ctx, ix.Interaction, t, to)
	if err != nil {
		return err
	}
	f.ann.show(ctx, t)
	l := f.boards.Shared(ix.Interaction)
	return ix.Reply(render.TournamentNotice(l, t, l.T("tournament.now_"+string(to), "Player", render.PlayerName(l, "", storage.Player{ID: storage.User(ix.Caller().ID)}))), false)
}

// setStatus changes t's status for the member of ix, who must manage it,
// and advances a resumed tournament.
func (f *Flow) setStatus(ctx context.Context, ix *mux.Interaction, t *storage.Tournament, to storage.TournamentStatus) (*storage.Tournament, error) {
	if !manages(ix, t) {
		return nil, mux.Err("tournament.manage_only")
	}
	switch {
	case t.Status.Ended():
		return nil, mux.Err("tournament.ended")
	case to == storage.TournamentPaused && t.Status != storage.TournamentRunning,
		to == storage.TournamentRunning && t.Status != storage.TournamentPaused:
		return nil, mux.Err("tournament.not_" + string(to))
	}
	nt, err := f.store.SetTournamentStatus(ctx, t.ID, to)
	switch {
	case errors.Is(err, storage.ErrConflict), errors.Is(err, storage.ErrGameOver), errors.Is(err, storage.ErrInvalid):
		return nil, mux.RaceErr(err, "tournament.changed")
	case err != nil:
		return nil, fmt.Errorf("tournament: set %s %s: %w", t.ID, to, err)
	}
	if _, ok := storage.PausesClocks(t.Status, to); ok {
		// The boards of the games under way, off the caller's path: each
		// says its clock stopped, or shows its new deadline, and an AI to
		// move plays on.
		bctx, games := context.WithoutCancel(ctx), nt.PendingGames()
		f.cfg.Go(func() {
			for _, id := range games {
				if err := f.boards.Show(bctx, id); err != nil {
					f.log.Warn("board of a paused or resumed tournament not shown", "tournament", t.ID, "game", id, "err", err)
				}
			}
		})
	}
	if to == storage.TournamentRunning {
		f.Kick(ctx, nt.ID)
	}
	return nt, nil
}

// doneRounds counts t's rounds whose every game has ended.
func doneRounds(t *storage.Tournament) int {
	n := 0
	for _, r := range t.Rounds {
		if r.Done() {
			n++
		}
	}
	return n
}

// standings are t's standings (league.Standings) as its messages show
// them: forfeits count as wins and losses.
func standings(t *storage.Tournament) []render.TournamentRow {
	var rows []render.TournamentRow
	for _, s := range league.Standings(t) {
		rows = append(rows, render.TournamentRow{
			Rank: s.Rank, Player: t.Entrants[s.Entrant].Player, Score: s.Score,
			Buchholz: s.BuchholzCut1, SonnebornBerger: s.SonnebornBerger,
			Won: s.Won + s.ForfeitWins, Drawn: s.Drawn, Lost: s.Lost + s.Forfeits,
			Withdrawn: s.Withdrawn, OnFire: s.OnFire,
		})
	}
	return rows
}
