package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// tokenLifetime is how long an interaction token may edit its message;
// Discord allows 15 minutes and the bot keeps a minute's margin.
const tokenLifetime = 14 * time.Minute

// view renders a game's message, in the language of its guild (boardLang).
// thinking is the AI's state when it is to move; Notice and Changes come
// from the change being shown.
func (b boardFlow) view(g *storage.Game, pos engine.Position, thinking *render.Thinking, changes []storage.RatingChange, notice string) render.Message {
	return render.Game(render.View{Game: g, Pos: pos, Thinking: thinking, Changes: changes, Notice: notice, Lang: b.boardLang(g), Board: b.boardForm(g)})
}

// viewSearches is view with the last searches of the two sides of a game
// between two AIs (render.View.Searches), as an AI turn shows its board.
func (b boardFlow) viewSearches(g *storage.Game, pos engine.Position, thinking *render.Thinking, changes []storage.RatingChange, searches [2]*render.Search) render.Message {
	return render.Game(render.View{Game: g, Pos: pos, Thinking: thinking, Changes: changes, Lang: b.boardLang(g), Board: b.boardForm(g), Searches: searches})
}

// boardLang is the language of a game's board and of the notices on it:
// its guild's, as the guild's interactions last gave it.
func (b boardFlow) boardLang(g *storage.Game) *i18n.Localizer {
	return b.places.locales.of(g.GuildID, g.ChannelID)
}

// gameMessage renders a game from its record alone, for messages that do
// not follow a move (expiry, forfeits, reposts); without a notice, the
// board of a paused tournament's game says it is paused.
func (b boardFlow) gameMessage(g *storage.Game, notice string) (render.Message, error) {
	if g.Paused && notice == "" {
		notice = b.boardLang(g).T("tournament.pause.board")
	}
	var pos engine.Position
	if g.Status != storage.StatusPending && g.Position != "" {
		p, err := position(g)
		if err != nil {
			return render.Message{}, err
		}
		pos = p
	}
	var thinking *render.Thinking
	if g.AwaitingAI() {
		thinking = &render.Thinking{}
	}
	return b.view(g, pos, thinking, nil, notice), nil
}

// webhookToken lets the bot edit a board through the interaction that last
// showed it, while the token is valid and the board is still that message.
type webhookToken struct {
	token string
	at    time.Time
	// board says the token's @original — or, with followup, its follow-up
	// message — is the game's board: set once the message that showed it
	// was sent. message is that board's ID, "" if it could not be learnt;
	// an edit of @original through the token then learns it.
	board    bool
	followup bool
	message  string
}

// edits reports whether the token may edit g's board now.
func (t webhookToken) edits(g *storage.Game, now time.Time) bool {
	return t.token != "" && t.board && t.message == g.MessageID && now.Sub(t.at) < tokenLifetime
}

// errUnreachable says a board is reachable only through interactions
// (reach.go) — in a channel the bot reaches so, or a member's private
// board (privateBoard) — and no valid token shows it: it cannot be
// edited or posted now (play.ErrUnreachable, which the flows check).
var errUnreachable = play.ErrUnreachable

// privateBoard reports whether g's board is shown to its player alone, as
// an ephemeral message: an attempt at the daily puzzle, whose board the
// others in the channel, who meet the same puzzle, must not see. Such a
// board is reached only through interactions, like every board in a
// channel the bot reaches so (reach.go): it is never posted in the
// channel, and a change no token can show waits for the next click
// (catchUp).
func privateBoard(g *storage.Game) bool { return g.Settings.Daily != "" }

// interactionOnly reports whether g's board can be reached only through
// interactions: a private board, or any board in a channel the bot
// reaches only so.
func (b boardFlow) interactionOnly(g *storage.Game) bool {
	return privateBoard(g) || b.places.reach.isPrivate(g.ChannelID)
}

// editBoard shows msg on a game's board message: through the interaction
// webhook while a token showing it is valid (tok, or in a channel reached
// only through interactions the latest one the bot remembers), through the channel message endpoint otherwise, and as a
// new message (whose ID is saved) if the board was deleted or its ID is
// unknown. A board reached only through interactions (interactionOnly)
// gets errUnreachable instead of the channel's endpoints. The caller holds
// the game's lock, which ctx carries (gameLocks.hold) to turn it to
// sending before the first call; g is current. Once the edit has landed
// the board is kept at the newest version (keepNewest).
func (b boardFlow) editBoard(ctx context.Context, g *storage.Game, msg render.Message, tok webhookToken) error {
	if err := b.showOn(ctx, g, msg, tok); err != nil {
		return err
	}
	b.keepNewest(ctx, g, tok)
	return nil
}

