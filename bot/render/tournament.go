package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/render/picture"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// A tournament's messages: its announcement (what, when, who, with Join,
// Leave, Start, Cancel and the creator's select of AI entrants), each
// round's pairings, its standings, its podium and a server's list.

// colourTournament is the colour of a tournament's messages.
const colourTournament = 0xE67E22

// TournamentRow is one line of a tournament's table, as the flow ranks
// it (tournament/league's Standing).
type TournamentRow struct {
	// Rank is the place from 1; tied players share it.
	Rank int
	// Player is the entrant.
	Player storage.Player
	// Score is in half-points (Swiss, round robin) or points (Arena).
	Score int
	// Buchholz is the first tie-break of a Swiss or round robin (Buchholz
	// cut 1) in half-points, and SonnebornBerger the next in
	// quarter-points; an Arena has none.
	Buchholz, SonnebornBerger int
	// Won, Drawn and Lost count the games (forfeits included).
	Won, Drawn, Lost int
	// Withdrawn marks a player who left the tournament.
	Withdrawn bool
	// OnFire marks an Arena player on a winning streak (double points).
	OnFire bool
}

// halves writes a score in half-points as people read it: "2½", "3".
func halves(n int) string {
	switch {
	case n%2 == 0:
		return strconv.Itoa(n / 2)
	case n/2 == 0:
		return "½"
	}
	return strconv.Itoa(n/2) + "½"
}

// quarters writes a tie-break in quarter-points: "3¼", "½".
func quarters(n int) string {
	frac := []string{"", "¼", "½", "¾"}[n%4]
	if n/4 == 0 && frac != "" {
		return frac
	}
	return strconv.Itoa(n/4) + frac
}

// TournamentScore writes a score of a tournament of format: half-points
// in a Swiss or round robin, points in an Arena.
func TournamentScore(format storage.Format, score int) string {
	if format == storage.FormatArena {
		return strconv.Itoa(score)
	}
	return halves(score)
}

// formatText names a tournament's format with its length: "Swiss, 5
// rounds", "Arena, 30 minutes", "Double round robin".
func formatText(l *i18n.Localizer, t *storage.Tournament) string {
	switch t.Format {
	case storage.FormatSwiss:
		return l.T("tournament.format_swiss", "Rounds", plural(l, t.SwissRounds, "tournament_round"))
	case storage.FormatArena:
		return l.T("tournament.format_arena", "Duration", durationText(l, t.Duration))
	case storage.FormatRoundRobin:
		if t.Cycles == 2 {
			return l.T("tournament.format_double")
		}
		return l.T("tournament.format_roundrobin")
	}
	return string(t.Format)
}

// durationText writes d in whole minutes, or hours and minutes.
func durationText(l *i18n.Localizer, d time.Duration) string {
	m := int(d.Minutes())
	if m >= 60 && m%60 == 0 {
		return plural(l, m/60, "hour")
	}
	if m >= 60 {
		return plural(l, m/60, "hour") + " " + plural(l, m%60, "minute")
	}
	return plural(l, max(m, 1), "minute")
}

// moveTimeText writes a time per move: seconds under two minutes,
// minutes above.
func moveTimeText(l *i18n.Localizer, t *storage.Tournament) string {
	if s := int(t.MoveTime.Seconds()); s < 120 {
		return plural(l, s, "second")
	}
	return durationText(l, t.MoveTime)
}

// TournamentTitle is a tournament's name, or its game and format when it
// has none.
func TournamentTitle(l *i18n.Localizer, t *storage.Tournament) string {
	if t.Name != "" {
		return t.Name
	}
	return l.T("tournament.untitled", "Game", gameTitle(l, t.Kind), "Format", formatText(l, t))
}

// tournamentSummary is a tournament's lines of what and when.
func tournamentSummary(l *i18n.Localizer, t *storage.Tournament) []string {
	rated := l.T("tournament.rated")
	if t.Settings.Casual {
		rated = l.T("tournament.casual")
	}
	lines := []string{
		l.T("tournament.what", "Game", gameTitle(l, t.Kind), "Format", formatText(l, t), "MoveTime", moveTimeText(l, t), "Rated", rated),
	}
	switch {
	case t.Status == storage.TournamentAnnounced && !t.StartAt.IsZero():
		lines = append(lines, l.T("tournament.starts_at", "When", relativeTime(t.StartAt)))
	case t.Status == storage.TournamentAnnounced:
		lines = append(lines, l.T("tournament.starts_by_creator", "Creator", nameOf(l, "", t.Creator)))
	}
	lines = append(lines, l.T("tournament.status."+string(t.Status)))
	if t.OpenToAI && t.Status == storage.TournamentAnnounced {
		lines = append(lines, l.T("tournament.open_to_ai"))
	}
	return lines
}

