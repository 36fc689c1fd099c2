package discordtest_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// fakeTB records the failures AssertNoViolations reports.
type fakeTB struct {
	testing.TB
	errors []string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, format)
}

func row(cs ...discordgo.MessageComponent) discordgo.MessageComponent {
	return discordgo.ActionsRow{Components: cs}
}

func button(id string) discordgo.MessageComponent {
	return discordgo.Button{Label: id, Style: discordgo.PrimaryButton, CustomID: id}
}

func TestInvalidBodiesAreRefusedAndReported(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)

	cases := []struct {
		name     string
		body     any // sent raw, as JSON
		location string
		code     string
	}{
		{
			name:     "schema: content must be a string",
			body:     map[string]any{"type": 4, "data": map[string]any{"content": 42}},
			location: "/data/content",
		},
		{
			name:     "schema: content longer than 2000 characters",
			body:     map[string]any{"type": 4, "data": map[string]any{"content": strings.Repeat("x", 2001)}},
			location: "/data/content",
		},
		{
			name:     "schema: unknown response type",
			body:     map[string]any{"type": 3},
			location: "/type",
		},
		{
			name: "rule: more than five action rows",
			body: &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{
				row(button("a")), row(button("b")), row(button("c")), row(button("d")), row(button("e")), row(button("f")),
			}}},
			location: "/data/components",
			code:     "BASE_TYPE_BAD_LENGTH",
		},
		{
			name: "rule: duplicate custom_id",
			body: &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{
				row(button("move")), row(button("move")),
			}}},
			location: "/data/components/1/components/0/custom_id",
			code:     "COMPONENT_CUSTOM_ID_DUPLICATED",
		},
		{
			name: "rule: a select menu shares its row",
			body: &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{
				row(button("a"), discordgo.SelectMenu{CustomID: "s", Options: []discordgo.SelectMenuOption{{Label: "x", Value: "x"}}}),
			}}},
			location: "/data/components/0/components",
			code:     "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
		},
		{
			name: "rule: a chess knight is not an emoji",
			body: &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{
				row(discordgo.Button{Label: "N", Style: discordgo.SecondaryButton, CustomID: "n", Emoji: &discordgo.ComponentEmoji{Name: "♞"}}),
			}}},
			location: "/data/components/0/components/0/emoji/name",
			code:     "BUTTON_COMPONENT_INVALID_EMOJI",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(srv.Violations())
			_, in := challenge(t, srv, b, alice.ID, bob.ID)
			endpoint := discordgo.EndpointInteractionResponse(in.ID, in.Token)
			_, err := b.RequestWithBucketID("POST", endpoint, tc.body, endpoint)
			restError(t, err, 400, discordtest.CodeInvalidFormBody)
			if !strings.Contains(err.Error(), "Invalid Form Body") {
				t.Errorf("error body = %v", err)
			}

			vs := srv.Violations()[before:]
			if len(vs) == 0 {
				t.Fatal("no violation recorded")
			}
			found := false
			for _, v := range vs {
				if v.Route != callbackRoute || v.Method != "POST" {
					t.Errorf("violation %v is not located at the callback route", v)
				}
				found = found || v.Location == tc.location && (tc.code == "" || v.Code == tc.code)
			}
			if !found {
				t.Fatalf("violations = %v, want one at %s %s", vs, tc.location, tc.code)
			}
			// A refused body does not acknowledge the interaction.
			reply(t, b, in, "a valid answer")
		})
	}

	tb := &fakeTB{TB: t}
	srv.AssertNoViolations(tb)
	if len(tb.errors) < len(cases) {
		t.Fatalf("AssertNoViolations reported %d failures, want at least %d", len(tb.errors), len(cases))
	}
}

// TestABodySentAgainIsRefusedAgain: the stand-in keeps what the bodies
// it validated broke, and a body sent again is refused again, its
// violation recorded at its own request.
func TestABodySentAgainIsRefusedAgain(t *testing.T) {
	t.Parallel()
	srv, b, alice, bob := twoPlayers(t)
	body := map[string]any{"type": 4, "data": map[string]any{"content": 42}}
	var paths []string
	for range 2 {
		before := len(srv.Violations())
		_, in := challenge(t, srv, b, alice.ID, bob.ID)
		endpoint := discordgo.EndpointInteractionResponse(in.ID, in.Token)
		_, err := b.RequestWithBucketID("POST", endpoint, body, endpoint)
		restError(t, err, 400, discordtest.CodeInvalidFormBody)
		vs := srv.Violations()[before:]
		if len(vs) != 1 || vs[0].Location != "/data/content" || !strings.Contains(vs[0].Path, in.ID) {
			t.Fatalf("violations of the answer to %s: %v, want one at /data/content of its path", in.ID, vs)
		}
		paths = append(paths, vs[0].Path)
		reply(t, b, in, "a valid answer")
	}
	if vs := srv.Violations(); vs[len(vs)-2].Path != paths[0] {
		t.Errorf("the first violation's path is now %s, want %s", vs[len(vs)-2].Path, paths[0])
	}
}

func TestValidBodiesPass(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	b := openBot(t, srv)
	perms := int64(discordgo.PermissionSendMessages)
	cmds := append([]*discordgo.ApplicationCommand{{
		Name: "admin", Description: "Admin things", DefaultMemberPermissions: &perms,
	}}, gameCommands...)
	if _, err := b.ApplicationCommandBulkOverwrite(srv.ApplicationID(), srv.GuildID(), cmds); err != nil {
		t.Fatalf("register guild commands: %v", err)
	}
	custom := &discordgo.ComponentEmoji{Name: "knight", ID: "112233445566778899"}
	_, err := b.ChannelMessageSendComplex(srv.ChannelID(), &discordgo.MessageSend{
		Content: "Board",
		Embeds:  []*discordgo.MessageEmbed{{Title: "Chess", Description: "White to move", Color: 0xffffff}},
		Components: []discordgo.MessageComponent{
			row(button("a1"), button("a2"), button("a3"), button("a4"), button("a5")),
			row(discordgo.Button{Label: "Knight", Style: discordgo.SecondaryButton, CustomID: "knight", Emoji: custom},
				discordgo.Button{Label: "Pawn", Style: discordgo.SecondaryButton, CustomID: "pawn", Emoji: &discordgo.ComponentEmoji{Name: "♟️"}}),
		},
	})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	srv.AssertNoViolations(t)
}
