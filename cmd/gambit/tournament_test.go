package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/strategies/arena"
	"github.com/gambitbot/gambit/tournament"
	"github.com/rogpeppe/go-internal/txtar"
)

// tournamentTable returns the rows of the Markdown table under the
// heading of out (from its "## " line), each row's cells trimmed.
func tournamentTable(t *testing.T, out, heading string) [][]string {
	t.Helper()
	_, after, ok := strings.Cut(out, "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("no section %q in:\n%s", heading, out)
	}
	var rows [][]string
	for _, line := range strings.Split(after, "\n")[1:] {
		if strings.HasPrefix(line, "## ") {
			break
		}
		if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "|---") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	return rows[1:] // without the header
}

// halfPoints reads "2.5" as 5.
func halfPoints(t *testing.T, text string) int {
	t.Helper()
	whole, half, _ := strings.Cut(text, ".")
	n, err := strconv.Atoi(whole)
	if err != nil || (half != "" && half != "5") {
		t.Fatalf("points %q", text)
	}
	if half == "5" {
		return 2*n + 1
	}
	return 2 * n
}

// runTournamentCmd runs gambit tournament with args and a TRF in a
// temporary directory, and returns the output and the TRF read back.
func runTournamentCmd(t *testing.T, args ...string) (string, *tournament.Swiss) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.trf")
	code, out, errOut := gambit(append(append([]string{"tournament"}, args...), "--trf", path)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := tournament.DecodeTRF(f)
	if err != nil {
		t.Fatalf("the TRF does not read back: %v", err)
	}
	return out, s
}

// roundOf returns round r's boards (from 1) of a tournament, by White's
// pairing number, a bye as Black 0.
func roundOf(s *tournament.Swiss, r int) []tournament.Pairing {
	var boards []tournament.Pairing
	for i, p := range s.Players {
		switch e := p.Results[r-1]; {
		case e.Opponent == 0 && e.Result != tournament.NotPaired:
			boards = append(boards, tournament.Pairing{White: i + 1})
		case e.Color == tournament.White:
			boards = append(boards, tournament.Pairing{White: i + 1, Black: e.Opponent})
		}
	}
	return boards
}

func sortedBoards(b []tournament.Pairing) []tournament.Pairing {
	b = slices.Clone(b)
	slices.SortFunc(b, func(x, y tournament.Pairing) int { return x.White - y.White })
	return b
}

// TestTournamentSwiss plays a small Swiss through the command and checks
// it against the pairing core: the TRF reads back, each round's pairings
// are PairDutch's on the rounds before it, the printed rounds are the
// TRF's, and the standings add up and are in tie-break order.
func TestTournamentSwiss(t *testing.T) {
	t.Parallel()
	out, s := runTournamentCmd(t, "--game", "tictactoe", "--format", "swiss", "--players", "random,greedy,minimax,mcts,beam",
		"--rounds", "4", "--nodes", "300", "--seed", "5")
	if s.Rounds != 4 || s.FirstColor != tournament.White || len(s.Players) != 5 || s.Played() != 4 {
		t.Fatalf("TRF: %d rounds planned, %d played, first colour %v, %d players", s.Rounds, s.Played(), s.FirstColor, len(s.Players))
	}
	// Seeded by calibrated rating: random, the weakest, is last.
	if s.Players[4].Name != "random" || s.Players[0].Rating < s.Players[4].Rating {
		t.Errorf("players %+v: want them by rating, random last", s.Players)
	}
	games, byes := 0, 0
	for r := 1; r <= 4; r++ {
		before := &tournament.Swiss{Rounds: s.Rounds, FirstColor: s.FirstColor}
		for _, p := range s.Players {
			before.Players = append(before.Players, tournament.Player{Name: p.Name, Rating: p.Rating, Results: p.Results[:r-1]})
		}
		want, err := tournament.PairDutch(before)
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if got := roundOf(s, r); !slices.Equal(sortedBoards(got), sortedBoards(want)) {
			t.Errorf("round %d: the TRF has %v; the Dutch system pairs %v", r, got, want)
		}
		rows := tournamentTable(t, out, "Round "+strconv.Itoa(r))
		if len(rows) != len(want) {
			t.Fatalf("round %d printed %d boards, want %d", r, len(rows), len(want))
		}
		for i, b := range want {
			white := s.Players[b.White-1].Name + " (" + strconv.Itoa(b.White) + ")"
			black := "bye"
			if !b.IsBye() {
				black = s.Players[b.Black-1].Name + " (" + strconv.Itoa(b.Black) + ")"
				games++
			} else {
				byes++
			}
			if rows[i][1] != white || rows[i][2] != black {
				t.Errorf("round %d board %d printed %v, want %s against %s", r, i+1, rows[i], white, black)
			}
		}
	}
	rows := tournamentTable(t, out, "Standings after round 4")
	want := tournament.Standings(s)
	if len(rows) != len(want) {
		t.Fatalf("%d standings, want %d", len(rows), len(want))
	}
	total := 0
	for i, row := range rows {
		// rank | # | player | points | won–drawn–lost | BH-C1 | SB | DE
		w := want[i]
		if row[0] != strconv.Itoa(w.Rank) || row[1] != strconv.Itoa(w.Player) || halfPoints(t, row[3]) != w.HalfPoints ||
			halfPoints(t, row[5]) != w.BuchholzCut1 || halfPoints(t, row[7]) != w.Direct {
			t.Errorf("standing %d printed %v; the TRF's is %v", i+1, row, w)
		}
		total += w.HalfPoints
		if i > 0 {
			p := want[i-1]
			if a, b := [4]int{p.HalfPoints, p.BuchholzCut1, p.SonnebornBerger, p.Direct}, [4]int{w.HalfPoints, w.BuchholzCut1, w.SonnebornBerger, w.Direct}; slices.Compare(a[:], b[:]) < 0 {
				t.Errorf("standings %v above %v: not in tie-break order", p, w)
			}
		}
	}
	if games != 8 || byes != 4 || total != 2*(games+byes) {
		t.Errorf("%d games and %d byes give %d half-points; the standings add up to %d", games, byes, 2*(games+byes), total)
	}
}

