package info_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/flows/info"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over a fake store: no bot, no
// stand-in. The wire (an answer as Discord gets it) is tested in package
// bot against the stand-in (TestLeaderboardAfterOneGameAgainstAnAI,
// TestStatsShowRatingsAndRecentGames, TestHelpExplainsGambitAndEachGame).

// fakeStore holds one rating of bob's in connect4, globally and in guild
// "guild", and bob's finished games.
type fakeStore struct {
	history     []*storage.Game
	asked       []storage.Ladder // the ladders Leaderboard was asked for
	tournaments []storage.PlayerTournament
}

func (s *fakeStore) Leaderboard(_ context.Context, l storage.Ladder, n int) ([]storage.Standing, error) {
	s.asked = append(s.asked, l)
	if l.Kind != "connect4" {
		return nil, nil
	}
	return []storage.Standing{{Rank: 1, Rating: storage.Rating{Player: storage.User("bob"), Rating: 1700, Deviation: 60, Games: 30, Wins: 20, Losses: 10}}}, nil
}

func (s *fakeStore) Rank(_ context.Context, l storage.Ladder, p storage.PlayerID, _ int) (storage.RankView, error) {
	if l.Kind != "connect4" || p != storage.User("bob") {
		return storage.RankView{}, storage.ErrNotFound
	}
	return storage.RankView{Player: storage.Standing{Rank: 1, Rating: storage.Rating{Player: p, Rating: 1700, Deviation: 60, Games: 30, Wins: 20, Losses: 10}}}, nil
}

func (s *fakeStore) History(_ context.Context, p storage.PlayerID, limit int) ([]*storage.Game, error) {
	if p != storage.User("bob") {
		return nil, nil
	}
	return s.history[:min(limit, len(s.history))], nil
}

func (s *fakeStore) PlayerTournaments(_ context.Context, p storage.PlayerID, limit int) ([]storage.PlayerTournament, error) {
	if p != storage.User("bob") {
		return nil, nil
	}
	return s.tournaments[:min(limit, len(s.tournaments))], nil
}

// guildLocale gives every interaction's shared messages one language.
type guildLocale string

func (l guildLocale) Shared(*mux.Interaction) *i18n.Localizer { return i18n.For(string(l)) }

// newFlow returns the flow over store on a Mux of its own, its /help
// listing the commands it declared.
func newFlow(store info.Store) (*mux.Mux, *muxtest.Recorder) {
	m := mux.New()
	info.New(store, guildLocale(i18n.Indonesian), m.Definitions).Routes(m)
	return m, &muxtest.Recorder{}
}

func TestLeaderboardReadsTheLadderOfTheScope(t *testing.T) {
	store := &fakeStore{}
	m, rec := newFlow(store)
	alice := muxtest.Member("alice", 0)
	game := muxtest.Option("game", discordgo.ApplicationCommandOptionString, "connect4")
	if err := muxtest.Run(m, rec, muxtest.Command(alice, discordgo.EnglishUS, "leaderboard", game)); err != nil {
		t.Fatal(err)
	}
	resp := rec.Only(t)
	if resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Error("the leaderboard was answered privately; it is for the channel")
	}
	if len(resp.Data.Embeds) == 0 || !strings.Contains(resp.Data.Embeds[0].Description+resp.Data.Embeds[0].Title, "bob") {
		t.Errorf("leaderboard %+v does not show bob", resp.Data.Embeds)
	}
	if want := (storage.Ladder{Kind: "connect4", Guild: "guild"}); len(store.asked) != 1 || store.asked[0] != want {
		t.Errorf("asked for %v, want the server's ladder %v", store.asked, want)
	}

	scope := muxtest.Option("scope", discordgo.ApplicationCommandOptionString, "global")
	if err := muxtest.Run(m, rec, muxtest.Command(alice, discordgo.EnglishUS, "leaderboard", game, scope)); err != nil {
		t.Fatal(err)
	}
	if got := store.asked[len(store.asked)-1]; got != storage.Global("connect4") {
		t.Errorf("scope global asked for %v", got)
	}

	dm := muxtest.Command(&discordgo.Member{}, discordgo.EnglishUS, "leaderboard", game, muxtest.Option("scope", discordgo.ApplicationCommandOptionString, "server"))
	dm.GuildID, dm.Member, dm.User = "", nil, &discordgo.User{ID: "alice"}
	err := muxtest.Run(m, rec, dm)
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "server") {
		t.Errorf("scope server outside a server: %q", text)
	}

	chess := muxtest.Option("game", discordgo.ApplicationCommandOptionString, "chess")
	err = muxtest.Run(m, rec, muxtest.Command(alice, discordgo.EnglishUS, "leaderboard", chess))
	if text := muxtest.UserError(t, err, i18n.Indonesian); !strings.Contains(text, `"chess"`) || !strings.Contains(text, " atau ") {
		t.Errorf("an unknown game in Indonesian: %q", text)
	}
}

