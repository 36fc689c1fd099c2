package render

import (
	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
)

// DailyContinue is the control of guild's daily puzzle of day for a
// member whose attempt is under way: Continue, which shows them their
// board again.
func DailyContinue(l *i18n.Localizer, guild, day string) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{row(button(l.T("daily.continue"), "🧩", discordgo.PrimaryButton, customid.DailyPlay.Build(guild, day)))}
}

// DailyResult is a member's ended attempt at a server's daily puzzle as
// its channel sees it: who, how it ended, the moves and hints used, the
// streak. Everyone there meets the same puzzle, so it shows no board and
// no solution.
type DailyResult struct {
	// Player is the member.
	Player storage.Player
	// Game is the puzzle's game.
	Game storage.Kind
	// Status is how the attempt ended.
	Status storage.DailyStatus
	// ByGambit says the attempt was given up to Gambit's Solve.
	ByGambit bool
	// BestMove says the puzzle was answered in one move, which the line
	// leaves out.
	BestMove bool
	// Moves and Hints are what the member used.
	Moves, Hints int
	// Streak is the member's streak after a solve, 0 otherwise.
	Streak int
}

// DailyResultMessage renders r as one line of text, pinging nobody.
func DailyResultMessage(l *i18n.Localizer, r DailyResult) Message {
	hints := l.T("daily.no_hints")
	if r.Hints > 0 {
		hints = plural(l, r.Hints, "hint")
	}
	used := l.T("daily.used_hints", "Hints", hints)
	if !r.BestMove {
		key := "daily.used_after"
		if r.Status == storage.DailySolved {
			key = "daily.used_in"
		}
		used = l.T(key, "Moves", plural(l, r.Moves, "move"), "Hints", hints)
	}
	key := "daily.result_" + string(r.Status)
	if r.ByGambit {
		key = "daily.result_by_gambit"
	}
	line := l.T(key, "Player", PlayerName(l, "", r.Player), "Game", Title(l, r.Game), "Used", used)
	if r.Streak > 0 {
		line += " " + l.T("daily.result_streak", "Days", plural(l, r.Streak, "day"))
	}
	return Message{Content: line, AllowedMentions: noPings()}
}
