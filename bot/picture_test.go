package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// boardEdit is an edit of a board as the stand-in answered it: the
// request, and the attachments the message carried after it.
type boardEdit struct {
	discordtest.Request
	attachments []string // attachment IDs
}

// boardEdits returns the edits that changed message id (a channel message
// edit, a webhook edit, an interaction response's @original), in order,
// from requests.
func boardEdits(t *testing.T, requests []discordtest.Request, id string) []boardEdit {
	t.Helper()
	var out []boardEdit
	for _, r := range requests {
		if r.Method != http.MethodPatch || r.Status != http.StatusOK {
			continue
		}
		var m struct {
			ID          string `json:"id"`
			Attachments []struct {
				ID string `json:"id"`
			} `json:"attachments"`
		}
		if err := json.Unmarshal(r.Response, &m); err != nil {
			t.Fatalf("%s %s answered %q: %v", r.Method, r.Path, r.Response, err)
		}
		if m.ID != id {
			continue
		}
		e := boardEdit{Request: r}
		for _, a := range m.Attachments {
			e.attachments = append(e.attachments, a.ID)
		}
		out = append(out, e)
	}
	return out
}

// editsUntil waits until the request log holds the edit that left message
// id carrying the attachment shown (a message is stored before its request
// is logged), and returns the requests and the message's edits.
func editsUntil(t *testing.T, h *harness, id, shown string) ([]discordtest.Request, []boardEdit) {
	t.Helper()
	for deadline := time.Now().Add(waitTimeout()); ; time.Sleep(10 * time.Millisecond) {
		requests := h.srv.Requests()
		edits := boardEdits(t, requests, id)
		if n := len(edits); n > 0 && slices.Contains(edits[n-1].attachments, shown) {
			return requests, edits
		}
		if time.Now().After(deadline) {
			t.Fatalf("no logged edit of message %s leaves attachment %s", id, shown)
		}
	}
}

// uploaded returns the bytes the requests uploaded.
func uploaded(requests []discordtest.Request) int {
	n := 0
	for _, r := range requests {
		for _, f := range r.Files {
			n += len(f.Data)
		}
	}
	return n
}

// aiThinksLong starts an Adjacency game in which the AI moves first and
// searches until the test ends the search (the returned function), on the
// manual clock: a progress edit is due only when the test makes it so
// (progressEdit). It returns the game with its first board.
func aiThinksLong(t *testing.T) (*harness, *storage.Game, discordtest.Message, context.CancelFunc) {
	h := start(t, withClock(), withHeldSearches())
	alice := h.srv.AddUser("alice").ID
	g, first := playAI(t, h, alice, opt("game", "adjacency"), opt("ai", "minimax"), opt("rounds", 28),
		opt("first", "opponent"), opt("movetime", 5.0))
	return h, g, first, h.searchStarted()
}

// progressEdit moves the bot's clock on by a progress interval, which makes
// the next "thinking…" edit of g's board due, and waits until the request
// log holds it, the board's nth edit.
func progressEdit(t *testing.T, h *harness, g *storage.Game, n int) {
	t.Helper()
	h.clock.Advance(h.cfg.Timers.ProgressInterval)
	for deadline := time.Now().Add(waitTimeout()); len(boardEdits(t, h.srv.Requests(), g.MessageID)) < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no progress edit %d of the board", n)
		}
	}
}

// waitAIMove waits for the AI's first move in g to be on its board.
func waitAIMove(h *harness, g *storage.Game) discordtest.Message {
	h.waitGame(g.ID, "the AI's move", func(g *storage.Game) bool { return len(g.Moves) == 1 })
	return h.waitBoard(g.ID, "the AI's move on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "your move") && !strings.Contains(embedText(m), "thinking")
	})
}

// TestProgressEditsKeepThePicture: while the AI searches, its progress
// edits keep the board's picture by its attachment ID and upload nothing;
// the move's edit uploads the new picture, and the old one goes.
func TestProgressEditsKeepThePicture(t *testing.T) {
	t.Parallel()
	h, g, first, end := aiThinksLong(t)
	shown := boardPicture(t, first)
	progressEdit(t, h, g, 1)
	progressEdit(t, h, g, 2)
	end()
	picture := boardPicture(t, waitAIMove(h, g))
	requests, edits := editsUntil(t, h, g.MessageID, picture.ID)
	t.Logf("the bot uploaded %d bytes in all: %d board edits (%d of them progress) after a first board of %d bytes",
		uploaded(requests), len(edits), len(edits)-1, len(shown.Data))
	if len(edits) < 3 {
		t.Fatalf("%d edits of the board, want at least two progress edits and the move", len(edits))
	}
	for i, e := range edits[:len(edits)-1] {
		if len(e.Files) != 0 || len(e.attachments) != 1 || e.attachments[0] != shown.ID {
			t.Errorf("progress edit %d (%s) uploaded %d files and left attachments %v, want none uploaded and %s kept",
				i+1, e.Path, len(e.Files), e.attachments, shown.ID)
		}
	}
	move := edits[len(edits)-1]
	if len(move.Files) != 1 || move.Files[0].Filename != "board-1.png" || picture.ID == shown.ID ||
		len(move.attachments) != 1 || move.attachments[0] != picture.ID {
		t.Errorf("the move's edit uploaded %d files and left %v; the board shows %s (%s), want board-1.png uploaded in place of %s",
			len(move.Files), move.attachments, picture.Filename, picture.ID, shown.ID)
	}
}

