package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/rogpeppe/go-internal/testscript"
)

// runMainEnv makes the test binary run gambit's main instead of the tests,
// so that tests can start the real process and signal it.
const runMainEnv = "GAMBIT_TEST_RUN_MAIN"

// TestMain also installs gambit as a command of the testscripts
// (script_test.go): run under the name gambit, the test binary is gambit.
func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		return
	}
	testscript.Main(waitingTests{m}, map[string]func(){"gambit": main})
}

// processTests is how many tests run at once (go test's -parallel, unless
// given): the tests that run gambit processes — the drills, the load
// test, the processes' own tests, the scripts — call t.Parallel and
// spend most of their time waiting for those processes, for leases and
// for answers, so that more of them than the cores run at once.
const processTests = 8

// waitingTests runs the tests with processTests at once; testscript.Main
// runs it only in the test binary's own process, not in a command it runs.
type waitingTests struct{ m *testing.M }

func (w waitingTests) Run() int {
	discordtest.WaitingTests(processTests)
	defer removePlain()
	return w.m.Run()
}

func TestBotNeedsATokenAndValidSettings(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "")
	code, _, errOut := gambit("bot")
	if code != 1 || !strings.Contains(errOut, "DISCORD_TOKEN is not set") || !strings.Contains(errOut, "gambit playground") ||
		strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Errorf("without a token: exit %d, stderr %q; want one line naming DISCORD_TOKEN and the playground", code, errOut)
	}
	t.Setenv("DISCORD_TOKEN", "secret-token-value")
	t.Setenv("GAMBIT_MOVE_TIME", "fast")
	t.Setenv("GAMBIT_LOG_LEVEL", "loud")
	t.Setenv("GAMBIT_OPS_ADDR", "9090")
	t.Setenv("GAMBIT_OPS_TOKEN", "ops secret!")
	code, _, errOut = gambit("bot")
	for _, name := range []string{"GAMBIT_MOVE_TIME", "GAMBIT_LOG_LEVEL", "GAMBIT_OPS_TOKEN"} {
		if code != 1 || !strings.Contains(errOut, name) {
			t.Errorf("bad settings: exit %d, stderr %q; want %s named", code, errOut, name)
		}
	}
	for _, secret := range []string{"secret-token-value", "ops secret!"} {
		if strings.Contains(errOut, secret) {
			t.Errorf("the token %q appears in the error output", secret)
		}
	}
	t.Setenv("GAMBIT_MOVE_TIME", "")
	t.Setenv("GAMBIT_LOG_LEVEL", "")
	t.Setenv("GAMBIT_OPS_ADDR", "")
	t.Setenv("GAMBIT_OPS_TOKEN", "")
	t.Setenv("DISCORD_API_URL", "http://127.0.0.1:1/api/v10")
	t.Setenv("GAMBIT_DB", filepath.Join(t.TempDir(), "gambit.db"))
	if code, _, errOut = gambit("bot"); code != 1 || !strings.Contains(errOut, "DISCORD_API_URL") {
		t.Errorf("an API URL with a path: exit %d, stderr %q", code, errOut)
	}
}

// lineWaiter collects a process's stderr lines and waits for patterns.
type lineWaiter struct {
	mu    sync.Mutex
	lines []string
	cond  *sync.Cond
}

func newLineWaiter(r io.Reader) *lineWaiter {
	w := &lineWaiter{}
	w.cond = sync.NewCond(&w.mu)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			w.mu.Lock()
			w.lines = append(w.lines, sc.Text())
			w.cond.Broadcast()
			w.mu.Unlock()
		}
		w.mu.Lock()
		w.lines = append(w.lines, "<EOF>")
		w.cond.Broadcast()
		w.mu.Unlock()
	}()
	return w
}

// wait returns the first submatch of re in a line, waiting for it until
// shortly before the test's deadline (discordtest.UntilTestDeadline).
func (w *lineWaiter) wait(t *testing.T, re *regexp.Regexp) string {
	t.Helper()
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	stop := context.AfterFunc(ctx, func() { w.mu.Lock(); w.lines = append(w.lines, "<TIMEOUT>"); w.cond.Broadcast(); w.mu.Unlock() })
	defer stop()
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := 0; ; i++ {
		for i >= len(w.lines) {
			w.cond.Wait()
		}
		if m := re.FindStringSubmatch(w.lines[i]); m != nil {
			return m[len(m)-1]
		}
		if w.lines[i] == "<EOF>" || w.lines[i] == "<TIMEOUT>" {
			t.Fatalf("no line matching %s; output:\n%s", re, strings.Join(w.lines, "\n"))
		}
	}
}

