package render

import (
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/storage"
)

// maxRecent is how many recent games Stats lists per game.
const maxRecent = 5

// ladderFooter explains the notation of ratings.
var ladderFooter = &discordgo.MessageEmbedFooter{Text: provisionalNote + " · 🤖 AIs play at a fixed rating measured in arena runs · W–L–D: wins–losses–draws · Glicko-2"}

// provisionalDivider separates a leaderboard's established ratings from
// the provisional ones listed below them.
const provisionalDivider = "── Provisional: not ranked until their ratings settle ──"

// place returns a rank as a medal for the first three and "#n" below;
// rank 0 (provisional) as a dash.
func place(rank int) string {
	switch rank {
	case 0:
		return "—"
	case 1:
		return "🥇"
	case 2:
		return "🥈"
	case 3:
		return "🥉"
	}
	return "**#" + strconv.Itoa(rank) + "**"
}

// standingLine shows one standing: place, player, rating and record.
func standingLine(s storage.Standing) string {
	r := s.Rating
	return fmt.Sprintf("%s %s · **%s** · %s", place(s.Rank), nameOf(r.Player), ratingText(r), record(r))
}

// Leaderboard renders a ladder's top standings of a game kind, in scope
// "server" or "global", and, if me is not nil, the viewer's own place with
// their neighbours.
func Leaderboard(kind storage.Kind, scope string, top []storage.Standing, me *storage.RankView) Message {
	where := map[string]string{"server": "this server", "global": "global"}[scope]
	if where == "" {
		where = scope
	}
	embed := &discordgo.MessageEmbed{
		Title:  clip(fmt.Sprintf("🏆 %s leaderboard · %s", gameTitle(kind), where), maxTitle),
		Color:  colourGold,
		Footer: ladderFooter,
	}
	if len(top) == 0 {
		embed.Description = fmt.Sprintf("No rated games yet: start one with `/play game:%s`.", kind)
	} else {
		var lines []string
		for i, s := range top {
			if s.Rank == 0 && (i == 0 || top[i-1].Rank != 0) {
				lines = append(lines, provisionalDivider)
			}
			lines = append(lines, standingLine(s))
		}
		embed.Description = fitLines(lines, maxDescription)
	}
	if me != nil {
		var lines []string
		for _, s := range me.Above {
			lines = append(lines, standingLine(s))
		}
		lines = append(lines, "👉 "+standingLine(me.Player))
		for _, s := range me.Below {
			lines = append(lines, standingLine(s))
		}
		if me.Player.Rank == 0 {
			lines = append(lines, fmt.Sprintf("Your rating is provisional (%s so far): it is ranked once established, after about a dozen rated games.",
				plural(me.Player.Rating.Games, "rated game")))
		}
		embed.Fields = []*discordgo.MessageEmbedField{{Name: "Your place", Value: fitLines(lines, maxFieldValue)}}
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
}

// KindStats are a player's rating and recent games in one game kind.
type KindStats struct {
	// Kind is the game.
	Kind storage.Kind
	// Rating is the player's rating; nil if they never played it.
	Rating *storage.Rating
	// Rank is the player's place on the leaderboard; 0 if provisional or
	// unranked.
	Rank int
	// Recent are the player's latest ended games, newest first.
	Recent []*storage.Game
}

// Stats renders a player's ratings and recent results across games.
func Stats(player storage.PlayerID, stats []KindStats) Message {
	embed := &discordgo.MessageEmbed{
		Title:       "📊 Stats",
		Description: "Ratings and recent games of " + nameOf(player) + ".",
		Color:       colourGold,
		Footer:      ladderFooter,
	}
	for _, ks := range stats {
		lines := []string{ratingSummary(ks)}
		if len(ks.Recent) > 0 {
			lines = append(lines, "**Recent games**")
			for _, g := range ks.Recent[:min(len(ks.Recent), maxRecent)] {
				if l := recentLine(player, g); l != "" {
					lines = append(lines, l)
				}
			}
		}
		embed.Fields = append(embed.Fields, &discordgo.MessageEmbedField{
			Name:  gameTitle(ks.Kind),
			Value: fitLines(lines, maxFieldValue),
		})
	}
	if len(stats) == 0 {
		embed.Description += "\nNo games yet: start one with `/play`."
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
}

// ratingSummary shows a rating, its rank and its record.
func ratingSummary(ks KindStats) string {
	r := ks.Rating
	if r == nil {
		return fmt.Sprintf("Not played yet: `/play game:%s`", ks.Kind)
	}
	rank := "#" + strconv.Itoa(ks.Rank)
	switch {
	case ks.Rank > 0:
	case r.Provisional():
		rank = "provisional"
	default:
		rank = "unranked"
	}
	return fmt.Sprintf("Rating **%s** · %s · %s in %s", ratingText(*r), rank, record(*r), plural(r.Games, "game"))
}

// recentLine shows an ended game from player's side: the outcome, the
// opponent, Adjacency's marks, how it ended and when. It returns "" for a
// game player did not play or that has no result.
func recentLine(player storage.PlayerID, g *storage.Game) string {
	seat := g.Seat(player)
	if seat < 0 || g.Result == nil {
		return ""
	}
	if g.Solo() {
		line := puzzleResultLine(g)
		if !g.UpdatedAt.IsZero() {
			line += " · " + relativeTime(g.UpdatedAt)
		}
		return line
	}
	opp := PlayerName(g.Players[1-seat])
	var line string
	switch g.Result.Score(seat) {
	case 1:
		line = "✅ Won against " + opp
	case 0:
		line = "❌ Lost to " + opp
	default:
		line = "🤝 Drew with " + opp
	}
	if gm, pos := gameOf(g.Kind), parsePosition(g); pos != nil && gm.Look.Tally != nil {
		sides := seatSides(g, pos)
		mine, unit := gm.Look.Tally(pos, sides[seat])
		theirs, _ := gm.Look.Tally(pos, sides[seat].Other())
		line += fmt.Sprintf(" · %d–%d %ss", mine, theirs, unit)
	}
	switch g.Result.Reason {
	case "":
	case "resigned":
		line += " · by resignation"
	case "timeout":
		line += " · on time"
	default:
		line += " · " + g.Result.Reason
	}
	if !g.UpdatedAt.IsZero() {
		line += " · " + relativeTime(g.UpdatedAt)
	}
	return line
}
