package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/strategies"
)

// ExternalGrace is how long an external engine may run past the move's
// deadline (its process starting and answering) before it is killed.
const ExternalGrace = 10 * time.Second

// External is a strategy of another gambit binary — typically an earlier
// version, to measure a change against — asked for each move by running
// `PATH analyze --json` on the position and reading its Report.
type External struct {
	// Game is the game's name, for --game.
	Game string
	// Path is the gambit binary.
	Path string
	// Strategy is the strategy's name in that binary.
	Strategy string
}

// NamedExternal is an external strategy under the name it plays as.
type NamedExternal struct {
	Name string
	External
}

// ParseExternal reads a list of NAME=STRATEGY@PATH entries separated by
// commas (gambit arena's --external) into external strategies of game;
// PATH must be an executable, looked up in PATH if it has no slash.
func ParseExternal(game, list string) ([]NamedExternal, error) {
	var out []NamedExternal
	for entry := range strings.SplitSeq(list, ",") {
		if entry = strings.TrimSpace(entry); entry == "" {
			continue
		}
		name, rest, ok1 := strings.Cut(entry, "=")
		strategy, path, ok2 := strings.Cut(rest, "@")
		name, strategy, path = strings.TrimSpace(name), strings.TrimSpace(strategy), strings.TrimSpace(path)
		if !ok1 || !ok2 || name == "" || strategy == "" || path == "" {
			return nil, fmt.Errorf("--external %q: want NAME=STRATEGY@PATH, such as minimax-v1=minimax@/tmp/gambit-old", entry)
		}
		resolved, err := exec.LookPath(path)
		if err != nil {
			return nil, fmt.Errorf("--external %s: %w", name, err)
		}
		out = append(out, NamedExternal{Name: name, External: External{Game: game, Path: resolved, Strategy: strategy}})
	}
	return out, nil
}

// Search runs the binary's analyze on pos with the limits (one process per
// move: its start-up counts against the move's time). The move's deadline,
// if any, becomes --time; without one the search is bounded by the node
// or depth limit alone.
func (x External) Search(ctx context.Context, pos engine.Position, limits strategies.Limits) (strategies.Result, error) {
	args := []string{"analyze", "--game", x.Game, "--position", pos.String(), "--strategy", x.Strategy,
		"--threads", strconv.Itoa(max(limits.Threads, 1)), "--json"}
	if limits.HashMiB > 0 {
		args = append(args, "--hash", strconv.Itoa(limits.HashMiB))
	}
	if limits.Nodes > 0 {
		args = append(args, "--nodes", strconv.FormatUint(limits.Nodes, 10))
	}
	if limits.Depth > 0 {
		args = append(args, "--depth", strconv.Itoa(limits.Depth))
	}
	// The process outlives the move's deadline by a grace period, but not
	// the tournament: a cancelled context (not an expired one) stops it.
	timeArg, stop := "24h", time.Now().Add(24*time.Hour)
	if deadline, ok := ctx.Deadline(); ok {
		timeArg, stop = max(time.Until(deadline), time.Millisecond).String(), deadline.Add(ExternalGrace)
	}
	args = append(args, "--time", timeArg)
	runCtx, cancel := context.WithDeadline(context.WithoutCancel(ctx), stop)
	defer cancel()
	stopOnCancel := context.AfterFunc(ctx, func() {
		if ctx.Err() == context.Canceled {
			cancel()
		}
	})
	defer stopOnCancel()
	cmd := exec.CommandContext(runCtx, x.Path, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return strategies.Result{}, fmt.Errorf("external %s %s: %w: %s", x.Path, x.Strategy, err, strings.TrimSpace(stderr.String()))
	}
	var answer Report
	if err := json.Unmarshal(stdout.Bytes(), &answer); err != nil {
		return strategies.Result{}, fmt.Errorf("external %s %s: read its answer %q: %w", x.Path, x.Strategy, stdout.String(), err)
	}
	move, err := pos.ParseMove(answer.Move)
	if err != nil {
		return strategies.Result{}, fmt.Errorf("external %s %s: its move: %w", x.Path, x.Strategy, err)
	}
	return strategies.Result{Move: move, Score: answer.Score, Exact: answer.Exact, Depth: answer.Depth, Nodes: answer.Nodes}, nil
}
