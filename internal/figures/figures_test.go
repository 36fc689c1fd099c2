package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFiguresRunOnSmallInputs checks every figure of the page: its command
// still exists — gambit's subcommand takes every flag the figure gives it,
// a benchmark's -bench names a benchmark of its package — and its small
// variant runs and prints. Under -short the benchmarks are only looked up,
// not run (each would compile its package's tests).
func TestFiguresRunOnSmallInputs(t *testing.T) {
	root := filepath.Join("..", "..")
	bin, err := buildGambit(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figures {
		t.Run(f.name, func(t *testing.T) {
			if f.small[0] != f.args[0] || f.small[1] != f.args[1] {
				t.Fatalf("the small variant %q runs another command than %q", f.small, f.args)
			}
			switch f.args[0] {
			case "gambit":
				checkFlags(t, bin, f.args)
			case "go":
				checkBenchmark(t, root, f.args)
				checkBenchmark(t, root, f.small)
				if testing.Short() {
					return
				}
			default:
				t.Fatalf("%q: a figure runs gambit or go", f.args)
			}
			stdout, stderr, err := runFigure(root, bin, t.TempDir(), f.small, f.stdin, f.smallLines)
			if err != nil {
				t.Fatalf("%s: %v\n%s", commandLine(f.small, f.stdin), err, stderr)
			}
			if strings.TrimSpace(stdout) == "" {
				t.Errorf("%s printed nothing", commandLine(f.small, f.stdin))
			}
		})
	}
}

// checkFlags checks that gambit's subcommand of args lists every flag args
// give in its --help.
func checkFlags(t *testing.T, bin string, args []string) {
	t.Helper()
	sub := []string{args[1]}
	if args[1] == "db" {
		sub = append(sub, args[2])
	}
	help, err := exec.Command(bin, append(sub, "--help")...).Output()
	if err != nil {
		t.Fatalf("gambit %s --help: %v", strings.Join(sub, " "), err)
	}
	for _, a := range args[1:] {
		if name, ok := strings.CutPrefix(a, "--"); ok && !strings.Contains(string(help), "\n  -"+name+" ") && !strings.Contains(string(help), "\n  -"+name+"\n") {
			t.Errorf("gambit %s has no flag %s", strings.Join(sub, " "), a)
		}
	}
}

var benchmarkFunc = regexp.MustCompile(`(?m)^func Benchmark(\w+)\(`)

// checkBenchmark checks that a go test command's -bench names a benchmark
// of its package.
func checkBenchmark(t *testing.T, root string, args []string) {
	t.Helper()
	pattern, pkg := "", args[len(args)-1]
	for i, a := range args {
		if a == "-bench" && i+1 < len(args) {
			pattern = args[i+1]
		}
	}
	if pattern == "" || !strings.HasPrefix(pkg, "./") {
		t.Fatalf("%q: want -bench PATTERN and the package last", args)
	}
	re, err := regexp.Compile(strings.Split(pattern, "/")[0])
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, pkg, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range benchmarkFunc.FindAllSubmatch(src, -1) {
			if re.Match(m[1]) {
				return
			}
		}
	}
	t.Errorf("-bench %s names no benchmark of %s", pattern, pkg)
}

func TestCommandLineAndExcerpt(t *testing.T) {
	if got, want := commandLine([]string{"gambit", "db", "bench", "--db", "{tmp}/b.db", "--position", "x o"}, "engine/f"), "gambit db bench --db /tmp/b.db --position 'x o' < engine/f"; got != want {
		t.Errorf("commandLine = %q, want %q", got, want)
	}
	if got, want := commandLine(goBench("-bench", "A/B", "./p"), ""), "go test -run '^$' -bench A/B ./p"; got != want {
		t.Errorf("commandLine = %q, want %q", got, want)
	}
	var out strings.Builder
	for i := range 45 {
		out.WriteString(strings.Repeat("x", i%3+1) + "\n")
	}
	got := excerpt(out.String(), "progress\r50%\rdone\n")
	if !strings.HasPrefix(got, "… (5 lines before)\n") || !strings.HasSuffix(got, "stderr:\nprogress\n50%\ndone\n") || strings.Count(got, "\n") != 1+40+1+3 {
		t.Errorf("excerpt:\n%s", got)
	}
	if got := excerpt("", "1000 positions\n"); got != "1000 positions\n" {
		t.Errorf("a summary's excerpt = %q", got)
	}
}
