package challenges

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// New games: /play (against a member, an AI, or anyone here), /challenge
// (a member, or anyone here), and the "Challenge to a game" user command
// with its select of games. A game against an AI starts at once; a
// challenge waits for its answer (challenges.go).

// gameRequest is a new game as asked for by /play or Rematch.
type gameRequest struct {
	kind     storage.Kind
	me       storage.Player
	opponent storage.Player
	first    string // "me", "opponent" or "random", from me's side
	rounds   int
	moveTime time.Duration
	casual   bool // moves no rating
}

// cmdPlay handles /play: against a member, an AI, or (open) anyone here.
func (f *Flow) cmdPlay(ctx context.Context, ix *mux.Command) error {
	opts := ix.Opts
	req, err := f.commandRequest(ctx, ix)
	if err != nil {
		return err
	}
	opponentID := opts.User("opponent")
	aiName := opts.Str("ai")
	open, _, err := opts.Flag("open")
	if err != nil {
		return err
	}
	switch {
	case open && (opponentID != "" || aiName != ""):
		return mux.Err("play.open_alone")
	case open:
		return f.openChallenge(ctx, ix.Interaction, req)
	case opponentID != "" && aiName != "":
		return mux.Err("play.both")
	case opponentID != "":
		return f.challengeUser(ctx, ix.Interaction, req, opponentID, ix.Resolved)
	}
	if aiName == "" {
		aiName = f.cfg.DefaultAI
	}
	info, err := strategies.Lookup(aiName)
	if err != nil {
		return mux.Err("play.no_ai", "Name", mux.Quote(aiName))
	}
	if !info.Supports(string(req.kind)) {
		return mux.Err("play.ai_game", "AI", info.Name, "Game", req.kind, "Choices", strategyList(string(req.kind)))
	}
	req.opponent = storage.Player{ID: storage.AI(info.Name), Name: info.Name}
	_, err = f.startAIGame(ctx, ix.Interaction, req)
	return err
}

// cmdChallenge handles /challenge user:<…> game:<…>: /play with an
// opponent, in one step; without a user, an open challenge.
func (f *Flow) cmdChallenge(ctx context.Context, ix *mux.Command) error {
	req, err := f.commandRequest(ctx, ix)
	if err != nil {
		return err
	}
	opponentID := ix.Opts.User("user")
	if opponentID == "" {
		return f.openChallenge(ctx, ix.Interaction, req)
	}
	return f.challengeUser(ctx, ix.Interaction, req, opponentID, ix.Resolved)
}

// commandRequest reads the game a command (/play, /challenge) names and
// the options a new game of it takes (request).
func (f *Flow) commandRequest(ctx context.Context, ix *mux.Command) (gameRequest, error) {
	kind, err := gamenames.Kind(ix.Opts, "game")
	if err != nil {
		return gameRequest{}, err
	}
	return f.request(ctx, ix.Interaction, kind, ix.Opts)
}

// request reads the options a new game of kind shares between /play,
// /challenge and the challenge menu (which has none: the defaults) —
// rounds, who moves first, the AI's move time, rated or casual (the
// server's setting unless given) — and checks that the game is allowed
// and the board can be kept up to date here.
func (f *Flow) request(ctx context.Context, ix *mux.Interaction, kind storage.Kind, opts mux.Options) (gameRequest, error) {
	settings := f.games.Settings(ctx, ix.GuildID)
	if !settings.Allows(kind) {
		return gameRequest{}, mux.Err("play.not_allowed", "Game", titleIn(kind), "Allowed", gamenames.List(settings.AllowedGames))
	}
	req := gameRequest{kind: kind, me: play.PlayerOf(ix.Caller()), first: "me", moveTime: settings.MoveTime, casual: settings.Casual}
	if rated, given, err := opts.Flag("rated"); err != nil {
		return gameRequest{}, err
	} else if given {
		req.casual = !rated
	}
	if first := opts.Str("first"); first != "" {
		if first != "me" && first != "opponent" && first != "random" {
			return gameRequest{}, mux.Err("play.first_choice")
		}
		req.first = first
	}
	gm, err := catalog.Lookup(string(kind))
	if err != nil {
		return gameRequest{}, fmt.Errorf("challenges: new game: %w", err)
	}
	if r, given, err := opts.Integer("rounds"); err != nil {
		return gameRequest{}, err
	} else if given {
		rng := gm.Setup.Rounds
		if rng == nil {
			return gameRequest{}, mux.Err("play.rounds_only", "Games", withRounds())
		}
		if r < int64(rng.Min) || r > int64(rng.Max) {
			return gameRequest{}, mux.Err("play.rounds_range", "Min", rng.Min, "Max", rng.Max)
		}
		req.rounds = int(r)
	} else if rng := gm.Setup.Rounds; rng != nil {
		req.rounds = rng.Default
	}
	if d, given, err := opts.Seconds("movetime", 100*time.Millisecond, f.cfg.MaxMoveTime); err != nil {
		return gameRequest{}, err
	} else if given {
		req.moveTime = d
	}
	if err := play.CheckChannelPermissions(ix); err != nil {
		return gameRequest{}, err
	}
	return req, nil
}

