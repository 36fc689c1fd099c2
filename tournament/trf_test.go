package tournament

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestTRFRoundTrip encodes and decodes every tournament of testdata/bbp
// (read from bbpPairings' TRF-2026 files) and a tournament with each
// kind of result: the decoded tournament equals the original.
func TestTRFRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/bbp/*.trf")
	if len(files) == 0 {
		t.Fatal("no testdata/bbp files")
	}
	var tournaments []*Swiss
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := DecodeTRF(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		tournaments = append(tournaments, s)
	}
	every := &Swiss{Name: "Every result", Rounds: 4, FirstColor: Black, Players: []Player{
		{Name: "Ann", Rating: 2100, Results: []Entry{{2, White, Win}, {3, Black, ForfeitWin}, {0, NoColor, HalfBye}, {4, White, Draw}}},
		{Name: "Bob", Rating: 1900, Results: []Entry{{1, Black, Loss}, {0, NoColor, PairingBye}, {3, White, Draw}, {0, NoColor, ZeroBye}}},
		{Name: "Cid", Results: []Entry{{4, White, Draw}, {1, White, ForfeitLoss}, {2, Black, Draw}, {0, NoColor, FullBye}}},
		{Name: "Dee Longname-Surname, Jr.", Rating: 1500, Results: []Entry{{3, Black, Draw}, {}, {0, NoColor, ZeroBye}, {1, Black, Draw}}},
	}}
	tournaments = append(tournaments, every)
	for i, s := range tournaments {
		var buf bytes.Buffer
		if err := EncodeTRF(&buf, s); err != nil {
			t.Fatal(err)
		}
		back, err := DecodeTRF(&buf)
		if err != nil {
			t.Fatalf("tournament %d: decode what we encoded: %v\n%s", i, err, buf.String())
		}
		if !reflect.DeepEqual(back, s) {
			t.Fatalf("tournament %d changed in the round trip:\n got %+v\nwant %+v", i, back, s)
		}
	}
	// The columns are FIDE's: the first round at column 92.
	var buf bytes.Buffer
	if err := EncodeTRF(&buf, every); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(line, "001    1") {
			if got := line[91:99]; got != "0002 w 1" {
				t.Errorf("round 1 at columns 92–99: %q", got)
			}
			if got := line[80:84]; got != " 3.0" {
				t.Errorf("points at columns 81–84: %q", got)
			}
		}
	}
}

// TestTRFErrors: malformed files fail with ErrTRF (or ErrTournament for
// a game recorded on one side), saying where.
func TestTRFErrors(t *testing.T) {
	line := func(id, rounds string) string {
		return "001 " + id + strings.Repeat(" ", 83) + rounds
	}
	cases := map[string]struct {
		file string
		want error
	}{
		"bad pairing number": {line("   x", "") + "\n", ErrTRF},
		"bad result":         {line("   1", "0002 w 7") + "\n" + line("   2", "0001 b 0") + "\n", ErrTRF},
		"game on one side":   {line("   1", "0002 w 1") + "\n" + line("   2", "") + "\n", ErrTournament},
		"missing player":     {line("   2", "") + "\n", ErrTRF},
		"point system":       {"162  W   3.0\n", ErrTRF},
		"bad rounds":         {"XXR none\n", ErrTRF},
		"acceleration":       {"XXA    1  1.0\n", ErrTRF},
		"forbidden pairs":    {"XXP 1 2\n", ErrTRF},
		"pairing by rank":    {"XXC rank white1\n", ErrTRF},
	}
	for name, c := range cases {
		if _, err := DecodeTRF(strings.NewReader(c.file)); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	long := &Swiss{Rounds: 1, Players: []Player{{Name: strings.Repeat("x", 34)}}}
	if err := EncodeTRF(&bytes.Buffer{}, long); !errors.Is(err, ErrTRF) {
		t.Errorf("a 34-character name: %v, want ErrTRF", err)
	}
}

// TestTRFAbsenceFromTheNextRound: a TRF that marks a player's absence
// from the round to pair ("0000 - Z" after the rounds played, as
// gambit tournament export writes a withdrawn player's) pairs everyone
// else: only the lines with an entry for that round sit it out.
func TestTRFAbsenceFromTheNextRound(t *testing.T) {
	line := func(id int, rounds ...string) string {
		return fmt.Sprintf("001 %4d", id) + strings.Repeat(" ", 83) + strings.Join(rounds, "  ")
	}
	file := strings.Join([]string{"XXR 3",
		line(1, "0003 w 1", "0002 w 1"),
		line(2, "0004 w 1", "0001 b 0"),
		line(3, "0001 b 0", "0004 w 1"),
		line(4, "0002 b 0", "0003 b 0", "0000 - Z"),
	}, "\n") + "\n"
	s, err := DecodeTRF(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	got, err := PairDutch(s)
	if err != nil {
		t.Fatal(err)
	}
	// Player 4 sits round 3 out; 1, 2 and 3 are paired, one with the bye.
	paired := map[int]bool{}
	for _, p := range got {
		paired[p.White], paired[p.Black] = true, true
	}
	if len(got) != 2 || !paired[1] || !paired[2] || !paired[3] || paired[4] {
		t.Errorf("round 3 without player 4: %v", got)
	}
}
