package bot_test

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// commandName is Discord's rule for the name of a slash command or option
// (in any locale), lowercase where a letter has cases.
var commandName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// TestCommandsAreLocalized checks the commands as registered with the
// stand-in: every command, option and fixed choice has an Indonesian name
// and description that follow Discord's rules, option names are unique in
// each language, and the catalogue's English is what the definitions say.
func TestCommandsAreLocalized(t *testing.T) {
	t.Parallel()
	h := start(t)
	cmds := h.srv.Commands("")
	if len(cmds) == 0 {
		t.Fatal("no commands registered")
	}
	en := i18n.Default
	checkName := func(what, name string) {
		t.Helper()
		if !commandName.MatchString(name) || name != strings.ToLower(name) {
			t.Errorf("%s: name %q breaks Discord's rules", what, name)
		}
	}
	// Discord takes descriptions and choice names of 1–100 characters.
	checkText := func(what, text string) {
		t.Helper()
		if n := utf8.RuneCountInString(text); n < 1 || n > 100 {
			t.Errorf("%s: %q has %d characters, Discord takes 1–100", what, text, n)
		}
	}
	var walk func(key string, opts []discordtest.CommandOption)
	walk = func(key string, opts []discordtest.CommandOption) {
		names := map[string]bool{}
		for _, o := range opts {
			k := key + "." + o.Name
			id, desc := o.NameLocalizations[i18n.Indonesian], o.DescriptionLocalizations[i18n.Indonesian]
			if id == "" || desc == "" {
				t.Errorf("option %s has no Indonesian name or description: %q, %q", k, id, desc)
			}
			checkName(k, id)
			checkText(k, desc)
			if names[id] {
				t.Errorf("option %s: Indonesian name %q used twice", k, id)
			}
			names[id] = true
			if got := en.T(k + ".name"); got != o.Name {
				t.Errorf("option %s: the catalogue's English name is %q", k, got)
			}
			if got := en.T(k + ".desc"); got != o.Description {
				t.Errorf("option %s: the catalogue's English description %q differs from %q", k, got, o.Description)
			}
			for _, c := range o.Choices {
				if c.NameLocalizations[i18n.Indonesian] == "" {
					t.Errorf("option %s: choice %v has no Indonesian name", k, c.Value)
				}
				checkText(k+" choice", c.NameLocalizations[i18n.Indonesian])
			}
			walk(k, o.Options)
		}
	}
	names := map[string]bool{}
	for _, c := range cmds {
		k := "cmd." + c.Name
		if c.Type == discordgo.UserApplicationCommand {
			// A context-menu command: a name of 1–32 characters in any
			// case, with spaces, and no description.
			id := c.NameLocalizations[i18n.Indonesian]
			if n := utf8.RuneCountInString(id); n < 1 || n > 32 || id == c.Name {
				t.Errorf("menu command %q has no Indonesian name of 1–32 characters: %q", c.Name, id)
			}
			if got := en.T(k + ".name"); got != c.Name {
				t.Errorf("menu command %q: the catalogue's English name is %q", c.Name, got)
			}
			continue
		}
		id, desc := c.NameLocalizations[i18n.Indonesian], c.DescriptionLocalizations[i18n.Indonesian]
		if id == "" || desc == "" || desc == c.Description {
			t.Errorf("/%s has no Indonesian name or description: %q, %q", c.Name, id, desc)
		}
		checkName("/"+c.Name, id)
		checkText("/"+c.Name, desc)
		if names[id] {
			t.Errorf("/%s: Indonesian name %q used twice", c.Name, id)
		}
		names[id] = true
		if got := en.T(k + ".desc"); got != c.Description {
			t.Errorf("/%s: the catalogue's English description %q differs from %q", c.Name, got, c.Description)
		}
		walk(k, c.Options)
	}
	if got := cmds[0].NameLocalizations[i18n.Indonesian]; got != "main" {
		t.Errorf("/play is called %q in Indonesian, want main", got)
	}
}

