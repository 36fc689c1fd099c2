package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/egress"
	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// checkMover refuses anyone but the player to move of an active game.
func checkMover(g *storage.Game, userID string) error {
	seat := seatOf(g, userID)
	switch {
	case seat < 0 && g.Solo():
		return mux.Err("move.puzzle_of", "Player", gamenames.Player(g.Kind, g.Players[0]))
	case seat < 0:
		return mux.Err("move.between", "A", gamenames.Player(g.Kind, g.Players[0]), "B", gamenames.Player(g.Kind, g.Players[1]))
	case g.Status == storage.StatusPending:
		return mux.Err("move.not_started")
	case g.Status != storage.StatusActive:
		return mux.Err("error.game_over")
	case g.Turn != seat:
		return mux.Err("move.not_your_turn", "Player", gamenames.Player(g.Kind, g.Players[g.Turn]))
	}
	return nil
}

// parseMove reads a move typed or clicked for a game's position.
func parseMove(pos engine.Position, text string) (engine.Move, error) {
	mv, err := engine.ReadMove(pos, text)
	var bad *engine.MoveError
	if errors.As(err, &bad) {
		return 0, mux.Err("move.illegal", "Move", mux.Quote(bad.Text), "Legal", strings.Join(bad.Legal, ", "))
	}
	return mv, err
}

// checkBoardClick checks a click on a game's board: the clicker is to
// move and the board is the game's current one. answered reports that the
// click was answered instead (a board behind its game brought up to date);
// err refuses it.
func (b moveFlow) checkBoardClick(ctx context.Context, ix *interaction, g *storage.Game, p customid.Params) (answered bool, err error) {
	if err := b.boards.adoptBoard(ctx, ix, g); err != nil {
		return false, err
	}
	if b.endedBehind(ix, g) {
		return true, b.catchUp(ctx, ix, g)
	}
	if err := checkMover(g, ix.Caller().ID); err != nil {
		return false, err
	}
	if p["ply"] != render.Ply(g) || !onBoard(ix, g) {
		if ix.Message != nil && ix.Message.ID == g.MessageID && shownPly(ix.Message.Components) != render.Ply(g) {
			return true, b.catchUp(ctx, ix, g)
		}
		return false, mux.Err("move.stale")
	}
	return false, nil
}

// checkPickerClick checks a click on a cell picker (the message only the
// mover sees, render.CellPicker): the clicker is to move and the picker
// was drawn for the current position. A picker is no board: the game's
// board message is elsewhere, so only its ply tells whether it is current.
func checkPickerClick(g *storage.Game, userID string, p customid.Params) error {
	if err := checkMover(g, userID); err != nil {
		return err
	}
	if p["ply"] != render.Ply(g) {
		return mux.Err("move.stale_choice")
	}
	return nil
}

// onPicker reports whether a component interaction comes from a cell
// picker rather than a board: pickers are ephemeral, boards never are.
func onPicker(ix *interaction) bool {
	return ix.Message != nil && ix.Message.Flags&discordgo.MessageFlagsEphemeral != 0
}

