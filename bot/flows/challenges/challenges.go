// Package challenges is the flow of new games and challenges: /play
// (against a member, an AI, or anyone here), /challenge, the "Challenge
// to a game" user command and its select of games, Rematch under an ended
// game; and the answers to a challenge — Accept and Decline (or, for the
// challenger, Withdraw) on a challenge to a member, Accept on an open
// challenge, which the first taker gets.
package challenges

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
)

// Store is what the flow reads and changes in the store: new games, the
// challenges and the rematch claims.
type Store interface {
	Game(ctx context.Context, id storage.GameID) (*storage.Game, error)
	CreateGame(ctx context.Context, g *storage.Game, limits storage.Limits) error
	UpdateGame(ctx context.Context, g *storage.Game) error
	TakeChallenge(ctx context.Context, g *storage.Game, limits storage.Limits) error
	ClaimRematch(ctx context.Context, id storage.GameID) error
	ReleaseRematch(ctx context.Context, id storage.GameID) error
}

// Games is what the flow needs of the code that starts games.
type Games interface {
	// Begin sets g up to start: its start position, who moves first and
	// the deadline of the player to move.
	Begin(ctx context.Context, g *storage.Game) error
	// CheckLimits refuses, as the member's error, a member at their cap
	// of open games — or, for a new challenge, of waiting challenges.
	CheckLimits(ctx context.Context, userID string, challenge bool) error
	// Limits are the caps the store checks as a game is created or an
	// open challenge taken.
	Limits() storage.Limits
	// Settings are a server's settings: the games it allows, its move
	// time, rated or casual; the zero value for none or on error.
	Settings(ctx context.Context, guildID string) storage.GuildSettings
}

// Boards is the bot's board code, as a new game and a click on a
// challenge's message meet it.
type Boards interface {
	// EndedBehind reports whether the click came from g's message while
	// it is behind g, which ended meanwhile; CatchUp then brings it up to
	// date and tells the clicker nothing was done.
	EndedBehind(ix *mux.Interaction, g *storage.Game) bool
	CatchUp(ctx context.Context, ix *mux.Interaction, g *storage.Game) error
	// OnBoard reports whether the click came from g's message (a forged
	// custom ID can name g from elsewhere).
	OnBoard(ix *mux.Interaction, g *storage.Game) bool
	// Adopt records the clicked message as g's board when its ID was
	// never saved.
	Adopt(ctx context.Context, ix *mux.Interaction, g *storage.Game) error
	// Update answers the click by showing g as it now is in its message:
	// the board of a game begun, or the challenge answered.
	Update(ctx context.Context, ix *mux.Interaction, g *storage.Game) error
	// View renders g's board at pos (nil for a challenge), saying the AI
	// is thinking if thinking is not nil.
	View(g *storage.Game, pos engine.Position, thinking *render.Thinking, changes []storage.RatingChange, notice string) render.Message
	// ShowNew shows msg as g's new board through ix — the answer, or a
	// follow-up if ix was answered — and saves its message ID.
	ShowNew(ctx context.Context, ix *mux.Interaction, g *storage.Game, msg render.Message) error
	// Rematched renders g, ended, whose rematch was taken: its board
	// with notice and no Rematch button, keeping the rating changes shown
	// on its board as clicked (shown, nil if unknown).
	Rematched(g *storage.Game, notice string, shown *discordgo.Message) render.Message
	// Lang is the language of g's board: its guild's.
	Lang(g *storage.Game) *i18n.Localizer
}

// Turns is the game seam below the flows, as a new game meets it.
type Turns interface {
	// Hold runs fn holding game id's lock for ix, until fn returns or
	// first calls Discord through ix.
	Hold(ctx context.Context, ix *mux.Interaction, id storage.GameID, fn func() error) error
	// QueueAI queues the AI's turn if g awaits it, to start once the
	// handler returned, and returns what the board should show; nil if
	// the AI is not to move.
	QueueAI(ctx context.Context, ix *mux.Interaction, g *storage.Game) *render.Thinking
	// OnGame runs h on game id, loaded under its lock for ix.
	OnGame(ctx context.Context, ix *mux.Interaction, id string, h func(context.Context, *storage.Game) error) error
}

// Config is the flow's settings.
type Config struct {
	// DefaultAI is the strategy /play uses when given neither opponent
	// nor ai.
	DefaultAI string
	// ChallengeTTL is how long a challenge waits for an answer.
	ChallengeTTL time.Duration
	// MaxMoveTime bounds the movetime option.
	MaxMoveTime time.Duration
	// AppID returns the bot's application ID, learnt as it connects.
	AppID func() string
	// Now is the clock.
	Now func() time.Time
	// Log takes what goes wrong out of a player's sight.
	Log *slog.Logger
}