// keepNewest makes sure that an edit of a game's board, which showed
// version shown of the game and has landed, did not leave an older board
// over a newer one. The game's lock orders the edits of one process, but
// not those of another: a replica refreshing the boards at start, a
// timer, an AI's progress, a tournament's pause or a click's answer may
// render a version while another process commits the next and shows it,
// and land its edit last. So the last writer looks again: it reloads the game and, while
// it has moved on since the version shown (movedOn), edits the board to
// the game as now stored. Whichever edit lands last, its writer then sees
// every version whose own edit landed before it, so the board ends on
// the newest (the edits that show a game's state go through editBoard or
// updateBoard, which both look again). The repair is drawn from the record alone (gameMessage),
// and costs a store read per edit and a Discord call only when the game
// moved on meanwhile. Failing to repair is logged: the edit itself went
// through, and the next click on a board left behind catches it up.
func (b boardFlow) keepNewest(ctx context.Context, shown *storage.Game, tok webhookToken) {
	for range 3 {
		if abandoned(ctx) {
			return // an AI's progress edit the move overtook: the move is shown
		}
		g, err := b.store.Game(ctx, shown.ID)
		switch {
		case errors.Is(err, storage.ErrNotFound) || abandoned(ctx):
			return
		case err != nil:
			b.log.Warn("board edited but the game not reloaded to check it is still the newest", "game", shown.ID, "err", err)
			return
		case g.Version <= shown.Version || !movedOn(shown, g):
			return
		}
		msg, err := b.gameMessage(g, "")
		if err == nil {
			err = b.showOn(ctx, g, msg, tok)
		}
		if err != nil {
			b.log.Warn("the game moved on while its board was edited; showing the newest failed", "game", g.ID, "shown", shown.Version, "stored", g.Version, "err", err)
			return
		}
		b.log.Debug("the game moved on while its board was edited; the newest is shown", "game", g.ID, "shown", shown.Version, "stored", g.Version)
		shown = g
	}
	b.log.Warn("the game kept moving on while its board was edited; the next edit shows the newest", "game", shown.ID)
}

// movedOn reports whether game g, stored after shown, changed what
// shown's board offers its players: a move, its status, a pause or a draw
// offer. A board showing shown then has controls for a game that is gone,
// and its clicks are refused as stale. A newer version that changed
// nothing of the kind (a board's message ID learnt, a rematch claimed,
// whose flow shows it) leaves the board as good as the newest.
func movedOn(shown, g *storage.Game) bool {
	offer := func(g *storage.Game) storage.DrawOffer {
		if g.DrawOffer == nil {
			return storage.DrawOffer{Seat: -1}
		}
		return *g.DrawOffer
	}
	return len(g.Moves) != len(shown.Moves) || g.Status != shown.Status || g.Paused != shown.Paused || offer(g) != offer(shown)
}

// showOn makes the one edit of editBoard.
func (b boardFlow) showOn(ctx context.Context, g *storage.Game, msg render.Message, tok webhookToken) error {
	tokens := []webhookToken{tok}
	if b.interactionOnly(g) {
		tokens = append(tokens, b.places.reach.token(g.ID))
	}
	for _, t := range tokens {
		if !t.edits(g, b.now()) {
			continue
		}
		err := b.editThrough(ctx, g, msg, t)
		if err == nil {
			return nil
		}
		if abandoned(ctx) {
			return fmt.Errorf("bot: edit board of game %s: %w", g.ID, err)
		}
		b.log.Warn("edit board through the interaction failed; trying another way", "game", g.ID, "err", err)
	}
	if b.interactionOnly(g) {
		b.places.reach.leftBehind(g.ID)
		return fmt.Errorf("bot: edit board of game %s: %w", g.ID, errUnreachable)
	}
	if g.MessageID != "" {
		sending(ctx)
		err := b.discord.egress.EditChannelMessage(g.ChannelID, g.MessageID, msg, discordOptions(ctx)...)
		if err == nil {
			return nil
		}
		if egress.Code(err) != discordgo.ErrCodeUnknownMessage { // the board was deleted
			return fmt.Errorf("bot: edit board of game %s: %w", g.ID, err)
		}
		b.log.Info("board message was deleted; posting a new one", "game", g.ID, "message", g.MessageID)
	}
	return b.postBoard(ctx, g, msg)
}

