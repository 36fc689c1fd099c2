package bot_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/ops"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/bolt"
)

// TestACorruptGameHoldsUpNoOtherAtStart: with one open game's record
// damaged while the bot was down, the start-up pass still refreshes every
// other board, and the open games are still counted; the bad game is
// logged by its ID and counted in gambit_corrupt_records_skipped_total.
// Before, the first bad record failed the whole listing: no board was
// refreshed and the open-games metrics stopped.
func TestACorruptGameHoldsUpNoOtherAtStart(t *testing.T) {
	t.Parallel()
	metrics := ops.NewMetrics()
	h := start(t, withConfig(func(c *bot.Config) { c.Metrics = metrics }))
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	bad, _ := playAI(t, h, alice, opt("game", "tictactoe"), opt("ai", "random"))
	good, _ := playAI(t, h, bob, opt("game", "connect4"), opt("ai", "random"))

	h.stop()
	record := rewriteRecord(t, h, bad.ID, []byte("\x01{\"version\": \"x\""))
	sent := len(h.srv.Requests())
	h.run()
	h.waitLog("game=" + string(bad.ID) + " err=")
	h.waitLog("refreshed the boards of recently changed games and posted the missing ones\" games=1")
	refreshed := false
	for _, r := range h.srv.Requests()[sent:] {
		refreshed = refreshed || r.Method == "PATCH" && strings.HasSuffix(r.Path, "/messages/"+good.MessageID) && r.Status == 200
	}
	if !refreshed {
		t.Error("bob's board was not refreshed at the restart")
	}
	if n := testutil.ToFloat64(metrics.Games.CorruptSkipped); n < 1 {
		t.Errorf("gambit_corrupt_records_skipped_total = %v, want the bad game counted", n)
	}
	deadline := time.Now().Add(waitTimeout())
	for testutil.ToFloat64(metrics.Games.Active) != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("gambit_games_active = %v, want bob's game counted", testutil.ToFloat64(metrics.Games.Active))
		}
		time.Sleep(5 * time.Millisecond)
	}
	logs := h.logs.String()
	if strings.Contains(logs, "level=ERROR msg=\"refresh recent boards\"") {
		t.Error("the refresh failed as a whole")
	}
	// Listed by the refresh and by the count, the bad game is reported once.
	if n := strings.Count(logs, "left out a game whose record is corrupt"); n != 1 {
		t.Errorf("the bad game was reported %d times, want once", n)
	}

	// The database must pass its check when the test ends.
	h.stop()
	rewriteRecord(t, h, bad.ID, record)
}

// rewriteRecord writes data as the stored record of game id, with the bot
// stopped, and returns the record it replaced; the harness's store is
// reopened on the file.
func rewriteRecord(t *testing.T, h *harness, id storage.GameID, data []byte) []byte {
	t.Helper()
	path := h.store.Path()
	if err := h.store.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	var old []byte
	err = db.Update(func(tx *bbolt.Tx) error {
		games := tx.Bucket([]byte("games"))
		old = bytes.Clone(games.Get([]byte(id)))
		return games.Put([]byte(id), data)
	})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if h.store, err = bolt.Open(path, &bolt.Options{AIRatings: bot.AIRatings}); err != nil {
		t.Fatal(err)
	}
	return old
}
