package render

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
)

var updateOutcomes = flag.Bool("update-outcomes", false, "rewrite testdata/outcomes.golden")

// endedRecords are records of ended games as the stores hold them, with
// every reason Gambit ever stored, in the words of the records.
var endedRecords = []string{
	`{"status":"finished","result":{"winner":0}}`,
	`{"status":"finished","result":{"winner":1}}`,
	`{"status":"finished","result":{"winner":-1}}`,
	`{"status":"finished","result":{"winner":1,"reason":"resigned"}}`,
	`{"status":"finished","result":{"winner":0,"reason":"resigned"}}`,
	`{"status":"forfeited","result":{"winner":0,"reason":"timeout"}}`,
	`{"status":"forfeited","result":{"winner":1,"reason":"timeout"}}`,
	`{"status":"forfeited","result":{"winner":1}}`,
	`{"solo":true,"status":"finished","result":{"winner":0,"moves_used":4}}`,
	`{"solo":true,"status":"finished","result":{"winner":0,"moves_used":4,"optimal":4}}`,
	`{"solo":true,"status":"finished","result":{"winner":0,"moves_used":6,"optimal":4}}`,
	`{"solo":true,"status":"finished","result":{"winner":0,"reason":"solved","moves_used":6,"optimal":4}}`,
	`{"solo":true,"status":"abandoned","result":{"winner":-2,"reason":"gave up","moves_used":3}}`,
	`{"solo":true,"status":"abandoned","result":{"winner":-2,"reason":"no way on","moves_used":1}}`,
	`{"solo":true,"status":"abandoned","result":{"winner":-2,"reason":"solved by Gambit","moves_used":2}}`,
}

// TestOutcomeTextsAsBefore renders the end of every kind of ended game, as
// loaded from its record, on a board and in /stats, in every language,
// and compares with testdata/outcomes.golden: what the code that stored
// the outcome as free text (commit 0fb770a) showed for the same records.
func TestOutcomeTextsAsBefore(t *testing.T) {
	var b strings.Builder
	for _, rec := range endedRecords {
		var r struct {
			Solo   bool            `json:"solo"`
			Status storage.Status  `json:"status"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(rec), &r); err != nil {
			t.Fatal(err)
		}
		g := &storage.Game{Kind: "connect4", Status: r.Status, Result: new(storage.Result),
			Players: []storage.Player{{ID: storage.User("1"), Name: "alice"}, {ID: storage.User("2"), Name: "bob"}}}
		if r.Solo {
			g.Kind, g.Players = "tiles", g.Players[:1]
		}
		if err := json.Unmarshal(r.Result, g.Result); err != nil {
			t.Fatalf("%s: %v", rec, err)
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("%s: %v", rec, err)
		}
		fmt.Fprintf(&b, "%s\n", rec)
		for _, lang := range i18n.Locales() {
			l := i18n.For(lang)
			fmt.Fprintf(&b, "  %s board: %q\n", lang, resultLine(l, g))
			fmt.Fprintf(&b, "  %s stats: %q\n", lang, recentLine(l, storage.User("1"), g))
		}
	}
	golden := filepath.Join("testdata", "outcomes.golden")
	if *updateOutcomes {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("the ends of games read differently from before:\n%s\nwant:\n%s", b.String(), want)
	}
}
