package render

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
)

// Thinking says an AI is about to move: queued or searching.
type Thinking struct {
	// Queue is 0 while the AI is searching, k ≥ 1 while it is k-th in the
	// AI queue.
	Queue int
	// Depth is the deepest completed search depth so far, 0 if unknown.
	Depth int
	// Nodes counts the positions searched so far, 0 if unknown.
	Nodes uint64
	// Elapsed is the search time so far.
	Elapsed time.Duration
}

// View is everything a game's message shows.
//
// The players' sides follow from the game's turn: Game.Players[Game.Turn]
// plays Pos.SideToMove(), also once the game has ended.
type View struct {
	// Game is the game shown; required.
	Game *storage.Game
	// Pos is the current position; nil for a pending, expired, declined
	// or cancelled challenge. If it is nil for a game that has started, the game's
	// stored position text is drawn.
	Pos engine.Position
	// Thinking is non-nil while the AI to move is queued or searching.
	Thinking *Thinking
	// Changes are the rating changes of a game that just ended; the
	// global-ladder ones (Ladder.Guild == "") are shown.
	Changes []storage.RatingChange
	// ShownChanges are the rating changes as a board of the game shows
	// them already (ShownChanges finds them), kept when the board is drawn
	// again without Changes, which the store does not keep.
	ShownChanges string
	// Notice is an optional line shown prominently, such as "Challenge
	// expired." or "alice resigned.".
	Notice string
	// Rematched drops the Rematch button of an ended game whose rematch
	// was started.
	Rematched bool
	// Lang is the language of the message, the guild's for a board in a
	// channel; nil for English.
	Lang *i18n.Localizer
	// Board is the form of the board: its picture, its emoji grid, or
	// both. The bot resolves the form its settings give (the picture
	// unless a server or player chose otherwise); the zero value shows
	// both.
	Board storage.BoardForm
	// Searches are the last searches of the two sides of a game between
	// two AIs, by seat; nil for a side not known (yet).
	Searches [2]*Search
}

// lang returns the view's language.
func (v View) lang() *i18n.Localizer {
	if v.Lang == nil {
		return i18n.Default
	}
	return v.Lang
}

// Game renders a game's message for any status: a challenge with Accept
// and Decline buttons, a game in progress with its move components, a
// finished game with its result, rating changes and a Rematch button, or a
// cancelled challenge or game, without buttons. A solo puzzle shows its one
// player and the moves used, with a Give up button while it is played and
// its score once it is over; it has no turn, deadline, ratings or Rematch.
func Game(v View) Message {
	switch v.Game.Status {
	case storage.StatusPending, storage.StatusExpired, storage.StatusDeclined, storage.StatusWithdrawn:
		return layout(challenge(v), nil)
	case storage.StatusCancelled:
		if v.Game.Position == "" { // cancelled before it was accepted
			return layout(challenge(v), nil)
		}
	}
	return layout(game(v))
}

// gameTitle returns a game's name, such as "Connect Four".
func gameTitle(l *i18n.Localizer, k storage.Kind) string {
	if gm := gameOf(k); gm != nil {
		return gameText(l, gm, "title", gm.Title)
	}
	return string(k)
}

// roundsOf returns the rounds of a game that has rounds, 0 otherwise.
func roundsOf(g *storage.Game) int {
	gm := gameOf(g.Kind)
	if gm == nil || gm.Setup.Rounds == nil {
		return 0
	}
	return options(gm, g).Rounds
}

// heading returns a game's title with its settings: "Adjacency · 8
// rounds", with "casual" for a game that moves no rating.
func heading(l *i18n.Localizer, g *storage.Game) string {
	title := gameTitle(l, g.Kind)
	if r := roundsOf(g); r > 0 {
		title += " · " + plural(l, r, "round")
	}
	if g.Settings.Casual {
		title += " · " + l.T("board.casual")
	}
	return title
}

// idFooter returns the footer naming a game's id, with the AI's move time
// if an AI plays.
func idFooter(l *i18n.Localizer, g *storage.Game, forMove bool) *discordgo.MessageEmbedFooter {
	text := l.T("board.game_id", "ID", g.ID)
	if forMove {
		text = l.T("board.game_id_move", "ID", g.ID)
	}
	if slices.ContainsFunc(g.Players, func(p storage.Player) bool { return p.ID.IsAI() }) && g.Settings.MoveTime > 0 {
		text += " · " + l.T("board.ai_move_time", "Time", Duration(l, g.Settings.MoveTime))
	}
	return &discordgo.MessageEmbedFooter{Text: text}
}