func TestStatsOfAnotherMemberShowOnlyGamesTheAskerMaySee(t *testing.T) {
	finished := func(id, guild, channel, opponent string) *storage.Game {
		return &storage.Game{ID: storage.GameID(id), Kind: "connect4", Status: storage.StatusFinished, GuildID: guild, ChannelID: channel,
			Players: []storage.Player{{ID: storage.User("bob"), Name: "bob"}, {ID: storage.User(opponent), Name: opponent}},
			Result:  &storage.Result{Winner: 0}}
	}
	store := &fakeStore{history: []*storage.Game{
		finished("g1", "guild", "channel", "carol"),  // where alice asks: hers to see
		finished("g2", "", "dm", "dave"),             // bob and dave's DM
		finished("g3", "guild", "elsewhere", "erin"), // another channel of the server
	}}
	m, rec := newFlow(store)
	bob := muxtest.Option("user", discordgo.ApplicationCommandOptionUser, "bob")
	if err := muxtest.Run(m, rec, muxtest.Command(muxtest.Member("alice", 0), discordgo.EnglishUS, "stats", bob)); err != nil {
		t.Fatal(err)
	}
	resp := rec.Only(t)
	if resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Error("stats were answered in the channel; they are for the asker")
	}
	var text strings.Builder
	for _, e := range resp.Data.Embeds {
		for _, f := range e.Fields {
			text.WriteString(f.Value + "\n")
		}
	}
	if !strings.Contains(text.String(), "carol") {
		t.Errorf("stats do not show the game of this channel:\n%s", text.String())
	}
	for _, hidden := range []string{"dave", "erin"} {
		if strings.Contains(text.String(), hidden) {
			t.Errorf("stats show the game against %s, which alice may not see:\n%s", hidden, text.String())
		}
	}
}

func TestHelpListsTheDeclaredCommandsAndRefusesUnknownPages(t *testing.T) {
	m, rec := newFlow(&fakeStore{})
	alice := muxtest.Member("alice", 0)
	if err := muxtest.Run(m, rec, muxtest.Command(alice, discordgo.EnglishUS, "help")); err != nil {
		t.Fatal(err)
	}
	overview := rec.Only(t).Data.Embeds[0].Description
	for _, name := range []string{"/leaderboard", "/stats", "/help"} {
		if !strings.Contains(overview, name) {
			t.Errorf("the overview does not list %s:\n%s", name, overview)
		}
	}

	err := muxtest.Run(m, rec, muxtest.Command(alice, discordgo.EnglishUS, "help", muxtest.Option("ai", discordgo.ApplicationCommandOptionString, "nobody")))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "nobody") {
		t.Errorf("an unknown AI: %q", text)
	}
	err = muxtest.Run(m, rec, muxtest.Command(alice, discordgo.EnglishUS, "help", muxtest.Option("game", discordgo.ApplicationCommandOptionString, "chess")))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, `"chess"`) {
		t.Errorf("an unknown game: %q", text)
	}

	ai := muxtest.Option("ai", discordgo.ApplicationCommandOptionString, "mini")
	if err := muxtest.Run(m, rec, muxtest.Autocomplete(alice, "help", ai)); err != nil {
		t.Fatal(err)
	}
	choices := rec.Responses()[len(rec.Responses())-1].Data.Choices
	if len(choices) == 0 {
		t.Fatal("no AI offered for \"mini\"")
	}
	for _, c := range choices {
		if !strings.Contains(c.Value.(string), "mini") && !strings.Contains(strings.ToLower(c.Name), "mini") {
			t.Errorf("offered %q (%v) for \"mini\"", c.Name, c.Value)
		}
	}
}

func TestStatsShowThePlayersTournaments(t *testing.T) {
	store := &fakeStore{tournaments: []storage.PlayerTournament{
		{Tournament: "t2", Name: "Friday Swiss", Format: storage.FormatSwiss, Kind: "connect4", Players: 8, Rank: 1, Score: 7},
		{Tournament: "t1", Format: storage.FormatArena, Kind: "othello", Players: 12, Rank: 4, Score: 15},
	}}
	m, rec := newFlow(store)
	bob := muxtest.Option("user", discordgo.ApplicationCommandOptionUser, "bob")
	for _, tc := range []struct {
		locale discordgo.Locale
		want   []string
	}{
		{discordgo.EnglishUS, []string{"Tournaments", "🥇 Friday Swiss · 3½ · place 1 of 8", "Othello · 15 · place 4 of 12"}},
		{discordgo.Locale(i18n.Indonesian), []string{"Turnamen", "🥇 Friday Swiss · 3½ · peringkat 1 dari 8"}},
	} {
		if err := muxtest.Run(m, rec, muxtest.Command(muxtest.Member("alice", 0), tc.locale, "stats", bob)); err != nil {
			t.Fatal(err)
		}
		resp := rec.Responses()[len(rec.Responses())-1]
		var text strings.Builder
		for _, e := range resp.Data.Embeds {
			for _, f := range e.Fields {
				text.WriteString(f.Name + "\n" + f.Value + "\n")
			}
		}
		for _, w := range tc.want {
			if !strings.Contains(text.String(), w) {
				t.Errorf("%s: stats do not say %q:\n%s", tc.locale, w, text.String())
			}
		}
	}
}