// text is everything a message shows people: its content, its embeds (or
// a components-v2 message's text) and its components' labels and
// placeholders.
func text(m discordtest.Message) string {
	var b strings.Builder
	b.WriteString(m.Content + "\n" + embedText(m))
	for _, c := range components(m) {
		b.WriteString("\n" + c.Label + "\n" + c.Placeholder)
		for _, o := range c.Options {
			b.WriteString("\n" + o.Label + " " + o.Description)
		}
	}
	return b.String()
}

// speaks fails the test unless the message has all of want and none of
// unwanted.
func speaks(t *testing.T, what string, m discordtest.Message, want, unwanted []string) {
	t.Helper()
	s := text(m)
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
	for _, w := range unwanted {
		if strings.Contains(s, w) {
			t.Errorf("%s has %q:\n%s", what, w, s)
		}
	}
}

// TestIndonesianUsersSeeIndonesian plays through the real discordgo client
// in a guild and for users whose Discord speaks Indonesian ("id"): /help,
// a challenge, its board once accepted, a move refused, a move played and
// the AI's move made without an interaction all read in Indonesian.
func TestIndonesianUsersSeeIndonesian(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	for _, id := range []string{alice, bob, h.srv.GuildID()} {
		h.srv.SetLocale(id, i18n.Indonesian)
	}

	_, help := h.command(alice, "help")
	speaks(t, "/help", help, []string{"permainan papan di Discord", "Lawan AI", "`/main` — "}, []string{"board games in Discord", "AI opponents"})
	_, rules := h.command(alice, "help", opt("game", "adjacency"))
	speaks(t, "/help game:adjacency", rules, []string{"Cara melangkah", "**Papan.**", "Pemikir mendalam"}, []string{"How to move", "Deep thinker"})

	_, challenge := h.command(alice, "play", opt("game", "adjacency"), opt("opponent", bob), opt("rounds", 4))
	speaks(t, "the challenge", challenge, []string{"menantangmu bermain **Adjacency**", "4 ronde", "Terima", "Tolak"}, []string{"challenges you", "Accept", "Decline"})
	g := h.waitGame(h.latestGame(alice).ID, "the challenge's board", func(g *storage.Game) bool { return g.MessageID != "" })
	accept, _ := find(challenge, customid.Accept, nil)
	board := h.click(bob, challenge.ID, accept)
	speaks(t, "the board", board, []string{"giliranmu", "Giliran", "sisa 4 dari 4 ronde", "Menyerah", "Baris 1–3: pilih sel", "menangkap 0"},
		[]string{"your move", "to move", "rounds left", "Resign", "choose a cell", "captures"})

	_, refused := h.command(bob, "move", opt("cell", "d4"))
	speaks(t, "a move out of turn", refused, []string{"Belum giliranmu"}, []string{"not your turn"})
	_, illegal := h.command(alice, "move", opt("cell", "a1"))
	speaks(t, "an illegal move", illegal, []string{"bukan langkah yang sah"}, []string{"not a legal move"})
	_, played := h.command(alice, "move", opt("cell", "d4"))
	speaks(t, "a typed move", played, []string{"Kamu memainkan d4."}, []string{"You played"})
	h.waitBoard(g.ID, "the move on the board", func(m discordtest.Message) bool {
		return strings.Contains(text(m), "Langkah terakhir:") && strings.Contains(text(m), "memainkan **d4**")
	})

	// The AI's move edits the board with no interaction to take the
	// language from: the guild's, remembered.
	ai, _ := playAI(t, h, bob, opt("game", "connect4"), opt("ai", "random"), opt("first", "opponent"))
	h.waitBoard(ai.ID, "the AI's move in Indonesian", func(m discordtest.Message) bool {
		return strings.Contains(text(m), "menjatuhkan ke kolom") && strings.Contains(text(m), "giliranmu")
	})
}

