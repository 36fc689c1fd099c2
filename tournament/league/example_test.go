package league_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/tournament/league"
)

// swissOfFour is a running three-round Swiss of four members, as the
// store holds it after the start: seeded Ann, Bob, Cid, Dee.
func swissOfFour() *storage.Tournament {
	t := &storage.Tournament{ID: "T1", GuildID: "g1", ChannelID: "c1", Name: "Friday Swiss", Format: storage.FormatSwiss,
		SwissRounds: 3, Kind: "tictactoe", MoveTime: time.Minute, MaxPlayers: 8, Status: storage.TournamentRunning}
	for i, name := range []string{"Ann", "Bob", "Cid", "Dee"} {
		t.Entrants = append(t.Entrants, storage.Entrant{Player: storage.Player{ID: storage.User(name), Name: name}, Rating: 1600 - 50*i})
	}
	return t
}

// nameOf returns the name of the entrant whose id is p, or "bye".
func nameOf(t *storage.Tournament, p storage.PlayerID) string {
	for _, e := range t.Entrants {
		if e.Player.ID == p {
			return e.Player.Name
		}
	}
	return "bye"
}

// A runner's loop without a store: pair the next round with Next, record
// it (the store's PairRound gives each board its game), record each
// game's result as it ends (RecordTournamentResult), until Over; then
// the standings, and the placings for FinishTournament. Here White wins
// every game but when Dee has Black: Dee's opponent does not show, and
// Dee wins by forfeit.
func ExampleNext() {
	t := swissOfFour()
	now := time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC)
	for !league.Over(t, now) {
		r, ok, err := league.Next(t, now)
		if err != nil || !ok {
			fmt.Println("stuck:", ok, err)
			return
		}
		var boards []string
		for i := range r.Boards {
			b := &r.Boards[i]
			boards = append(boards, nameOf(t, b.White)+"–"+nameOf(t, b.Black))
			b.Game = storage.GameID(fmt.Sprintf("g%d%d", r.Number, i))
			b.Result = storage.BoardWhite
			if b.Black == storage.User("Dee") {
				b.Result = storage.BoardBlackForfeit
			}
		}
		fmt.Printf("round %d: %s\n", r.Number, strings.Join(boards, ", "))
		t.Rounds = append(t.Rounds, r)
	}
	for _, s := range league.Standings(t) {
		fmt.Printf("%d. %s %.1f (BH-C1 %.1f, SB %.2f) won %d, forfeits won %d\n", s.Rank, t.Entrants[s.Entrant].Player.Name,
			float64(s.Score)/2, float64(s.BuchholzCut1)/2, float64(s.SonnebornBerger)/4, s.Won, s.ForfeitWins)
	}
	fmt.Println(league.Placings(t)[0])
	// Output:
	// round 1: Ann–Cid, Dee–Bob
	// round 2: Dee–Ann, Bob–Cid
	// round 3: Cid–Dee, Ann–Bob
	// 1. Dee 3.0 (BH-C1 4.0, SB 5.00) won 2, forfeits won 1
	// 2. Ann 2.0 (BH-C1 3.5, SB 1.50) won 2, forfeits won 0
	// 3. Bob 1.0 (BH-C1 4.5, SB 0.50) won 1, forfeits won 0
	// 4. Cid 0.0 (BH-C1 3.0, SB 0.00) won 0, forfeits won 0
	// {user:Dee 1 6}
}

// An Arena pairs whoever waits, from the start to End; each wave of
// pairings is a round.
func ExampleEnd() {
	t := swissOfFour()
	t.Format, t.SwissRounds, t.Duration = storage.FormatArena, 0, time.Hour
	t.StartedAt = time.Date(2026, 11, 27, 19, 0, 0, 0, time.UTC)
	fmt.Println("ends", league.End(t).Format(time.Kitchen))
	r, ok, _ := league.Next(t, t.StartedAt)
	fmt.Println(ok, len(r.Boards), "boards")
	_, ok, _ = league.Next(t, league.End(t))
	fmt.Println("at the end:", ok)
	// Output:
	// ends 8:00PM
	// true 2 boards
	// at the end: false
}

// WriteTRF writes the rounds done as FIDE's tournament report file.
func ExampleWriteTRF() {
	t := swissOfFour()
	r, _, _ := league.Next(t, time.Time{})
	for i := range r.Boards {
		r.Boards[i].Game, r.Boards[i].Result = storage.GameID(fmt.Sprint("g", i)), storage.BoardDraw
	}
	r.Boards[1].Result = storage.BoardWhiteForfeit
	t.Rounds = append(t.Rounds, r)
	if err := league.WriteTRF(os.Stdout, t); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 012 Friday Swiss
	// XXR 3
	// 001    1      Ann                               1600                             0.5    2  0003 w =
	// 001    2      Bob                               1550                             0.0    4  0004 b -
	// 001    3      Cid                               1500                             0.5    3  0001 b =
	// 001    4      Dee                               1450                             1.0    1  0002 w +
}
