package render

import (
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
)

// maxRecent is how many recent games Stats lists per game.
const maxRecent = 5

// ladderFooter explains the notation of ratings.
func ladderFooter(l *i18n.Localizer) *discordgo.MessageEmbedFooter {
	return &discordgo.MessageEmbedFooter{Text: l.T("ladder.footer", "Provisional", l.T("board.provisional_note"))}
}

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
func standingLine(l *i18n.Localizer, kind storage.Kind, s storage.Standing) string {
	return place(s.Rank) + " " + standingText(l, kind, s)
}

// standingText is a standing without its place: player, rating and
// record.
func standingText(l *i18n.Localizer, kind storage.Kind, s storage.Standing) string {
	r := s.Rating
	return fmt.Sprintf("%s · **%s** · %s", nameOf(l, kind, r.Player), ratingText(l, r), record(r))
}

// Leaderboard renders a ladder's top standings of a game kind, in scope
// "server" or "global", and, if me is not nil, the viewer's own place with
// their neighbours. The people are ranked among themselves from their
// first rated game, a provisional rating marked "?" (the store's order:
// established ratings first), and the AIs, whose ratings are fixed, are
// listed apart below them, without a place.
func Leaderboard(l *i18n.Localizer, kind storage.Kind, scope string, top []storage.Standing, me *storage.RankView) Message {
	where := scope
	if scope == "server" || scope == "global" {
		where = l.T("ladder.scope_" + scope)
	}
	embed := &discordgo.MessageEmbed{
		Title:  clip(l.T("ladder.title", "Game", gameTitle(l, kind), "Scope", where), maxTitle),
		Color:  colourGold,
		Footer: ladderFooter(l),
	}
	places := map[storage.PlayerID]int{} // a person's place among the people listed
	var people, ais []string
	for _, s := range top {
		if s.Rating.Player.IsAI() {
			ais = append(ais, standingText(l, kind, s))
			continue
		}
		places[s.Rating.Player] = len(places) + 1
		people = append(people, place(len(places))+" "+standingText(l, kind, s))
	}
	switch {
	case len(top) == 0:
		embed.Description = l.T("ladder.empty", "Name", kind)
	case len(ais) == 0:
		embed.Description = fitLines(people, maxDescription)
	default:
		aiPart := fitLines(append([]string{l.T("ladder.ais")}, ais...), maxDescription/2)
		if len(people) == 0 {
			people = []string{l.T("ladder.no_people", "Name", kind)}
		}
		embed.Description = fitLines(people, maxDescription-textLen(aiPart)-1) + "\n" + aiPart
	}
	if me != nil {
		// The viewer and their neighbours, with their places among the
		// people listed when they are (the store's rank counts the AIs).
		line := func(s storage.Standing) string {
			if p, ok := places[s.Rating.Player]; ok {
				return place(p) + " " + standingText(l, kind, s)
			}
			return standingLine(l, kind, s)
		}
		var lines []string
		for _, s := range me.Above {
			if !s.Rating.Player.IsAI() {
				lines = append(lines, line(s))
			}
		}
		lines = append(lines, "👉 "+line(me.Player))
		for _, s := range me.Below {
			if !s.Rating.Player.IsAI() {
				lines = append(lines, line(s))
			}
		}
		if me.Player.Rating.Provisional() {
			lines = append(lines, l.T("ladder.your_provisional", "Games", plural(l, me.Player.Rating.Games, "rated_game")))
		}
		embed.Fields = []*discordgo.MessageEmbedField{{Name: l.T("ladder.your_place"), Value: fitLines(lines, maxFieldValue)}}
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
func Stats(l *i18n.Localizer, player storage.PlayerID, stats []KindStats) Message {
	embed := &discordgo.MessageEmbed{
		Title:       l.T("ladder.stats_title"),
		Description: l.T("ladder.stats_of", "Player", nameOf(l, "", player)),
		Color:       colourGold,
		Footer:      ladderFooter(l),
	}
	for _, ks := range stats {
		lines := []string{ratingSummary(l, ks)}
		if len(ks.Recent) > 0 {
			lines = append(lines, l.T("ladder.recent"))
			for _, g := range ks.Recent[:min(len(ks.Recent), maxRecent)] {
				if line := recentLine(l, player, g); line != "" {
					lines = append(lines, line)
				}
			}
		}
		embed.Fields = append(embed.Fields, &discordgo.MessageEmbedField{
			Name:  gameTitle(l, ks.Kind),
			Value: fitLines(lines, maxFieldValue),
		})
	}
	if len(stats) == 0 {
		embed.Description += "\n" + l.T("ladder.no_games")
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
}

// ratingSummary shows a rating, its rank and its record.
func ratingSummary(l *i18n.Localizer, ks KindStats) string {
	r := ks.Rating
	if r == nil {
		return l.T("ladder.not_played", "Name", ks.Kind)
	}
	rank := "#" + strconv.Itoa(ks.Rank)
	switch {
	case ks.Rank > 0:
	case r.Provisional():
		rank = l.T("ladder.provisional")
	default:
		rank = l.T("ladder.unranked")
	}
	return l.T("ladder.summary", "Rating", ratingText(l, *r), "Rank", rank, "Record", record(*r), "Games", plural(l, r.Games, "game"))
}

// recentLine shows an ended game from player's side: the outcome, the
// opponent, Adjacency's marks, how it ended and when. It returns "" for a
// game player did not play or that has no result.
func recentLine(l *i18n.Localizer, player storage.PlayerID, g *storage.Game) string {
	seat := g.Seat(player)
	if seat < 0 || g.Result == nil {
		return ""
	}
	if g.Solo() {
		line := puzzleResultLine(l, g)
		if !g.UpdatedAt.IsZero() {
			line += " · " + relativeTime(g.UpdatedAt)
		}
		return line
	}
	opp := PlayerName(l, g.Kind, g.Players[1-seat])
	var line string
	switch g.Result.Score(seat) {
	case 1:
		line = l.T("ladder.won", "Player", opp)
	case 0:
		line = l.T("ladder.lost", "Player", opp)
	default:
		line = l.T("ladder.drew", "Player", opp)
	}
	if gm, pos := gameOf(g.Kind), parsePosition(g); pos != nil && gm.Look.Tally != nil {
		sides := seatSides(g, pos)
		mine, unit := gm.Look.Tally(pos, sides[seat])
		theirs, _ := gm.Look.Tally(pos, sides[seat].Other())
		line += fmt.Sprintf(" · %d–%s", mine, tally(l, gm, theirs, unit))
	}
	switch g.Result.Outcome {
	case storage.Resigned:
		line += " · " + l.T("ladder.by_resignation")
	case storage.TimedOut:
		line += " · " + l.T("ladder.on_time")
	case storage.DrawAgreed:
		line += " · " + l.T("ladder.by_agreement")
	}
	if g.Settings.Casual {
		line += " · " + l.T("board.casual")
	}
	if !g.UpdatedAt.IsZero() {
		line += " · " + relativeTime(g.UpdatedAt)
	}
	return line
}