// editThrough edits a game's board through an interaction token that
// shows it.
func (b boardFlow) editThrough(ctx context.Context, g *storage.Game, msg render.Message, tok webhookToken) error {
	wh := &discordgo.Interaction{AppID: b.discord.appID, Token: tok.token}
	sending(ctx)
	m, err := b.discord.egress.Keeping(tok.message, msg, func(keep map[string]string) (*discordgo.Message, error) {
		if tok.followup {
			return b.discord.egress.Session.FollowupMessageEdit(wh, tok.message, egress.WebhookEdit(msg, keep), discordOptions(ctx)...)
		}
		return b.discord.egress.Session.InteractionResponseEdit(wh, egress.WebhookEdit(msg, keep), discordOptions(ctx)...)
	})
	if err != nil {
		return err
	}
	if g.MessageID == "" {
		// The board was shown but its ID not learnt: the edit's answer
		// names it.
		if err := b.saveBoardID(ctx, g, m.ID); err != nil {
			b.log.Warn("board edited but its message ID not saved", "game", g.ID, "err", err)
		}
	}
	return nil
}

// postBoard posts msg as the game's new board message and saves its ID.
// The post carries the nonce of the board that replaces g's board message
// (boardNonce): processes that find the same board missing at once — two
// replicas' refresh at start, a tournament's round and a refresh — post
// one message, Discord answering the later posts with the first's.
func (b boardFlow) postBoard(ctx context.Context, g *storage.Game, msg render.Message) error {
	sending(ctx)
	m, err := b.discord.egress.SendChannelMessageOnce(g.ChannelID, boardNonce(g), msg)
	if err != nil {
		return fmt.Errorf("bot: post board of game %s in channel %s: %w", g.ID, g.ChannelID, err)
	}
	return b.saveBoardID(ctx, g, m.ID)
}

// boardNonce names the board posted in place of g's board message, its
// first board while g has none: "g", the game's ID, "/" and the ID of the
// message it replaces (hashed to fit, egress.Nonce). A game's boards are
// each posted in place of a different message, the one before saved as
// its board (or deleted, or moved by Re-post), so a nonce names one post
// of one board, and no tournament's post (whose nonces start with "t").
func boardNonce(g *storage.Game) string {
	return egress.Nonce("g" + string(g.ID) + "/" + g.MessageID)
}

