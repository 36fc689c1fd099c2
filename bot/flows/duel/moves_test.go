package duel_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/storage"
)

// The moves, unit-tested over the fakes of draw_test.go. The wire is
// tested in package bot against the stand-in (TestConnectFourAgainstAnAI,
// TestAdjacencyTwoClickMove, TestTypedMoves…).

// boardClick is who's click on the board message "board", which shows
// the controls of ply shown, on the component customID; values are a
// select's.
func boardClick(who, shown, customID string, values ...string) *discordgo.Interaction {
	raw := muxtest.Click(muxtest.Member(who, 0), discordgo.EnglishUS, customID)
	raw.Message.Components = []discordgo.MessageComponent{&discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		&discordgo.Button{CustomID: customid.Move.Build(string(g1), shown, "1"), Label: "1"},
	}}}
	if len(values) > 0 {
		raw.Data = discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.SelectMenuComponent, Values: values}
	}
	return raw
}

// pickerClick is who's click on customID on a picker, the ephemeral
// message only the mover sees.
func pickerClick(who, customID string) *discordgo.Interaction {
	raw := muxtest.Click(muxtest.Member(who, 0), discordgo.EnglishUS, customID)
	raw.Message = &discordgo.Message{ID: "picker", ChannelID: "channel", Flags: discordgo.MessageFlagsEphemeral}
	return raw
}

// move is who's /move with options (name, value pairs).
func move(who string, opts ...string) *discordgo.Interaction {
	var o []*discordgo.ApplicationCommandInteractionDataOption
	for i := 0; i+1 < len(opts); i += 2 {
		o = append(o, muxtest.Option(opts[i], discordgo.ApplicationCommandOptionString, opts[i+1]))
	}
	return muxtest.Command(muxtest.Member(who, 0), discordgo.EnglishUS, "move", o...)
}

func TestAClickPlaysTheMoveAndTheBoardSaysTheAIThinks(t *testing.T) {
	m, rec, store, boards, turns := newFlowWithTurns(t, opened(nil))
	turns.aiNext = true
	if err := muxtest.Run(m, rec, boardClick("ann", "4", customid.Move.Build(string(g1), "4", "5"))); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(turns.played, []string{"5"}) || turns.queued != 1 {
		t.Fatalf("played %v, queued %d AI turns; want 5 played and the AI's turn queued", turns.played, turns.queued)
	}
	if !slices.Equal(boards.shown, []string{"active, no offer, AI thinking"}) {
		t.Errorf("boards %v, want the clicked board showing the AI thinking", boards.shown)
	}
	if v := store.Load(g1).Version; v != 2 {
		t.Errorf("the game at version %d after the seam's one commit: the flow wrote it itself; the seam commits", v)
	}
}

func TestACellSelectPlaysItsValue(t *testing.T) {
	m, rec, _, boards, turns := newFlowWithTurns(t, opened(nil))
	if err := muxtest.Run(m, rec, boardClick("ann", "4", customid.Pick.Build(string(g1), "4", "0"), "2")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(turns.played, []string{"2"}) || !slices.Equal(boards.shown, []string{"active, no offer"}) {
		t.Errorf("played %v, shown %v; want 2 played and the board shown", turns.played, boards.shown)
	}
}

func TestMoveClicksAreRefusedWhereTheyDoNotBelong(t *testing.T) {
	for _, tc := range []struct {
		name, who, id string
		setup         func(*storage.Game)
		want          string
	}{
		{"another member", "carol", customid.Move.Build(string(g1), "4", "5"), nil, "it is between <@ann> and <@bob>"},
		{"out of turn", "bob", customid.Move.Build(string(g1), "4", "5"), nil, "It is not your turn: <@ann> is to move"},
		{"a challenge not accepted", "ann", customid.Move.Build(string(g1), "4", "5"), func(g *storage.Game) { g.Status = storage.StatusPending }, "has not started"},
		{"an ended game", "ann", customid.Move.Build(string(g1), "4", "5"), ended, "over"},
		{"an illegal cell", "ann", customid.Move.Build(string(g1), "4", "9"), nil, "is not a legal move in this game. Legal moves: 1, 2, 3, 4, 5, 6, 7"},
		{"a click carrying an older ply than its current board shows", "ann", customid.Move.Build(string(g1), "3", "5"), nil, "out of date"},
		{"a forged custom ID from another message", "ann", customid.Move.Build(string(g1), "4", "5"), func(g *storage.Game) { g.MessageID = "elsewhere" }, "out of date"},
		{"a column of no board", "ann", customid.File.Build(string(g1), "4", "z"), nil, "no column"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, rec, store, boards, turns := newFlowWithTurns(t, opened(tc.setup))
			err := muxtest.Run(m, rec, boardClick(tc.who, "4", tc.id))
			if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, tc.want) {
				t.Errorf("refusal %q, want it to say %q", text, tc.want)
			}
			if v := store.Load(g1).Version; len(turns.played) != 0 || v != 1 || len(boards.shown) != 0 || len(rec.Responses()) != 0 {
				t.Errorf("a refused click played %v, changed the game to version %d, showed %v, answered %d times", turns.played, v, boards.shown, len(rec.Responses()))
			}
		})
	}
}