// TournamentAnnouncement renders a tournament's announcement: what, when,
// its entrants, and the buttons of its status — Join, Leave, Start and
// Cancel before the start, with the select of ais (the strategies that
// play its game) when it is open to AIs; Withdraw and Cancel while it
// runs, with Join while it has no-shows who may come back (an Arena, a
// Swiss with a round left to pair: storage.Tournament.TakesBack); and the select of the AIs in (aiOut) until it ends; none once
// it has ended.
func TournamentAnnouncement(l *i18n.Localizer, t *storage.Tournament, ais []strategies.Info) Message {
	embed := &discordgo.MessageEmbed{
		Title:       clip("🏆 "+TournamentTitle(l, t), maxTitle),
		Description: fitLines(tournamentSummary(l, t), maxDescription),
		Color:       colourTournament,
	}
	var names []string
	for _, e := range t.Entrants {
		name := PlayerName(l, t.Kind, e.Player)
		if e.Withdrawn {
			name = "~~" + name + "~~"
		}
		names = append(names, name)
	}
	value := l.T("tournament.no_entrants")
	if len(names) > 0 {
		value = fitLines([]string{strings.Join(names, ", ")}, maxFieldValue)
	}
	embed.Fields = []*discordgo.MessageEmbedField{{
		Name:  l.T("tournament.entrants", "Count", len(t.Entrants), "Max", t.MaxPlayers),
		Value: value,
	}}
	id := string(t.ID)
	components := []discordgo.MessageComponent{}
	switch {
	case t.Status == storage.TournamentAnnounced:
		components = append(components, row(
			button(l.T("tournament.join"), "✅", discordgo.SuccessButton, customid.TournamentJoin.Build(id)),
			button(l.T("tournament.leave"), "", discordgo.SecondaryButton, customid.TournamentLeave.Build(id)),
			button(l.T("tournament.start"), "▶️", discordgo.PrimaryButton, customid.TournamentStart.Build(id)),
			button(l.T("tournament.cancel"), "", discordgo.DangerButton, customid.TournamentCancel.Build(id)),
		))
		if t.OpenToAI && len(ais) > 0 {
			var opts []discordgo.SelectMenuOption
			for _, info := range ais[:min(len(ais), 25)] {
				opts = append(opts, discordgo.SelectMenuOption{Label: clip(AIName(l, info), 100), Value: info.Name, Emoji: &discordgo.ComponentEmoji{Name: "🤖"}})
			}
			one := 1
			components = append(components, row(discordgo.SelectMenu{
				CustomID: customid.TournamentAI.Build(id), Placeholder: l.T("tournament.enter_ai"), Options: opts,
				MinValues: &one, MaxValues: 1,
			}))
		}
	case t.Status.Started():
		var buttons []discordgo.MessageComponent
		if t.TakesBack() && slices.ContainsFunc(t.Entrants, func(e storage.Entrant) bool { return e.NoShow }) {
			// for the no-shows, who may come back
			buttons = append(buttons, button(l.T("tournament.join"), "✅", discordgo.SuccessButton, customid.TournamentJoin.Build(id)))
		}
		buttons = append(buttons,
			button(l.T("tournament.withdraw"), "", discordgo.SecondaryButton, customid.TournamentLeave.Build(id)),
			button(l.T("tournament.cancel"), "", discordgo.DangerButton, customid.TournamentCancel.Build(id)),
		)
		components = append(components, row(buttons...))
	}
	if out := aiOut(l, t); out != nil {
		components = append(components, *out)
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: components, AllowedMentions: noPings()}
}