// TestTournamentReplays: node-limited, a Swiss with the same seed gives
// the same output whatever the threads.
func TestTournamentReplays(t *testing.T) {
	t.Parallel()
	args := []string{"tournament", "--game", "tictactoe", "--format", "swiss", "--players", "greedy,mcts,beam,random", "--rounds", "2", "--nodes", "200", "--seed", "9"}
	_, one, _ := gambit(append(args, "--threads", "1")...)
	code, three, errOut := gambit(append(args, "--threads", "3")...)
	if code != 0 || one != three {
		t.Errorf("exit %d (%s); with 1 thread:\n%s\nwith 3:\n%s", code, errOut, one, three)
	}
}

// TestTournamentRoundRobin: a double round robin of five plays the
// Berger tables, each player sitting one round of each cycle out without
// points.
func TestTournamentRoundRobin(t *testing.T) {
	t.Parallel()
	out, s := runTournamentCmd(t, "--game", "tictactoe", "--format", "roundrobin", "--double", "--players", "random,greedy,minimax,beam,hill-steepest",
		"--nodes", "100", "--seed", "2")
	tables, err := tournament.RoundRobin(5, 2)
	if err != nil {
		t.Fatal(err)
	}
	if s.Rounds != len(tables) || s.Played() != len(tables) {
		t.Fatalf("TRF: %d rounds planned, %d played; want %d", s.Rounds, s.Played(), len(tables))
	}
	for r, want := range tables {
		if got := roundOf(s, r+1); !slices.Equal(sortedBoards(got), sortedBoards(want)) {
			t.Errorf("round %d: %v; the Berger table is %v", r+1, got, want)
		}
	}
	total := 0
	for _, row := range tournamentTable(t, out, "Standings after round 10") {
		total += halfPoints(t, row[3])
	}
	if total != 2*20 { // 20 games, the free rounds scoring nothing
		t.Errorf("the standings add up to %d half-points; want 40", total)
	}
}

