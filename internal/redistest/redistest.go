// Package redistest runs a Redis server of a test's own, which the test
// may stop (SIGSTOP: a hung server that keeps its connections open),
// kill and start again, as the tests of the Discord rate limiter's
// fallback do. The shared test server (GAMBIT_TEST_REDIS_URL) must never
// be treated so: other tests use it at the same time.
//
// The server is Debian's redis-server, listening on a Unix socket in the
// test's temporary directory (no port to collide), without persistence.
// Without redis-server on the PATH a test skips, saying so, except in CI
// (CI=true), where that is a failure: .ci/redis installs it.
package redistest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server process of one test.
type Server struct {
	t    testing.TB
	dir  string
	sock string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed once cmd has exited
}

// Start starts a server for t, killed when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no redis-server: CI must run the tests of a stopped Redis (.ci/redis installs it): %v", err)
		}
		t.Skipf("no redis-server on the PATH (Debian: apt-get install redis-server): %v", err)
	}
	// A Unix socket's path is limited to about 100 bytes: t.TempDir()'s
	// can be longer.
	dir, err := os.MkdirTemp("", "gambit-redis-")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{t: t, dir: dir, sock: filepath.Join(dir, "redis.sock")}
	t.Cleanup(func() {
		s.Kill()
		_ = os.RemoveAll(dir)
	})
	s.Restart()
	return s
}

// URL is the server's URL, for redis.ParseURL.
func (s *Server) URL() string { return "unix://" + s.sock + "?db=0" }

// Client returns a new client of the server, closed when the test ends.
// It gives up on a command when its context ends (ContextTimeoutEnabled),
// as the bot's does.
func (s *Server) Client() *redis.Client {
	s.t.Helper()
	opts, err := redis.ParseURL(s.URL())
	if err != nil {
		s.t.Fatal(err)
	}
	opts.ContextTimeoutEnabled = true
	c := redis.NewClient(opts)
	s.t.Cleanup(func() { _ = c.Close() })
	return c
}

// Restart starts the server, after Kill, on the same socket: its data is
// gone. It returns once the server accepts connections.
func (s *Server) Restart() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		s.t.Fatal("redistest: Restart of a server that runs: Kill it first")
	}
	cmd := exec.Command("redis-server", "--port", "0", "--unixsocket", s.sock, "--unixsocketperm", "700",
		"--dir", s.dir, "--save", "", "--appendonly", "no", "--logfile", "")
	out, err := cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("redistest: start redis-server: %v", err)
	}
	// The server says when it is ready; what it says before is kept for
	// the report if it never is.
	ready := make(chan struct{})
	var log bytes.Buffer
	go func() {
		sc := bufio.NewScanner(out)
		said := false
		for sc.Scan() {
			if !said {
				log.WriteString(sc.Text() + "\n")
				if strings.Contains(strings.ToLower(sc.Text()), "ready to accept connections") {
					said = true
					close(ready)
				}
			}
		}
		_, _ = io.Copy(io.Discard, out)
		if !said {
			close(ready)
		}
	}()
	<-ready
	if !strings.Contains(strings.ToLower(log.String()), "ready to accept connections") {
		_ = cmd.Wait()
		s.t.Fatalf("redistest: redis-server did not start:\n%s", log.String())
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	s.cmd, s.exited = cmd, exited
}

// Stop freezes the server with SIGSTOP: its connections stay open and
// new ones are accepted by the system, but nothing is answered. It
// returns once the process is stopped.
func (s *Server) Stop() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signal(syscall.SIGSTOP)
	// kill(2) returns before the process stops: wait until the system
	// says it is (state T in /proc/PID/stat).
	stat := fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid)
	for {
		data, err := os.ReadFile(stat)
		if err != nil {
			s.t.Fatalf("redistest: %v", err)
		}
		// pid (comm) state ...: the state follows the last ')'.
		if f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:])); len(f) > 0 && (f[0] == "T" || f[0] == "t") {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// Continue thaws a server Stop froze.
func (s *Server) Continue() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signal(syscall.SIGCONT)
}

// Kill kills the server (SIGKILL, even while stopped) and waits for it to
// exit; Restart starts it again. A server not running is left so.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.exited
	s.cmd, s.exited = nil, nil
}

// signal sends sig to the running server. The caller holds s.mu.
func (s *Server) signal(sig syscall.Signal) {
	s.t.Helper()
	if s.cmd == nil {
		s.t.Fatalf("redistest: %v to a server that does not run", sig)
	}
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatalf("redistest: %v: %v", sig, err)
	}
}
