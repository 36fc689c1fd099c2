package bot

import (
	"flag"
	"testing"

	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/internal/racetest"
)

// TestMain makes the package's tests' reviews at the AI searches' nice
// instead of the lowest (reviewNice), so that no test waits on the
// machine's load for a review it asked for; a benchmark run
// (-test.bench) keeps the lowest, which BenchmarkAIFirstMoveBesideTwoGomokuReviews
// measures. The tests, which mostly wait on the bot and the stand-in,
// run eight at a time (discordtest.WaitingTests), not two. Their games
// draw the same boards again and again (every game's first board, the
// same openings), so a board's picture is drawn once and kept
// (render.MemoizePictures): drawing and encoding one cost a fifth of the
// package's CPU under -race.
func TestMain(m *testing.M) {
	discordtest.WaitingTests(8)
	render.MemoizePictures(256)
	if flag.Lookup("test.bench").Value.String() == "" {
		reviewNice = searchNice
	}
	racetest.Exit(m.Run())
}
