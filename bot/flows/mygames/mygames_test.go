package mygames_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/mygames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over fakes: no bot, no stand-in,
// no game lock (the game routes' wrap is the fake's). The wire is tested
// in package bot against the stand-in (TestGamesListsOpenGamesAndRepostsABoard,
// TestRepostWhileTheAIThinks).

// fakeStore holds games by ID.
type fakeStore map[storage.GameID]*storage.Game

func (s fakeStore) ActiveGames(_ context.Context, p storage.PlayerID) ([]*storage.Game, error) {
	var out []*storage.Game
	for _, g := range s {
		if g.Seat(p) >= 0 && g.Status.Open() {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b *storage.Game) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return out, nil
}

// fakeBoards records what the flow did with the boards.
type fakeBoards struct{ calls []string }

func (b *fakeBoards) Message(g *storage.Game) (render.Message, error) {
	return render.Message{Content: "board of " + string(g.ID)}, nil
}

func (b *fakeBoards) ShowNew(_ context.Context, _ *mux.Interaction, g *storage.Game, _ render.Message) error {
	b.calls = append(b.calls, "show new "+string(g.ID))
	return nil
}

func (b *fakeBoards) Post(_ context.Context, g *storage.Game, _ render.Message) error {
	b.calls = append(b.calls, "post "+string(g.ID))
	g.MessageID = "new-board"
	return nil
}

func (b *fakeBoards) Moved(_ context.Context, old, _ *storage.Game, link string) {
	b.calls = append(b.calls, "moved "+old.MessageID+" to "+link)
}

// newFlow returns the flow over store on a Mux of its own; its game
// routes load the game named by the custom ID from store.
func newFlow(store fakeStore, boards *fakeBoards) (*mux.Mux, *muxtest.Recorder) {
	m := mux.New()
	games := func(h func(context.Context, *mux.Component, *storage.Game) error) mux.ComponentHandler {
		return func(ctx context.Context, ix *mux.Component) error {
			g, ok := store[storage.GameID(ix.Params["game"])]
			if !ok {
				return mux.Err("error.no_game", "ID", ix.Params["game"])
			}
			return h(ctx, ix, g)
		}
	}
	mygames.New(store, boards, games).Routes(m)
	return m, &muxtest.Recorder{}
}

func game(id, status string, players ...string) *storage.Game {
	g := &storage.Game{ID: storage.GameID(id), Kind: "connect4", Status: storage.Status(status), GuildID: "guild", ChannelID: "channel", MessageID: "board-" + id}
	for _, p := range players {
		g.Players = append(g.Players, storage.Player{ID: storage.User(p), Name: p})
	}
	return g
}

func TestGamesListsTheMembersOpenGames(t *testing.T) {
	store := fakeStore{
		"g1": game("g1", string(storage.StatusActive), "ann", "bob"),
		"g2": game("g2", string(storage.StatusPending), "ann", "carol"),
		"g3": game("g3", string(storage.StatusActive), "bob", "carol"),
	}
	m, rec := newFlow(store, &fakeBoards{})
	if err := muxtest.Run(m, rec, muxtest.Command(muxtest.Member("ann", 0), discordgo.EnglishUS, "games")); err != nil {
		t.Fatal(err)
	}
	resp := rec.Only(t)
	list := resp.Data.Embeds[0].Description
	if !strings.Contains(list, "`g1`") || !strings.Contains(list, "`g2`") || strings.Contains(list, "`g3`") {
		t.Errorf("list %q, want ann's g1 and g2 only", list)
	}
	if !strings.Contains(list, "https://discord.com/channels/guild/channel/board-g1") {
		t.Errorf("list %q does not link g1's board", list)
	}
	row := resp.Data.Components[0].(discordgo.ActionsRow)
	if len(row.Components) != 1 || row.Components[0].(discordgo.Button).CustomID != customid.Repost.Build("g1") {
		t.Errorf("buttons %+v, want Re-post for the game in progress only", row.Components)
	}

	err := muxtest.Run(m, rec, muxtest.Command(muxtest.Member("dave", 0), discordgo.EnglishUS, "games"))
	if err != nil || !strings.Contains(rec.Responses()[1].Data.Content, "no games in progress") {
		t.Errorf("dave's /games: %v, %q", err, rec.Responses()[1].Data.Content)
	}
}

func TestRepostPostsAgainAndRetiresTheOldBoard(t *testing.T) {
	store := fakeStore{"g1": game("g1", string(storage.StatusActive), "ann", "bob")}
	boards := &fakeBoards{}
	m, rec := newFlow(store, boards)
	if err := muxtest.Run(m, rec, muxtest.Click(muxtest.Member("bob", 0), discordgo.EnglishUS, customid.Repost.Build("g1"))); err != nil {
		t.Fatal(err)
	}
	want := []string{"post g1", "moved board-g1 to https://discord.com/channels/guild/channel/new-board"}
	if !slices.Equal(boards.calls, want) {
		t.Errorf("boards %v, want %v", boards.calls, want)
	}
	if got := rec.Responses(); len(got) != 1 || got[0].Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Errorf("answers %v, want the click acknowledged before the post", got)
	}

	err := muxtest.Run(m, rec, muxtest.Click(muxtest.Member("carol", 0), discordgo.EnglishUS, customid.Repost.Build("g1")))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "Only the players") {
		t.Errorf("carol's Re-post: %q", text)
	}
}

func TestRepostWhereTheBotCannotPostFollowsUp(t *testing.T) {
	store := fakeStore{"g1": game("g1", string(storage.StatusActive), "ann", "bob")}
	store["g1"].GuildID = ""
	boards := &fakeBoards{}
	m, rec := newFlow(store, boards)
	click := muxtest.Click(muxtest.Member("ann", 0), discordgo.EnglishUS, customid.Repost.Build("g1"))
	click.GuildID, click.Context = "", discordgo.InteractionContextPrivateChannel // a group DM
	if err := muxtest.Run(m, rec, click); err != nil {
		t.Fatal(err)
	}
	if want := []string{"show new g1"}; !slices.Equal(boards.calls, want) {
		t.Errorf("boards %v, want %v: no post, no old board to reach", boards.calls, want)
	}
}
