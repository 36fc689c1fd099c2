package render

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/storage"
)

// TestDuelControls: every duel's board offers Abort until each side has
// moved twice; then, between people, Offer draw, and while a draw is
// offered Accept and Decline draw with the offer in words; never a draw
// against an AI. Every board stays within Discord's limits.
func TestDuelControls(t *testing.T) {
	defer somePictures(new(bool))() // the boards' texts and components, not pictures
	rng := rand.New(rand.NewPCG(28, 3))
	for _, gm := range catalog.All() {
		if gm.Players != 2 {
			continue
		}
		kind := storage.Kind(gm.Name)
		for _, tc := range []struct {
			name  string
			plies int
			p1    storage.Player
			offer bool
			want  []customid.Pattern
		}{
			{"people at the start", 0, bob, false, []customid.Pattern{customid.Abort}},
			{"people after three moves", 3, bob, false, []customid.Pattern{customid.Abort}},
			{"people after four moves", 4, bob, false, []customid.Pattern{customid.DrawOffer}},
			{"people with a draw offered", 5, bob, true, []customid.Pattern{customid.DrawAccept, customid.DrawDecline}},
			{"an AI at the start", 1, bot, false, []customid.Pattern{customid.Abort}},
			{"an AI after four moves", 4, bot, false, nil},
		} {
			pos, moves := play(t, kind, 8, rng, tc.plies)
			if len(moves) != tc.plies || pos.Terminal() {
				t.Fatalf("%s: %d random moves ended the game", gm.Name, tc.plies)
			}
			g := newGame(kind, storage.StatusActive, alice, tc.p1)
			seat(g, pos, moves, 0)
			if tc.offer {
				g.DrawOffer = &storage.DrawOffer{Seat: 1 - g.Turn, Ply: len(moves)}
			}
			if err := g.Validate(); err != nil {
				t.Fatalf("%s, %s: %v", gm.Name, tc.name, err)
			}
			m := Game(View{Game: g, Pos: pos})
			checkDiscord(t, m)
			ids := checkIDs(t, g, m)
			if len(ids[customid.Resign]) != 1 {
				t.Errorf("%s, %s: %d Resign buttons", gm.Name, tc.name, len(ids[customid.Resign]))
			}
			for _, p := range []customid.Pattern{customid.Abort, customid.DrawOffer, customid.DrawAccept, customid.DrawDecline} {
				want := 0
				for _, w := range tc.want {
					if w == p {
						want = 1
					}
				}
				if len(ids[p]) != want {
					t.Errorf("%s, %s: %d %s buttons, want %d", gm.Name, tc.name, len(ids[p]), p, want)
				}
			}
			if text := description(t, m); tc.offer != strings.Contains(text, "offers a draw") {
				t.Errorf("%s, %s: the board says %q", gm.Name, tc.name, text)
			}
		}
	}
}

// TestAbortedAndAgreedEndings: an aborted game and a draw agreed say so,
// in both languages; an aborted game has no buttons.
func TestAbortedAndAgreedEndings(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 4))
	pos, moves := play(t, "connect4", 0, rng, 2)
	aborted := newGame("connect4", storage.StatusAborted, alice, bob)
	seat(aborted, pos, moves, 0)
	drawn := newGame("connect4", storage.StatusFinished, alice, bob)
	seat(drawn, pos, moves, 0)
	drawn.Result = &storage.Result{Winner: storage.Draw, Outcome: storage.DrawAgreed}
	for _, tc := range []struct {
		lang           string
		aborted, drawn []string
	}{
		{i18n.English, []string{"Game aborted.", "Aborted** by a player · no result, not rated"}, []string{"**Draw** by agreement"}},
		{i18n.Indonesian, []string{"Permainan dibatalkan oleh pemain.", "Dibatalkan** oleh pemain · tanpa hasil, tanpa rating"}, []string{"**Seri** atas kesepakatan"}},
	} {
		l := i18n.For(tc.lang)
		m := Game(View{Game: aborted, Pos: pos, Lang: l})
		checkDiscord(t, m)
		if ids := checkIDs(t, aborted, m); len(ids) != 0 {
			t.Errorf("%s: an aborted board has controls %v", tc.lang, ids)
		}
		for _, want := range tc.aborted {
			if text := content(m) + description(t, m); !strings.Contains(text, want) {
				t.Errorf("%s: the aborted board %q lacks %q", tc.lang, text, want)
			}
		}
		m = Game(View{Game: drawn, Pos: pos, Lang: l})
		for _, want := range tc.drawn {
			if !strings.Contains(description(t, m), want) {
				t.Errorf("%s: the agreed draw %q lacks %q", tc.lang, description(t, m), want)
			}
		}
	}
}

// TestStatsSayAgreedAndCasual: a player's recent games say which draws
// were agreed and which games were casual, in both languages.
func TestStatsSayAgreedAndCasual(t *testing.T) {
	me := storage.User("111")
	agreed := newGame("connect4", storage.StatusFinished, alice, bob)
	agreed.Result = &storage.Result{Winner: storage.Draw, Outcome: storage.DrawAgreed}
	casual := newGame("connect4", storage.StatusFinished, alice, bob)
	casual.Settings.Casual = true
	casual.Result = &storage.Result{Winner: 0}
	for lang, want := range map[string][]string{
		i18n.English:    {"🤝 Drew with <@222> · by agreement", "✅ Won against <@222> · casual, not rated"},
		i18n.Indonesian: {"atas kesepakatan", "santai, tidak dinilai"},
	} {
		m := Stats(i18n.For(lang), me, []KindStats{{Kind: "connect4", Recent: []*storage.Game{agreed, casual}}})
		checkDiscord(t, m)
		for _, w := range want {
			if text := embed(m).Fields[0].Value; !strings.Contains(text, w) {
				t.Errorf("%s: recent games %q lack %q", lang, text, w)
			}
		}
	}
}
