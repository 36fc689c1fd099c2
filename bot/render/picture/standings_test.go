package picture

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStandingsDrawsALineAPlayer(t *testing.T) {
	head := [4]string{"Place", "Player", "Score", "Tie-breaks"}
	var rows []StandingsRow
	for i := range 60 {
		rows = append(rows, StandingsRow{Rank: i + 1, Place: fmt.Sprintf("#%d", i+1), Name: strings.Repeat("Ñame ", 20),
			Score: "3½", Detail: "Buchholz 7½, SB 12¼ · 3–1–1", Withdrawn: i == 5})
	}
	for _, n := range []int{0, 4, 60} {
		data, err := Standings("🏆 Friday Swiss · after round 3", head, rows[:n])
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%d rows: %v", n, err)
		}
		if b := img.Bounds(); b.Dx() != tableWidth || b.Dy() != tableRow*(n+2)+tablePad {
			t.Errorf("%d rows: a picture of %v", n, b)
		}
		// The gold line of the winner is tinted, the line below it not.
		if n >= 4 {
			gold, plain := img.At(tableWidth-4, tableRow*2+2), img.At(tableWidth-4, tableRow*5+2)
			if gold == plain {
				t.Errorf("the winner's line is not tinted: %v", gold)
			}
		}
		if *out != "" && n == 4 {
			if err := os.WriteFile(filepath.Join(*out, "standings.png"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
