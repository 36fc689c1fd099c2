package bot_test

import (
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/internal/playerwords"
	"github.com/gambitbot/gambit/strategies"
	"github.com/gambitbot/gambit/strategies/puzzles"
)

// developerIDs are the names of games, strategies and solvers a player
// should not read outside Markdown code (where they are what to type).
func developerIDs() []string {
	var names []string
	names = append(names, catalog.Names()...)
	for _, i := range strategies.All() {
		names = append(names, i.Name)
	}
	for _, s := range puzzles.TileSolvers() {
		names = append(names, s.Name)
	}
	for _, s := range puzzles.QueensSolvers() {
		names = append(names, s.Name)
	}
	return playerwords.IDs(names...)
}

// howItWorks is the title, in English and Indonesian, of the AI help
// page's field that names its algorithm in the terms of the field.
var howItWorks = [2]string{"How it works", "Cara kerjanya"}

// componentTexts appends what a player reads of components: labels,
// placeholders, options and text displays.
func componentTexts(out []string, cs []discordtest.Component) []string {
	for _, c := range cs {
		out = append(out, c.Label, c.Placeholder, c.Content)
		for _, o := range c.Options {
			out = append(out, o.Label, o.Description)
		}
		out = componentTexts(out, c.Components)
		if c.Accessory != nil {
			out = componentTexts(out, []discordtest.Component{*c.Accessory})
		}
		if c.Component != nil {
			out = componentTexts(out, []discordtest.Component{*c.Component})
		}
	}
	return out
}

// TestPlayersReadNoDevelopersWords walks what a new member meets, in
// English and Indonesian — /help with every game's and AI's page, the
// suggestions of /play, /help, /review and /settings, a game against an
// AI and its end, /games, /leaderboard, /stats, a puzzle's Compare
// algorithms table, /privacy delete — and reads every message the
// channel holds and every suggestion: none says a word of the developers'
// (the reports, package names, "(s)", "devel") or a game's, strategy's or
// solver's ID outside Markdown code.
func TestPlayersReadNoDevelopersWords(t *testing.T) {
	t.Parallel()
	h := start(t)
	ids := developerIDs()
	var suggestions []string
	for _, locale := range []string{"en-US", "id"} {
		alice := h.srv.AddUser("alice-" + locale).ID
		h.srv.SetLocale(alice, locale)
		h.command(alice, "help")
		for _, g := range catalog.All() {
			if g.Players == 2 {
				h.command(alice, "help", opt("game", g.Name))
			}
		}
		for _, i := range strategies.All() {
			h.command(alice, "help", opt("ai", i.Name))
		}
		for _, g := range catalog.All() {
			if g.Players == 2 {
				for _, c := range askChoices(t, h, alice, "", "play", opt("game", g.Name), focused("ai", "")) {
					suggestions = append(suggestions, c.Name)
				}
			}
		}
		for _, c := range askChoices(t, h, alice, "", "help", focused("ai", "")) {
			suggestions = append(suggestions, c.Name)
		}
		for _, c := range askChoices(t, h, alice, "", "settings", focused("games", "")) {
			suggestions = append(suggestions, c.Name)
		}
		g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "minimax"))
		h.command(alice, "games")
		resignByUI(t, h, alice, g.ID)
		playAI(t, h, alice, opt("game", "connect4"), opt("ai", "greedy"))
		h.command(alice, "games")
		for _, c := range askChoices(t, h, alice, "", "review", focused("game", "")) {
			suggestions = append(suggestions, c.Name)
		}
		h.command(alice, "leaderboard", opt("game", "tictactoe"))
		h.command(alice, "stats")
		h.command(alice, "settings")
		_, board := newPuzzle(t, h, alice, opt("game", "8puzzle"), opt("difficulty", "easy"))
		if compare, ok := find(board, customid.Compare, nil); ok {
			compared(t, h, h.click(alice, board.ID, compare))
		} else {
			t.Errorf("%s: the puzzle has no Compare algorithms", locale)
		}
		_, ask := h.command(alice, "privacy", discordtest.Option{Name: "delete"})
		if erase, ok := find(ask, customid.PrivacyDelete, nil); ok {
			h.click(alice, ask.ID, erase)
		}
	}
	read := 0
	for _, m := range h.messages(h.srv.ChannelID()) {
		texts := []string{m.Content}
		for _, e := range m.Embeds {
			texts = append(texts, e.Title, e.Description)
			for _, f := range e.Fields {
				if f.Name == howItWorks[0] || f.Name == howItWorks[1] {
					continue // an AI's algorithm, for the curious: minimax is its name there
				}
				texts = append(texts, f.Name, f.Value)
			}
			if e.Footer != nil {
				texts = append(texts, e.Footer.Text)
			}
		}
		texts = componentTexts(texts, m.Components)
		for _, text := range texts {
			read++
			if leaks := playerwords.Leaks(text, ids...); len(leaks) > 0 {
				t.Errorf("a message says %q: %q", leaks, text)
			}
		}
	}
	for _, s := range suggestions {
		if leaks := playerwords.Leaks(s, ids...); len(leaks) > 0 {
			t.Errorf("a suggestion says %q: %q", leaks, s)
		}
	}
	if read < 200 || len(suggestions) < 50 {
		t.Errorf("read %d texts and %d suggestions: the walk saw too little to tell", read, len(suggestions))
	}
	t.Logf("read %d texts and %d suggestions", read, len(suggestions))
}