// withNotice appends the notice, in bold, to a message's content.
func withNotice(content, notice string) string {
	notice = strings.TrimSpace(notice)
	if notice == "" {
		return content
	}
	if content != "" {
		content += "\n"
	}
	return clip(content+"**"+notice+"**", maxContent)
}

// challenge renders a pending, expired, declined or cancelled challenge.
func challenge(v View) Message {
	g, l := v.Game, v.lang()
	challenger, challenged := PlayerName(l, g.Kind, g.Players[0]), PlayerName(l, g.Kind, g.Players[1])
	var details []string
	if r := roundsOf(g); r > 0 {
		details = append(details, plural(l, r, "round"))
	}
	switch g.Settings.First {
	case "me", "opponent", "random":
		details = append(details, l.T("board.first_"+g.Settings.First))
	}
	textID := "board.challenge"
	if g.OpenChallenge() {
		textID = "board.open_challenge"
	}
	text := l.T(textID, "Challenged", challenged, "Challenger", challenger, "Game", gameTitle(l, g.Kind))
	if len(details) > 0 {
		text += " (" + strings.Join(details, ", ") + ")"
	}
	text += "."

	lines := []string{
		l.T("board.challenger", "Player", challenger),
		l.T("board.opponent", "Player", challenged),
	}
	if who := map[string]string{"me": challenger, "opponent": challenged, "random": l.T("board.drawn")}[g.Settings.First]; who != "" {
		lines = append(lines, l.T("board.first_move", "Who", who))
	}
	msg := Message{Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
	embed := &discordgo.MessageEmbed{Title: clip("⚔️ "+heading(l, g), maxTitle), Color: colourGrey, Footer: idFooter(l, g, false)}
	notice := v.Notice
	// An ended challenge's notice and status line, by its status.
	ended := map[storage.Status][2]string{
		storage.StatusExpired:   {"board.expired", "board.status_expired"},
		storage.StatusDeclined:  {"board.declined", "board.status_declined"},
		storage.StatusWithdrawn: {"board.withdrawn", "board.status_withdrawn"},
		storage.StatusCancelled: {"board.cancelled_challenge", "board.status_cancelled"},
	}
	if e, ok := ended[g.Status]; ok {
		if notice == "" {
			notice = l.T(e[0])
		}
		lines = append(lines, l.T(e[1]))
	}
	if g.Status == storage.StatusPending {
		if !g.Deadline.IsZero() {
			text += " " + l.T("board.expires", "When", relativeTime(g.Deadline))
			lines = append(lines, l.T("board.expires_line", "When", relativeTime(g.Deadline)))
		}
		lines = append(lines, "", l.T("board.new_to", "Game", gameTitle(l, g.Kind), "Name", g.Kind))
		embed.Color = colourBlurple
		msg.AllowedMentions = pingOnly(g.Players[1].ID)
		msg.Components = []discordgo.MessageComponent{row(
			button(l.T("board.accept"), "✅", discordgo.SuccessButton, customid.Accept.Build(string(g.ID))),
			button(l.T("board.decline"), "✖️", discordgo.DangerButton, customid.Decline.Build(string(g.ID))),
		)}
		if g.OpenChallenge() {
			// Anyone but the challenger may take it; only the challenger
			// answers it otherwise, by withdrawing it.
			lines = append(lines, l.T("board.open_note"))
			msg.Components = []discordgo.MessageComponent{row(
				button(l.T("board.accept"), "✅", discordgo.SuccessButton, customid.Take.Build(string(g.ID))),
				button(l.T("board.withdraw"), "✖️", discordgo.DangerButton, customid.Decline.Build(string(g.ID))),
			)}
		}
	}
	embed.Description = fitLines(lines, maxDescription)
	msg.Content = withNotice(clip(text, maxContent), notice)
	msg.Embeds = []*discordgo.MessageEmbed{embed}
	return msg
}

// game renders an active, ended or cancelled game as content and an embed
// (for layout), and draws its board's picture, nil if there is no board.
func game(v View) (Message, *File) {
	g, l := v.Game, v.lang()
	gm := gameOf(g.Kind)
	pos := position(v)
	if gm == nil {
		pos = nil
	}
	msg := Message{Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
	embed := &discordgo.MessageEmbed{Title: clip(heading(l, g), maxTitle), Color: colourGrey, Footer: idFooter(l, g, g.Status == storage.StatusActive)}
	lines := append(playerLines(l, g, gm, pos), "")
	var pic *File
	gridShown := false
	if pos == nil {
		lines = append(lines, l.T("board.unavailable"), "")
	} else {
		last := lastChange(g)
		board := gm.Look.Board(pos, last)
		form := v.Board.Or(storage.BoardBoth)
		if form != storage.BoardEmoji {
			pic = boardPicture(l, gm, board, Ply(g))
		}
		if pic == nil || form != storage.BoardPicture { // the grid, also where the picture failed
			lines, gridShown = append(lines, grid(gm.Look, board), ""), true
		}
		if line := lastMoveLine(l, g, gm, pos, last); line != "" {
			lines = append(lines, line)
		}
	}
	if g.Status.Ended() {
		if pos != nil && gm.Look.Tally != nil {
			x, _ := gm.Look.Tally(pos, engine.X)
			o, _ := gm.Look.Tally(pos, engine.O)
			lines = append(lines, l.T("board.final_score", "MarkX", gm.Look.Mark[engine.X], "X", x, "O", o, "MarkO", gm.Look.Mark[engine.O]))
		}
		lines = append(lines, resultLine(l, g))
		if BetweenAIs(g) {
			lines = append(lines, searchLines(l, g, v.Searches)...)
		}
		if pos != nil && g.Result != nil && g.Result.Winner >= 0 {
			embed.Color = gm.Look.Colour[seatSides(g, pos)[g.Result.Winner]]
		}
		if f := ratingField(l, g, v.Changes); f != nil {
			embed.Fields = []*discordgo.MessageEmbedField{f}
		} else if v.ShownChanges != "" {
			embed.Fields = []*discordgo.MessageEmbedField{{Name: ratingFieldName(l, g), Value: clip(v.ShownChanges, maxFieldValue)}}
		}
		if !g.Solo() {
			// Two AIs' game is started again with /versus, which checks
			// its caps, and a tournament pairs its players' next game:
			// no Rematch.
			msg.Components = endRow(l, g, !v.Rematched && !BetweenAIs(g) && g.Settings.Tournament == "")
		} else if g.Settings.Daily != "" {
			msg.Components = newPuzzleRow(l, g)
		}
	} else if g.Status == storage.StatusCancelled || g.Status == storage.StatusAborted {
		line, notice := "board.cancelled_line", "board.cancelled_game"
		if g.Status == storage.StatusAborted {
			line, notice = "board.aborted_line", "board.aborted_game"
		}
		lines = append(lines, l.T(line))
		if v.Notice == "" {
			v.Notice = l.T(notice)
		}
	} else {
		if pos != nil && gm.Look.Progress != nil && !pos.Terminal() {
			if p := gm.Look.Progress(pos, options(gm, g)); gridShown || !p.GridOnly {
				lines = append(lines, gameWords(l, gm, p))
			}
		}
		mover := g.Players[g.Turn]
		mark := ""
		if pos != nil {
			mark = gm.Look.Mark[pos.SideToMove()]
			embed.Color = gm.Look.Colour[pos.SideToMove()]
		}
		if g.Solo() {
			lines = append(lines, movesUsedLine(l, g))
		} else {
			lines = append(lines, turnLine(l, g, v.Thinking, mark))
		}
		if BetweenAIs(g) {
			lines = append(lines, searchLines(l, g, v.Searches)...)
		}
		if o := g.DrawOffer; o != nil && !g.Solo() {
			lines = append(lines, l.T("board.draw_offered", "Player", PlayerName(l, g.Kind, g.Players[o.Seat&1]), "Opponent", PlayerName(l, g.Kind, g.Players[1-o.Seat&1])))
		}
		humanTurn := v.Thinking == nil && !mover.ID.IsAI()
		if id, ok := mover.ID.UserID(); ok && humanTurn && !g.Solo() {
			msg.Content = l.T("board.your_move", "Player", "<@"+id+">")
			msg.AllowedMentions = pingOnly(mover.ID)
		}
		if BetweenAIs(g) {
			msg.Components = stopRow(l, g)
		} else if pos == nil {
			msg.Components = []discordgo.MessageComponent{row(resignButton(l, g))}
		} else {
			msg.Components = moveComponents(l, g, gm, pos, humanTurn && !pos.Terminal())
		}
	}
	embed.Description = fitLines(lines, maxDescription)
	msg.Content = withNotice(msg.Content, v.Notice)
	msg.Embeds = []*discordgo.MessageEmbed{embed}
	return msg, pic
}

// playerLines lists the players, X first, with their colours and their
// tallies (Adjacency's marks); pos is nil when the board is not available.
// A solo puzzle has one line: its player, with a trophy once solved.
func playerLines(l *i18n.Localizer, g *storage.Game, gm *games.Game, pos engine.Position) []string {
	if g.Solo() {
		line := "🧩 " + PlayerName(l, g.Kind, g.Players[0])
		if g.Solved() {
			return []string{line + " 🏆"}
		}
		if gm.Help.Goal != "" {
			return []string{line, "🎯 " + gameText(l, gm, "goal", gm.Help.Goal)}
		}
		return []string{line}
	}
	if pos == nil {
		return []string{l.T("board.versus", "A", PlayerName(l, g.Kind, g.Players[0]), "B", PlayerName(l, g.Kind, g.Players[1]))}
	}
	sides := seatSides(g, pos)
	lines := make([]string, 2)
	for i, p := range g.Players {
		line := gm.Look.Mark[sides[i]] + " " + PlayerName(l, g.Kind, p)
		if gm.Look.Tally != nil {
			n, unit := gm.Look.Tally(pos, sides[i])
			line += " · " + tally(l, gm, n, unit)
		}
		if g.Result != nil && g.Result.Winner == i {
			line += " 🏆"
		}
		lines[sides[i]] = line
	}
	return lines
}

// describe says what a move did, after "Last move: <who> ", in l's
// language: the catalogue's game.<name>.last, given the move and the
// cells it captured, or else the plug-in's own words.
func describe(l *i18n.Localizer, gm *games.Game, c games.Change) string {
	return gameText(l, gm, "last", gm.Look.Describe(c), "Move", c.Move, "Captured", strings.Join(c.Changed, ", "))
}

// lastMoveLine says who made the last move and what it did, or returns ""
// before the first move. A puzzle's Solve button plays its moves for the
// player, so the last move of a puzzle solved by Gambit is Gambit's.
func lastMoveLine(l *i18n.Localizer, g *storage.Game, gm *games.Game, pos engine.Position, last *games.Change) string {
	if last == nil {
		return ""
	}
	if g.Solo() {
		who := PlayerName(l, g.Kind, g.Players[0])
		if g.Result != nil && g.Result.Outcome == storage.SolvedByGambit {
			who = l.T("board.gambit")
		}
		return l.T("board.last_move", "Who", who, "What", describe(l, gm, *last))
	}
	s := pos.SideToMove().Other() // the side that moved last
	who := gm.Look.Last[s]
	for i, side := range seatSides(g, pos) {
		if side == s {
			who += " " + PlayerName(l, g.Kind, g.Players[i])
		}
	}
	return l.T("board.last_move", "Who", who, "What", describe(l, gm, *last))
}

// turnLine says whose turn it is, or what the AI to move is doing; mark is
// the emoji of the side to move, empty if unknown.
func turnLine(l *i18n.Localizer, g *storage.Game, t *Thinking, mark string) string {
	mover := PlayerName(l, g.Kind, g.Players[g.Turn&1])
	switch {
	case t != nil && t.Queue > 0:
		return l.T("board.queued", "Player", mover, "Position", t.Queue)
	case t != nil:
		var facts []string
		if t.Depth > 0 {
			facts = append(facts, l.T("board.depth", "Depth", t.Depth))
		}
		if t.Nodes > 0 {
			facts = append(facts, searched(l, t.Nodes))
		}
		if t.Elapsed > 0 {
			facts = append(facts, t.Elapsed.Round(100*time.Millisecond).String())
		}
		line := l.T("board.thinking", "Player", mover)
		if len(facts) > 0 {
			line += " (" + strings.Join(facts, " · ") + ")"
		}
		return line
	}
	line := l.T("board.to_move", "Player", strings.TrimSpace(mark+" "+mover))
	if !g.Deadline.IsZero() && !g.Players[g.Turn&1].ID.IsAI() {
		line += " · " + l.T("board.must_move", "When", relativeTime(g.Deadline))
	}
	return line
}

// resultLine says how an ended game ended.
func resultLine(l *i18n.Localizer, g *storage.Game) string {
	r := g.Result
	if r == nil {
		return l.T("board.over")
	}
	if g.Solo() {
		return puzzleResultLine(l, g)
	}
	if r.Winner == storage.Draw && r.Outcome == storage.DrawAgreed {
		return l.T("board.draw_agreed")
	}
	if r.Winner == storage.Draw {
		return l.T("board.draw")
	}
	winner, loser := PlayerName(l, g.Kind, g.Players[r.Winner&1]), PlayerName(l, g.Kind, g.Players[1-r.Winner&1])
	line := l.T("board.wins", "Player", winner)
	switch {
	case r.Outcome == storage.Resigned:
		line += "\n" + l.T("board.resigned", "Player", loser)
	case r.Outcome == storage.TimedOut:
		line += "\n" + l.T("board.timeout", "Player", loser)
		if _, ok := g.NoShow(); ok && g.Settings.Tournament != "" { // out of the pairings that follow, if any (storage.SetResult)
			line += "\n" + l.T("tournament.no_show_board", "Player", loser)
		}
	case g.Status == storage.StatusForfeited:
		line += "\n" + l.T("board.forfeited", "Player", loser)
	}
	return line
}

// ratingField lists the global-ladder rating changes, players in seat
// order (an AI's fixed rating without a change), with a line explaining a
// provisional rating; nil if there are none.
func ratingField(l *i18n.Localizer, g *storage.Game, changes []storage.RatingChange) *discordgo.MessageEmbedField {
	var (
		lines       []string
		provisional bool
	)
	for _, p := range g.Players {
		for _, c := range changes {
			if c.Ladder.Guild != "" || c.After.Player != p.ID {
				continue
			}
			if p.ID.IsAI() {
				lines = append(lines, fmt.Sprintf("%s %s", PlayerName(l, g.Kind, p), ratingText(l, c.After)))
				continue
			}
			lines = append(lines, fmt.Sprintf("%s %s → %s (%s)", PlayerName(l, g.Kind, p), ratingText(l, c.Before), ratingText(l, c.After), ratingDelta(c)))
			if c.After.Provisional() {
				provisional = true
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	if provisional {
		lines = append(lines, "_"+l.T("board.provisional_note")+"_")
	}
	return &discordgo.MessageEmbedField{Name: ratingFieldName(l, g), Value: fitLines(lines, maxFieldValue)}
}

// ratingFieldName is the heading of a board's rating changes.
func ratingFieldName(l *i18n.Localizer, g *storage.Game) string {
	return l.T("board.rating_changes", "Game", gameTitle(l, g.Kind))
}

// ShownChanges returns the rating changes that m, a board of g drawn in
// l's language, shows ("" if none), for View.ShownChanges: the text
// display layout made of the rating field.
func ShownChanges(l *i18n.Localizer, g *storage.Game, m *discordgo.Message) string {
	if m == nil {
		return ""
	}
	head := "**" + ratingFieldName(l, g) + "**\n"
	var find func([]discordgo.MessageComponent) string
	find = func(cs []discordgo.MessageComponent) string {
		for _, c := range cs {
			switch c := c.(type) {
			case *discordgo.Container:
				if s := find(c.Components); s != "" {
					return s
				}
			case *discordgo.TextDisplay:
				if rest, ok := strings.CutPrefix(c.Content, head); ok {
					return rest
				}
			}
		}
		return ""
	}
	return find(m.Components)
}

// ratingDelta returns a change of rounded ratings as "+16", "−16" or "±0".
func ratingDelta(c storage.RatingChange) string {
	d := roundRating(c.After) - roundRating(c.Before)
	switch {
	case d > 0:
		return fmt.Sprintf("+%d", d)
	case d < 0:
		return fmt.Sprintf("−%d", -d)
	}
	return "±0"
}
