// Command figures regenerates docs/figures.md, the page of measured
// figures: it runs each figure's command (the table figures below) and
// writes its output with the command, the commit and the machine. Run it
// from the repository's root, on a machine as quiet as you can get:
//
//	go run ./internal/figures           # every figure: an hour or more
//	go run ./internal/figures -short    # leaves out the figures that take minutes
//
// The page says the load average before and after, since other work on the
// machine slows what is timed. TestFiguresRunOnSmallInputs checks that
// every figure's command still exists and runs on a small input.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// figure is one measured figure the docs quote.
type figure struct {
	name  string
	about string
	// args is the command line as the docs give it: gambit's arguments
	// (args[0] == "gambit") or go's ("go test -bench ..."). {tmp} stands
	// for a temporary directory.
	args []string
	// stdin names a file under the repository's root for standard input.
	stdin string
	// small is the same command on a small input, run by the test;
	// smallLines, when not 0, feeds it only that many lines of stdin.
	small      []string
	smallLines int
	// long marks a figure that takes minutes: -short leaves it out.
	long bool
	// summary marks a figure whose standard error holds the figure (a
	// summary line) and whose standard output only the lines it sums up:
	// the page shows standard error alone.
	summary bool
}

func gambit(args ...string) []string { return append([]string{"gambit"}, args...) }

func goBench(args ...string) []string { return append([]string{"go", "test", "-run", "^$"}, args...) }

// ratingPlayers are the strategies of the rating round robins of
// docs/ai.md ("Calibrated ratings"), by game.
var ratingPlayers = map[string]string{
	"adjacency": "minimax,mcts,beam,seed001-minimax,seed002-alphabeta,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random",
	"connect4":  "minimax,mcts,seed004-minimax,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random",
	"tictactoe": "minimax,seed003-minimax,mcts,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random",
	"othello":   "minimax,mcts,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random",
	"gomoku":    "minimax,mcts,beam,annealing,hill-steepest,hill-sideways,hill-stochastic,genetic,genetic-roulette,greedy,random",
}