// aiOut is the row of the select of t's AIs still in, by which its
// creator or a manager takes one out (Take an AI out before the start,
// Withdraw an AI after it); nil when there is none, or t has ended.
func aiOut(l *i18n.Localizer, t *storage.Tournament) *discordgo.ActionsRow {
	if t.Status.Ended() {
		return nil
	}
	var opts []discordgo.SelectMenuOption
	for _, e := range t.Entrants {
		name, ok := e.Player.ID.Strategy()
		if !ok || e.Withdrawn || len(opts) == 25 {
			continue
		}
		label := e.Player.Name
		if info, err := strategies.Lookup(name); err == nil {
			label = AIName(l, info)
		}
		opts = append(opts, discordgo.SelectMenuOption{Label: clip(label, 100), Value: name, Emoji: &discordgo.ComponentEmoji{Name: "🤖"}})
	}
	if len(opts) == 0 {
		return nil
	}
	placeholder := l.T("tournament.ai_out")
	if t.Status.Started() {
		placeholder = l.T("tournament.ai_withdraw")
	}
	one := 1
	r := row(discordgo.SelectMenu{CustomID: customid.TournamentAIOut.Build(string(t.ID)), Placeholder: placeholder, Options: opts,
		MinValues: &one, MaxValues: 1})
	return &r
}

// tournamentTable writes rows as the lines of a table.
func tournamentTable(l *i18n.Localizer, t *storage.Tournament, rows []TournamentRow) []string {
	var lines []string
	for _, r := range rows {
		line := fmt.Sprintf("%s %s — **%s**", place(r.Rank), PlayerName(l, t.Kind, r.Player), TournamentScore(t.Format, r.Score))
		if t.Format == storage.FormatArena {
			if r.OnFire {
				line += " 🔥"
			}
		} else {
			line += " · " + l.T("tournament.tiebreaks", "Buchholz", halves(r.Buchholz), "SB", quarters(r.SonnebornBerger))
		}
		line += " · " + l.T("tournament.record", "Won", r.Won, "Drawn", r.Drawn, "Lost", r.Lost)
		if r.Withdrawn {
			line += " · " + l.T("tournament.withdrawn")
		}
		lines = append(lines, line)
	}
	return lines
}

// StandingsName is the file name of a tournament table's picture.
const StandingsName = "standings.png"

// pictureName is a player's name as the table's picture writes it: no
// mention, no emoji (the picture's font has none).
func pictureName(l *i18n.Localizer, p storage.Player) string {
	if name, ok := p.ID.Strategy(); ok {
		if info, err := strategies.Lookup(name); err == nil {
			return l.T("tournament.ai_name", "AI", AIName(l, info))
		}
	}
	if _, ok := p.ID.UserID(); ok && p.Name != "" {
		return p.Name
	}
	return l.T("board.deleted_user")
}

// withTable attaches the picture of rows, t's table headed caption, to
// msg's embed; msg is unchanged if it cannot be drawn (the text has it
// all).
func withTable(l *i18n.Localizer, t *storage.Tournament, caption string, rows []TournamentRow, msg Message) Message {
	if len(rows) == 0 || len(msg.Embeds) == 0 {
		return msg
	}
	var lines []picture.StandingsRow
	for _, r := range rows {
		detail := l.T("tournament.record", "Won", r.Won, "Drawn", r.Drawn, "Lost", r.Lost)
		if t.Format != storage.FormatArena {
			detail = l.T("tournament.tiebreaks", "Buchholz", halves(r.Buchholz), "SB", quarters(r.SonnebornBerger)) + " · " + detail
		} else if r.OnFire {
			detail += " · " + l.T("tournament.on_fire")
		}
		if r.Withdrawn {
			detail += " · " + l.T("tournament.withdrawn")
		}
		lines = append(lines, picture.StandingsRow{Rank: r.Rank, Place: "#" + strconv.Itoa(r.Rank), Name: pictureName(l, r.Player),
			Score: TournamentScore(t.Format, r.Score), Detail: detail, Withdrawn: r.Withdrawn})
	}
	title := TournamentTitle(l, t) + " · " + caption
	head := [4]string{l.T("tournament.col_place"), l.T("tournament.col_player"), l.T("tournament.col_score"), l.T("tournament.col_detail")}
	if t.Format == storage.FormatArena {
		head[3] = l.T("tournament.col_record")
	}
	data, err := picture.Standings(title, head, lines)
	if err != nil {
		return msg
	}
	embed := *msg.Embeds[0]
	embed.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + StandingsName}
	msg.Embeds = append([]*discordgo.MessageEmbed{&embed}, msg.Embeds[1:]...)
	msg.Files = append(msg.Files, File{Name: StandingsName, ContentType: "image/png", Data: data, Alt: title})
	return msg
}

