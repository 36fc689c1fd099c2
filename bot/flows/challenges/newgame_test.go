package challenges_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/storage"
)

// New games, unit-tested over the fakes of challenges_test.go; the wire
// is tested in package bot against the stand-in (TestPlayAgainstAI,
// TestChallengeFlow, TestOpenChallenge…, TestRematch…).

// allPerms lets the bot keep a board in the channel.
const allPerms = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages | discordgo.PermissionEmbedLinks | discordgo.PermissionReadMessageHistory

// command is ann's slash command name with options (name, value pairs; a
// value of a *discordgo.User is a user option, resolved as a member of
// the server), where the bot has perms.
func command(name string, perms int64, opts ...any) *discordgo.Interaction {
	var o []*discordgo.ApplicationCommandInteractionDataOption
	resolved := &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{}, Members: map[string]*discordgo.Member{}}
	for i := 0; i+1 < len(opts); i += 2 {
		switch v := opts[i+1].(type) {
		case *discordgo.User:
			o = append(o, muxtest.Option(opts[i].(string), discordgo.ApplicationCommandOptionUser, v.ID))
			resolved.Users[v.ID], resolved.Members[v.ID] = v, &discordgo.Member{}
		case bool:
			o = append(o, muxtest.Option(opts[i].(string), discordgo.ApplicationCommandOptionBoolean, v))
		case float64:
			o = append(o, muxtest.Option(opts[i].(string), discordgo.ApplicationCommandOptionInteger, v))
		default:
			o = append(o, muxtest.Option(opts[i].(string), discordgo.ApplicationCommandOptionString, v))
		}
	}
	raw := muxtest.Command(muxtest.Member("ann", 0), discordgo.EnglishUS, name, o...)
	data := raw.Data.(discordgo.ApplicationCommandInteractionData)
	data.Resolved = resolved
	raw.Data = data
	raw.AppPermissions = perms
	return raw
}

func TestPlayAgainstAnAIStartsAtOnceAndQueuesItsMove(t *testing.T) {
	m, rec, w := newFlow(t, storage.User("bob"))
	if err := muxtest.Run(m, rec, command("play", allPerms, "game", "connect4", "ai", "greedy", "first", "opponent")); err != nil {
		t.Fatal(err)
	}
	want := []string{"begin", "create active user:ann vs ai:greedy", "hold " + string(storage.SequenceID(2)), "queue AI", "new board of active, AI thinking"}
	if !slices.Equal(w.did, want) {
		t.Errorf("did %v, want %v", w.did, want)
	}
	if g := w.created[0]; g.Settings.First != "opponent" || g.GuildID != "guild" || g.ChannelID != "channel" {
		t.Errorf("created %+v, want the AI first, here", g)
	}
}

func TestAChallengeWaitsForItsAnswer(t *testing.T) {
	m, rec, w := newFlow(t, storage.User("bob"))
	bob := &discordgo.User{ID: "222", Username: "bob"}
	if err := muxtest.Run(m, rec, command("challenge", allPerms, "game", "connect4", "user", bob, "rated", false)); err != nil {
		t.Fatal(err)
	}
	want := []string{"create pending user:ann vs user:222", "hold " + string(storage.SequenceID(2)), "new board of pending, no position"}
	if !slices.Equal(w.did, want) {
		t.Fatalf("did %v, want %v", w.did, want)
	}
	g := w.created[0]
	if !g.Settings.Casual || !g.Deadline.Equal(time.Date(2026, 11, 29, 13, 0, 0, 0, time.UTC)) {
		t.Errorf("created casual %v, deadline %v; want casual, expiring after the challenges' TTL", g.Settings.Casual, g.Deadline)
	}

	// Without a user, /challenge is open to anyone here.
	m, rec, w = newFlow(t, storage.User("bob"))
	if err := muxtest.Run(m, rec, command("challenge", allPerms, "game", "connect4")); err != nil {
		t.Fatal(err)
	}
	if len(w.created) != 1 || w.created[0].Players[1].ID != storage.Anyone {
		t.Errorf("created %v, want an open challenge", w.did)
	}
}