// clickFile handles the first click of a two-click move, a column under
// the board: it shows the clicker alone a picker of the column's cells.
// A column button on the picker switches the picker to that column. The
// choice lives only in that message's custom IDs, so nothing is stored,
// nobody else sees it, and a picker the player leaves behind goes stale
// with the next move.
func (b moveFlow) clickFile(ctx context.Context, ix *component, g *storage.Game) error {
	p := ix.Params
	picker := onPicker(ix.Interaction)
	if picker {
		if err := checkPickerClick(g, ix.Caller().ID, p); err != nil {
			return err
		}
	} else if answered, err := b.checkBoardClick(ctx, ix.Interaction, g, p); answered || err != nil {
		return err
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	msg, ok := render.CellPicker(ix.Lang(), g, pos, p["file"])
	if !ok {
		return mux.Err("move.no_column", "Column", mux.Quote(p["file"]))
	}
	if picker {
		return ix.Update(msg)
	}
	return ix.Reply(msg, true)
}

// clickCell handles the second click of a two-click move, a cell on the
// picker: it plays the cell, turns the picker into a confirmation and
// edits the board.
func (b moveFlow) clickCell(ctx context.Context, ix *component, g *storage.Game) error {
	p := ix.Params
	if err := checkPickerClick(g, ix.Caller().ID, p); err != nil {
		return err
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	mv, err := parseMove(pos, p["cell"])
	if err != nil {
		return err
	}
	return b.playHuman(ctx, ix.Interaction, g, pos, mv, func(text string) error {
		return ix.Update(render.Message{Content: text, Components: []discordgo.MessageComponent{}})
	})
}

// clickMove handles a move button or a cell select on a board.
func (b moveFlow) clickMove(ctx context.Context, ix *component, g *storage.Game) error {
	p := ix.Params
	if answered, err := b.checkBoardClick(ctx, ix.Interaction, g, p); answered || err != nil {
		return err
	}
	cell := p["cell"]
	if values := ix.Values; cell == "" && len(values) == 1 {
		cell = values[0]
	}
	return b.playText(ctx, ix.Interaction, g, cell, nil)
}

// playText plays the move written as text (a clicked component's cell, a
// typed /move) for the player to move in g; confirm is playHuman's.
func (b moveFlow) playText(ctx context.Context, ix *interaction, g *storage.Game, text string, confirm func(string) error) error {
	pos, err := position(g)
	if err != nil {
		return err
	}
	mv, err := parseMove(pos, text)
	if err != nil {
		return err
	}
	return b.playHuman(ctx, ix, g, pos, mv, confirm)
}

// shownPly returns the ply the components of a board message carry, or
// "" if none does.
func shownPly(components []discordgo.MessageComponent) string {
	params, _ := shownControl(components, customid.Move, customid.Pick, customid.File, customid.Resign)
	return params["ply"]
}

// shownControl returns the parameters of the first component of a
// message, in rows, whose custom ID matches one of patterns.
func shownControl(components []discordgo.MessageComponent, patterns ...customid.Pattern) (customid.Params, bool) {
	for _, c := range components {
		var id string
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			if params, ok := shownControl(c.Components, patterns...); ok {
				return params, true
			}
		case *discordgo.Button:
			id = c.CustomID
		case *discordgo.SelectMenu:
			id = c.CustomID
		}
		for _, pattern := range patterns {
			if params, ok := pattern.Match(id); ok {
				return params, true
			}
		}
	}
	return nil, false
}

// endedBehind reports whether a click came from g's board while it still
// offers moves or an answer to a challenge though g has ended, and the
// bot could not show the end there (a timeout where it may only answer
// interactions: reach.go), so the click's answer should. A click that
// merely lost a race with the one that ended g is refused as before.
func (b moveFlow) endedBehind(ix *interaction, g *storage.Game) bool {
	if g.Status.Open() || ix.Message == nil || g.MessageID == "" || ix.Message.ID != g.MessageID || !b.reach.isBehind(g.ID) {
		return false
	}
	_, open := shownControl(ix.Message.Components, customid.Move, customid.Pick, customid.File, customid.Resign, customid.Accept, customid.Decline)
	return open
}

// catchUp answers a click on a board that is itself behind its game —
// the bot could not edit it (lost permissions, a crash, a timeout where it
// may only answer interactions) — by bringing it up to date, and tells the
// clicker nothing was played.
func (b moveFlow) catchUp(ctx context.Context, ix *interaction, g *storage.Game) error {
	msg, err := b.boards.gameMessage(g, "")
	if err != nil {
		return err
	}
	if err := b.boards.updateBoard(ctx, ix, g, msg); err != nil {
		return err
	}
	if !g.Status.Open() {
		return ix.Fail(ix.Lang().T("move.behind_ended"))
	}
	return ix.Fail(ix.Lang().T("move.behind"))
}

// playedName names mv, about to be played in pos, as the board will
// name it: a sliding tile by its number ("You played tile 7."; Moved names only tiles), as the hint
// and the last-move line do, and other moves in the game's notation.
func playedName(ix *interaction, g *storage.Game, pos engine.Position, mv engine.Move) string {
	if gm, err := gameOf(g); err == nil && gm.Moved != nil {
		return ix.Lang().T("move.tile", "Tile", gm.Moved(pos, mv))
	}
	return pos.FormatMove(mv)
}

// playHuman commits a person's move and shows it: by updating the clicked
// board if confirm is nil, or else by answering with confirm's text
// ("You played e4.") and an edit of the board (a typed move, a cell
// picker). When the AI moves next its search is queued; the seam lets it
// start once the handler returned. The caller holds the game's lock.
func (b moveFlow) playHuman(ctx context.Context, ix *interaction, g *storage.Game, pos engine.Position, mv engine.Move, confirm func(text string) error) error {
	played := playedName(ix, g, pos, mv)
	changes, err := b.commitMove(ctx, g, pos, mv)
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrGameOver) {
		return mux.RaceErr(err, "move.conflict")
	}
	if err != nil {
		return err
	}
	msg := b.boards.view(g, pos, b.queueAI(ctx, ix, g), changes, "")
	if confirm == nil {
		return b.boards.updateBoard(ctx, ix, g, msg)
	}
	if err := confirm(ix.Lang().T("move.played", "Move", played)); err != nil {
		return err
	}
	if err := b.boards.editBoard(ctx, g, msg, webhookToken{}); err != nil {
		if ix.InteractionOnly() || errors.Is(err, errUnreachable) {
			// No valid token shows the board (reach.go; a private board
			// anywhere): this interaction shows it again, as a follow-up
			// that becomes the board.
			return b.boards.showNewBoard(ctx, ix, g, msg)
		}
		b.log.Warn("typed move played but its board not updated", "game", g.ID, "err", err)
		if code := egress.Code(err); code == discordgo.ErrCodeMissingAccess || code == discordgo.ErrCodeMissingPermissions {
			return mux.Err("move.no_permissions", "Move", played)
		}
		return mux.Err("move.no_update", "Move", played)
	}
	return nil
}

