package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestReviewBotAndCommandAgree reviews the same games with the bot (the
// real process, its Review through the local Discord) and with gambit
// review --moves, and compares their labels move by move: one budget, one
// way of searching, so a player who checks the bot's review at the
// command line reads the same. The bot reviews the Connect Four game
// twice, as two stored games, so that the second review runs in a
// process that has already searched its positions — as the bot's reviews
// do beside its AI's games — and gambit review runs as a process of its
// own for each game, as a player runs it.
//
// It is left out of -short runs, the README's test command: there its two
// kinds of process are race-built and solve Connect Four positions for
// minutes beside other work (503 s beside four CPU hogs). .ci/run runs it
// after that command, without -race; strategies/review's
// TestAReviewDoesNotDependOnEarlierSearches checks the same in-process.
func TestReviewBotAndCommandAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("minutes of Connect Four solving by race-built processes: .ci/run runs it without -short and -race")
	}
	srv := discordtest.New(discordtest.AnswerUntilTestDeadline(t))
	defer srv.Close()
	alice, bob := srv.AddUser("alice").ID, srv.AddUser("bob").ID
	db := filepath.Join(t.TempDir(), "gambit.db")
	s, err := bolt.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	type reviewed struct {
		kind, moves string
		id          storage.GameID
	}
	list := []reviewed{
		{kind: "connect4", moves: "4 4 3 5 5 4 3 4 3 4"},
		{kind: "connect4", moves: "4 4 3 5 5 4 3 4 3 4"},
		{kind: "tictactoe", moves: "1 4 2 5 3"},
	}
	for i := range list {
		list[i].id = storeFinished(t, s, list[i].kind, alice, bob, strings.Fields(list[i].moves))
	}
	s.Close()
	_, logs := startGambit(t, t.TempDir(), true, []string{"bot"},
		"DISCORD_TOKEN="+srv.Token(), "DISCORD_API_URL="+srv.URL(), "GAMBIT_DB="+db,
		// The searches' priority: beside other work at nice 0 a review at
		// the default 19 got under 1% of a core, and the test waited 500 s.
		"GAMBIT_REVIEW_NICE=10")
	logs.wait(t, regexp.MustCompile(`bot running`))
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	for _, g := range list {
		ix, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice, Name: "review", Options: []discordtest.Option{{Name: "game", Value: string(g.id)}}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := srv.WaitMessage(ctx, func(m discordtest.Message) bool { return m.InteractionID == ix.ID && len(m.Embeds) > 0 })
		if err != nil {
			t.Fatalf("the bot's review of %s %s: %v", g.kind, g.moves, err)
		}
		bot := botLabels(m.Embeds[0].Description)
		cli := commandLabels(reviewProcess(t, g.kind, g.moves))
		if len(cli) != len(strings.Fields(g.moves)) || len(bot) != len(cli) {
			t.Fatalf("%s %s: the bot labelled %d moves, gambit review %d:\n%s\n%s", g.kind, g.moves, len(bot), len(cli), m.Embeds[0].Description, cli)
		}
		for i := range cli {
			if bot[i] != cli[i] {
				t.Errorf("%s %s (game %s): move %d is %q in the bot's review, %q in gambit review's", g.kind, g.moves, g.id, i+1, bot[i], cli[i])
			}
		}
	}
}

// reviewProcess runs gambit review --game kind --moves moves as a new
// process and returns its output.
func reviewProcess(t *testing.T, kind, moves string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "review", "--game", kind, "--moves", moves)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("gambit review --game %s --moves %q: %v: %s", kind, moves, err, errOut.String())
	}
	return out.String()
}

// storeFinished stores a finished duel of kind between a and b, played
// with moves, and returns its ID.
func storeFinished(t *testing.T, s storage.Store, kind, a, b string, moves []string) storage.GameID {
	t.Helper()
	gm, err := catalog.Lookup(kind)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := gm.New(games.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			t.Fatal(err)
		}
		pos.Play(m)
	}
	if !pos.Terminal() {
		t.Fatalf("%s %v does not end the game", kind, moves)
	}
	g := storetest.MustCreate(t, s, storetest.UserVsUser(storage.Kind(kind), a, b))
	g.Moves, g.Position, g.Turn, g.Status = moves, pos.String(), len(moves)%2, storage.StatusFinished
	winner := 1 - len(moves)%2 // the last mover's seat
	if _, err := s.FinishGame(context.Background(), g, storage.Result{Winner: winner}); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// botLines are the moves of the bot's review: "N. mark **move** —
// label[, best **move**]".
var botLines = regexp.MustCompile(`(?m)^(\d+)\. \S+ \*\*(\S+)\*\* — (\w+)`)

// botLabels returns the labels of the bot's review's moves, in order, as
// "move label".
func botLabels(description string) []string {
	var out []string
	for _, m := range botLines.FindAllStringSubmatch(description, -1) {
		out = append(out, m[2]+" "+m[3])
	}
	return out
}

// commandLines are the moves of gambit review's table: "  N. side move label …".
var commandLines = regexp.MustCompile(`(?m)^\s*(\d+)\. \w+ (\S+)\s+(\w+)`)

// commandLabels returns the labels of gambit review's moves, in order,
// as "move label".
func commandLabels(out string) []string {
	var res []string
	for _, m := range commandLines.FindAllStringSubmatch(out, -1) {
		res = append(res, fmt.Sprintf("%s %s", m[2], m[3]))
	}
	return res
}