func TestNewGamesAreRefusedWithTheReason(t *testing.T) {
	bot := &discordgo.User{ID: "333", Username: "robot", Bot: true}
	ann := &discordgo.User{ID: "ann", Username: "ann"}
	for _, tc := range []struct {
		name  string
		raw   *discordgo.Interaction
		setup func(*world)
		want  string
	}{
		{"an opponent and an AI", command("play", allPerms, "game", "connect4", "ai", "greedy", "opponent", &discordgo.User{ID: "222"}), nil, "not both"},
		{"open with an AI", command("play", allPerms, "game", "connect4", "ai", "greedy", "open", true), nil, "open"},
		{"an unknown AI", command("play", allPerms, "game", "connect4", "ai", "nobody"), nil, "nobody"},
		{"an AI of another game", command("play", allPerms, "game", "connect4", "ai", "minimax-learned"), nil, "minimax"},
		{"a game the server disallows", command("play", allPerms, "game", "connect4"), func(w *world) { w.settings.AllowedGames = []storage.Kind{"tictactoe"} }, "Tic-Tac-Toe"},
		{"rounds of a game without", command("play", allPerms, "game", "connect4", "rounds", 4.0), nil, "Adjacency"},
		{"rounds out of range", command("play", allPerms, "game", "adjacency", "rounds", 40.0), nil, "28"},
		{"missing permissions", command("play", discordgo.PermissionViewChannel, "game", "connect4"), nil, "Send Messages"},
		{"a bot", command("challenge", allPerms, "game", "connect4", "user", bot), nil, "robot"},
		{"oneself", command("challenge", allPerms, "game", "connect4", "user", ann), nil, "yourself"},
		{"at the cap", command("play", allPerms, "game", "connect4"), atCap, "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var setups []func(*world)
			if tc.setup != nil {
				setups = append(setups, tc.setup)
			}
			m, rec, w := newFlow(t, storage.User("bob"), setups...)
			err := muxtest.Run(m, rec, tc.raw)
			if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, tc.want) {
				t.Errorf("refusal %q, want it to say %q", text, tc.want)
			}
			if len(w.created) != 0 || len(rec.Responses()) != 0 {
				t.Errorf("a refused command created %d games and answered %d times", len(w.created), len(rec.Responses()))
			}
		})
	}
}

// openGames are n games of ann's in progress.
func openGames(n int) []*storage.Game {
	var out []*storage.Game
	for range n {
		out = append(out, &storage.Game{Kind: "connect4", Status: storage.StatusActive, ChannelID: "channel",
			Players: []storage.Player{{ID: storage.User("ann"), Name: "ann"}, {ID: storage.User("carol"), Name: "carol"}}})
	}
	return out
}

// atCap puts ann at the cap of 3 open games, her challenge g1 and two
// more: the look ahead refuses (CheckLimits), and so does the store.
func atCap(w *world) {
	w.atCap = true
	w.others = append(w.others, openGames(2)...)
}

// pick is ann's choice of game in the challenge menu offered for user,
// from the menu's message.
func pick(user, game string) *discordgo.Interaction {
	id := customid.ChallengePick.Build(user)
	raw := muxtest.Click(muxtest.Member("ann", 0), discordgo.EnglishUS, id)
	raw.AppPermissions = allPerms
	raw.Message.Components = []discordgo.MessageComponent{&discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		&discordgo.SelectMenu{CustomID: id},
	}}}
	raw.Data = discordgo.MessageComponentInteractionData{CustomID: id, ComponentType: discordgo.SelectMenuComponent, Values: []string{game}}
	return raw
}