// TournamentStandings renders a tournament's table after the rounds
// played (done of them) so far.
func TournamentStandings(l *i18n.Localizer, t *storage.Tournament, done int, rows []TournamentRow) Message {
	head := l.T("tournament.standings_after", "Rounds", done)
	if t.Format == storage.FormatArena || done == 0 {
		head = l.T("tournament.standings_now")
	}
	embed := &discordgo.MessageEmbed{
		Title:       clip("📋 "+TournamentTitle(l, t), maxTitle),
		Description: fitLines(append([]string{head}, tournamentTable(l, t, rows)...), maxDescription),
		Color:       colourTournament,
	}
	return withTable(l, t, head, rows, Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()})
}

// TournamentPairings renders round r of t: who plays whom (White first),
// the games won by forfeit (forfeits, a round robin's against players who
// withdrew, each naming its winner by its Result) and the bye (a round
// robin's free round, which scores nothing, said so), with the
// standings before it (rows, none before the first round). Mentions name
// the players without pinging them: each board's own message calls its
// player to move.
func TournamentPairings(l *i18n.Localizer, t *storage.Tournament, r storage.Round, forfeits []storage.Board, rows []TournamentRow) Message {
	players := map[storage.PlayerID]storage.Player{}
	for _, e := range t.Entrants {
		players[e.Player.ID] = e.Player
	}
	name := func(id storage.PlayerID) string { return PlayerName(l, t.Kind, players[id]) }
	var games, byes []string
	won := map[storage.PlayerID]bool{}
	var forfeited []string
	for _, f := range forfeits {
		winner, withdrawn := f.White, f.Black
		if f.Result == storage.BoardBlackForfeit {
			winner, withdrawn = withdrawn, winner
		}
		won[winner] = true
		forfeited = append(forfeited, l.T("tournament.forfeit", "Winner", name(winner), "Withdrawn", name(withdrawn)))
	}
	bye := "tournament.bye" // a Swiss's, worth a win
	if t.Format == storage.FormatRoundRobin {
		bye = "tournament.free_round" // the table's, worth nothing
	}
	for _, b := range r.Boards {
		switch {
		case !b.IsBye():
			games = append(games, l.T("tournament.board", "White", name(b.White), "Black", name(b.Black)))
		case !won[b.White]: // a round of forfeits alone is paired as a bye
			byes = append(byes, l.T(bye, "Player", name(b.White)))
		}
	}
	head := l.T("tournament.round", "Number", r.Number)
	switch {
	case t.Format == storage.FormatArena:
		head = l.T("tournament.arena_pairings")
	case len(games) == 0:
		head = l.T("tournament.round_no_games", "Number", r.Number)
	}
	lines := append(append(append(append([]string{head}, games...), forfeited...), byes...), noShows(l, t, r)...)
	embed := &discordgo.MessageEmbed{
		Title:       clip("⚔️ "+TournamentTitle(l, t), maxTitle),
		Description: fitLines(lines, maxDescription),
		Color:       colourTournament,
	}
	msg := Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
	if len(rows) > 0 && t.Format != storage.FormatArena {
		head := l.T("tournament.standings_after", "Rounds", r.Number-1)
		embed.Fields = []*discordgo.MessageEmbedField{{Name: head, Value: fitLines(tournamentTable(l, t, rows), maxFieldValue)}}
		msg = withTable(l, t, head, rows, msg)
	}
	return msg
}

// noShows are the lines of round r of t that name the members it is the
// first to leave out as no-shows (storage.Tournament.NoShowsBefore): what
// comes of it in t's format — Join brings them back while t takes them
// back; a Swiss's last round is the last they miss; a round robin's
// forfeits the rest of their games.
func noShows(l *i18n.Localizer, t *storage.Tournament, r storage.Round) []string {
	key := "tournament.no_show"
	switch {
	case t.Format == storage.FormatRoundRobin:
		key = "tournament.no_show_final"
	case !t.TakesBack():
		key = "tournament.no_show_last"
	}
	var lines []string
	for _, e := range t.NoShowsBefore(r.Number) {
		lines = append(lines, l.T(key, "Player", PlayerName(l, t.Kind, e.Player)))
	}
	return lines
}

