package mygames_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/flows/mygames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over fakes and the flows' test
// store (flowtest): no bot, no stand-in, no game lock (the game routes'
// wrap is the fake's). The wire is tested
// in package bot against the stand-in (TestGamesListsOpenGamesAndRepostsABoard,
// TestRepostWhileTheAIThinks).

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

// newFlow returns the flow over a store holding games on a Mux of its
// own; its game routes load the game named by the custom ID from the
// store.
func newFlow(t *testing.T, boards *fakeBoards, games ...*storage.Game) (*mux.Mux, *muxtest.Recorder) {
	store := flowtest.New(t, nil)
	store.Seed(nil, games...)
	m := mux.New()
	seam := func(h func(context.Context, *mux.Component, *storage.Game) error) mux.ComponentHandler {
		return func(ctx context.Context, ix *mux.Component) error {
			g, err := store.Game(ctx, storage.GameID(ix.Params["game"]))
			if errors.Is(err, storage.ErrNotFound) {
				return mux.Err("error.no_game", "ID", ix.Params["game"])
			}
			if err != nil {
				return err
			}
			return h(ctx, ix, g)
		}
	}
	mygames.New(store, boards, seam).Routes(m)
	return m, &muxtest.Recorder{}
}

// g1, g2 and g3 are the games' IDs in the store.
var g1, g2, g3 = storage.SequenceID(1), storage.SequenceID(2), storage.SequenceID(3)

func game(id storage.GameID, status string, players ...string) *storage.Game {
	g := &storage.Game{ID: id, Kind: "connect4", Status: storage.Status(status), GuildID: "guild", ChannelID: "channel", MessageID: "board-" + string(id)}
	for _, p := range players {
		g.Players = append(g.Players, storage.Player{ID: storage.User(p), Name: p})
	}
	return g
}

func TestGamesListsTheMembersOpenGames(t *testing.T) {
	m, rec := newFlow(t, &fakeBoards{},
		game(g1, string(storage.StatusActive), "ann", "bob"),
		game(g2, string(storage.StatusPending), "ann", "carol"),
		game(g3, string(storage.StatusActive), "bob", "carol"))
	if err := muxtest.Run(m, rec, muxtest.Command(muxtest.Member("ann", 0), discordgo.EnglishUS, "games")); err != nil {
		t.Fatal(err)
	}
	resp := rec.Only(t)
	list := resp.Data.Embeds[0].Description
	if !strings.Contains(list, "`"+string(g1)+"`") || !strings.Contains(list, "`"+string(g2)+"`") || strings.Contains(list, "`"+string(g3)+"`") {
		t.Errorf("list %q, want ann's %s and %s only", list, g1, g2)
	}
	if !strings.Contains(list, "https://discord.com/channels/guild/channel/board-"+string(g1)) {
		t.Errorf("list %q does not link %s's board", list, g1)
	}
	row := resp.Data.Components[0].(discordgo.ActionsRow)
	if len(row.Components) != 1 || row.Components[0].(discordgo.Button).CustomID != customid.Repost.Build(string(g1)) {
		t.Errorf("buttons %+v, want Re-post for the game in progress only", row.Components)
	}

	err := muxtest.Run(m, rec, muxtest.Command(muxtest.Member("dave", 0), discordgo.EnglishUS, "games"))
	if err != nil || !strings.Contains(rec.Responses()[1].Data.Content, "no games in progress") {
		t.Errorf("dave's /games: %v, %q", err, rec.Responses()[1].Data.Content)
	}
}

func TestRepostPostsAgainAndRetiresTheOldBoard(t *testing.T) {
	boards := &fakeBoards{}
	m, rec := newFlow(t, boards, game(g1, string(storage.StatusActive), "ann", "bob"))
	if err := muxtest.Run(m, rec, muxtest.Click(muxtest.Member("bob", 0), discordgo.EnglishUS, customid.Repost.Build(string(g1)))); err != nil {
		t.Fatal(err)
	}
	want := []string{"post " + string(g1), "moved board-" + string(g1) + " to https://discord.com/channels/guild/channel/new-board"}
	if !slices.Equal(boards.calls, want) {
		t.Errorf("boards %v, want %v", boards.calls, want)
	}
	if got := rec.Responses(); len(got) != 1 || got[0].Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Errorf("answers %v, want the click acknowledged before the post", got)
	}

	err := muxtest.Run(m, rec, muxtest.Click(muxtest.Member("carol", 0), discordgo.EnglishUS, customid.Repost.Build(string(g1))))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "Only the players") {
		t.Errorf("carol's Re-post: %q", text)
	}
}

func TestRepostWhereTheBotCannotPostFollowsUp(t *testing.T) {
	g := game(g1, string(storage.StatusActive), "ann", "bob")
	g.GuildID = ""
	boards := &fakeBoards{}
	m, rec := newFlow(t, boards, g)
	click := muxtest.Click(muxtest.Member("ann", 0), discordgo.EnglishUS, customid.Repost.Build(string(g1)))
	click.GuildID, click.Context = "", discordgo.InteractionContextPrivateChannel // a group DM
	if err := muxtest.Run(m, rec, click); err != nil {
		t.Fatal(err)
	}
	if want := []string{"show new " + string(g1)}; !slices.Equal(boards.calls, want) {
		t.Errorf("boards %v, want %v: no post, no old board to reach", boards.calls, want)
	}
}