func TestTheChallengeMenuPostsTheGameChosen(t *testing.T) {
	m, rec, w := newFlow(t, storage.User("bob"))
	raw := command("x", allPerms)
	raw.Data = discordgo.ApplicationCommandInteractionData{Name: "Challenge to a game", CommandType: discordgo.UserApplicationCommand, TargetID: "222",
		Resolved: &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{"222": {ID: "222", Username: "bob"}},
			Members: map[string]*discordgo.Member{"222": {}}}}
	if err := muxtest.Run(m, rec, raw); err != nil {
		t.Fatal(err)
	}
	if menu := rec.Only(t); menu.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || len(menu.Data.Components) == 0 {
		t.Fatalf("answered %+v, want a menu only ann sees", menu.Data)
	}
	if err := muxtest.Run(m, rec, pick("222", "tictactoe")); err != nil {
		t.Fatal(err)
	}
	if len(w.created) != 1 || w.created[0].Kind != "tictactoe" || w.created[0].Players[1].ID != storage.User("222") {
		t.Errorf("did %v, want a Tic-Tac-Toe challenge to 222", w.did)
	}
	if err := muxtest.Run(m, rec, pick(customid.AnyoneHere, "connect4")); err != nil {
		t.Fatal(err)
	}
	if len(w.created) != 2 || w.created[1].Players[1].ID != storage.Anyone {
		t.Errorf("did %v, want an open challenge", w.did)
	}

	// A pick whose user the menu did not offer is a forged custom ID.
	forged := pick("444", "connect4")
	forged.Message.Components = nil
	for _, raw := range []*discordgo.Interaction{forged, pick("999", "connect4"), pick("ann", "connect4")} {
		err := muxtest.Run(m, rec, raw)
		if text := muxtest.UserError(t, err, i18n.English); text == "" {
			t.Errorf("pick %s accepted", raw.MessageComponentData().CustomID)
		}
	}
	if len(w.created) != 2 {
		t.Errorf("forged picks created games: %v", w.did)
	}
}

// rematchClick is who's Rematch on g1's board.
func rematchClick(who string) *discordgo.Interaction {
	return muxtest.Click(muxtest.Member(who, 0), discordgo.EnglishUS, customid.Rematch.Build(string(g1)))
}

func TestRematchClaimsOnceAndTheOtherPlayerMovesFirst(t *testing.T) {
	m, rec, w := newFlow(t, storage.User("bob"), func(w *world) {
		finish(w.g)
		w.g.Moves, w.g.Turn = []string{"4", "4", "4"}, 1 // ann moved first
	})
	if err := muxtest.Run(m, rec, rematchClick("ann")); err != nil {
		t.Fatal(err)
	}
	want := []string{"claim rematch", "create pending user:ann vs user:bob", "hold " + string(storage.SequenceID(2)), "new board of pending, no position"}
	if !slices.Equal(w.did, want) {
		t.Fatalf("did %v, want %v", w.did, want)
	}
	if w.created[0].Settings.First != "opponent" {
		t.Errorf("the rematch's first mover %q, want bob (the opponent)", w.created[0].Settings.First)
	}
	if r := rec.Responses(); len(r) != 1 || r[0].Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Errorf("answered %v, want the click deferred", r)
	}

	err := muxtest.Run(m, rec, rematchClick("bob"))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "already") {
		t.Errorf("second rematch: %q", text)
	}
}

func TestRematchRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, who string
		setup     func(*world)
		want      string
	}{
		{"not a player", "carol", func(w *world) { finish(w.g) }, "Only the players"},
		{"not over", "ann", func(w *world) { w.g.Status = storage.StatusActive }, "not over"},
		{"at the cap", "ann", func(w *world) { finish(w.g); w.atCap = true }, "3"},
		{"a deleted opponent", "ann", func(w *world) {
			finish(w.g)
			w.g.Players[1] = storage.Player{ID: storage.Anonymous}
		}, "deleted"},
		{"a tournament's board", "ann", func(w *world) {
			finish(w.g)
			w.g.Settings.Tournament = "t1"
		}, "tournament"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, rec, w := newFlow(t, storage.User("bob"), tc.setup)
			err := muxtest.Run(m, rec, rematchClick(tc.who))
			if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, tc.want) {
				t.Errorf("refusal %q, want it to say %q", text, tc.want)
			}
			if w.claimed() || len(w.created) != 0 {
				t.Errorf("a refused rematch did %v", w.did)
			}
		})
	}
}

func TestARematchThatCannotStartIsGivenBack(t *testing.T) {
	m, rec, w := newFlow(t, storage.AI("greedy"), func(w *world) {
		finish(w.g)
		w.settings.AllowedGames = []storage.Kind{"connect4"}
		// The store refuses the new game: ann's three open games, the
		// cap, started meanwhile, by another process.
		w.others = append(w.others, openGames(3)...)
	})
	err := muxtest.Run(m, rec, rematchClick("ann"))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "3") {
		t.Errorf("answered %q, want the cap named", text)
	}
	if w.claimed() || !slices.Contains(w.did, "release rematch") {
		t.Errorf("did %v, want the rematch claimed and given back", w.did)
	}
}
