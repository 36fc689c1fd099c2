package info_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/flows/info"
	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over the flows' test store
// (flowtest): no bot, no stand-in. The wire (an answer as Discord gets it) is tested in package
// bot against the stand-in (TestLeaderboardAfterOneGameAgainstAnAI,
// TestStatsShowRatingsAndRecentGames, TestHelpExplainsGambitAndEachGame).

// newStore returns the flows' test store (flowtest) holding bob's
// established rating in connect4 in guild "guild" and globally, where
// carol, who played elsewhere only, is rated too, and bob's games.
func newStore(t *testing.T, games ...*storage.Game) *flowtest.Store {
	t.Helper()
	store := flowtest.New(t, nil)
	rating := func(p string) storage.Rating {
		return storage.Rating{Player: storage.User(p), Rating: 1700, Deviation: 60, Volatility: 0.06, Games: 30, Wins: 20, Losses: 10}
	}
	store.Seed(func(sink storage.Sink) error {
		return errors.Join(sink.Rating(storage.Ladder{Kind: "connect4", Guild: "guild"}, rating("bob")),
			sink.Rating(storage.Global("connect4"), rating("bob")), sink.Rating(storage.Global("connect4"), rating("carol")))
	}, games...)
	return store
}

// finishTournament stores a finished tournament of kind in format, of
// players entrants among whom bob placed rank with score.
func finishTournament(t *testing.T, store *flowtest.Store, name string, format storage.Format, kind storage.Kind, players, rank, score int) {
	t.Helper()
	ctx := context.Background()
	tr := &storage.Tournament{GuildID: "guild", ChannelID: "channel", Creator: storage.User("bob"), Name: name, Format: format,
		Kind: kind, MoveTime: time.Minute, MaxPlayers: players}
	switch format {
	case storage.FormatSwiss:
		tr.SwissRounds = 3
	case storage.FormatArena:
		tr.Duration = time.Hour
	}
	if err := store.CreateTournament(ctx, tr, storage.TournamentCaps{MaxOpen: 3, MaxPlayers: players}); err != nil {
		t.Fatal(err)
	}
	placings := []storage.Placing{{Player: storage.User("bob"), Rank: rank, Score: score}}
	if _, err := store.JoinTournament(ctx, tr.ID, storage.Entrant{Player: storage.Player{ID: storage.User("bob"), Name: "bob"}}); err != nil {
		t.Fatal(err)
	}
	place := 0 // the others take the places bob did not
	for i := 1; i < players; i++ {
		p := storage.Player{ID: storage.User(fmt.Sprint("entrant", i)), Name: fmt.Sprint("entrant", i)}
		if _, err := store.JoinTournament(ctx, tr.ID, storage.Entrant{Player: p}); err != nil {
			t.Fatal(err)
		}
		if place++; place == rank {
			place++
		}
		placings = append(placings, storage.Placing{Player: p.ID, Rank: place})
	}
	if _, err := store.SetTournamentStatus(ctx, tr.ID, storage.TournamentRunning); err != nil {
		t.Fatal(err)
	}
	if _, err := store.FinishTournament(ctx, tr.ID, placings); err != nil {
		t.Fatal(err)
	}
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
	m, rec := newFlow(newStore(t))
	alice := muxtest.Member("alice", 0)
	game := muxtest.Option("game", discordgo.ApplicationCommandOptionString, "connect4")
	if err := muxtest.Run(m, rec, muxtest.Command(alice, discordgo.EnglishUS, "leaderboard", game)); err != nil {
		t.Fatal(err)
	}
	resp := rec.Only(t)
	if resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		t.Error("the leaderboard was answered privately; it is for the channel")
	}
	// carol is on the global ladder alone.
	if board := leaderboard(resp); !strings.Contains(board, "bob") || strings.Contains(board, "carol") {
		t.Errorf("leaderboard %q, want the server's ladder: bob, not carol", board)
	}

	scope := muxtest.Option("scope", discordgo.ApplicationCommandOptionString, "global")
	if err := muxtest.Run(m, rec, muxtest.Command(alice, discordgo.EnglishUS, "leaderboard", game, scope)); err != nil {
		t.Fatal(err)
	}
	if board := leaderboard(rec.Responses()[1]); !strings.Contains(board, "bob") || !strings.Contains(board, "carol") {
		t.Errorf("scope global: %q, want the global ladder, bob and carol", board)
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

// leaderboard is the text of an answer's leaderboard.
func leaderboard(resp *discordgo.InteractionResponse) string {
	if len(resp.Data.Embeds) == 0 {
		return ""
	}
	return resp.Data.Embeds[0].Title + "\n" + resp.Data.Embeds[0].Description
}

func TestStatsOfAnotherMemberShowOnlyGamesTheAskerMaySee(t *testing.T) {
	finished := func(guild, channel, opponent string) *storage.Game {
		return &storage.Game{Kind: "connect4", Status: storage.StatusFinished, GuildID: guild, ChannelID: channel,
			Players: []storage.Player{{ID: storage.User("bob"), Name: "bob"}, {ID: storage.User(opponent), Name: opponent}},
			Result:  &storage.Result{Winner: 0}}
	}
	m, rec := newFlow(newStore(t,
		finished("guild", "channel", "carol"),  // where alice asks: hers to see
		finished("", "dm", "dave"),             // bob and dave's DM
		finished("guild", "elsewhere", "erin"), // another channel of the server
	))
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
	m, rec := newFlow(newStore(t))
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
	store := newStore(t)
	finishTournament(t, store, "", storage.FormatArena, "othello", 12, 4, 15)
	finishTournament(t, store, "Friday Swiss", storage.FormatSwiss, "connect4", 8, 1, 7)
	m, rec := newFlow(store)
	bob := muxtest.Option("user", discordgo.ApplicationCommandOptionUser, "bob")
	for _, tc := range []struct {
		locale discordgo.Locale
		want   []string
	}{
		{discordgo.EnglishUS, []string{"Tournaments", "🥇 Friday Swiss · 3½ · place 1 of 8", "Othello Arena · 15 · place 4 of 12"}},
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