// saveBoardID records messageID as g's board. An ended game cannot change
// in the store any more: its ID is only kept in g, for the caller. The
// message exists once posted, so its record is not abandoned with ctx (an
// AI's "thinking…" edit ended by the move): a board posted but not
// recorded would be posted again by the next edit.
func (b boardFlow) saveBoardID(ctx context.Context, g *storage.Game, messageID string) error {
	if !g.Status.Open() {
		g.MessageID = messageID
		return nil
	}
	saved := *g
	saved.MessageID = messageID
	ctx = context.WithoutCancel(ctx)
	err := b.store.UpdateGame(ctx, &saved)
	if errors.Is(err, storage.ErrConflict) {
		// Another post of the same board (postBoard's nonce gave both one
		// message) may have saved it first: then it is saved. g keeps
		// its version, the one its caller drew.
		if now, lerr := b.store.Game(ctx, g.ID); lerr == nil && now.MessageID == messageID {
			g.MessageID = messageID
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("bot: save board message of game %s: %w", g.ID, err)
	}
	*g = saved
	return nil
}

// showNewBoard shows the board of a game just created, whose lock the
// caller holds: as the interaction's response or, when the interaction was
// answered already (Rematch defers its answer), as a follow-up; then it
// saves the board's message ID. Once the board is shown, failing to learn
// or save its ID is logged, not returned — the user must not see a board
// and "try again" — and the ID is recovered later: from the next click on
// the board, from an edit through the interaction's token, or at the next
// start, which posts every open game without a board again. The
// interaction records the token that edits the board (showsBoard). A
// private board (privateBoard) is shown ephemeral, and only so.
func (b boardFlow) showNewBoard(ctx context.Context, ix *interaction, g *storage.Game, msg render.Message) error {
	ephemeral := privateBoard(g)
	if ix.IsAnswered() {
		m, err := ix.Followup(msg, ephemeral)
		if err != nil {
			return err
		}
		if err := b.saveBoardID(ctx, g, m.ID); err != nil {
			b.log.Warn("board posted but its message ID not saved; it is posted again at the next start", "game", g.ID, "err", err)
			return nil
		}
		b.showsBoard(ctx, ix, g.ID, webhookToken{token: ix.Token, at: ix.At, board: true, followup: true, message: m.ID})
		return nil
	}
	if err := ix.Reply(msg, ephemeral); err != nil {
		// The member saw nothing (the interaction expired, or Discord
		// failed), but the game exists: its board goes into the channel,
		// where the bot may post; elsewhere, and for a private board, the
		// next start cannot post it either, and the member sees the game
		// in /games.
		if ix.InteractionOnly() || ephemeral {
			return err
		}
		if perr := b.postBoard(ctx, g, msg); perr != nil {
			return errors.Join(err, perr)
		}
		b.log.Warn("answering failed; the new board was posted in the channel instead", "interaction", ix.ID, "game", g.ID, "err", err)
		return nil
	}
	m, err := ix.Original()
	if err == nil {
		b.discord.egress.Saw(m, msg)
		err = b.saveBoardID(ctx, g, m.ID)
	}
	if err != nil {
		b.log.Warn("board shown but its message ID not saved; it is learnt later", "game", g.ID, "err", err)
	}
	b.showsBoard(ctx, ix, g.ID, webhookToken{token: ix.Token, at: ix.At, board: true, message: g.MessageID})
	return nil
}

// onBoard reports whether a click on a component of g came from g's board:
// its message, or while that is unknown (see adoptBoard), a message in
// g's channel. A click elsewhere carries a custom ID forged to name g; its
// answer must not update the message clicked into g's board.
func onBoard(ix *interaction, g *storage.Game) bool {
	if g.MessageID == "" || ix.Message == nil {
		return ix.ChannelID == g.ChannelID
	}
	return ix.Message.ID == g.MessageID
}

// adoptBoard records the message of a click as g's board when g has none:
// the board was shown but its ID was never saved (see showNewBoard). Only
// a message in g's channel is adopted, ephemeral for a private board and
// public for any other (an ephemeral message there is a cell picker): a
// click from elsewhere came with a custom ID forged to name g. The caller
// holds the game's lock; on error g is unchanged.
func (b boardFlow) adoptBoard(ctx context.Context, ix *interaction, g *storage.Game) error {
	if g.MessageID != "" || !g.Status.Open() || ix.Message == nil || ix.ChannelID != g.ChannelID {
		return nil
	}
	if ephemeral := ix.Message.Flags&discordgo.MessageFlagsEphemeral != 0; ephemeral != privateBoard(g) {
		return nil
	}
	if err := b.saveBoardID(ctx, g, ix.Message.ID); err != nil {
		return play.Conflict(err, "adopt the board of", g.ID)
	}
	b.log.Info("board message learnt from a click", "game", g.ID, "message", g.MessageID)
	return nil
}

// updateBoard answers a click on a board by updating it (response type 7)
// with msg, which shows state already committed. If that answer fails —
// the interaction expired (Unknown Interaction) or Discord erred — the board is edited
// the other way, so that it still shows what is stored, and the user is
// told so if Discord still lets the bot answer. An answer that updated the
// board leaves the interaction's token to edit it (showsBoard), and the
// board is kept at the newest version (keepNewest): another process — a
// timer's, a click's — may have shown a later one before the answer
// landed. After a failed answer, @original is the error reply.
func (b boardFlow) updateBoard(ctx context.Context, ix *interaction, g *storage.Game, msg render.Message) error {
	err := ix.Update(msg)
	if err == nil {
		var tok webhookToken
		if ix.Message != nil {
			tok = webhookToken{token: ix.Token, at: ix.At, board: true, message: ix.Message.ID}
			b.showsBoard(ctx, ix, g.ID, tok)
		}
		b.keepNewest(ctx, g, tok)
		return nil
	}
	b.log.Warn("answering a click failed; editing the board instead", "interaction", ix.ID, "game", g.ID, "err", err)
	if eerr := b.editBoard(ctx, g, msg, webhookToken{}); eerr != nil {
		return errors.Join(err, eerr)
	}
	return mux.Err("error.answer_lost")
}
