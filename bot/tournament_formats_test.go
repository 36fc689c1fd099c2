package bot_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
)

// TestTournamentRoundRobinWithdrawalToThePodium runs a round robin of
// four members of Tic-Tac-Toe through the stand-in, on each store: the
// Berger table's rounds posted one by one as each ends; number 4 wins
// round 1 and then withdraws, so that the games the table gives them
// after it are scored as forfeit wins of their opponents, without a
// board; the podium's standings break a tie on score by
// Sonneborn-Berger (Buchholz level) and one by Buchholz, withdrawn
// player included; and /stats.
func TestTournamentRoundRobinWithdrawalToThePodium(t *testing.T) {
	t.Parallel()
	onEachStore(t, testRoundRobinWithdrawal)
}

func testRoundRobinWithdrawal(t *testing.T, store option) {
	h := start(t, withClock(), store)
	var members []string
	for _, name := range []string{"alice", "bob", "carol", "dave"} {
		members = append(members, h.srv.AddUser(name).ID)
	}
	id, ann := openTournament(t, h, []discordtest.Option{
		opt("format", "roundrobin"), opt("game", "tictactoe"), opt("movetime", 30), opt("name", "Test Round Robin"),
	}, []string{"Test Round Robin", "Round robin", "30 seconds a move"}, members, 0)
	// The Berger table of four players, White first; the winner of each
	// game played, and the one who withdraws.
	table := [][][2]int{{{1, 4}, {2, 3}}, {{4, 3}, {1, 2}}, {{2, 4}, {3, 1}}}
	winner := map[[2]int]int{{1, 4}: 4, {2, 3}: 2, {1, 2}: 1, {3, 1}: 3}
	user := playRoundRobin(t, h, id, ann, table, winner, 4)

	// 2 beats 3 and 1 and wins by forfeit against 4; 3 loses to 2 and
	// beats 1 and, by forfeit, 4; 4 beats 1 and withdraws; 1 beats 2. 2
	// and 3 are level on 2 points and on Buchholz (cut 1) 2½; 2 is ahead
	// on Sonneborn-Berger, 2½ to 1½. 4 and 1 are level on 1 point; 4
	// is ahead on Buchholz, 4½ to 3½ (FIDE C.02 13.15: an opponent's
	// unplayed games count as draws, one's own as a virtual opponent's).
	podium := h.waitPosted("The tournament is over")
	inOrder(t, "the podium's final standings", podium, []string{
		"🥇 <@" + user(2) + "> — **2** · Buchholz 2½, SB 2½ · 2–1–0",
		"🥈 <@" + user(3) + "> — **2** · Buchholz 2½, SB 1½ · 2–1–0",
		"🥉 <@" + user(4) + "> — **1** · Buchholz 4½, SB 1 · 1–2–0 · withdrew",
		"**#4** <@" + user(1) + "> — **1** · Buchholz 3½, SB 1½ · 1–2–0",
	})
	tr := h.waitTournament(id, "the end", func(tr *storage.Tournament) bool { return tr.Status == storage.TournamentFinished })
	for n, rank := range map[int]int{1: 4, 2: 1, 3: 2, 4: 3} {
		if got := tr.Entrants[n-1].Rank; got != rank {
			t.Errorf("number %d placed %d, want %d", n, got, rank)
		}
	}
	_, stats := h.command(user(2), "stats")
	speaks(t, "the winner's stats", stats, []string{"Tournaments", "Test Round Robin", "place 1 of 4"}, nil)
}

// TestTournamentDoubleRoundRobinToThePodium runs a double round robin of
// three members through the stand-in, on each store: six rounds, each
// with a game and a bye, by FIDE's Berger table twice, colours reversed
// in the second cycle and the first cycle's last two rounds swapped (as
// FIDE recommends); number 1 wins every game, 2 both against 3.
func TestTournamentDoubleRoundRobinToThePodium(t *testing.T) {
	t.Parallel()
	onEachStore(t, testDoubleRoundRobin)
}

