package render

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
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
	// Notice is an optional line shown prominently, such as "Challenge
	// expired." or "alice resigned.".
	Notice string
	// Rematched drops the Rematch button of an ended game whose rematch
	// was started.
	Rematched bool
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
func gameTitle(k storage.Kind) string {
	if gm := gameOf(k); gm != nil {
		return gm.Title
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

// heading returns a game's title with its setting: "Adjacency · 8 rounds".
func heading(g *storage.Game) string {
	if r := roundsOf(g); r > 0 {
		return gameTitle(g.Kind) + " · " + plural(r, "round")
	}
	return gameTitle(g.Kind)
}

// idFooter returns the footer naming a game's id, with the AI's move time
// if an AI plays.
func idFooter(g *storage.Game, forMove bool) *discordgo.MessageEmbedFooter {
	text := "Game ID " + string(g.ID)
	if forMove {
		text += " (for /move game:" + string(g.ID) + ")"
	}
	if slices.ContainsFunc(g.Players, func(p storage.Player) bool { return p.ID.IsAI() }) && g.Settings.MoveTime > 0 {
		text += " · AI move time " + g.Settings.MoveTime.String()
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
	g := v.Game
	challenger, challenged := PlayerName(g.Players[0]), PlayerName(g.Players[1])
	var details []string
	if r := roundsOf(g); r > 0 {
		details = append(details, plural(r, "round"))
	}
	first := map[string]string{
		"me":       "challenger moves first",
		"opponent": "you move first",
		"random":   "first move drawn at random",
	}[g.Settings.First]
	if first != "" {
		details = append(details, first)
	}
	text := fmt.Sprintf("%s, %s challenges you to **%s**", challenged, challenger, gameTitle(g.Kind))
	if len(details) > 0 {
		text += " (" + strings.Join(details, ", ") + ")"
	}
	text += "."

	lines := []string{
		"**Challenger** " + challenger,
		"**Opponent** " + challenged,
	}
	if who := map[string]string{"me": challenger, "opponent": challenged, "random": "drawn at random"}[g.Settings.First]; who != "" {
		lines = append(lines, "**First move** "+who)
	}
	msg := Message{Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
	embed := &discordgo.MessageEmbed{Title: clip("⚔️ "+heading(g), maxTitle), Color: colourGrey, Footer: idFooter(g, false)}
	notice := v.Notice
	switch g.Status {
	case storage.StatusPending:
		if !g.Deadline.IsZero() {
			text += " The challenge expires " + relativeTime(g.Deadline) + "."
			lines = append(lines, "**Expires** "+relativeTime(g.Deadline))
		}
		lines = append(lines, "", fmt.Sprintf("New to %s? `/help game:%s` explains the rules.", gameTitle(g.Kind), g.Kind))
		embed.Color = colourBlurple
		msg.AllowedMentions = pingOnly(g.Players[1].ID)
		msg.Components = []discordgo.MessageComponent{row(
			button("Accept", "✅", discordgo.SuccessButton, customid.Accept.Build(string(g.ID))),
			button("Decline", "✖️", discordgo.DangerButton, customid.Decline.Build(string(g.ID))),
		)}
	case storage.StatusExpired:
		if notice == "" {
			notice = "Challenge expired."
		}
		lines = append(lines, "**Status** expired")
	case storage.StatusDeclined:
		if notice == "" {
			notice = "Challenge declined."
		}
		lines = append(lines, "**Status** declined")
	case storage.StatusWithdrawn:
		if notice == "" {
			notice = "Challenge withdrawn."
		}
		lines = append(lines, "**Status** withdrawn")
	case storage.StatusCancelled:
		if notice == "" {
			notice = "Challenge cancelled."
		}
		lines = append(lines, "**Status** cancelled")
	}
	embed.Description = fitLines(lines, maxDescription)
	msg.Content = withNotice(clip(text, maxContent), notice)
	msg.Embeds = []*discordgo.MessageEmbed{embed}
	return msg
}

// game renders an active, ended or cancelled game as content and an embed
// (for layout), and draws its board's picture, nil if there is no board.
func game(v View) (Message, *File) {
	g := v.Game
	gm := gameOf(g.Kind)
	pos := position(v)
	if gm == nil {
		pos = nil
	}
	msg := Message{Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
	embed := &discordgo.MessageEmbed{Title: clip(heading(g), maxTitle), Color: colourGrey, Footer: idFooter(g, g.Status == storage.StatusActive)}
	lines := append(playerLines(g, gm, pos), "")
	var pic *File
	if pos == nil {
		lines = append(lines, "*The board is not available.*", "")
	} else {
		last := lastChange(g)
		board := gm.Look.Board(pos, last)
		pic = boardPicture(gm.Look, board, Ply(g))
		lines = append(lines, grid(gm.Look, board), "")
		if l := lastMoveLine(g, gm, pos, last); l != "" {
			lines = append(lines, l)
		}
	}
	if g.Status.Ended() {
		if pos != nil && gm.Look.Tally != nil {
			x, _ := gm.Look.Tally(pos, engine.X)
			o, _ := gm.Look.Tally(pos, engine.O)
			lines = append(lines, fmt.Sprintf("Final score: %s **%d** – **%d** %s", gm.Look.Mark[engine.X], x, o, gm.Look.Mark[engine.O]))
		}
		lines = append(lines, resultLine(g))
		if pos != nil && g.Result != nil && g.Result.Winner >= 0 {
			embed.Color = gm.Look.Colour[seatSides(g, pos)[g.Result.Winner]]
		}
		if f := ratingField(g, v.Changes); f != nil {
			embed.Fields = []*discordgo.MessageEmbedField{f}
		}
		if !v.Rematched && !g.Solo() {
			msg.Components = rematchRow(g)
		}
	} else if g.Status == storage.StatusCancelled {
		lines = append(lines, cancelledLine)
		if v.Notice == "" {
			v.Notice = "Game cancelled."
		}
	} else {
		if pos != nil && gm.Look.Progress != nil && !pos.Terminal() {
			lines = append(lines, gm.Look.Progress(pos, options(gm, g)))
		}
		mover := g.Players[g.Turn]
		mark := ""
		if pos != nil {
			mark = gm.Look.Mark[pos.SideToMove()]
			embed.Color = gm.Look.Colour[pos.SideToMove()]
		}
		if g.Solo() {
			lines = append(lines, movesUsedLine(g))
		} else {
			lines = append(lines, turnLine(g, v.Thinking, mark))
		}
		humanTurn := v.Thinking == nil && !mover.ID.IsAI()
		if id, ok := mover.ID.UserID(); ok && humanTurn && !g.Solo() {
			msg.Content = "<@" + id + ">, your move"
			msg.AllowedMentions = pingOnly(mover.ID)
		}
		if pos == nil {
			msg.Components = []discordgo.MessageComponent{row(resignButton(g))}
		} else {
			msg.Components = moveComponents(g, gm, pos, humanTurn && !pos.Terminal())
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
func playerLines(g *storage.Game, gm *games.Game, pos engine.Position) []string {
	if g.Solo() {
		line := "🧩 " + PlayerName(g.Players[0])
		if g.Solved() {
			line += " 🏆"
		}
		return []string{line}
	}
	if pos == nil {
		return []string{PlayerName(g.Players[0]) + " vs " + PlayerName(g.Players[1])}
	}
	sides := seatSides(g, pos)
	lines := make([]string, 2)
	for i, p := range g.Players {
		l := gm.Look.Mark[sides[i]] + " " + PlayerName(p)
		if gm.Look.Tally != nil {
			n, unit := gm.Look.Tally(pos, sides[i])
			l += " · " + plural(n, unit)
		}
		if g.Result != nil && g.Result.Winner == i {
			l += " 🏆"
		}
		lines[sides[i]] = l
	}
	return lines
}

// lastMoveLine says who made the last move and what it did, or returns ""
// before the first move.
func lastMoveLine(g *storage.Game, gm *games.Game, pos engine.Position, last *games.Change) string {
	if last == nil {
		return ""
	}
	if g.Solo() {
		return "Last move: " + PlayerName(g.Players[0]) + " " + gm.Look.Describe(*last)
	}
	s := pos.SideToMove().Other() // the side that moved last
	who := gm.Look.Last[s]
	for i, side := range seatSides(g, pos) {
		if side == s {
			who += " " + PlayerName(g.Players[i])
		}
	}
	return "Last move: " + who + " " + gm.Look.Describe(*last)
}

// turnLine says whose turn it is, or what the AI to move is doing; mark is
// the emoji of the side to move, empty if unknown.
func turnLine(g *storage.Game, t *Thinking, mark string) string {
	mover := PlayerName(g.Players[g.Turn&1])
	switch {
	case t != nil && t.Queue > 0:
		return fmt.Sprintf("⏳ %s is queued (#%d)", mover, t.Queue)
	case t != nil:
		var facts []string
		if t.Depth > 0 {
			facts = append(facts, fmt.Sprintf("depth %d", t.Depth))
		}
		if t.Elapsed > 0 {
			facts = append(facts, t.Elapsed.Round(100*time.Millisecond).String())
		}
		line := "🤔 " + mover + " is thinking…"
		if len(facts) > 0 {
			line += " (" + strings.Join(facts, " · ") + ")"
		}
		return line
	}
	line := fmt.Sprintf("▶️ %s to move", strings.TrimSpace(mark+" "+mover))
	if !g.Deadline.IsZero() && !g.Players[g.Turn&1].ID.IsAI() {
		line += " · must move " + relativeTime(g.Deadline)
	}
	return line
}

// cancelledLine says what a cancelled game's board shows instead of a
// result.
const cancelledLine = "🚫 **Cancelled** · no result, not rated"

// resultLine says how an ended game ended.
func resultLine(g *storage.Game) string {
	r := g.Result
	if r == nil {
		return "Game over."
	}
	if g.Solo() {
		return puzzleResultLine(g)
	}
	if r.Winner == storage.Draw {
		if r.Reason != "" {
			return "🤝 **Draw** · " + r.Reason
		}
		return "🤝 **Draw**"
	}
	winner, loser := PlayerName(g.Players[r.Winner&1]), PlayerName(g.Players[1-r.Winner&1])
	line := "🏆 **" + winner + " wins**"
	switch {
	case r.Reason == "resigned":
		line += "\n🏳️ " + loser + " resigned."
	case r.Reason == "timeout":
		line += "\n⌛ " + loser + " forfeited on time."
	case g.Status == storage.StatusForfeited && r.Reason != "":
		line += "\n" + loser + " forfeited: " + r.Reason + "."
	case g.Status == storage.StatusForfeited:
		line += "\n" + loser + " forfeited."
	case r.Reason != "":
		line += " · " + r.Reason
	}
	return line
}

// ratingField lists the global-ladder rating changes, players in seat
// order (an AI's fixed rating without a change), with a line explaining a
// provisional rating; nil if there are none.
func ratingField(g *storage.Game, changes []storage.RatingChange) *discordgo.MessageEmbedField {
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
				lines = append(lines, fmt.Sprintf("%s %s", PlayerName(p), ratingText(c.After)))
				continue
			}
			lines = append(lines, fmt.Sprintf("%s %s → %s (%s)", PlayerName(p), ratingText(c.Before), ratingText(c.After), ratingDelta(c)))
			if c.After.Provisional() {
				provisional = true
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	if provisional {
		lines = append(lines, "_"+provisionalNote+"_")
	}
	return &discordgo.MessageEmbedField{Name: "Rating changes · " + gameTitle(g.Kind), Value: fitLines(lines, maxFieldValue)}
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