// cmdMove handles /move cell:<…> [game:<…>]: it finds the game, then plays
// under the game seam, on the game as reloaded under its lock.
func (b moveFlow) cmdMove(ctx context.Context, ix *command) error {
	opts := ix.Opts
	g, err := b.gameHere(ctx, ix.Interaction, opts.Str("game"))
	if err != nil {
		return err
	}
	return b.onGame(ctx, ix.Interaction, string(g.ID), b.typedMove(ix.Interaction, opts.Str("cell")))
}

// typedMove plays the move typed in /move.
func (b moveFlow) typedMove(ix *interaction, cell string) func(context.Context, *storage.Game) error {
	return func(ctx context.Context, g *storage.Game) error {
		if err := checkMover(g, ix.Caller().ID); err != nil {
			return err
		}
		return b.playText(ctx, ix, g, cell, func(text string) error { return ix.Reply(render.Message{Content: text}, true) })
	}
}

// gamesHere returns the user's active games in the interaction's channel.
func (b moveFlow) gamesHere(ctx context.Context, ix *interaction) ([]*storage.Game, error) {
	all, err := b.store.ActiveGames(ctx, storage.User(ix.Caller().ID))
	if err != nil {
		return nil, fmt.Errorf("bot: games of %s: %w", ix.Caller().ID, err)
	}
	var here []*storage.Game
	for _, g := range all {
		if g.Status == storage.StatusActive && g.ChannelID == ix.ChannelID {
			here = append(here, g)
		}
	}
	return here, nil
}

