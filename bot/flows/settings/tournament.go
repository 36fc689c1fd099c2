package settings

import (
	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/storage"
)

// The tournament-boards option: where a server's tournaments post each
// round's boards, a thread per round (the default) or the tournament's
// channel (bot/flows/tournament's thread.go).

// tournamentBoardsChoices are the option's choices.
func tournamentBoardsChoices() []*discordgo.ApplicationCommandOptionChoice {
	return []*discordgo.ApplicationCommandOptionChoice{
		{Name: string(storage.TournamentBoardsThreads), Value: string(storage.TournamentBoardsThreads)},
		{Name: string(storage.TournamentBoardsChannel), Value: string(storage.TournamentBoardsChannel)},
	}
}

// tournamentBoards reads the option's value, or the member's error.
func tournamentBoards(value string) (storage.TournamentBoards, error) {
	b := storage.TournamentBoards(value)
	if b == storage.TournamentBoardsDefault || !b.Valid() {
		return "", mux.Err("tournament.thread.unknown", "Value", mux.Quote(value))
	}
	return b, nil
}

// tournamentBoardsText shows where a server's tournament boards go.
func tournamentBoardsText(l *i18n.Localizer, b storage.TournamentBoards) string {
	if b.Threads() {
		text := l.T("tournament.thread.threads")
		if b == storage.TournamentBoardsDefault {
			return l.T("settings.default", "Value", text)
		}
		return text
	}
	return l.T("tournament.thread.channel")
}