func (w *lineWaiter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.lines, "\n")
}

// quietRaceExit returns env with the race runtime told not to sleep at
// exit (GORACE's atexit_sleep_ms, a second by default, which waits for
// nothing in a process that has ended its work): the test binary run as
// gambit is built with -race, and the tests wait for every process they
// stop. A race found still prints and still exits with status 66.
func quietRaceExit(env []string) []string {
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GORACE="); ok {
			env[i] = "GORACE=" + strings.TrimSpace(v+" atexit_sleep_ms=0")
			return env
		}
	}
	return append(env, "GORACE=atexit_sleep_ms=0")
}

// startGambit starts the test binary as gambit with args in dir (where no
// .env is), with env added to the environment, and returns the process
// and a reader of its standard error (or, if !stderr, its output). The
// process is killed when the test ends if it still runs.
func startGambit(t *testing.T, dir string, stderr bool, args []string, env ...string) (*exec.Cmd, *lineWaiter) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = quietRaceExit(append(append(os.Environ(), runMainEnv+"=1"), env...))
	cmd.Dir = dir
	pipe, err := cmd.StdoutPipe()
	if stderr {
		pipe, err = cmd.StderrPipe()
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, newLineWaiter(pipe)
}

func TestBotProcessServesAndStopsOnSIGTERM(t *testing.T) {
	t.Parallel()
	srv := discordtest.New(discordtest.AnswerUntilTestDeadline(t)) // the 3 s rule runs on a manual clock in discordtest and bot
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "data", "gambit.db")
	const opsToken = "c0ffee-0123456789abcdef-ops-token"
	cmd, logs := startGambit(t, t.TempDir(), true, []string{"bot"},
		"DISCORD_TOKEN="+srv.Token(), "DISCORD_API_URL="+srv.URL(), "GAMBIT_DB="+db,
		"GAMBIT_OPS_ADDR=:0", "GAMBIT_OPS_TOKEN="+opsToken, "GAMBIT_MOVE_TIME=100ms", "GAMBIT_LOG_LEVEL=debug")
	addr := logs.wait(t, regexp.MustCompile(`operations endpoint"? addr=(\S+) backup=on`))
	logs.wait(t, regexp.MustCompile(`bot running`))

	alice := srv.AddUser("alice")
	ix, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice.ID, Name: "play", Options: []discordtest.Option{{Name: "game", Value: "tictactoe"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	if m, err := ix.Reply(ctx); err != nil || m.Ephemeral() {
		t.Fatalf("/play through the process: %+v, %v", m, err)
	}

	// The handler counts the interaction when it returns, just after the
	// reply: poll the metrics until they show it.
	for path, want := range map[string]string{
		"/healthz": `"gateway":"ok"`,
		"/metrics": `gambit_interactions_total{kind="command:/play",outcome="ok"} 1`,
	} {
		for {
			code, body := get(t, "http://"+addr+path)
			if code == http.StatusOK && strings.Contains(body, want) {
				break
			}
			if ctx.Err() != nil {
				t.Errorf("GET %s: %d %s; want 200 with %s", path, code, body, want)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if code, body := get(t, "http://"+addr+"/backup"); code != http.StatusUnauthorized || len(body) >= 4096 {
		t.Errorf("GET /backup without the token: %d with %d bytes; want 401", code, len(body))
	}
	if code, body := get(t, "http://"+addr+"/backup", "Authorization", "Bearer "+opsToken); code != http.StatusOK || len(body) < 4096 {
		t.Errorf("GET /backup with the token: %d with %d bytes; want a database file", code, len(body))
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	logs.wait(t, regexp.MustCompile(`bot stopped`))
	if err := cmd.Wait(); err != nil {
		t.Errorf("gambit bot after SIGTERM: %v; output:\n%s", err, logs)
	}
	for _, secret := range []string{srv.Token(), opsToken} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the token %q appears in the logs", secret)
		}
	}
	srv.AssertNoViolations(t)
	if _, err := os.Stat(db); err != nil {
		t.Errorf("the database was not created at GAMBIT_DB: %v", err)
	}
}

// get fetches a URL, with the given header names and values, and returns
// the status and body.
func get(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}