// gameHere picks the game a /move means: the one named, or the user's only
// active game in the channel.
func (b moveFlow) gameHere(ctx context.Context, ix *interaction, id string) (*storage.Game, error) {
	here, err := b.gamesHere(ctx, ix)
	if err != nil {
		return nil, err
	}
	if id != "" {
		for _, g := range here {
			if strings.EqualFold(string(g.ID), id) {
				return g, nil
			}
		}
		return nil, mux.Err("move.no_such_game", "ID", mux.Echo(id))
	}
	switch len(here) {
	case 0:
		return nil, mux.Err("move.no_games_here")
	case 1:
		return here[0], nil
	}
	ids := make([]string, len(here))
	for i, g := range here {
		ids[i] = string(g.ID)
	}
	return nil, mux.Err("move.which", "Count", len(here), "IDs", strings.Join(ids, ", "))
}

// completeMove suggests the legal moves of the user's game here, or the
// games themselves for the game option.
func (b moveFlow) completeMove(ctx context.Context, ix *autocomplete) error {
	opts := ix.Opts
	here, err := b.gamesHere(ctx, ix.Interaction)
	if err != nil {
		return err
	}
	typed := strings.ToLower(opts.Str(opts.Focused))
	var out []*discordgo.ApplicationCommandOptionChoice
	if opts.Focused == "game" {
		for _, g := range here {
			if strings.HasPrefix(strings.ToLower(string(g.ID)), typed) {
				l := ix.Lang()
				turn := l.T("move.their_move")
				if g.Turn == seatOf(g, ix.Caller().ID) {
					turn = l.T("move.your_move")
				}
				against := l.T("board.solo")
				if opp, ok := g.Opponent(seatOf(g, ix.Caller().ID)); ok {
					against = l.T("board.vs", "Player", cmp.Or(opp.Name, l.T("board.a_member"))) // a context-menu challenge knows only the ID
				}
				name := fmt.Sprintf("%s · %s %s · %s", g.ID, g.Kind, against, turn)
				out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: render.ClipWords(name, 100), Value: string(g.ID)})
			}
		}
		return ix.Choices(out)
	}
	g := pickForCompletion(here, opts.Str("game"), ix.Caller().ID)
	if g == nil {
		return ix.Choices(nil)
	}
	pos, err := position(g)
	if err != nil {
		return err
	}
	for _, m := range pos.Moves(nil) {
		name := pos.FormatMove(m)
		if strings.HasPrefix(name, typed) {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, Value: name})
		}
	}
	slices.SortFunc(out, func(a, b *discordgo.ApplicationCommandOptionChoice) int { return strings.Compare(a.Name, b.Name) })
	return ix.Choices(out)
}

// pickForCompletion chooses the game whose moves to suggest: the one named,
// else the first where it is the user's turn.
func pickForCompletion(here []*storage.Game, id, userID string) *storage.Game {
	for _, g := range here {
		if id != "" && strings.EqualFold(string(g.ID), id) {
			return g
		}
	}
	if id != "" {
		return nil
	}
	for _, g := range here {
		if g.Turn == seatOf(g, userID) {
			return g
		}
	}
	return nil
}

// routes declares /move and the components that play a move.
func (b moveFlow) routes(m *mux.Mux) {
	m.Command(&discordgo.ApplicationCommand{
		Name: "move", Description: "Play a move by typing it",
		Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "cell", Description: "The cell or column, e.g. e4 or 4",
				Required: true, Autocomplete: true, MaxLength: 8},
			{Type: discordgo.ApplicationCommandOptionString, Name: "game", Description: "Which of your games here (its ID)",
				Autocomplete: true, MaxLength: 32},
		},
	}, b.cmdMove, b.completeMove)
	games := mux.NewGroup(m, b.withGame)
	games.Component(customid.Move, b.clickMove)
	games.Component(customid.Pick, b.clickMove)
	games.Component(customid.File, b.clickFile)
	games.Component(customid.Cell, b.clickCell)
}
