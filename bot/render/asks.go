package render

import (
	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
)

// The messages that ask one member something, with the components that
// answer, built here with their custom IDs so that no flow builds one.

// ResignConfirm asks the player who clicked Resign (Give up on a solo
// puzzle) to confirm it, for g as drawn now.
func ResignConfirm(l *i18n.Localizer, g *storage.Game) Message {
	question, label := l.T("resign.question"), l.T("board.resign")
	if g.Solo() {
		question, label = l.T("resign.question_puzzle"), l.T("board.give_up")
	}
	return confirm(question, label, customid.ResignConfirm.Build(string(g.ID), Ply(g)))
}

// AbortConfirm asks the player who clicked Abort to confirm it, for g as
// drawn now.
func AbortConfirm(l *i18n.Localizer, g *storage.Game) Message {
	return confirm(l.T("abort.question"), l.T("board.abort"), customid.AbortConfirm.Build(string(g.ID), Ply(g)))
}

// PrivacyConfirm asks the member userID to confirm erasing their data
// (/privacy delete).
func PrivacyConfirm(l *i18n.Localizer, userID string) Message {
	return confirm(l.T("privacy.confirm"), l.T("privacy.erase"), customid.PrivacyDelete.Build(userID))
}

// confirm is a question with the one button that confirms it.
func confirm(question, label, customID string) Message {
	return Message{Content: question, Components: []discordgo.MessageComponent{
		row(discordgo.Button{Label: label, Style: discordgo.DangerButton, CustomID: customID}),
	}}
}

// RepostButtons are /games' Re-post buttons, one for each game in progress
// among games, five to a row.
func RepostButtons(l *i18n.Localizer, games []*storage.Game) []discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	for _, g := range games {
		if g.Status == storage.StatusActive {
			buttons = append(buttons, discordgo.Button{
				Label: l.T("games.repost", "ID", g.ID), Style: discordgo.SecondaryButton, CustomID: customid.Repost.Build(string(g.ID)),
			})
		}
	}
	return buttonRows(buttons)
}

// ChallengeMenu asks the member who used the "Challenge to a game" user
// command on target which of kinds to challenge them to, and in a second
// select which to post as an open challenge instead
// (customid.AnyoneHere).
func ChallengeMenu(l *i18n.Localizer, target string, kinds []storage.Kind) Message {
	var choices []discordgo.SelectMenuOption
	for _, k := range kinds {
		choices = append(choices, discordgo.SelectMenuOption{Label: Title(l, k), Value: string(k)})
	}
	return Message{
		Content: l.T("play.menu_question", "User", target),
		Components: []discordgo.MessageComponent{
			row(discordgo.SelectMenu{CustomID: customid.ChallengePick.Build(target), Placeholder: l.T("play.menu_placeholder"), Options: choices}),
			row(discordgo.SelectMenu{CustomID: customid.ChallengePick.Build(customid.AnyoneHere), Placeholder: l.T("play.menu_anyone"), Options: choices}),
		},
	}
}

// OffersChallengeTo reports whether components, a message's, hold the
// select of ChallengeMenu for target: the menu a click on it came from.
func OffersChallengeTo(components []discordgo.MessageComponent, target string) bool {
	// A pattern without parameters matches its own text only.
	_, offered := ShownControl(components, customid.Pattern(customid.ChallengePick.Build(target)))
	return offered
}
