// Command gambit is Gambit's one binary: the Discord bot and the
// command-line tools that make its engines and AI measurable.
//
// Run "gambit --help" for the list of subcommands and "gambit <command>
// --help" for each one's options.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
	"github.com/gambitbot/gambit/strategies"
)

// command is one subcommand of gambit.
type command struct {
	name    string
	summary string
	// run executes the command with its arguments (without its name). It
	// returns a usageError for bad arguments.
	run func(args []string, sio stdio) error
}

// stdio is a command's standard input, output and error.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// commands lists the subcommands in the order help shows them.
var commands = []command{
	{name: "playground", summary: "play without a Discord token: the real bot, a local Discord and a web page", run: runPlayground},
	{name: "bot", summary: "run the Discord bot (settings from the environment and .env)", run: runBot},
	{name: "serve", summary: "run the bot on an HTTP interactions endpoint, without a gateway (behind a load balancer)", run: runServe},
	{name: "worker", summary: "play the AI turns queued on PostgreSQL, without a gateway or endpoint (scale the AI)", run: runWorker},
	{name: "perft", summary: "count the leaves of a game tree: the check of the move generators", run: runPerft},
	{name: "solve", summary: "solve Connect Four positions exactly, and the puzzles: sliding tiles, N-Queens", run: runSolve},
	{name: "analyze", summary: "ask a strategy for its move in a position, with score, depth and line", run: runAnalyze},
	{name: "review", summary: "review a finished game: each move against the best one, the turning point, a replay", run: runReview},
	{name: "strategies", summary: "list the AI strategies: games, difficulty, description", run: runStrategies},
	{name: "arena", summary: "play strategies against each other and rate them (Elo with 95% intervals)", run: runArena},
	{name: "tournament", summary: "run a Swiss, round robin or Arena of strategies: standings and a TRF", run: runTournament},
	{name: "train", summary: "fit the weights of minimax's learned Adjacency evaluation by self-play", run: runTrain},
	{name: "play", summary: "play a game against a strategy in the terminal", run: runPlay},
	{name: "db", summary: "check, back up, inspect or benchmark the database", run: runDB},
	{name: "version", summary: "print the version, the commit and the Go that built this binary", run: runVersion},
}

// usageError marks an error in the command line, which exits with status
// 2 and points to --help.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func main() {
	if err := loadDotEnv(".env"); err != nil {
		fmt.Fprintf(os.Stderr, "gambit: %v\n", err)
		os.Exit(1)
	}
	os.Exit(run(os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
}

// run runs gambit with the given arguments and returns the exit status:
// 0 on success, 1 when the command fails, 2 for a bad command line.
func run(args []string, sio stdio) int {
	stdout, stderr := sio.out, sio.err
	if len(args) == 0 {
		printUsage(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && name == "help" {
			return run([]string{args[1], "--help"}, sio)
		}
		printUsage(stdout)
		return 0
	case "-version", "--version":
		name, args = "version", append([]string{"version"}, args[1:]...)
	}
	for _, c := range commands {
		if c.name != name {
			continue
		}
		err := c.run(args[1:], sio)
		var ue usageError
		switch {
		case err == nil, errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "gambit %s: %s\nRun 'gambit %s --help' for usage.\n", name, plainUsage(err), name)
			return 2
		default:
			fmt.Fprintf(stderr, "gambit %s: %v\n", name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "gambit: unknown command %q\n\n", name)
	printUsage(stderr)
	return 2
}

// packagePrefix matches the package names our errors begin with
// ("slidingtile: position …"): context for a log, noise in the answer to
// a mistake on the command line.
var packagePrefix = regexp.MustCompile(`^(?:(?:slidingtile|nqueens|tiles|queens|games|catalog|strategies|puzzles|c4solver|analysis|arena|terminal|engine): )+`)

// plainUsage is the text of a usage error for the person who typed the
// command: without the package names it begins with.
func plainUsage(err error) string {
	return packagePrefix.ReplaceAllString(err.Error(), "")
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `Gambit plays board games and puzzles in Discord channels, between people or
against AI strategies (the games are listed below). This binary is the bot
and the tools that measure its engines.

Usage:
  gambit <command> [options]

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Run 'gambit <command> --help' for a command's options.
`+wrap("Games: "+strings.Join(catalog.Names(), ", ")+". Position texts and move notation are "+
		`described in docs/playing.md, "The games".`, 76)+"\n")
}

// wrap breaks text into lines of at most width characters at spaces (a
// longer word stands alone on its line).
func wrap(text string, width int) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width:
			lines, line = append(lines, line), word
		default:
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// flagSet is a command's flags with its usage text, printed by --help.
type flagSet struct {
	*flag.FlagSet
	usage  string
	stdout io.Writer
}

// newFlagSet returns an empty flag set for the named command.
func newFlagSet(name, usage string, stdout io.Writer) *flagSet {
	fs := flag.NewFlagSet("gambit "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported once, by run
	fs.Usage = func() {}     // and the usage only on --help, by parse
	return &flagSet{FlagSet: fs, usage: withGames(usage), stdout: stdout}
}

// withGames writes the registered games' names in place of {games} in a
// usage text ("adjacency|connect4|…|nqueens"), and the duels' — the games
// the AI plays — in place of {duels} ("adjacency|connect4|…|gomoku").
func withGames(usage string) string {
	usage = strings.ReplaceAll(usage, "{games}", strings.Join(catalog.Names(), "|"))
	return strings.ReplaceAll(usage, "{duels}", strings.Join(duelNames(), "|"))
}

// duelNames are the names of the games between two players that the AI
// plays, which play, analyze, review and arena take.
func duelNames() []string {
	var names []string
	for _, g := range catalog.All() {
		if g.Players == 2 && g.AI != nil {
			names = append(names, g.Name)
		}
	}
	return names
}

// gameFlag registers the --game flag of a command that takes the games
// named.
func gameFlag(fs *flagSet, names []string) *string {
	return fs.String("game", "", "the game: "+strings.Join(names, ", ")+" (required)")
}

// errNoGame is the usage error of a command run without --game.
func errNoGame() error {
	return usagef("--game is required: %s", strings.Join(catalog.Names(), ", "))
}

// needAI refuses a game no AI plays (a puzzle) with a usage error that
// says how to solve it instead.
func needAI(game *games.Game) error {
	if len(strategies.ForGame(game.Name)) == 0 {
		return usagef("%s is a puzzle for one player, with no AI to play it: solve it with gambit solve --game %s (see gambit solve --help); AIs play %s",
			game.Name, game.Name, strings.Join(duelNames(), ", "))
	}
	return nil
}

// lookupAI finds the strategy name for game, as play, arena and analyze
// take it; any problem is a usage error. A puzzle has no AI: it is
// solved, and the error says with which command.
func lookupAI(name string, game *games.Game) (strategies.Info, error) {
	if err := needAI(game); err != nil {
		return strategies.Info{}, err
	}
	info, err := strategies.LookupFor(name, game.Name)
	if err != nil {
		return strategies.Info{}, usageError{err}
	}
	return info, nil
}

// parse parses args: --help prints the usage and the options and returns
// flag.ErrHelp; a bad flag or a stray argument is a usage error.
func (fs *flagSet) parse(args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(fs.stdout, strings.TrimSpace(fs.usage))
			fmt.Fprintln(fs.stdout, "\nOptions:")
			fs.SetOutput(fs.stdout)
			fs.PrintDefaults()
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// set returns the names of the flags given on the command line.
func (fs *flagSet) set() map[string]bool {
	set := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}
