package render

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
)

// customIDs returns the custom IDs of a message's buttons and selects.
func customIDs(cs []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range cs {
		switch c := c.(type) {
		case discordgo.ActionsRow:
			out = append(out, customIDs(c.Components)...)
		case discordgo.Button:
			out = append(out, c.CustomID)
		case discordgo.SelectMenu:
			out = append(out, c.CustomID)
		}
	}
	return out
}

// TestAsksCarryTheirRoutesIDs checks that the messages asking one member
// something carry the custom IDs their routes take, with the parameters
// the handlers read, and speak the member's language.
func TestAsksCarryTheirRoutesIDs(t *testing.T) {
	id := i18n.For(i18n.Indonesian)
	g := &storage.Game{ID: "0001k", Kind: "connect4", Status: storage.StatusActive, Moves: []string{"4", "4"}}
	solo := &storage.Game{ID: "0002k", Kind: "8puzzle", Status: storage.StatusActive, Players: []storage.Player{{ID: storage.User("ann")}}}
	for _, tc := range []struct {
		name    string
		msg     Message
		pattern customid.Pattern
		params  map[string]string
		text    string
	}{
		{"resign", ResignConfirm(id, g), customid.ResignConfirm, map[string]string{"game": "0001k", "ply": Ply(g)}, id.T("resign.question")},
		{"give up", ResignConfirm(id, solo), customid.ResignConfirm, map[string]string{"game": "0002k"}, id.T("resign.question_puzzle")},
		{"abort", AbortConfirm(id, g), customid.AbortConfirm, map[string]string{"game": "0001k", "ply": Ply(g)}, id.T("abort.question")},
		{"privacy", PrivacyConfirm(id, "42"), customid.PrivacyDelete, map[string]string{"user": "42"}, id.T("privacy.confirm")},
	} {
		ids := customIDs(tc.msg.Components)
		if len(ids) != 1 {
			t.Fatalf("%s: custom IDs %v, want one", tc.name, ids)
		}
		p, ok := tc.pattern.Match(ids[0])
		if !ok {
			t.Fatalf("%s: %q does not match %s", tc.name, ids[0], tc.pattern)
		}
		for k, v := range tc.params {
			if p[k] != v {
				t.Errorf("%s: %s = %q, want %q", tc.name, k, p[k], v)
			}
		}
		if tc.msg.Content != tc.text {
			t.Errorf("%s: asks %q, want %q", tc.name, tc.msg.Content, tc.text)
		}
	}

	games := []*storage.Game{g, {ID: "0003k", Kind: "othello", Status: storage.StatusPending}}
	if ids := customIDs(RepostButtons(id, games)); len(ids) != 1 || ids[0] != customid.Repost.Build("0001k") {
		t.Errorf("Re-post buttons %v, want one for the game in progress", ids)
	}

	menu := ChallengeMenu(id, "42", []storage.Kind{"connect4", "othello"})
	ids := customIDs(menu.Components)
	if len(ids) != 2 || ids[0] != customid.ChallengePick.Build("42") || ids[1] != customid.ChallengePick.Build(customid.AnyoneHere) {
		t.Errorf("challenge menu's selects %v", ids)
	}
	if sel := menu.Components[0].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu); len(sel.Options) != 2 || sel.Options[0].Label != Title(id, "connect4") {
		t.Errorf("challenge menu's options %+v", sel.Options)
	}
}