func TestAClickOnABoardBehindItsGameCatchesUpAndPlaysNothing(t *testing.T) {
	m, rec, _, boards, turns := newFlowWithTurns(t, opened(nil))
	// The board still shows ply 3's controls: an edit after the last move
	// never reached it.
	if err := muxtest.Run(m, rec, boardClick("ann", "3", customid.Move.Build(string(g1), "3", "5"))); err != nil {
		t.Fatal(err)
	}
	if len(turns.played) != 0 || !slices.Equal(boards.shown, []string{"caught up"}) {
		t.Errorf("played %v, shown %v; want nothing played and the board caught up", turns.played, boards.shown)
	}
}

func TestATwoClickMoveGoesThroughAPickerOnlyTheMoverSees(t *testing.T) {
	// Gomoku's 15×15 board takes a move in two clicks: a column, then a
	// point of it.
	m, rec, _, boards, turns := newFlowWithTurns(t, game("gomoku", "h8", "h9", "j8", "j9"))
	if err := muxtest.Run(m, rec, boardClick("ann", "4", customid.File.Build(string(g1), "4", "g"))); err != nil {
		t.Fatal(err)
	}
	picker := rec.Only(t)
	if picker.Type != discordgo.InteractionResponseChannelMessageWithSource || picker.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || len(picker.Data.Components) == 0 {
		t.Fatalf("first click answered %d %+v, want a picker only ann sees", picker.Type, picker.Data)
	}
	if err := muxtest.Run(m, rec, pickerClick("ann", customid.Cell.Build(string(g1), "3", "g8"))); err == nil {
		t.Fatal("a picker drawn for ply 3 played at ply 4")
	} else if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "This choice is out of date") {
		t.Errorf("stale picker: %q", text)
	}
	if err := muxtest.Run(m, rec, pickerClick("ann", customid.Cell.Build(string(g1), "4", "g8"))); err != nil {
		t.Fatal(err)
	}
	done := rec.Responses()[1]
	if done.Type != discordgo.InteractionResponseUpdateMessage || done.Data.Content != "You played g8." {
		t.Errorf("second click answered %d %q, want the picker turned into %q", done.Type, done.Data.Content, "You played g8.")
	}
	if !slices.Equal(turns.played, []string{"g8"}) || !slices.Equal(boards.shown, []string{"edited: active, no offer"}) {
		t.Errorf("played %v, shown %v; want g8 played and the board, elsewhere, edited", turns.played, boards.shown)
	}
}

func TestATypedMovePlaysOnTheOnlyGameHereOrTheOneNamed(t *testing.T) {
	// A finished game of theirs, 00000009, so that the next game made
	// is 0000000a: an ID with a letter, which /move names in either case.
	old := opened(ended)
	old.ID = storage.SequenceID(9)
	m, rec, store, boards, turns := newFlowWithTurns(t, opened(nil), old)
	if err := muxtest.Run(m, rec, move("ann", "cell", "5")); err != nil {
		t.Fatal(err)
	}
	if got := rec.Only(t); got.Data.Content != "You played 5." || got.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("answered %+v, want %q privately", got.Data, "You played 5.")
	}
	if !slices.Equal(turns.onGame, []string{string(g1)}) || !slices.Equal(turns.played, []string{"5"}) || !slices.Equal(boards.shown, []string{"edited: active, no offer"}) {
		t.Errorf("locked %v, played %v, shown %v; want %s played under its lock and its board edited", turns.onGame, turns.played, boards.shown, g1)
	}

	// bob is to move in two games here now: he must say which.
	g2 := game("connect4", "1")
	if err := store.CreateGame(context.Background(), g2, storage.Limits{}); err != nil {
		t.Fatal(err)
	}
	err := muxtest.Run(m, rec, move("bob", "cell", "5"))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "You have 2 games in this channel") || !strings.Contains(text, string(g1)+", "+string(g2.ID)) {
		t.Errorf("two games: %q", text)
	}
	if err := muxtest.Run(m, rec, move("bob", "cell", "6", "game", strings.ToUpper(string(g2.ID)))); err != nil {
		t.Fatal(err)
	}
	if moves := store.Load(g2.ID).Moves; !slices.Equal(turns.played, []string{"5", "6"}) || len(moves) != 2 || moves[1] != "6" {
		t.Errorf("played %v, %s's moves %v; want 6 played in %s", turns.played, g2.ID, moves, g2.ID)
	}
	for _, tc := range []struct{ who, game, want string }{
		{"carol", "", "You have no game in progress in this channel"},
		{"ann", "g9", "You have no game g9 in progress in this channel"},
		{"ann", string(g2.ID), "is not a legal move"}, // cell 9
	} {
		err := muxtest.Run(m, rec, move(tc.who, "cell", "9", "game", tc.game))
		if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, tc.want) {
			t.Errorf("%s /move game:%q: %q, want it to say %q", tc.who, tc.game, text, tc.want)
		}
	}
}