// TestTournamentPair: tournament pair reads a TRF and prints the next
// round's Dutch pairings, and refuses a file whose rounds are all paired.
func TestTournamentPair(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "t.trf")
	if code, _, errOut := gambit("tournament", "--game", "tictactoe", "--format", "swiss", "--players", "random,greedy,minimax,mcts,beam,hill-steepest",
		"--rounds", "2", "--nodes", "100", "--seed", "4", "--trf", path); code != 0 {
		t.Fatal(errOut)
	}
	code, _, errOut := gambit("tournament", "pair", path)
	if code != 1 || !strings.Contains(errOut, "all 2 rounds planned are paired") {
		t.Errorf("pair on a finished Swiss: exit %d, %q", code, errOut)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	more := filepath.Join(dir, "more.trf")
	if err := os.WriteFile(more, []byte(strings.Replace(string(data), "XXR 2", "XXR 3", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(more)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := tournament.DecodeTRF(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tournament.PairDutch(s)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := gambit("tournament", "pair", more)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "# Round 3 of 3, by the Dutch system\n") {
		t.Errorf("output %q", out)
	}
	var lines []string
	for i, b := range want {
		lines = append(lines, "| "+strconv.Itoa(i+1)+" | "+s.Players[b.White-1].Name+" ("+strconv.Itoa(b.White)+") | "+
			s.Players[b.Black-1].Name+" ("+strconv.Itoa(b.Black)+") |")
	}
	if !strings.HasSuffix(out, strings.Join(lines, "\n")+"\n") {
		t.Errorf("pair printed\n%s\nwant the boards\n%s", out, strings.Join(lines, "\n"))
	}
	for _, args := range [][]string{{"pair"}, {"pair", more, more}, {"pair", filepath.Join(dir, "none.trf")}} {
		if code, _, errOut := gambit(append([]string{"tournament"}, args...)...); code == 0 || errOut == "" {
			t.Errorf("tournament %v: exit %d, %q; want an error", args, code, errOut)
		}
	}
}

// TestTournamentArena: a short Arena's table adds up: each player's
// games are the games printed with them, and their points are Lichess's
// scoring of them in the order they ended. It is timed, so it checks
// only what holds at any speed.
func TestTournamentArena(t *testing.T) {
	t.Parallel()
	code, out, errOut := gambit("tournament", "--game", "tictactoe", "--format", "arena", "--players", "greedy,random,random-2=random",
		"--duration", "200ms", "--nodes", "50", "--threads", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	games := map[string][]tournament.ArenaGame{}
	for _, row := range tournamentTable(t, out, "Games") {
		// game | white | black | result | moves
		plies, err := strconv.Atoi(row[4])
		if err != nil {
			t.Fatalf("row %v", row)
		}
		results := map[string][2]tournament.Result{"1–0": {tournament.Win, tournament.Loss}, "0–1": {tournament.Loss, tournament.Win},
			"½–½": {tournament.Draw, tournament.Draw}}[row[3]]
		for i, who := range row[1:3] {
			name, _, _ := strings.Cut(who, " (")
			games[name] = append(games[name], tournament.ArenaGame{Result: results[i], Plies: plies})
		}
	}
	rows := tournamentTable(t, out, "Standings")
	if len(rows) != 3 {
		t.Fatalf("standings %v", rows)
	}
	for i, row := range rows {
		// rank | # | player | points | games | ...
		sheet := tournament.ArenaScore(games[row[2]], tournament.ArenaRules{})
		if row[3] != strconv.Itoa(sheet.Total) || row[4] != strconv.Itoa(len(games[row[2]])) {
			t.Errorf("standing %v: the games printed give %d points in %d games", row, sheet.Total, len(games[row[2]]))
		}
		if i > 0 && halfPoints(t, rows[i-1][3]) < halfPoints(t, row[3]) {
			t.Errorf("standings %v above %v", rows[i-1], row)
		}
	}
}

// TestTournamentGameResults: a forfeit is + and − for the players, on
// either side.
func TestTournamentGameResults(t *testing.T) {
	for _, tc := range []struct {
		g            arena.GameRecord
		white, black tournament.Result
		text         string
	}{
		{arena.GameRecord{Result: engine.Win}, tournament.Win, tournament.Loss, "1–0"},
		{arena.GameRecord{Result: engine.Draw}, tournament.Draw, tournament.Draw, "½–½"},
		{arena.GameRecord{Result: engine.Loss}, tournament.Loss, tournament.Win, "0–1"},
		{arena.GameRecord{Result: engine.Win, Forfeit: "o forfeits"}, tournament.ForfeitWin, tournament.ForfeitLoss, "+–−"},
		{arena.GameRecord{Result: engine.Loss, Forfeit: "x forfeits"}, tournament.ForfeitLoss, tournament.ForfeitWin, "−–+"},
	} {
		white, black := gameResults(tc.g)
		if white != tc.white || black != tc.black || resultText(tc.g) != tc.text {
			t.Errorf("%+v: %v, %v, %q; want %v, %v, %q", tc.g, white, black, resultText(tc.g), tc.white, tc.black, tc.text)
		}
	}
}

func TestTournamentRejectsBadFlags(t *testing.T) {
	t.Parallel()
	base := []string{"--game", "tictactoe", "--players", "greedy,random,minimax"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "swiss", "--players", "greedy,random"}, "--game is required"},
		{base, "--format is required"},
		{append([]string{"--format", "knockout"}, base...), `--format "knockout": want swiss, roundrobin or arena`},
		{[]string{"--game", "nqueens", "--format", "swiss", "--players", "greedy,random"}, "is a puzzle for one player"},
		{[]string{"--game", "tictactoe", "--format", "swiss", "--players", "greedy"}, "at least two strategies"},
		{[]string{"--game", "tictactoe", "--format", "swiss", "--players", "greedy,deep-blue"}, "deep-blue"},
		{[]string{"--game", "tictactoe", "--format", "swiss", "--players", "greedy,greedy"}, "greedy is entered twice"},
		{[]string{"--game", "tictactoe", "--format", "swiss", "--players", "greedy,=random"}, "an empty label"},
		{append([]string{"--format", "swiss", "--rounds", "4"}, base...), "--rounds 4: a Swiss of 3 players has 1 to 3 rounds"},
		{append([]string{"--format", "swiss", "--rounds", "0"}, base...), "--rounds 0"},
		{append([]string{"--format", "swiss", "--double"}, base...), "--double applies to --format roundrobin only"},
		{append([]string{"--format", "roundrobin", "--rounds", "2"}, base...), "--rounds applies to --format swiss only"},
		{append([]string{"--format", "swiss", "--duration", "1m"}, base...), "--duration applies to --format arena only"},
		{[]string{"--game", "tictactoe", "--format", "roundrobin", "--players", "greedy,random"}, "a round robin needs 3 to 12 players, not 2"},
		{append([]string{"--format", "arena", "--duration", "0s"}, base...), "--duration must be positive"},
		{append([]string{"--format", "arena", "--trf", "x.trf"}, base...), "an Arena has no rounds"},
		{append([]string{"--format", "swiss", "--movetime", "0s"}, base...), "--movetime must be positive"},
		{append([]string{"--format", "swiss", "--nodes", "0"}, base...), "--nodes must be positive"},
		{append([]string{"--format", "swiss", "--threads", "0"}, base...), "--threads 0: must be 1 to 256"},
		{append([]string{"--format", "swiss", "--threads", "200", "--hash", "100"}, base...), "--threads 200 × --hash 100 MiB"},
		{append([]string{"--format", "swiss", "extra"}, base...), `unexpected argument "extra"`},
		{append([]string{"--format", "swiss", "--game-rounds", "8"}, base...), "--game-rounds: tictactoe has no rounds to set"},
		{[]string{"--game", "adjacency", "--format", "swiss", "--players", "greedy,random", "--game-rounds", "1"}, "--game-rounds 1: adjacency has 2 to 28 rounds"},
	} {
		code, out, errOut := gambit(append([]string{"tournament"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "gambit tournament --help") {
			t.Errorf("tournament %v: exit %d, stdout %q, stderr %q; want status 2 and an error naming %q", tc.args, code, out, errOut, tc.want)
		}
	}
	code, out, _ := gambit("tournament", "--help")
	if code != 0 || !strings.Contains(out, "Usage: gambit tournament --game") || !strings.Contains(out, "-trf") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

// TestTournamentTranscriptInDocs: the transcripts of docs/ai.md,
// "Tournaments of strategies", are the outputs testdata/script/
// tournament.txtar compares whole (the Swiss, its TRF, and pair on its
// first two rounds), so the guide shows what the command prints.
func TestTournamentTranscriptInDocs(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("testdata", "script", "tournament.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range a.Files {
		files[f.Name] = string(f.Data)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ai.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "\n### Tournaments of strategies\n")
	section, _, _ = strings.Cut(section, "\n### ")
	// Each transcript: the command line, then its output up to the next
	// command line or the end of the block.
	for _, tc := range []struct{ command, file string }{
		{"$ gambit tournament --game connect4 --format swiss", "swiss.md"},
		{"$ cat swiss.trf", "want.trf"},
		{"$ gambit tournament pair two-rounds.trf", "pair.md"},
	} {
		_, after, ok := strings.Cut(section, "\n"+tc.command)
		if !ok {
			t.Errorf("docs/ai.md's tournaments section has no transcript of %q", tc.command)
			continue
		}
		_, output, _ := strings.Cut(after, "\n")
		end := strings.Index(output, "\n```") + 1
		if i := strings.Index(output, "\n$ "); i >= 0 && i < end {
			end = i + 1
		}
		if got := output[:end]; got != files[tc.file] {
			t.Errorf("docs/ai.md shows after %q:\n%s\ntournament.txtar's %s is:\n%s", tc.command, got, tc.file, files[tc.file])
		}
	}
}