func testDoubleRoundRobin(t *testing.T, store option) {
	h := start(t, withClock(), store)
	var members []string
	for _, name := range []string{"alice", "bob", "carol"} {
		members = append(members, h.srv.AddUser(name).ID)
	}
	id, ann := openTournament(t, h, []discordtest.Option{
		opt("format", "roundrobin"), opt("double", true), opt("game", "tictactoe"), opt("movetime", 30),
	}, []string{"Tic-Tac-Toe Double round robin", "30 seconds a move"}, members, 0)
	table := [][][2]int{
		{{1, 0}, {2, 3}}, {{2, 0}, {3, 1}}, {{3, 0}, {1, 2}},
		{{1, 0}, {3, 2}}, {{2, 0}, {1, 3}}, {{3, 0}, {2, 1}},
	}
	winner := map[[2]int]int{{2, 3}: 2, {3, 1}: 1, {1, 2}: 1, {3, 2}: 2, {1, 3}: 1, {2, 1}: 1}
	user := playRoundRobin(t, h, id, ann, table, winner, 0)
	inOrder(t, "the podium's final standings", h.waitPosted("The tournament is over"), []string{
		"🥇 <@" + user(1) + "> — **4** · Buchholz", "· 4–0–0",
		"🥈 <@" + user(2) + "> — **2** · Buchholz", "· 2–2–0",
		"🥉 <@" + user(3) + "> — **0** · Buchholz", "· 0–4–0",
	})
}