// TestAKeptPictureReplacedElsewhereIsUploaded: when another process
// replaced the board's picture (same name and bytes, a new attachment ID)
// behind the bot's back, the bot's next edit, keeping the ID it knows, is
// refused and sent again with the picture uploaded.
func TestAKeptPictureReplacedElsewhereIsUploaded(t *testing.T) {
	t.Parallel()
	h, g, first, end := aiThinksLong(t)
	shown := boardPicture(t, first)
	progressEdit(t, h, g, 1) // the bot learns that the board carries shown
	other, err := discordgo.New("Bot " + h.srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	other.Client = &http.Client{Transport: h.srv.Transport(), Timeout: waitTimeout()}
	replaced, err := other.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: g.MessageID, Channel: g.ChannelID,
		Files:       []*discordgo.File{{Name: shown.Filename, ContentType: shown.ContentType, Reader: bytes.NewReader(shown.Data)}},
		Attachments: &[]*discordgo.MessageAttachment{{ID: "0", Filename: shown.Filename}},
	})
	if err != nil {
		t.Fatalf("another process replaces the picture: %v", err)
	}
	// The board's second edit was the other process's; the third is the
	// bot's next progress edit, refused and then sent again.
	progressEdit(t, h, g, 3)
	end()
	requests, _ := editsUntil(t, h, g.MessageID, boardPicture(t, waitAIMove(h, g)).ID)
	refused := -1
	for i, r := range requests {
		if r.Status == http.StatusBadRequest && strings.Contains(string(r.Response), "ATTACHMENT_NOT_FOUND") {
			refused = i
			break
		}
	}
	if refused < 0 {
		t.Fatalf("no edit kept the replaced attachment %s", shown.ID)
	}
	for _, r := range requests[refused+1:] {
		if r.Path != requests[refused].Path || r.Method != http.MethodPatch {
			continue
		}
		if r.Status != http.StatusOK || len(r.Files) != 1 || !bytes.Equal(r.Files[0].Data, shown.Data) {
			t.Errorf("after the refusal the bot sent %s %s: status %d, %d files, want the picture uploaded again",
				r.Method, r.Path, r.Status, len(r.Files))
		}
		return
	}
	t.Errorf("the bot did not send its edit again after the refusal; the board keeps %s", replaced.Attachments[0].ID)
}

// TestARestartedBotUploadsItsFirstEdit: a new Bot on the same store does
// not know the attachments of the boards the last one sent, so its first
// edit of a board (the refresh at start) uploads the picture, unchanged,
// and leaves a correct board.
func TestARestartedBotUploadsItsFirstEdit(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	alice := h.srv.AddUser("alice").ID
	g, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "minimax"))
	if m := h.move(alice, g.ID, "5"); m.Ephemeral() {
		t.Fatalf("alice's move: %q", m.Content)
	}
	h.waitGame(g.ID, "the AI's move", func(g *storage.Game) bool { return len(g.Moves) == 2 })
	before := boardPicture(t, h.waitBoard(g.ID, "the AI's move on the board", func(m discordtest.Message) bool {
		return strings.Contains(m.Content, "your move")
	}))
	h.stop()
	sent := len(h.srv.Requests())
	h.run()
	var edits []boardEdit
	for deadline := time.Now().Add(waitTimeout()); len(edits) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the restarted bot never refreshed the board")
		}
		edits = boardEdits(t, h.srv.Requests()[sent:], g.MessageID)
	}
	after := boardPicture(t, h.board(g.ID))
	e := edits[0]
	if len(e.Files) != 1 || !bytes.Equal(e.Files[0].Data, before.Data) || e.Files[0].Filename != before.Filename {
		t.Errorf("the first edit after the restart uploaded %d files, want the unchanged %s", len(e.Files), before.Filename)
	}
	if after.ID == before.ID || !bytes.Equal(after.Data, before.Data) || len(e.attachments) != 1 || e.attachments[0] != after.ID {
		t.Errorf("after the restart's edit the board carries %s (%v), want a new upload of the same picture in place of %s",
			after.ID, e.attachments, before.ID)
	}
}