// withRounds names the duels that take the rounds option: "Adjacency".
func withRounds() string {
	var titles []string
	for _, g := range gamenames.Duels() {
		if g.Setup.Rounds != nil {
			titles = append(titles, g.Title)
		}
	}
	return strings.Join(titles, ", ")
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

// checkOpponent refuses a challenge to a user who cannot take it: the
// challenger, a user Discord did not resolve, a bot, in a server someone
// who is not its member, or anyone in the challenger's DM with Gambit,
// where nobody else can see the challenge. It returns the resolved user.
// kind is the game, "" when not chosen yet.
func (f *Flow) checkOpponent(ix *mux.Interaction, kind storage.Kind, opponentID string, resolved *discordgo.ApplicationCommandInteractionDataResolved) (*discordgo.User, error) {
	var opponent *discordgo.User
	member := false
	if resolved != nil {
		opponent, member = resolved.Users[opponentID], resolved.Members[opponentID] != nil
	}
	switch {
	case opponentID == ix.Caller().ID && kind == "":
		return nil, mux.Err("play.yourself_any")
	case opponentID == ix.Caller().ID:
		return nil, mux.Err("play.yourself", "Game", kind, "AI", f.cfg.DefaultAI)
	case opponent == nil:
		return nil, mux.Err("play.no_member")
	case opponent.Bot:
		return nil, mux.Err("play.bot_opponent", "Name", opponent.Username)
	case ix.GuildID != "" && !member:
		return nil, mux.Err("play.not_a_member", "Name", opponent.Username)
	case ix.Context == discordgo.InteractionContextBotDM:
		return nil, mux.Err("play.not_in_dm")
	}
	return opponent, nil
}

// challengeUser posts req as a challenge to the user opponentID, whom
// Discord resolved in resolved.
func (f *Flow) challengeUser(ctx context.Context, ix *mux.Interaction, req gameRequest, opponentID string, resolved *discordgo.ApplicationCommandInteractionDataResolved) error {
	opponent, err := f.checkOpponent(ix, req.kind, opponentID, resolved)
	if err != nil {
		return err
	}
	req.opponent = play.PlayerOf(opponent)
	_, err = f.challenge(ctx, ix, req)
	return err
}

// Open challenges: /challenge without a member posts a challenge that any
// member but the challenger may accept. The first Accept takes it, decided
// by the store (storage.Store.TakeChallenge) so that of clicks racing in
// one process or several exactly one starts the game; the others are told
// who was first. Otherwise it lives as a targeted challenge does: the
// challenger's caps count it, it expires after Config.ChallengeTTL, its
// challenger withdraws it (clickDecline), and its message becomes the
// board.

// openChallenge posts req as an open challenge, holding the new game's
// lock.
func (f *Flow) openChallenge(ctx context.Context, ix *mux.Interaction, req gameRequest) error {
	if ix.Context == discordgo.InteractionContextBotDM {
		return mux.Err("open.not_in_dm")
	}
	req.opponent = storage.Player{ID: storage.Anyone}
	_, err := f.challenge(ctx, ix, req)
	return err
}

// cmdChallengeMenu handles the "Challenge to a game" user command: it
// shows the challenger alone a select of the games allowed here, and a
// second for an open challenge instead; choosing one posts the challenge
// (clickChallengePick).
func (f *Flow) cmdChallengeMenu(ctx context.Context, ix *mux.Command) error {
	if _, err := f.checkOpponent(ix.Interaction, "", ix.Target, ix.Resolved); err != nil {
		return err
	}
	settings := f.games.Settings(ctx, ix.GuildID)
	var allowed []storage.Kind
	for _, g := range gamenames.Duels() {
		if settings.Allows(storage.Kind(g.Name)) {
			allowed = append(allowed, storage.Kind(g.Name))
		}
	}
	if len(allowed) == 0 {
		return mux.Err("play.no_duel_allowed")
	}
	return ix.Reply(render.ChallengeMenu(ix.Lang(), ix.Target, allowed), true)
}

// clickChallengePick posts the challenge chosen in the challenge menu's
// select, with the game's default options, as a new message.
func (f *Flow) clickChallengePick(ctx context.Context, ix *mux.Component) error {
	p := ix.Params
	values := ix.Values
	if len(values) != 1 {
		return mux.Err("play.pick_one")
	}
	kind := storage.Kind(values[0])
	if !gamenames.IsDuel(kind) {
		return mux.Err("play.unknown_game", "Name", mux.Echo(values[0]), "Choices", gamenames.DuelNames())
	}
	req, err := f.request(ctx, ix.Interaction, kind, mux.Options{})
	if err != nil {
		return err
	}
	if p["user"] == customid.AnyoneHere {
		return f.openChallenge(ctx, ix.Interaction, req)
	}
	if err := f.checkPick(ix); err != nil {
		return err
	}
	// The select names the user only (checkOpponent saw the whole user
	// when it offered the select), so the game knows them by ID: boards
	// mention users by ID anyway.
	req.opponent = storage.Player{ID: storage.User(p["user"])}
	_, err = f.challenge(ctx, ix.Interaction, req)
	return err
}

// checkPick refuses a pick of the challenge menu's select whose user is
// not one the menu offered. A click carries no resolved user, so the
// user's ID is checked as typed — a user's ID, not the clicker's, not
// Gambit's — and the rest (a person, a member of the server) is what
// checkOpponent found when it offered the select: the select must be on
// the message the click came from, which Discord sends with the click and
// only the bot writes.
func (f *Flow) checkPick(ix *mux.Component) error {
	user := ix.Params["user"]
	switch {
	case !snowflake(user) || user == f.cfg.AppID():
		return mux.Err("play.no_member")
	case user == ix.Caller().ID:
		return mux.Err("play.yourself_short")
	}
	if ix.Message == nil || !render.OffersChallengeTo(ix.Message.Components, user) {
		return mux.Err("play.no_member")
	}
	return nil
}

// snowflake reports whether id has the form of a Discord ID: a positive
// 64-bit number in decimal.
func snowflake(id string) bool {
	n, err := strconv.ParseUint(id, 10, 64)
	return err == nil && n > 0 && strconv.FormatUint(n, 10) == id
}

// newGame returns the record of a requested game, not yet stored.
func newGame(ix *mux.Interaction, req gameRequest) *storage.Game {
	return &storage.Game{
		Kind: req.kind, Players: []storage.Player{req.me, req.opponent},
		Settings:  storage.Settings{Rounds: req.rounds, First: req.first, MoveTime: req.moveTime, Casual: req.casual},
		GuildID:   ix.GuildID,
		ChannelID: ix.ChannelID,
	}
}

// startAIGame creates a game against an AI and shows its board, holding
// the new game's lock; when the AI moves first, its turn is queued. It
// returns the game, nil if none was created.
func (f *Flow) startAIGame(ctx context.Context, ix *mux.Interaction, req gameRequest) (*storage.Game, error) {
	g := newGame(ix, req)
	if err := f.games.Begin(ctx, g); err != nil {
		return nil, err
	}
	if err := play.CreateGame(ctx, f.store, g, f.games.Limits()); err != nil {
		return nil, err
	}
	return g, f.turns.Hold(ctx, ix, g.ID, func() error {
		pos, err := play.Position(g)
		if err != nil {
			return err
		}
		return f.boards.ShowNew(ctx, ix, g, f.boards.View(g, pos, f.turns.QueueAI(ctx, ix, g), nil, ""))
	})
}

// challenge posts a challenge to another member, holding the new game's
// lock. It returns the game, nil if none was created.
func (f *Flow) challenge(ctx context.Context, ix *mux.Interaction, req gameRequest) (*storage.Game, error) {
	g := newGame(ix, req)
	g.Status = storage.StatusPending
	g.Deadline = f.cfg.Now().Add(f.cfg.ChallengeTTL)
	if err := play.CreateGame(ctx, f.store, g, f.games.Limits()); err != nil {
		return nil, err
	}
	return g, f.turns.Hold(ctx, ix, g.ID, func() error {
		return f.boards.ShowNew(ctx, ix, g, f.boards.View(g, nil, nil, nil, ""))
	})
}