// Flow starts games and answers challenges.
type Flow struct {
	store  Store
	games  Games
	boards Boards
	turns  Turns
	seam   play.GameRoutes
	cfg    Config
	log    *slog.Logger
}

// New returns the flow over store, games, boards and turns, its routes
// of one game running in seam.
func New(store Store, games Games, boards Boards, turns Turns, seam play.GameRoutes, cfg Config) *Flow {
	return &Flow{store: store, games: games, boards: boards, turns: turns, seam: seam, cfg: cfg, log: cfg.Log}
}

// MenuName is the name of the user command (in a member's context menu)
// that challenges them.
const MenuName = "Challenge to a game"

// Routes declares /play, /challenge, the challenge menu and its select,
// Rematch, and Accept, Decline and an open challenge's Accept, routes of
// one game.
func (f *Flow) Routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "play", Description: "Start a game against someone or against an AI",
		Options: []*discordgo.ApplicationCommandOption{
			gamenames.DuelOption(true),
			{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Challenge this member"},
			{Type: discordgo.ApplicationCommandOptionString, Name: "ai", Description: "Play this AI strategy", Autocomplete: true,
				MaxLength: gamenames.MaxAIName},
			roundsOption(), firstOption(),
			{Type: discordgo.ApplicationCommandOptionNumber, Name: "movetime", Description: "AI seconds per move",
				MinValue: mux.Ptr(0.1), MaxValue: f.cfg.MaxMoveTime.Seconds()},
			ratedOption(),
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "open", Description: "Post the challenge for anyone here to accept"},
		},
	}, f.cmdPlay, gamenames.CompleteAI)
	m.Command(&discordgo.ApplicationCommand{
		// Without a user the challenge is open: anyone here may accept
		// it. Discord wants required options first, so game leads.
		Name: "challenge", Description: "Challenge someone to a game",
		Options: []*discordgo.ApplicationCommandOption{
			gamenames.DuelOption(true),
			{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Who to challenge (leave out: anyone here may accept)"},
			roundsOption(), firstOption(), ratedOption(),
		},
	}, f.cmdChallenge, nil)
	m.Command(&discordgo.ApplicationCommand{Name: MenuName, Type: discordgo.UserApplicationCommand}, f.cmdChallengeMenu, nil)
	m.Component(customid.Rematch, f.clickRematch) // the old game's lock, then the new one's
	m.Component(customid.ChallengePick, f.clickChallengePick)
	games := mux.NewGroup(m, f.seam)
	games.Component(customid.Accept, f.clickAccept)
	games.Component(customid.Decline, f.clickDecline)
	games.Component(customid.Take, f.clickTake)
}

// roundsOption, firstOption and ratedOption are the options /play and
// /challenge share.
func roundsOption() *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "rounds", Description: "Adjacency rounds (2–28)",
		MinValue: mux.Ptr(2.0), MaxValue: 28}
}

func firstOption() *discordgo.ApplicationCommandOption {
	return mux.ChoiceOption("first", "Who moves first (default: me)", false, []*discordgo.ApplicationCommandOptionChoice{
		{Name: "me", Value: "me"}, {Name: "opponent", Value: "opponent"}, {Name: "random", Value: "random"},
	})
}

func ratedOption() *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated",
		Description: "Whether the game moves ratings (default: this server's setting, rated)"}
}

// checkChallenge refuses an answer to g unless g is a pending challenge
// and the clicker its challenged player (or, for withdraw, the
// challenger). A click that is not on the challenge's message (onBoard)
// carries a forged custom ID: it is answered as for a game that does not
// exist, naming nobody.
func (f *Flow) checkChallenge(ix *mux.Interaction, g *storage.Game, challengerMay bool) error {
	if !f.boards.OnBoard(ix, g) {
		return mux.Err("error.no_game", "ID", g.ID)
	}
	if g.Status != storage.StatusPending {
		state := map[storage.Status]string{
			storage.StatusActive: "active", storage.StatusFinished: "played", storage.StatusForfeited: "played",
			storage.StatusExpired: "expired", storage.StatusDeclined: "declined",
			storage.StatusWithdrawn: "withdrawn", storage.StatusCancelled: "cancelled", storage.StatusAbandoned: "abandoned",
			storage.StatusAborted: "aborted",
		}[g.Status]
		return mux.Err("challenge.closed", "State", mux.Localized(func(l *i18n.Localizer) string { return l.T("challenge.closed." + state) }))
	}
	switch g.Seat(storage.User(ix.Caller().ID)) {
	case 1:
		return nil
	case 0:
		if challengerMay {
			return nil
		}
		return mux.Err("challenge.own", "Player", gamenames.Player(g.Kind, g.Players[1]))
	}
	if g.OpenChallenge() {
		return mux.Err("open.withdraw_own", "Player", gamenames.Player(g.Kind, g.Players[0]))
	}
	return mux.Err("challenge.not_yours", "Player", gamenames.Player(g.Kind, g.Players[1]))
}

