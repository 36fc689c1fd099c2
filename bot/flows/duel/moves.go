package duel

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
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/storage"
)

// Moves: a click on a board's move button or cell select, the two clicks
// of a move on a board too large for one menu (a column, then a cell on a
// picker only the mover sees), and /move, typed. Each is checked against
// the game as it is under its lock — the clicker is to move and the board
// is current — then committed, and only then shown; when the AI moves
// next its turn is queued and the board says so.

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
func (f *Flow) checkBoardClick(ctx context.Context, ix *mux.Interaction, g *storage.Game, p customid.Params) (answered bool, err error) {
	if err := f.boards.Adopt(ctx, ix, g); err != nil {
		return false, err
	}
	if f.boards.EndedBehind(ix, g) {
		return true, f.boards.CatchUp(ctx, ix, g)
	}
	if err := play.CheckMover(g, ix.Caller().ID); err != nil {
		return false, err
	}
	if p["ply"] != render.Ply(g) || !f.boards.OnBoard(ix, g) {
		if ix.Message != nil && ix.Message.ID == g.MessageID && render.ShownPly(ix.Message.Components) != render.Ply(g) {
			return true, f.boards.CatchUp(ctx, ix, g)
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
	if err := play.CheckMover(g, userID); err != nil {
		return err
	}
	if p["ply"] != render.Ply(g) {
		return mux.Err("move.stale_choice")
	}
	return nil
}

// onPicker reports whether a component interaction comes from a cell
// picker rather than a board: pickers are ephemeral, boards never are.
func onPicker(ix *mux.Interaction) bool {
	return ix.Message != nil && ix.Message.Flags&discordgo.MessageFlagsEphemeral != 0
}

// clickFile handles the first click of a two-click move, a column under
// the board: it shows the clicker alone a picker of the column's cells.
// A column button on the picker switches the picker to that column. The
// choice lives only in that message's custom IDs, so nothing is stored,
// nobody else sees it, and a picker the player leaves behind goes stale
// with the next move.
func (f *Flow) clickFile(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	p := ix.Params
	picker := onPicker(ix.Interaction)
	if picker {
		if err := checkPickerClick(g, ix.Caller().ID, p); err != nil {
			return err
		}
	} else if answered, err := f.checkBoardClick(ctx, ix.Interaction, g, p); answered || err != nil {
		return err
	}
	pos, err := play.Position(g)
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
func (f *Flow) clickCell(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	p := ix.Params
	if err := checkPickerClick(g, ix.Caller().ID, p); err != nil {
		return err
	}
	return f.playText(ctx, ix.Interaction, g, p["cell"], func(text string) error {
		return ix.Update(render.Message{Content: text, Components: []discordgo.MessageComponent{}})
	})
}

// clickMove handles a move button or a cell select on a board.
func (f *Flow) clickMove(ctx context.Context, ix *mux.Component, g *storage.Game) error {
	p := ix.Params
	if answered, err := f.checkBoardClick(ctx, ix.Interaction, g, p); answered || err != nil {
		return err
	}
	cell := p["cell"]
	if values := ix.Values; cell == "" && len(values) == 1 {
		cell = values[0]
	}
	return f.playText(ctx, ix.Interaction, g, cell, nil)
}

// playText plays the move written as text (a clicked component's cell, a
// typed /move) for the player to move in g; confirm is playHuman's.
func (f *Flow) playText(ctx context.Context, ix *mux.Interaction, g *storage.Game, text string, confirm func(string) error) error {
	pos, err := play.Position(g)
	if err != nil {
		return err
	}
	mv, err := parseMove(pos, text)
	if err != nil {
		return err
	}
	return f.playHuman(ctx, ix, g, pos, mv, confirm)
}

// playedName names mv, about to be played in pos, as the board will
// name it: a sliding tile by its number ("You played tile 7."; Moved names
// only tiles), as the hint and the last-move line do, and other moves in
// the game's notation.
func playedName(ix *mux.Interaction, g *storage.Game, pos engine.Position, mv engine.Move) string {
	if gm, err := play.Game(g); err == nil && gm.Moved != nil {
		return ix.Lang().T("move.tile", "Tile", gm.Moved(pos, mv))
	}
	return pos.FormatMove(mv)
}

// playHuman commits a person's move and shows it: by updating the clicked
// board if confirm is nil, or else by answering with confirm's text
// ("You played e4.") and an edit of the board (a typed move, a cell
// picker). When the AI moves next its turn is queued; the seam lets it
// start once the handler returned. The caller holds the game's lock.
func (f *Flow) playHuman(ctx context.Context, ix *mux.Interaction, g *storage.Game, pos engine.Position, mv engine.Move, confirm func(text string) error) error {
	played := playedName(ix, g, pos, mv)
	changes, err := f.turns.Commit(ctx, g, pos, mv)
	if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrGameOver) {
		return mux.RaceErr(err, "move.conflict")
	}
	if err != nil {
		return err
	}
	msg := f.boards.View(g, pos, f.turns.QueueAI(ctx, ix, g), changes, "")
	if confirm == nil {
		return f.boards.Show(ctx, ix, g, msg)
	}
	if err := confirm(ix.Lang().T("move.played", "Move", played)); err != nil {
		return err
	}
	if err := f.boards.EditTo(ctx, g, msg); err != nil {
		if ix.InteractionOnly() || errors.Is(err, play.ErrUnreachable) {
			// No valid token shows the board (a channel reached only
			// through interactions, a private board anywhere): this
			// interaction shows it again, as a follow-up that becomes the
			// board.
			return f.boards.ShowNew(ctx, ix, g, msg)
		}
		f.log.Warn("typed move played but its board not updated", "game", g.ID, "err", err)
		if code := egress.Code(err); code == discordgo.ErrCodeMissingAccess || code == discordgo.ErrCodeMissingPermissions {
			return mux.Err("move.no_permissions", "Move", played)
		}
		return mux.Err("move.no_update", "Move", played)
	}
	return nil
}

// cmdMove handles /move cell:<…> [game:<…>]: it finds the game, then plays
// on it as reloaded under its lock.
func (f *Flow) cmdMove(ctx context.Context, ix *mux.Command) error {
	opts := ix.Opts
	g, err := f.gameHere(ctx, ix.Interaction, opts.Str("game"))
	if err != nil {
		return err
	}
	cell := opts.Str("cell")
	return f.turns.OnGame(ctx, ix.Interaction, string(g.ID), func(ctx context.Context, g *storage.Game) error {
		if err := play.CheckMover(g, ix.Caller().ID); err != nil {
			return err
		}
		return f.playText(ctx, ix.Interaction, g, cell, func(text string) error { return ix.Reply(render.Message{Content: text}, true) })
	})
}

// gamesHere returns the user's active games in the interaction's channel.
func (f *Flow) gamesHere(ctx context.Context, ix *mux.Interaction) ([]*storage.Game, error) {
	all, err := f.store.ActiveGames(ctx, storage.User(ix.Caller().ID))
	if err != nil {
		return nil, fmt.Errorf("duel: games of %s: %w", ix.Caller().ID, err)
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
func (f *Flow) gameHere(ctx context.Context, ix *mux.Interaction, id string) (*storage.Game, error) {
	here, err := f.gamesHere(ctx, ix)
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
func (f *Flow) completeMove(ctx context.Context, ix *mux.Autocomplete) error {
	opts := ix.Opts
	here, err := f.gamesHere(ctx, ix.Interaction)
	if err != nil {
		return err
	}
	me := storage.User(ix.Caller().ID)
	typed := strings.ToLower(opts.Str(opts.Focused))
	var out []*discordgo.ApplicationCommandOptionChoice
	if opts.Focused == "game" {
		l := ix.Lang()
		for _, g := range here {
			if !strings.HasPrefix(strings.ToLower(string(g.ID)), typed) {
				continue
			}
			turn := l.T("move.their_move")
			if g.Turn == g.Seat(me) {
				turn = l.T("move.your_move")
			}
			against := l.T("board.solo")
			if opp, ok := g.Opponent(g.Seat(me)); ok {
				against = l.T("board.vs", "Player", cmp.Or(opp.Name, l.T("board.a_member"))) // a context-menu challenge knows only the ID
			}
			name := fmt.Sprintf("%s · %s %s · %s", g.ID, g.Kind, against, turn)
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: render.ClipWords(name, 100), Value: string(g.ID)})
		}
		return ix.Choices(out)
	}
	g := pickForCompletion(here, opts.Str("game"), me)
	if g == nil {
		return ix.Choices(nil)
	}
	pos, err := play.Position(g)
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
// else the first where it is the member's turn.
func pickForCompletion(here []*storage.Game, id string, me storage.PlayerID) *storage.Game {
	for _, g := range here {
		if id != "" && strings.EqualFold(string(g.ID), id) {
			return g
		}
	}
	if id != "" {
		return nil
	}
	for _, g := range here {
		if g.Turn == g.Seat(me) {
			return g
		}
	}
	return nil
}