// figures are the figures of the page, in its order.
var figures = []figure{
	{name: "Adjacency perft, depth 5", about: "The move generator's speed: every line of 5 moves from the 28-round start.",
		args: gambit("perft", "--game", "adjacency", "--depth", "5"), small: gambit("perft", "--game", "adjacency", "--depth", "2")},
	{name: "Connect Four perft, depth 8", about: "The move generator's speed from the empty board.",
		args: gambit("perft", "--game", "connect4", "--depth", "8"), small: gambit("perft", "--game", "connect4", "--depth", "2")},
	{name: "Othello perft, depth 9", about: "The move generator's speed (bitboards, bulk counting at the leaves).",
		args: gambit("perft", "--game", "othello", "--depth", "9"), small: gambit("perft", "--game", "othello", "--depth", "2")},
	{name: "Tic-Tac-Toe perft, depth 9", about: "Every game of Tic-Tac-Toe.",
		args: gambit("perft", "--game", "tictactoe", "--depth", "9"), small: gambit("perft", "--game", "tictactoe", "--depth", "2")},
	{name: "Connect Four solver, Pons' set L3_R1", about: "1,000 end-game positions solved exactly, the table kept from line to line; the summary (mean time and nodes) is on stderr.",
		args: gambit("solve", "--game", "connect4"), stdin: "engine/connect4/testdata/Test_L3_R1", summary: true, small: gambit("solve", "--game", "connect4"), smallLines: 5},
	{name: "Connect Four solver, Pons' set L2_R1", about: "1,000 middle-game positions, as above.",
		args: gambit("solve", "--game", "connect4"), stdin: "engine/connect4/testdata/Test_L2_R1", summary: true, small: gambit("solve", "--game", "connect4"), smallLines: 5},
	{name: "Connect Four solver, Pons' set L2_R2", about: "1,000 harder middle-game positions, as above.",
		args: gambit("solve", "--game", "connect4"), stdin: "engine/connect4/testdata/Test_L2_R2", summary: true, small: gambit("solve", "--game", "connect4"), smallLines: 2},
	{name: "Connect Four solver, Pons' set L1_R1", about: "1,000 opening positions, as above.",
		args: gambit("solve", "--game", "connect4"), stdin: "engine/connect4/testdata/Test_L1_R1", summary: true, small: gambit("solve", "--game", "connect4"), smallLines: 2},
	{name: "Connect Four solver, Pons' set L1_R2", about: "1,000 harder opening positions, as above: minutes.",
		args: gambit("solve", "--game", "connect4"), stdin: "engine/connect4/testdata/Test_L1_R2", summary: true, small: gambit("solve", "--game", "connect4"), smallLines: 1, long: true},
	{name: "8-puzzle, every algorithm", about: "Each search on one 13-move position: length, nodes, time and whether the answer is proved shortest.",
		args: gambit("solve", "--game", "8puzzle", "--position", "1,2,3,5,6,0,7,8,4", "--compare"), small: gambit("solve", "--game", "8puzzle", "--position", "1,2,3,5,6,0,7,8,4", "--compare", "--nodes", "2000")},
	{name: "15-puzzle, IDA* with pattern databases", about: "A hard 15-puzzle position; the pattern databases are built first (their time is given apart).",
		args: gambit("solve", "--game", "15puzzle", "--position", "0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1"), small: gambit("solve", "--game", "15puzzle", "--position", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15", "--algorithm", "idastar"), long: true},
	{name: "N-Queens, a million queens", about: "Min-conflicts placing 1,000,000 queens, the solution checked.",
		args: gambit("solve", "--game", "nqueens", "--n", "1000000", "--algorithm", "min-conflicts"), small: gambit("solve", "--game", "nqueens", "--n", "8", "--algorithm", "min-conflicts")},
	{name: "Arena: minimax, greedy and hill-steepest, 8 rounds, node-bounded", about: "A round robin whose moves are bounded by nodes and seeded, so its table is the same on any machine.",
		args:  gambit("arena", "--game", "adjacency", "--players", "minimax,greedy,hill-steepest", "--rounds", "8", "--games", "20", "--nodes", "3000", "--seed", "1", "--concurrency", "2"),
		small: gambit("arena", "--game", "adjacency", "--players", "minimax,greedy", "--rounds", "8", "--games", "2", "--nodes", "200", "--seed", "1")},
	{name: "Database: durable commits a second (bbolt)", about: "100 games with 10 moves each, each commit synced to disk.",
		args: gambit("db", "bench", "--db", "{tmp}/bench.db", "--games", "100", "--moves", "10"), summary: true,
		small: gambit("db", "bench", "--db", "{tmp}/bench.db", "--games", "2", "--moves", "2")},
	rating("adjacency", "8", "--rounds", "8"),
	rating("connect4", "10"),
	rating("tictactoe", "10"),
	rating("othello", "10"),
	rating("gomoku", "10"),
	{name: "Adjacency: depth from the opening in 1 s (adjsearch)", about: "Nominal depth and nodes a second, 1 and 2 threads.",
		args: goBench("-bench", "OpeningDepth", "-benchtime", "3x", "./strategies/adjsearch"), small: goBench("-bench", "OpeningDepth", "-benchtime", "1x", "./strategies/adjsearch"), long: true},
	{name: "Adjacency: exact solves of self-play endgames (adjsearch)", about: "16, 18 and 20 plies from the end.",
		args: goBench("-bench", "SolveGames", "-benchtime", "3x", "./strategies/adjsearch"), small: goBench("-bench", "SolveGames", "-benchtime", "1x", "./strategies/adjsearch"), long: true},
	{name: "Connect Four solver, Pons' protocol (tables emptied)", about: "Mean time and nodes a position on set L2_R2, one core.",
		args: goBench("-bench", "Solve/L2_R2/", "-cpu", "1", "./strategies/c4solver"), small: goBench("-bench", "Solve/L3_R1/", "-benchtime", "1x", "-cpu", "1", "./strategies/c4solver"), long: true},
	{name: "Deadline overshoot, every core loaded", about: "How late a search stops after its 20 ms and 200 ms deadlines.",
		args: goBench("-bench", "DeadlineOvershoot", "-benchtime", "40x", "./strategies"), small: goBench("-bench", "DeadlineOvershoot", "-benchtime", "1x", "./strategies"), long: true},
	{name: "Bot: click to first response, 200 games", about: "From the click leaving the simulated client to the bot's first response, through the stand-in.",
		args: goBench("-bench", "LoadFirstResponse", "-benchtime", "10x", "-count", "3", "./bot"), small: goBench("-bench", "LoadFirstResponse200Games", "-benchtime", "1x", "./bot"), long: true},
}

// rating is the figure of a game's rating round robin (docs/ai.md, "Calibrated ratings").
func rating(game, games string, extra ...string) figure {
	args := append([]string{"arena", "--game", game}, extra...)
	args = append(args, "--players", ratingPlayers[game], "--games", games, "--time", "20ms", "--seed", "1", "--concurrency", "2")
	return figure{
		name:  "Ratings: every strategy of " + game + ", 20 ms a move",
		about: "The round robin the AIs' ratings come from: minutes.",
		args:  gambit(args...),
		small: gambit(append(append([]string{"arena", "--game", game}, extra...), "--players", "minimax,greedy", "--games", "2", "--time", "5ms", "--seed", "1")...),
		long:  true,
	}
}

func main() {
	short := flag.Bool("short", false, "leave out the figures that take minutes")
	outPath := flag.String("out", "docs/figures.md", "the page to write")
	flag.Parse()
	if err := write(*outPath, *short); err != nil {
		fmt.Fprintf(os.Stderr, "figures: %v\n", err)
		os.Exit(1)
	}
}

// write runs the figures and writes the page.
func write(path string, short bool) error {
	tmp, err := os.MkdirTemp("", "gambit-figures-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := buildGambit(".", tmp)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Figures\n\nGenerated by `go run ./internal/figures")
	if short {
		fmt.Fprint(&b, " -short")
	}
	fmt.Fprintf(&b, "` from the table in `internal/figures/figures.go`; do not edit by hand.\n")
	fmt.Fprintf(&b, "Each figure gives its command: run it from the repository's root (`gambit` is `go run ./cmd/gambit`).\n\n")
	fmt.Fprintf(&b, "- commit: %s\n", commit("."))
	fmt.Fprintf(&b, "- machine: %s, %d cores, %s/%s\n", cpuModel(), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "- Go: %s\n", runtime.Version())
	fmt.Fprintf(&b, "- date: %s\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "- load average (1, 5, 15 minutes) before: %s\n", loadAverage())
	var body bytes.Buffer
	for _, f := range figures {
		fmt.Fprintf(&body, "\n## %s\n\n%s\n\n`%s`", f.name, f.about, commandLine(f.args, f.stdin))
		if short && f.long {
			fmt.Fprintf(&body, "\n\nNot run by `-short`: it takes minutes.\n")
			continue
		}
		fmt.Fprintf(os.Stderr, "figures: %s\n", f.name)
		start := time.Now()
		stdout, stderr, err := runFigure(".", bin, tmp, f.args, f.stdin, 0)
		if err != nil {
			return fmt.Errorf("%s: %w\n%s", f.name, err, stderr)
		}
		if f.summary {
			stdout = ""
		}
		fmt.Fprintf(&body, " (%.1f s)\n\n```text\n%s```\n", time.Since(start).Seconds(), excerpt(stdout, stderr))
	}
	fmt.Fprintf(&b, "- load average after: %s\n", loadAverage())
	fmt.Fprintf(&b, "\nOther work on the machine slows what is timed: read the times with the load beside them.\n")
	b.Write(body.Bytes())
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "figures: wrote %s\n", path)
	return nil
}

// buildGambit builds the gambit binary of the module at root into dir.
func buildGambit(root, dir string) (string, error) {
	bin := filepath.Join(dir, "gambit")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/gambit")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// runFigure runs a figure's command line from root, gambit as bin and
// {tmp} as tmp, with the file stdin (if any) as its standard input, cut to
// its first lines lines when lines > 0.
func runFigure(root, bin, tmp string, args []string, stdin string, lines int) (stdout, stderr string, err error) {
	argv := make([]string, len(args))
	for i, a := range args {
		argv[i] = strings.ReplaceAll(a, "{tmp}", tmp)
	}
	if argv[0] == "gambit" {
		argv[0] = bin
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = root
	if stdin != "" {
		in, err := os.ReadFile(filepath.Join(root, stdin))
		if err != nil {
			return "", "", err
		}
		if lines > 0 {
			all := strings.SplitAfter(string(in), "\n")
			in = []byte(strings.Join(all[:min(lines, len(all))], ""))
		}
		cmd.Stdin = bytes.NewReader(in)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// excerpt is what the page shows of a run: the last 40 lines of its
// standard output and the last 5 of its standard error.
func excerpt(stdout, stderr string) string {
	var b strings.Builder
	writeTail(&b, stdout, 40)
	if strings.TrimSpace(stderr) != "" {
		if strings.TrimSpace(stdout) != "" {
			b.WriteString("stderr:\n")
		}
		writeTail(&b, stderr, 5)
	}
	return b.String()
}

func writeTail(w io.Writer, text string, n int) {
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(text, "\r", "\n"), "\n"), "\n")
	var kept []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" || len(kept) > 0 {
			kept = append(kept, l)
		}
	}
	if len(kept) > n {
		fmt.Fprintf(w, "… (%d lines before)\n", len(kept)-n)
		kept = kept[len(kept)-n:]
	}
	for _, l := range kept {
		fmt.Fprintln(w, l)
	}
}

// commandLine writes a command as a shell would take it, {tmp} as /tmp.
func commandLine(args []string, stdin string) string {
	words := make([]string, len(args))
	for i, a := range args {
		a = strings.ReplaceAll(a, "{tmp}", "/tmp")
		if a == "" || strings.ContainsAny(a, " '\"$^*?[]|<>&;()\\") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		words[i] = a
	}
	line := strings.Join(words, " ")
	if stdin != "" {
		line += " < " + stdin
	}
	return line
}

// commit is the short hash of HEAD, marked when the checkout has
// uncommitted changes.
func commit(root string) string {
	out, err := gitOutput(root, "rev-parse", "--short", "HEAD")
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	if status, err := gitOutput(root, "status", "--porcelain", "--untracked-files=no"); err == nil && status != "" {
		out += ", with uncommitted changes"
	}
	return out
}

func gitOutput(root string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// cpuModel is the CPU's model name from /proc/cpuinfo.
func cpuModel() string {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(info), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// loadAverage is the 1, 5 and 15-minute load averages from /proc/loadavg.
func loadAverage() string {
	avg, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(avg))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], ", ")
}