// clickAccept starts a challenged game.
func (f *Flow) clickAccept(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if f.boards.EndedBehind(ix.Interaction, g) {
		return f.boards.CatchUp(ctx, ix.Interaction, g)
	}
	if err := f.checkChallenge(ix.Interaction, g, false); err != nil {
		return err
	}
	// A challenge counts against the challenged member's cap once
	// accepted (storage.Limits.MaxOpen): at the cap, they finish a game
	// first.
	if err := f.games.CheckLimits(ctx, ix.Caller().ID, false); err != nil {
		return err
	}
	if err := f.boards.Adopt(ctx, ix.Interaction, g); err != nil {
		return err
	}
	if err := f.games.Begin(ctx, g); err != nil {
		return err
	}
	if err := f.store.UpdateGame(ctx, g); err != nil {
		return play.Conflict(err, "accept challenge", g.ID)
	}
	return f.boards.Update(ctx, ix.Interaction, g)
}

// clickDecline declines a challenge, or withdraws it when the challenger
// clicks.
func (f *Flow) clickDecline(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if f.boards.EndedBehind(ix.Interaction, g) {
		return f.boards.CatchUp(ctx, ix.Interaction, g)
	}
	if err := f.checkChallenge(ix.Interaction, g, true); err != nil {
		return err
	}
	if err := f.boards.Adopt(ctx, ix.Interaction, g); err != nil {
		return err
	}
	g.Status = storage.StatusDeclined
	if g.Seat(storage.User(ix.Caller().ID)) == 0 {
		g.Status = storage.StatusWithdrawn
	}
	if err := f.store.UpdateGame(ctx, g); err != nil {
		return play.Conflict(err, "decline challenge", g.ID)
	}
	return f.boards.Update(ctx, ix.Interaction, g)
}

// checkTake refuses a click on an open challenge's Accept unless the
// challenge is still open and the clicker is not its challenger; a
// challenge another member took is named as theirs. An open challenge is
// for anyone in its channel: a click that is not on its message (a forged
// custom ID) names a game the clicker may not see, and is answered as one
// that does not exist.
func (f *Flow) checkTake(ix *mux.Interaction, g *storage.Game) error {
	user := ix.Caller().ID
	switch {
	case !f.boards.OnBoard(ix, g):
		return mux.Err("error.no_game", "ID", g.ID)
	case g.OpenChallenge() && g.Status == storage.StatusPending:
		if g.Seat(storage.User(user)) == 0 {
			return mux.Err("open.own")
		}
		return nil
	case (g.Status == storage.StatusActive || g.Status.Ended()) && g.Seat(storage.User(user)) < 0:
		return mux.Err("open.taken", "Player", gamenames.Player(g.Kind, g.Players[1]))
	}
	return f.checkChallenge(ix, g, false)
}

// clickTake accepts an open challenge for the clicker and shows the board
// in the challenge's message.
func (f *Flow) clickTake(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	if f.boards.EndedBehind(ix.Interaction, g) {
		return f.boards.CatchUp(ctx, ix.Interaction, g)
	}
	if err := f.checkTake(ix.Interaction, g); err != nil {
		return err
	}
	if err := f.boards.Adopt(ctx, ix.Interaction, g); err != nil {
		return err
	}
	g.Players = []storage.Player{g.Players[0], play.PlayerOf(ix.Caller())}
	if err := f.games.Begin(ctx, g); err != nil {
		return err
	}
	if err := f.store.TakeChallenge(ctx, g, f.games.Limits()); err != nil {
		return f.takeRefusal(ctx, ix.Interaction, g.ID, err)
	}
	return f.boards.Update(ctx, ix.Interaction, g)
}

// takeRefusal explains a take the store refused: taken first by another
// member or ended meanwhile (by another process: this one holds the
// game's lock), the clicker at their cap, or a lost race.
func (f *Flow) takeRefusal(ctx context.Context, ix *mux.Interaction, id storage.GameID, err error) error {
	switch {
	case errors.Is(err, storage.ErrTaken), errors.Is(err, storage.ErrGameOver):
		now, lerr := f.store.Game(ctx, id)
		if lerr != nil {
			return fmt.Errorf("challenges: take challenge %s: %w", id, errors.Join(err, lerr))
		}
		if refusal := f.checkTake(ix, now); refusal != nil {
			return refusal
		}
	case errors.Is(err, storage.ErrLimit):
		return play.LimitRefusal(err)
	}
	return play.Conflict(err, "take challenge", id)
}