// playRoundRobin plays round robin id, just started, through the
// stand-in as table says — each round's pairs by pairing number, White
// first, {n, 0} n's bye — checking each round's pairings message (with
// the standings after the round before) and its boards (each posted,
// naming its two players, with Resign): the loser of
// each game resigns to its winner (winner), and leaver (0: none), once
// their game of round 1 has ended, withdraws by the Withdraw of ann, the
// announcement, and its confirmation, which the announcement then shows,
// while the round's other games are on: after it the table's pairs of
// theirs get no board. It returns the member of each
// pairing number.
func playRoundRobin(t *testing.T, h *harness, id storage.TournamentID, ann discordtest.Message, table [][][2]int, winner map[[2]int]int, leaver int) func(n int) string {
	t.Helper()
	tr := h.waitTournament(id, "round 1", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	// Pairing number n is the entrant Entrants[n-1], seeded at the start.
	entrants := tr.Entrants
	user := func(n int) string { return userID(entrants[n-1].Player.ID) }
	left := func(p [2]int) bool { return leaver != 0 && (p[0] == leaver || p[1] == leaver) }
	for r, pairs := range table {
		tr = h.waitTournament(id, fmt.Sprintf("round %d", r+1), func(tr *storage.Tournament) bool { return len(tr.Rounds) == r+1 })
		var want, unwanted []string
		var boards [][2]int
		for _, p := range pairs {
			line := fmt.Sprintf("<@%s> sits this round out: no game, no points.", user(p[0]))
			if p[1] != 0 {
				line = fmt.Sprintf("<@%s> (moves first) vs <@%s>", user(p[0]), user(p[1]))
			}
			if r > 0 && left(p) {
				unwanted = append(unwanted, line)
				if p[1] != 0 { // the game is the other's, by forfeit
					want = append(want, fmt.Sprintf("<@%s> wins by forfeit: <@%s> withdrew.", user(p[0]+p[1]-leaver), user(leaver)))
				}
				continue
			}
			want, boards = append(want, line), append(boards, p)
		}
		if r > 0 {
			want = append(want, fmt.Sprintf("Standings after round %d", r), "Buchholz")
		}
		speaks(t, fmt.Sprintf("round %d's pairings", r+1), h.waitPosted(fmt.Sprintf("Round %d", r+1)), want, unwanted)
		got := tr.Rounds[r].Boards
		if len(got) != len(boards) {
			t.Fatalf("round %d's boards %+v, want the table's %v without number %d's", r+1, got, boards, leaver)
		}
		h.settle(tr.Rounds[r])
		for i, p := range boards {
			b := got[i]
			if b.White != entrants[p[0]-1].Player.ID || p[1] == 0 && !b.IsBye() || p[1] != 0 && b.Black != entrants[p[1]-1].Player.ID {
				t.Fatalf("round %d's board %d: %s vs %s, want numbers %d vs %d", r+1, i+1, b.White, b.Black, p[0], p[1])
			}
			if p[1] == 0 {
				continue
			}
			speaks(t, fmt.Sprintf("round %d's board %d", r+1, i+1), h.board(b.Game), []string{"<@" + user(p[0]) + ">", "<@" + user(p[1]) + ">", "Resign"}, nil)
			resignByUI(t, h, user(p[0]+p[1]-winner[p]), b.Game)
			if r == 0 && left(p) {
				leave, ok := find(ann, customid.TournamentLeave, nil)
				if !ok {
					t.Fatalf("no Withdraw on the announcement: %+v", ann.Components)
				}
				ask := h.click(user(leaver), ann.ID, leave)
				confirm, ok := find(ask, customid.TournamentWithdraw, nil)
				if !ok {
					t.Fatalf("Withdraw answered %q without its confirmation", ask.Content)
				}
				h.click(user(leaver), ask.ID, confirm)
				struck := "~~<@" + user(leaver) + ">~~"
				left, err := h.waitMessage(h.ctx(), func(m discordtest.Message) bool { return m.ID == ann.ID && strings.Contains(text(m), struck) })
				if err != nil {
					t.Fatalf("the announcement does not show the withdrawal (%q): %v", struck, err)
				}
				speaks(t, "the announcement after the withdrawal", left, []string{struck, "Under way"}, nil)
			}
		}
	}
	return user
}

// TestTournamentArenaToThePodium runs an Arena of five members of
// Tic-Tac-Toe, 5 minutes on the manual clock, through the stand-in, on
// each store: each game's end pairs one of its players at once with the
// one waiting, never the two who just met; alice, winning every game,
// is on fire after two wins in a row and her third scores double, as
// the standings show; at the end of the time nobody is paired, the two
// games still on count when they end, and the podium follows the last.
func TestTournamentArenaToThePodium(t *testing.T) {
	t.Parallel()
	onEachStore(t, testArenaToThePodium)
}

func testArenaToThePodium(t *testing.T, store option) {
	h := start(t, withClock(), store)
	var members []string
	for _, name := range []string{"alice", "bob", "carol", "dave", "erin"} {
		members = append(members, h.srv.AddUser(name).ID)
	}
	alice := storage.User(members[0])
	// Ten minutes a move: the move timer never ends a game here.
	id, _ := openTournament(t, h, []discordtest.Option{
		opt("format", "arena"), opt("game", "tictactoe"), opt("duration", 5), opt("movetime", 600), opt("name", "Test Arena"),
	}, []string{"Test Arena", "Arena, 5 minutes", "10 minutes a move"}, members, 0)
	tr := h.waitTournament(id, "the first pairings", func(tr *storage.Tournament) bool { return len(tr.Rounds) == 1 })
	if n := len(tr.Rounds[0].Boards); n != 2 {
		t.Fatalf("the first pairings of five: %+v, want two boards", tr.Rounds[0].Boards)
	}
	h.waitPosted("New pairings")

	// results are each player's results (true a win) in the order they
	// played them; end ends a board's game, alice winning hers and White
	// the others, and returns the players' IDs.
	results := map[storage.PlayerID][]bool{}
	end := func(b storage.Board) (winner, loser storage.PlayerID) {
		t.Helper()
		winner, loser = b.White, b.Black
		if loser == alice {
			winner, loser = loser, winner
		}
		resignByUI(t, h, userID(loser), b.Game)
		results[winner], results[loser] = append(results[winner], true), append(results[loser], false)
		return winner, loser
	}
	for rounds := 1; len(results[alice]) < 3; rounds++ {
		pending := pendingBoards(tr)
		b := pending[0]
		for _, p := range pending {
			if p.White == alice || p.Black == alice {
				b = p
			}
		}
		h.settle(storage.Round{Boards: []storage.Board{b}})
		winner, loser := end(b)
		// Three wait now: the two who just met, and the one who waited.
		tr = h.waitTournament(id, "the next pairing", func(tr *storage.Tournament) bool { return len(tr.Rounds) == rounds+1 })
		next := tr.Rounds[rounds].Boards
		if len(next) != 1 || next[0].IsBye() {
			t.Fatalf("after a game's end the Arena paired %+v, want one board", next)
		}
		if met := []storage.PlayerID{next[0].White, next[0].Black}; met[0] == winner && met[1] == loser || met[0] == loser && met[1] == winner {
			t.Fatalf("the Arena paired %s and %s again at once, with another player waiting", winner, loser)
		}
		if winner == alice && len(results[alice]) == 2 {
			_, table := h.command(members[1], "tournament", discordtest.Option{Name: "standings"})
			speaks(t, "the standings after alice's second win", table, []string{"<@" + members[0] + "> — **4** 🔥"}, nil)
		}
	}
	_, table := h.command(members[1], "tournament", discordtest.Option{Name: "standings"})
	speaks(t, "the standings after alice's third win", table, []string{"<@" + members[0] + "> — **8** 🔥"}, nil)
	if tr.Status != storage.TournamentRunning {
		t.Fatalf("the Arena is %s before its time is up", tr.Status)
	}

	// The time is up: the games on are played to their end and count;
	// nobody is paired again.
	h.clock.Advance(5 * time.Minute)
	paired := len(tr.Rounds)
	last := pendingBoards(tr)
	if len(last) != 2 {
		t.Fatalf("%d games on at the end, want 2: %+v", len(last), last)
	}
	for _, b := range last {
		h.settle(storage.Round{Boards: []storage.Board{b}})
		end(b)
	}
	tr = h.waitTournament(id, "the end or a pairing", func(tr *storage.Tournament) bool {
		return tr.Status == storage.TournamentFinished || len(tr.Rounds) > paired
	})
	if len(tr.Rounds) > paired {
		t.Fatalf("the Arena paired round %d after its time was up: %+v", len(tr.Rounds), tr.Rounds[paired:])
	}
	podium := h.waitPosted("The tournament is over")
	speaks(t, "the podium", podium, []string{"Final standings"}, nil)
	top := 0
	for _, e := range tr.Entrants {
		top = max(top, arenaPoints(results[e.Player.ID]))
	}
	winner := ""
	for _, e := range tr.Entrants {
		want, line := arenaPoints(results[e.Player.ID]), fmt.Sprintf("<@%s> — **%d**", userID(e.Player.ID), arenaPoints(results[e.Player.ID]))
		if want == top {
			line, winner = "🥇 "+line, userID(e.Player.ID)
		}
		if e.Score != want {
			t.Errorf("%s scored %d with %v, want %d", e.Player.ID, e.Score, results[e.Player.ID], want)
		}
		if !strings.Contains(text(podium), line) {
			t.Errorf("the podium has no %q:\n%s", line, text(podium))
		}
	}
	_, stats := h.command(winner, "stats")
	speaks(t, "the winner's stats", stats, []string{"Tournaments", "Test Arena", "place 1 of 5"}, nil)
}

// pendingBoards are t's boards whose game is on.
func pendingBoards(t *storage.Tournament) []storage.Board {
	var on []storage.Board
	for _, r := range t.Rounds {
		for _, b := range r.Boards {
			if !b.IsBye() && b.Result == storage.BoardPending {
				on = append(on, b)
			}
		}
	}
	return on
}

// arenaPoints scores an Arena player's results in order as Lichess does:
// 2 a win, and 4 a win after two wins in a row.
func arenaPoints(won []bool) int {
	points, streak := 0, 0
	for _, w := range won {
		switch {
		case !w:
			streak = 0
		case streak >= 2:
			points += 4
		default:
			points += 2
			streak++
		}
	}
	return points
}

// inOrder checks that m's text has each of lines, in that order.
func inOrder(t *testing.T, what string, m discordtest.Message, lines []string) {
	t.Helper()
	s := text(m)
	at := 0
	for _, l := range lines {
		i := strings.Index(s[at:], l)
		if i < 0 {
			t.Errorf("%s: no %q after the lines before it in:\n%s", what, l, s)
			return
		}
		at += i + len(l)
	}
}

// TestTournamentTwoProcessesPairEachRoundOnce runs a Swiss of three
// rounds of four members with two bots over one PostgreSQL store, as two
// replicas run. (Not on bbolt: the bbolt file is locked by the one
// process that opens it, so two processes cannot share one.) Once the
// second bot runs, each round's games end straight in the store, as a
// process that crashed between a game's end and its board's result
// leaves them, and the clock moves past the timers' sweep, so that both
// bots advance the tournament at once: each round is recorded and its
// pairings and boards posted once, by one of them, and the podium once.
func TestTournamentTwoProcessesPairEachRoundOnce(t *testing.T) {
	t.Parallel()
	h := start(t, withClock(), withPostgres())
	var members []string
	for _, name := range []string{"alice", "bob", "carol", "dave"} {
		members = append(members, h.srv.AddUser(name).ID)
	}
	id, _ := openTournament(t, h, []discordtest.Option{
		opt("format", "swiss"), opt("game", "tictactoe"), opt("rounds", 3), opt("movetime", 600), opt("name", "Twin Cup"),
	}, []string{"Twin Cup", "Swiss, 3 rounds"}, members, 0)
	// The second bot starts after the last interaction: the stand-in's
	// gateway gives an interaction to every session of its shard.
	_, stopB := h.another(func(c *bot.Config) { c.Shards.Instance = "process-b" }, nil)
	const rounds = 3
	for r := 1; r <= rounds; r++ {
		tr := h.waitTournament(id, fmt.Sprintf("round %d", r), func(tr *storage.Tournament) bool { return len(tr.Rounds) == r })
		for _, g := range h.settle(tr.Rounds[r-1]) {
			g.Status = storage.StatusFinished
			if _, err := h.db().FinishGame(context.Background(), g, storage.Result{Winner: 0, Outcome: storage.Resigned}); err != nil {
				t.Fatal(err)
			}
		}
		h.clock.Advance(time.Minute)
	}
	h.waitPosted("The tournament is over")
	tr := h.waitTournament(id, "the end", func(tr *storage.Tournament) bool { return tr.Status == storage.TournamentFinished })
	// Both stopped, neither has an advance under way: what they posted
	// is all they post.
	stopB()
	h.stop()
	for r := 1; r <= rounds; r++ {
		if n := h.posted(fmt.Sprintf("Round %d", r)); n != 1 {
			t.Errorf("round %d's pairings were posted %d times", r, n)
		}
	}
	if n := h.posted("The tournament is over"); n != 1 {
		t.Errorf("the podium was posted %d times", n)
	}
	// A board names its game in its footer, under way or ended (a
	// restart's refresh can redraw a board its game ended meanwhile,
	// without its Resign).
	boards := map[storage.GameID]int{}
	for _, m := range h.srv.ChannelAndThreads(h.srv.ChannelID()) { // the boards are in the rounds' threads
		if id := boardGameID.FindStringSubmatch(text(readable(m))); id != nil {
			boards[storage.GameID(id[1])]++
		}
	}
	games := 0
	for _, r := range tr.Rounds {
		for _, b := range r.Boards {
			if b.IsBye() {
				continue
			}
			games++
			if boards[b.Game] != 1 {
				t.Errorf("round %d's game %s has %d boards posted", r.Number, b.Game, boards[b.Game])
			}
		}
	}
	if len(boards) != games {
		t.Errorf("%d games' boards posted, for the %d games of the rounds", len(boards), games)
	}
	for what, want := range map[string]int{"tournament round paired": rounds, "tournament finished": 1} {
		if n := strings.Count(h.logs.String(), what); n != want {
			t.Errorf("the logs say %q %d times, want %d", what, n, want)
		}
	}
}

// boardGameID finds the game a board names in its footer.
var boardGameID = regexp.MustCompile(`Game ID (\w+)`)
