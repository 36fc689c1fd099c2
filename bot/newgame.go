package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
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
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// neededPermissions are what the bot needs in a channel to keep a board
// up to date once interaction tokens expire, with their names' IDs in the
// catalogue.
var neededPermissions = []struct {
	bit  int64
	name string
}{
	{discordgo.PermissionViewChannel, "permission.view_channel"},
	{discordgo.PermissionSendMessages, "permission.send_messages"},
	{discordgo.PermissionEmbedLinks, "permission.embed_links"},
	{discordgo.PermissionReadMessageHistory, "permission.read_message_history"},
}

// checkChannelPermissions explains which permissions the bot lacks in the
// channel of an interaction.
// Outside a server channel of a server that installed Gambit there is
// nothing to check: in its DM the bot may post, and where it is reached
// only through interactions, boards live in interaction answers (reach.go).
func checkChannelPermissions(ix *interaction) error {
	if ix.GuildID == "" || ix.InteractionOnly() || ix.AppPermissions&discordgo.PermissionAdministrator != 0 {
		return nil
	}
	var missing []string
	for _, p := range neededPermissions {
		if ix.AppPermissions&p.bit == 0 {
			missing = append(missing, p.name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return mux.Err("play.missing_permissions", "Permissions", mux.Localized(func(l *i18n.Localizer) string {
		names := make([]string, len(missing))
		for i, id := range missing {
			names[i] = l.T(id)
		}
		return strings.Join(names, ", ")
	}))
}

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
func (b gameFlow) cmdPlay(ctx context.Context, ix *command) error {
	opts := ix.Opts
	kind, err := gamenames.Kind(opts, "game")
	if err != nil {
		return err
	}
	req, err := b.request(ctx, ix.Interaction, kind, opts)
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
		return b.openChallenge(ctx, ix.Interaction, req)
	case opponentID != "" && aiName != "":
		return mux.Err("play.both")
	case opponentID != "":
		return b.challengeUser(ctx, ix.Interaction, req, opponentID, ix.Resolved)
	}
	if aiName == "" {
		aiName = b.cfg.DefaultAI
	}
	info, err := strategies.Lookup(aiName)
	if err != nil {
		return mux.Err("play.no_ai", "Name", mux.Quote(aiName))
	}
	if !info.Supports(string(kind)) {
		return mux.Err("play.ai_game", "AI", info.Name, "Game", kind, "Choices", strategyList(string(kind)))
	}
	req.opponent = storage.Player{ID: storage.AI(info.Name), Name: info.Name}
	_, err = b.startAIGame(ctx, ix.Interaction, req)
	return err
}

// cmdChallenge handles /challenge user:<…> game:<…>: /play with an
// opponent, in one step; without a user, an open challenge (open.go).
func (b gameFlow) cmdChallenge(ctx context.Context, ix *command) error {
	opts := ix.Opts
	kind, err := gamenames.Kind(opts, "game")
	if err != nil {
		return err
	}
	req, err := b.request(ctx, ix.Interaction, kind, opts)
	if err != nil {
		return err
	}
	opponentID := opts.User("user")
	if opponentID == "" {
		return b.openChallenge(ctx, ix.Interaction, req)
	}
	return b.challengeUser(ctx, ix.Interaction, req, opponentID, ix.Resolved)
}

// request reads the options a new game of kind shares between /play,
// /challenge and the challenge menu (which has none: the defaults) —
// rounds, who moves first, the AI's move time, rated or casual (the
// server's setting unless given) — and checks that the
// game is allowed and the board can be kept up to date here.
func (b gameFlow) request(ctx context.Context, ix *interaction, kind storage.Kind, opts mux.Options) (gameRequest, error) {
	settings := b.guildSettings(ctx, ix.GuildID)
	if !settings.Allows(kind) {
		return gameRequest{}, mux.Err("play.not_allowed", "Game", titleIn(kind), "Allowed", gamenames.List(settings.AllowedGames))
	}
	req := gameRequest{kind: kind, me: play.PlayerOf(ix.Caller()), first: "me", moveTime: settings.MoveTime, casual: settings.Casual}
	if rated, given, err := opts.Flag("rated"); err != nil {
		return gameRequest{}, err
	} else if given {
		req.casual = !rated
	}
	if f := opts.Str("first"); f != "" {
		if f != "me" && f != "opponent" && f != "random" {
			return gameRequest{}, mux.Err("play.first_choice")
		}
		req.first = f
	}
	gm, err := catalog.Lookup(string(kind))
	if err != nil {
		return gameRequest{}, fmt.Errorf("bot: new game: %w", err)
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
	if d, given, err := opts.Seconds("movetime", 100*time.Millisecond, MaxMoveTime); err != nil {
		return gameRequest{}, err
	} else if given {
		req.moveTime = d
	}
	if err := checkChannelPermissions(ix); err != nil {
		return gameRequest{}, err
	}
	return req, nil
}

// checkOpponent refuses a challenge to a user who cannot take it: the
// challenger, a user Discord did not resolve, a bot, in a server someone
// who is not its member, or anyone in the challenger's DM with Gambit,
// where nobody else can see the challenge. It returns the resolved user.
// kind is the game, "" when not chosen yet.
func (b gameFlow) checkOpponent(ix *interaction, kind storage.Kind, opponentID string, resolved *discordgo.ApplicationCommandInteractionDataResolved) (*discordgo.User, error) {
	var opponent *discordgo.User
	member := false
	if resolved != nil {
		opponent, member = resolved.Users[opponentID], resolved.Members[opponentID] != nil
	}
	switch {
	case opponentID == ix.Caller().ID && kind == "":
		return nil, mux.Err("play.yourself_any")
	case opponentID == ix.Caller().ID:
		return nil, mux.Err("play.yourself", "Game", kind, "AI", b.cfg.DefaultAI)
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
func (b gameFlow) challengeUser(ctx context.Context, ix *interaction, req gameRequest, opponentID string, resolved *discordgo.ApplicationCommandInteractionDataResolved) error {
	opponent, err := b.checkOpponent(ix, req.kind, opponentID, resolved)
	if err != nil {
		return err
	}
	req.opponent = play.PlayerOf(opponent)
	_, err = b.challenge(ctx, ix, req)
	return err
}

// cmdChallengeMenu handles the "Challenge to a game" user command: it
// shows the challenger alone a select of the games allowed here, and a
// second for an open challenge instead; choosing one posts the challenge
// (clickChallengePick).
func (b gameFlow) cmdChallengeMenu(ctx context.Context, ix *command) error {
	if _, err := b.checkOpponent(ix.Interaction, "", ix.Target, ix.Resolved); err != nil {
		return err
	}
	settings := b.guildSettings(ctx, ix.GuildID)
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
func (b gameFlow) clickChallengePick(ctx context.Context, ix *component) error {
	p := ix.Params
	values := ix.Values
	if len(values) != 1 {
		return mux.Err("play.pick_one")
	}
	kind := storage.Kind(values[0])
	if !gamenames.IsDuel(kind) {
		return mux.Err("play.unknown_game", "Name", mux.Echo(values[0]), "Choices", gamenames.DuelNames())
	}
	req, err := b.request(ctx, ix.Interaction, kind, mux.Options{})
	if err != nil {
		return err
	}
	if p["user"] == customid.AnyoneHere {
		return b.openChallenge(ctx, ix.Interaction, req)
	}
	if err := b.checkPick(ix); err != nil {
		return err
	}
	// The select names the user only (checkOpponent saw the whole user
	// when it offered the select), so the game knows them by ID: boards
	// mention users by ID anyway.
	req.opponent = storage.Player{ID: storage.User(p["user"])}
	_, err = b.challenge(ctx, ix.Interaction, req)
	return err
}

// checkPick refuses a pick of the challenge menu's select whose user is
// not one the menu offered. A click carries no resolved user, so the
// user's ID is checked as typed — a user's ID, not the clicker's, not
// Gambit's — and the rest (a person, a member of the server) is what
// checkOpponent found when it offered the select: the select must be on
// the message the click came from, which Discord sends with the click and
// only the bot writes.
func (b gameFlow) checkPick(ix *component) error {
	user := ix.Params["user"]
	switch {
	case !snowflake(user) || user == b.appID:
		return mux.Err("play.no_member")
	case user == ix.Caller().ID:
		return mux.Err("play.yourself_short")
	}
	offered := false
	if ix.Message != nil {
		// A pattern without parameters matches its own text only.
		_, offered = render.ShownControl(ix.Message.Components, customid.Pattern(customid.ChallengePick.Build(user)))
	}
	if !offered {
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

func strategyList(game string) string {
	var names []string
	for _, i := range strategies.ForGame(game) {
		names = append(names, i.Name)
	}
	return strings.Join(names, ", ")
}

// limits are the caps of one member's games, from the configuration.
func (b gameFlow) limits() storage.Limits {
	return storage.Limits{MaxOpen: b.cfg.MaxGamesPerUser, MaxChallenges: b.cfg.MaxChallenges}
}

// createGame stores a new game. The store checks the caps of the member
// who asked for it (Players[0]) in the same transaction, so concurrent
// commands cannot overshoot them; a member at a cap is told which.
func (b gameFlow) createGame(ctx context.Context, g *storage.Game) error {
	if err := b.store.CreateGame(ctx, g, b.limits()); err != nil {
		return play.LimitRefusal(fmt.Errorf("bot: create game: %w", err))
	}
	return nil
}

// checkLimits refuses a new game to a member who has too many open games,
// or too many challenges waiting, when the new game is a challenge. It is
// a look ahead, for a refusal before anything else changes (a Rematch
// removing its button); createGame makes the binding check.
func (b gameFlow) checkLimits(ctx context.Context, userID string, challenge bool) error {
	p := storage.User(userID)
	open, err := b.store.ActiveGames(ctx, p)
	if err != nil {
		return fmt.Errorf("bot: games of %s: %w", userID, err)
	}
	return play.LimitRefusal(b.limits().Check(p, open, challenge))
}

// newGame returns the record of a requested game, not yet stored.
func newGame(ix *interaction, req gameRequest) *storage.Game {
	return &storage.Game{
		Kind: req.kind, Players: []storage.Player{req.me, req.opponent},
		Settings:  storage.Settings{Rounds: req.rounds, First: req.first, MoveTime: req.moveTime, Casual: req.casual},
		GuildID:   ix.GuildID,
		ChannelID: ix.ChannelID,
	}
}

// begin sets up the start position of g and makes it active with the
// first mover, resolved from the challenger's choice, to move.
func (b gameFlow) begin(ctx context.Context, g *storage.Game) error {
	gm, err := gameOf(g)
	if err != nil {
		return fmt.Errorf("bot: start game: %w", err)
	}
	pos, err := gm.Start(games.Options{Rounds: g.Settings.Rounds})
	if err != nil {
		return fmt.Errorf("bot: start game: %w", err)
	}
	switch g.Settings.First {
	case "opponent":
		g.Turn = 1
	case "random":
		g.Turn = rand.IntN(2)
	default:
		g.Turn = 0
	}
	g.Status, g.Position = storage.StatusActive, pos.String()
	b.setTurnDeadline(ctx, g)
	return nil
}

// startAIGame creates a game against an AI and shows its board, holding
// the new game's lock; when the AI moves first, its search is queued. It
// returns the game, nil if none was created.
func (b gameFlow) startAIGame(ctx context.Context, ix *interaction, req gameRequest) (*storage.Game, error) {
	g := newGame(ix, req)
	if err := b.begin(ctx, g); err != nil {
		return nil, err
	}
	if err := b.createGame(ctx, g); err != nil {
		return nil, err
	}
	return g, b.holdGame(ctx, ix, g.ID, func() error {
		pos, err := position(g)
		if err != nil {
			return err
		}
		return b.boards.showNewBoard(ctx, ix, g, b.boards.view(g, pos, b.queueAI(ctx, ix, g), nil, ""))
	})
}

// challenge posts a challenge to another member, holding the new game's
// lock. It returns the game, nil if none was created.
func (b gameFlow) challenge(ctx context.Context, ix *interaction, req gameRequest) (*storage.Game, error) {
	g := newGame(ix, req)
	g.Status = storage.StatusPending
	g.Deadline = b.now().Add(b.cfg.ChallengeTTL)
	if err := b.createGame(ctx, g); err != nil {
		return nil, err
	}
	return g, b.holdGame(ctx, ix, g.ID, func() error {
		return b.boards.showNewBoard(ctx, ix, g, b.boards.view(g, nil, nil, nil, ""))
	})
}

// routes declares the commands that start games, and Rematch.
func (b gameFlow) routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "play", Description: "Start a game against someone or against an AI",
		Options: []*discordgo.ApplicationCommandOption{
			gamenames.DuelOption(true),
			{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Challenge this member"},
			{Type: discordgo.ApplicationCommandOptionString, Name: "ai", Description: "Play this AI strategy", Autocomplete: true,
				MaxLength: gamenames.MaxAIName},
			roundsOption(), firstOption(),
			{Type: discordgo.ApplicationCommandOptionNumber, Name: "movetime", Description: "AI seconds per move",
				MinValue: mux.Ptr(0.1), MaxValue: MaxMoveTime.Seconds()},
			ratedOption(),
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "open", Description: "Post the challenge for anyone here to accept"},
		},
	}, b.cmdPlay, gamenames.CompleteAI)
	m.Command(&discordgo.ApplicationCommand{
		// Without a user the challenge is open: anyone here may accept
		// it. Discord wants required options first, so game leads.
		Name: "challenge", Description: "Challenge someone to a game",
		Options: []*discordgo.ApplicationCommandOption{
			gamenames.DuelOption(true),
			{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Who to challenge (leave out: anyone here may accept)"},
			roundsOption(), firstOption(), ratedOption(),
		},
	}, b.cmdChallenge, nil)
	m.Command(&discordgo.ApplicationCommand{Name: challengeMenu, Type: discordgo.UserApplicationCommand}, b.cmdChallengeMenu, nil)
	m.Component(customid.Rematch, b.clickRematch) // the seam for the old game, then a new one (rematch.go)
	m.Component(customid.ChallengePick, b.clickChallengePick)
}