// TestLocaleRules checks whose language each message takes: what one user
// reads alone (help, errors) is in that user's language, what the channel
// reads (a board) in the guild's, and English is the fallback.
func TestLocaleRules(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	h.srv.SetLocale(alice, i18n.Indonesian) // bob: en-US, the stand-in's default
	h.srv.SetLocale(carol, "pt-BR")         // a language Gambit does not speak

	_, help := h.command(alice, "help")
	speaks(t, "alice's /help", help, []string{"permainan papan di Discord"}, nil)
	_, help = h.command(bob, "help")
	speaks(t, "bob's /help", help, []string{"board games in Discord"}, []string{"permainan papan"})
	_, help = h.command(carol, "help")
	speaks(t, "carol's /help", help, []string{"board games in Discord"}, []string{"permainan papan"})

	// The guild speaks English: alice's challenge reads in English, her
	// mistakes in Indonesian.
	_, challenge := h.command(alice, "play", opt("game", "tictactoe"), opt("opponent", bob))
	speaks(t, "the challenge in an English guild", challenge, []string{"challenges you", "Accept"}, []string{"menantangmu"})
	accept, _ := find(challenge, customid.Accept, nil)
	again := h.click(alice, challenge.ID, accept)
	speaks(t, "alice accepting her own challenge", again, []string{"Ini tantanganmu sendiri"}, nil)
	board := h.click(bob, challenge.ID, accept)
	speaks(t, "the board in an English guild", board, []string{"your move", "Resign"}, []string{"giliranmu"})
	_, refused := h.command(bob, "move", opt("cell", "5"))
	speaks(t, "bob's move out of turn", refused, []string{"It is not your turn"}, nil)
}

// TestBoardsAfterARestartSpeakTheGuildsLanguage restarts the bot between a
// challenge and its expiry: the expired board is edited by a timer, with
// no interaction since the restart to give the guild's locale, and still
// reads in Indonesian (the gateway's guild event gave it).
func TestBoardsAfterARestartSpeakTheGuildsLanguage(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	h.srv.SetLocale(h.srv.GuildID(), i18n.Indonesian)
	_, m := h.command(alice, "play", opt("game", "tictactoe"), opt("opponent", bob))
	g := h.waitGame(h.latestGame(alice).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	h.stop()
	h.run()
	// The guild's event comes after the bot serves, as on Discord: the
	// expiry is due once the restarted bot has it.
	for deadline := time.Now().Add(waitTimeout()); !bot.KnowsGuildLocale(h.bot, h.srv.GuildID()); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the restarted bot never learned the guild's locale from the gateway")
		}
	}
	h.clock.Advance(bot.DefaultChallengeTTL + time.Minute)
	expired := h.waitBoard(g.ID, "the expiry", func(m discordtest.Message) bool { return len(controls(m)) == 0 })
	speaks(t, "the expired challenge", expired, []string{"Tantangan kedaluwarsa"}, []string{"expired"})
	if expired.ID != m.ID {
		t.Errorf("the expiry posted a new message")
	}
}

// TestHelpListsEveryCommand checks that /help's overview names every
// command Gambit registers, by the name the reader's Discord shows, in
// English and, as /bantuan, in Indonesian, and still fits on one screen.
func TestHelpListsEveryCommand(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	cmds := h.srv.Commands("")
	if len(cmds) < 10 {
		t.Fatalf("%d commands registered", len(cmds))
	}
	for _, loc := range []string{"en-US", i18n.Indonesian} {
		h.srv.SetLocale(alice, loc)
		_, help := h.command(alice, "help")
		s := text(help)
		for _, c := range cmds {
			name := c.Name
			if n, ok := c.NameLocalizations[loc]; ok {
				name = n
			}
			if c.Type == discordgo.ChatApplicationCommand {
				name = "`/" + name + "`"
			}
			if !strings.Contains(s, name) {
				t.Errorf("%s: /help lacks %s:\n%s", loc, name, s)
			}
		}
		// One screen: short lines, and not many (a line a command: 29
		// lines and 1900 characters since /versus).
		if n, lines := utf8.RuneCountInString(s), strings.Count(s, "\n")+1; n > 1900 || lines > 29 {
			t.Errorf("%s: the overview has %d characters on %d lines, want at most 1900 on 29:\n%s", loc, n, lines, s)
		}
	}
}
