package glicko2_test

import (
	"fmt"

	"github.com/gambitbot/gambit/storage/glicko2"
)

// The worked example of Glickman's paper: a player rated 1500 (deviation
// 200, volatility 0.06) beats a 1400 and loses to a 1550 and a 1700 in
// one rating period. The paper, rounding as it goes, prints 1464.06,
// 151.52 and 0.05999.
func ExampleUpdate() {
	player := glicko2.Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	after := glicko2.Update(player, []glicko2.Outcome{
		{Opponent: glicko2.Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: 1},
		{Opponent: glicko2.Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: 0},
		{Opponent: glicko2.Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: 0},
	}, 0.5)
	fmt.Printf("%.2f %.2f %.5f\n", after.Rating, after.Deviation, after.Volatility)
	// Output:
	// 1464.05 151.52 0.06000
}