// TournamentPodium renders the end of a finished tournament: its first
// three and the whole table.
func TournamentPodium(l *i18n.Localizer, t *storage.Tournament, rows []TournamentRow) Message {
	var podium []string
	for _, r := range rows {
		if r.Rank <= 3 {
			podium = append(podium, fmt.Sprintf("%s %s — **%s**", place(r.Rank), PlayerName(l, t.Kind, r.Player), TournamentScore(t.Format, r.Score)))
		}
	}
	embed := &discordgo.MessageEmbed{
		Title:       clip("🏆 "+TournamentTitle(l, t), maxTitle),
		Description: fitLines(append([]string{l.T("tournament.over")}, podium...), maxDescription),
		Color:       colourTournament,
		Fields: []*discordgo.MessageEmbedField{{
			Name: l.T("tournament.final_standings"), Value: fitLines(tournamentTable(l, t, rows), maxFieldValue),
		}},
	}
	msg := Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
	return withTable(l, t, l.T("tournament.final_standings"), rows, msg)
}

// TournamentNotice renders a line about a tournament for its channel:
// its start, pause, resumption or cancellation.
func TournamentNotice(l *i18n.Localizer, t *storage.Tournament, text string) Message {
	embed := &discordgo.MessageEmbed{
		Title:       clip("🏆 "+TournamentTitle(l, t), maxTitle),
		Description: clip(text, maxDescription),
		Color:       colourTournament,
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
}

// TournamentList renders a server's tournaments: those not ended, then
// the recent ones, each with its ID, what it is and where it is.
func TournamentList(l *i18n.Localizer, list []*storage.Tournament) Message {
	lines := []string{}
	for _, t := range list {
		line := fmt.Sprintf("`%s` **%s**", t.ID, TournamentTitle(l, t))
		if t.Name != "" { // an untitled one's title is its game and format already
			line += " · " + gameTitle(l, t.Kind) + " · " + formatText(l, t)
		}
		line += " · " + l.T("tournament.status."+string(t.Status))
		if t.Status == storage.TournamentFinished {
			for _, e := range t.Entrants {
				if e.Rank == 1 {
					line += " · 🥇 " + PlayerName(l, t.Kind, e.Player)
				}
			}
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		lines = append(lines, l.T("tournament.none"))
	}
	embed := &discordgo.MessageEmbed{
		Title:       l.T("tournament.list_title"),
		Description: fitLines(lines, maxDescription),
		Color:       colourTournament,
	}
	return Message{Embeds: []*discordgo.MessageEmbed{embed}, Components: []discordgo.MessageComponent{}, AllowedMentions: noPings()}
}

// WithTournaments adds a player's finished tournaments, newest first, to
// their Stats: place, name and score of each; msg is unchanged when there
// are none.
func WithTournaments(l *i18n.Localizer, msg Message, list []storage.PlayerTournament) Message {
	if len(list) == 0 || len(msg.Embeds) == 0 {
		return msg
	}
	embed := *msg.Embeds[0]
	embed.Fields = append(slices.Clone(embed.Fields), &discordgo.MessageEmbedField{
		Name: l.T("tournament.stats_title"), Value: fitLines(playerTournamentLines(l, list), maxFieldValue),
	})
	msg.Embeds = append([]*discordgo.MessageEmbed{&embed}, msg.Embeds[1:]...)
	return msg
}

// playerTournamentLines are a player's finished tournaments as /stats
// lists them.
func playerTournamentLines(l *i18n.Localizer, list []storage.PlayerTournament) []string {
	var lines []string
	for _, pt := range list {
		name := pt.Name
		if name == "" { // as TournamentTitle, but the record keeps no length
			name = l.T("tournament.untitled", "Game", gameTitle(l, pt.Kind), "Format", l.T("tournament.format_short_"+string(pt.Format)))
		}
		lines = append(lines, l.T("tournament.stats_line", "Place", place(pt.Rank), "Rank", pt.Rank, "Players", pt.Players,
			"Score", TournamentScore(pt.Format, pt.Score), "Name", name))
	}
	return lines
}
