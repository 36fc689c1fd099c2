package render

import (
	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
)

// TournamentWithdrawConfirm asks the entrant of the started tournament t
// who clicked Withdraw to confirm it, saying that their game under way,
// if playing, will be lost; Cancel keeps them in.
func TournamentWithdrawConfirm(l *i18n.Localizer, t *storage.Tournament, playing bool) Message {
	question := l.T("tournament.withdrawal.question")
	if playing {
		question = l.T("tournament.withdrawal.question_playing")
	}
	return Message{Content: question, Components: []discordgo.MessageComponent{row(
		discordgo.Button{Label: l.T("tournament.withdrawal.confirm"), Style: discordgo.DangerButton, CustomID: customid.TournamentWithdraw.Build(string(t.ID))},
		discordgo.Button{Label: l.T("tournament.withdrawal.cancel"), Style: discordgo.SecondaryButton, CustomID: customid.TournamentStay.Build(string(t.ID))},
	)}}
}
