package render

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/review"
)

// Reviewable reports whether g has a review: an ended duel in which a
// move was played.
func Reviewable(g *storage.Game) bool {
	return g.Status.Ended() && !g.Solo() && len(g.Moves) > 0
}

// endRow is the row under an ended duel's board: Review, once a move was
// played, and Rematch until one was started.
func endRow(l *i18n.Localizer, g *storage.Game, rematch bool) []discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	if rematch {
		buttons = append(buttons, button(l.T("board.rematch"), "🔁", discordgo.PrimaryButton, customid.Rematch.Build(string(g.ID))))
	}
	if Reviewable(g) {
		buttons = append(buttons, button(l.T("review.button"), "🔎", discordgo.SecondaryButton, customid.Review.Build(string(g.ID))))
	}
	if len(buttons) == 0 {
		return []discordgo.MessageComponent{}
	}
	return []discordgo.MessageComponent{row(buttons...)}
}

// The names of a review's attachments.
const (
	ReplayName  = "replay.gif"
	TurningName = "turning-point.png"
)

// ReviewPictures are a review's pictures: the replay (Replay) and the
// turning point (TurningPoint), nil if it has none.
type ReviewPictures struct {
	Replay, Turning []byte
}

// ReviewMessage shows the review r of g, an ended duel, with its
// pictures: each player's count of moves by label, the turning point
// (the index in r.Moves, −1 for none) pictured, the moves labelled with
// the best one where another was better, and the replay.
func ReviewMessage(l *i18n.Localizer, g *storage.Game, r *review.Review, turning int, pics ReviewPictures) Message {
	gm := gameOf(g.Kind)
	title := l.T("review.title", "Game", gameTitle(l, g.Kind))
	mark := func(s engine.Side) string {
		if gm == nil {
			return ""
		}
		return gm.Look.Mark[s]
	}
	name := func(s engine.Side) string { return PlayerName(l, g.Kind, g.Players[seatOf(g, s)]) }
	var lines []string
	for _, s := range []engine.Side{engine.X, engine.O} {
		counts := r.Counts(s)
		var parts []string
		for _, lb := range review.Labels() {
			parts = append(parts, l.T("review.count", "Label", l.T("review.label."+lb.String()), "Count", counts[lb]))
		}
		lines = append(lines, fmt.Sprintf("%s %s — %s", mark(s), name(s), strings.Join(parts, " · ")))
	}
	lines = append(lines, "")
	if turning >= 0 {
		m := r.Moves[turning]
		lines = append(lines, l.T("review.turning", "N", turning+1, "Player", name(m.Side), "Move", m.Move,
			"Label", l.T("review.label."+m.Label.String()), "Best", m.Best))
	} else {
		lines = append(lines, l.T("review.no_turning"))
	}
	lines = append(lines, "", "**"+l.T("review.moves")+"**")
	for i, m := range r.Moves {
		label := l.T("review.label." + m.Label.String())
		line := l.T("review.move", "N", i+1, "Mark", mark(m.Side), "Move", m.Move, "Label", label)
		if m.Label != review.Best {
			line = l.T("review.move_best", "N", i+1, "Mark", mark(m.Side), "Move", m.Move, "Label", label, "Best", m.Best)
		}
		lines = append(lines, line)
	}
	embed := &discordgo.MessageEmbed{
		Title: clip(title, maxTitle), Description: fitLines(lines, maxDescription), Color: colourGold,
		Footer: &discordgo.MessageEmbedFooter{Text: reviewFooter(l, g, r)},
	}
	msg := Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
	if pics.Turning != nil {
		embed.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + TurningName}
		msg.Files = append(msg.Files, File{Name: TurningName, ContentType: "image/png", Data: pics.Turning, Alt: l.T("review.turning_alt")})
	}
	if pics.Replay != nil {
		msg.Embeds = append(msg.Embeds, &discordgo.MessageEmbed{
			Title: l.T("review.replay"), Color: colourGold, Image: &discordgo.MessageEmbedImage{URL: "attachment://" + ReplayName},
		})
		msg.Files = append(msg.Files, File{Name: ReplayName, ContentType: "image/gif", Data: pics.Replay, Alt: l.T("review.replay_alt")})
	}
	return msg
}

// reviewFooter says how r's moves were judged: how many exactly (the
// positions before and after the move both exact), and the budget the
// others were searched within.
func reviewFooter(l *i18n.Localizer, g *storage.Game, r *review.Review) string {
	exact := r.Judged()
	switch {
	case exact == len(r.Moves):
		return l.T("review.footer_all", "ID", g.ID)
	case r.Budget == 0:
		return l.T("review.footer_search", "Exact", exact, "Moves", len(r.Moves), "ID", g.ID)
	}
	return l.T("review.footer", "Exact", exact, "Moves", len(r.Moves), "Budget", positions(l, r.Budget), "ID", g.ID)
}

// positions writes a count of positions searched in whole millions, or
// thousands below a million.
func positions(l *i18n.Localizer, n uint64) string {
	if n >= 1_000_000 {
		return l.T("review.millions", "N", (n+500_000)/1_000_000)
	}
	return l.T("review.thousands", "N", max((n+500)/1_000, 1))
}

// seatOf returns the seat of g, a duel, that plays side s.
func seatOf(g *storage.Game, s engine.Side) int {
	if pos := parsePosition(g); pos != nil && seatSides(g, pos)[1] == s {
		return 1
	}
	return 0
}

// Loser returns the side that lost g, an ended duel whose final position
// is pos, and whether one did (not in a draw).
func Loser(g *storage.Game, pos engine.Position) (engine.Side, bool) {
	if g.Result == nil || g.Result.Winner < 0 || g.Solo() {
		return engine.X, false
	}
	return seatSides(g, pos)[1-g.Result.Winner], true
}

// StartOf returns the game of g and the position it started from.
func StartOf(g *storage.Game) (*games.Game, engine.Position, error) {
	gm := gameOf(g.Kind)
	if gm == nil {
		return nil, nil, fmt.Errorf("render: game %s: unknown game %q", g.ID, g.Kind)
	}
	var pos engine.Position
	var err error
	if g.Start != "" {
		pos, err = gm.Position(g.Start, games.Options{})
	} else {
		pos, err = gm.Start(games.Options{Rounds: g.Settings.Rounds})
	}
	if err != nil {
		return nil, nil, fmt.Errorf("render: start of game %s: %w", g.ID, err)
	}
	return gm, pos, nil
}