func TestATypedMoveWhoseBoardCannotBeEditedStillCounts(t *testing.T) {
	m, rec, _, boards, turns := newFlowWithTurns(t, opened(nil))
	boards.editErr = &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusForbidden},
		Message: &discordgo.APIErrorMessage{Code: discordgo.ErrCodeMissingPermissions}}
	err := muxtest.Run(m, rec, move("ann", "cell", "5"))
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "Your move 5 counts, but I cannot update the board") {
		t.Errorf("answered %q, want the move counted and the permissions named", text)
	}
	if !slices.Equal(turns.played, []string{"5"}) {
		t.Errorf("played %v, want 5", turns.played)
	}

	// Where the bot reaches the channel only through interactions, the
	// answer shows the board anew instead.
	m, rec, _, boards, _ = newFlowWithTurns(t, opened(nil))
	boards.editErr = errors.New("no token shows the board")
	raw := move("ann", "cell", "5")
	raw.Context = discordgo.InteractionContextPrivateChannel
	if err := muxtest.Run(m, rec, raw); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(boards.shown, []string{"new board: active, no offer"}) {
		t.Errorf("shown %v, want the board shown anew", boards.shown)
	}

	// So it is, in a server channel, for a board its member alone sees
	// (a daily attempt's) once no token reaches it.
	m, rec, _, boards, _ = newFlowWithTurns(t, opened(nil))
	boards.editErr = fmt.Errorf("edit: %w", play.ErrUnreachable)
	if err := muxtest.Run(m, rec, move("ann", "cell", "5")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(boards.shown, []string{"new board: active, no offer"}) {
		t.Errorf("shown %v, want the private board shown anew", boards.shown)
	}
}

func TestAMoveThatLostARaceIsRefusedAsARace(t *testing.T) {
	m, rec, _, boards, turns := newFlowWithTurns(t, opened(nil))
	turns.commitErr = storage.ErrConflict
	err := muxtest.Run(m, rec, boardClick("ann", "4", customid.Move.Build(string(g1), "4", "5")))
	if !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("error %v, want the conflict kept for the seam to run the click again", err)
	}
	if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, "The game changed while you moved") || len(boards.shown) != 0 {
		t.Errorf("answered %q, shown %v", text, boards.shown)
	}
}

func TestMoveCompletionSuggestsTheLegalMovesAndTheGames(t *testing.T) {
	m, rec, _, _, _ := newFlowWithTurns(t, game("connect4", "1", "1", "1", "1", "1", "1"))
	raw := muxtest.Autocomplete(muxtest.Member("ann", 0), "move", muxtest.Option("cell", discordgo.ApplicationCommandOptionString, ""))
	if err := muxtest.Run(m, rec, raw); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range rec.Only(t).Data.Choices {
		got = append(got, c.Name)
	}
	if want := []string{"2", "3", "4", "5", "6", "7"}; !slices.Equal(got, want) {
		t.Errorf("suggested %v, want the legal moves %v (column 1 is full)", got, want)
	}

	rec = &muxtest.Recorder{}
	raw = muxtest.Autocomplete(muxtest.Member("bob", 0), "move", muxtest.Option("game", discordgo.ApplicationCommandOptionString, "0"))
	if err := muxtest.Run(m, rec, raw); err != nil {
		t.Fatal(err)
	}
	choices := rec.Only(t).Data.Choices
	if len(choices) != 1 || choices[0].Value != string(g1) || !strings.Contains(choices[0].Name, "vs ann") || !strings.Contains(choices[0].Name, "their move") {
		t.Errorf("game choices %+v, want %s against ann, their move", choices, g1)
	}
}
