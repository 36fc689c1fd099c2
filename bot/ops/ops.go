// Package ops is the bot's operations endpoint: an optional HTTP server,
// enabled by GAMBIT_OPS_ADDR, that serves
//
//   - GET /healthz: the named health checks, as JSON, 200 or 503;
//   - GET /metrics: the bot's Prometheus metrics ([Metrics]);
//   - GET /backup: a consistent copy of the database, as a download.
//
// [ListenAddr] turns the operator's GAMBIT_OPS_ADDR into a listen address
// (loopback unless a host is given, since /backup hands out the whole
// database), [Handler] builds the endpoint and [Serve] runs it until the
// bot stops.
package ops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// ProbeTimeout bounds each health check's probe.
const ProbeTimeout = 2 * time.Second

// ShutdownTimeout bounds [Serve]'s graceful shutdown.
const ShutdownTimeout = 5 * time.Second

// Check is one named health check, e.g. "storage" or "gateway".
type Check struct {
	// Name names the check in /healthz's answer.
	Name string
	// Probe reports whether the checked part works: nil if it does, an
	// error saying what is wrong if not. Its context expires after
	// [ProbeTimeout]; a probe that has not returned by then fails.
	Probe func(ctx context.Context) error
}

// Backup writes a consistent database backup to w and returns the bytes
// written; storage/bolt's (*Store).WriteBackup has this signature. It
// should stop when ctx is done (the client went away, the bot stops).
type Backup func(ctx context.Context, w io.Writer) (int64, error)

// Health is the JSON body of a /healthz answer.
type Health struct {
	// Status is "ok" when every check passed, "failing" otherwise.
	Status string `json:"status"`
	// Checks maps each check's name to "ok" or its error text.
	Checks map[string]string `json:"checks"`
}

// Handler returns the operations endpoint:
//
//   - GET /healthz runs every check's probe concurrently, each bounded by
//     [ProbeTimeout], and answers a [Health] as JSON: 200 with
//     {"status":"ok","checks":{"gateway":"ok","storage":"ok"}} when all
//     passed, 503 with status "failing" and each failed check's error text
//     otherwise;
//   - GET /metrics serves m's registry in the Prometheus exposition format;
//   - GET /backup streams backup's output as application/octet-stream,
//     named "gambit-<UTC timestamp>.db" by its Content-Disposition. When
//     backup is nil, /backup does not exist (404).
//
// GET includes HEAD. Other methods get 405, unknown paths 404. m must not
// be nil.
// Handler panics when a check has no name, a name already taken or no
// probe: a programming error.
func Handler(m *Metrics, checks []Check, backup Backup) http.Handler {
	seen := make(map[string]bool, len(checks))
	for _, c := range checks {
		switch {
		case c.Name == "":
			panic("ops: a health check without a name")
		case seen[c.Name]:
			panic(fmt.Sprintf("ops: two health checks named %q", c.Name))
		case c.Probe == nil:
			panic(fmt.Sprintf("ops: health check %q without a probe", c.Name))
		}
		seen[c.Name] = true
	}
	checks = append([]Check(nil), checks...)

	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		serveHealth(w, r, checks)
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}))
	if backup != nil {
		mux.HandleFunc("GET /backup", func(w http.ResponseWriter, r *http.Request) {
			serveBackup(w, r, backup)
		})
	}
	return mux
}

// serveHealth answers GET /healthz.
func serveHealth(w http.ResponseWriter, r *http.Request, checks []Check) {
	results := make([]error, len(checks))
	var wg sync.WaitGroup
	for i, c := range checks {
		wg.Go(func() { results[i] = probe(r.Context(), c) })
	}
	wg.Wait()

	h := Health{Status: "ok", Checks: make(map[string]string, len(checks))}
	code := http.StatusOK
	for i, c := range checks {
		if err := results[i]; err != nil {
			h.Status, code = "failing", http.StatusServiceUnavailable
			h.Checks[c.Name] = err.Error()
		} else {
			h.Checks[c.Name] = "ok"
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(h) // fails only when the client has gone
}

// probe runs c's probe bounded by ProbeTimeout, also when the probe
// ignores its context: it then goes on in the background, and its result
// is dropped.
func probe(ctx context.Context, c Check) error {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("probe panicked: %v", p)
			}
		}()
		done <- c.Probe(ctx)
	}()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no answer within %s: %w", ProbeTimeout, err)
	}
	return err
}

// serveBackup answers GET /backup.
func serveBackup(w http.ResponseWriter, r *http.Request, backup Backup) {
	name := "gambit-" + time.Now().UTC().Format("20060102T150405Z") + ".db"
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method == http.MethodHead {
		return
	}
	cw := &countingWriter{w: w}
	if _, err := backup(r.Context(), cw); err != nil {
		if cw.n == 0 {
			h.Del("Content-Disposition")
			http.Error(w, fmt.Sprintf("ops: backup: %v", err), http.StatusInternalServerError)
			return
		}
		// The status and part of the copy are sent: break the connection
		// so that the client sees a failed download, not a short file.
		panic(http.ErrAbortHandler)
	}
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

// Write writes p to the underlying writer and counts what it took.
func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ListenAddr returns the address to listen on for an operator's
// GAMBIT_OPS_ADDR. An address without a host (":9090" or "9090") listens on
// loopback only ("127.0.0.1:9090"); one with a host ("0.0.0.0:9090",
// "[::]:9090", "10.0.0.5:9090", "localhost:9090") is used as given. The
// port must be a number from 0 to 65535; 0 takes any free port, which
// the bot logs at start (tests use it). Invalid values, the empty string
// included, return an error naming GAMBIT_OPS_ADDR; a caller treats an
// unset GAMBIT_OPS_ADDR as "no endpoint" before calling ListenAddr.
func ListenAddr(addr string) (string, error) {
	bad := func(format string, args ...any) (string, error) {
		return "", fmt.Errorf("ops: GAMBIT_OPS_ADDR %q: %s", addr, fmt.Sprintf(format, args...))
	}
	if addr == "" {
		return bad("empty; give a port (9090) or host and port (0.0.0.0:9090)")
	}
	host, port := "", addr
	if strings.ContainsAny(addr, ":[]") {
		var err error
		if host, port, err = net.SplitHostPort(addr); err != nil {
			var ae *net.AddrError
			if errors.As(err, &ae) {
				err = errors.New(ae.Err)
			}
			return bad("%v; give a port (9090) or host and port (0.0.0.0:9090, [::1]:9090)", err)
		}
	} else if strings.Trim(addr, "0123456789") != "" {
		return bad("neither a port (9090) nor host and port (0.0.0.0:9090)")
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return bad("port %q is not a number from 0 to 65535", port)
	}
	if host == "" {
		host = "127.0.0.1"
	} else if !validHost(host) {
		return bad("host %q is neither an IP address nor a host name", host)
	}
	return net.JoinHostPort(host, strconv.FormatUint(n, 10)), nil
}

// validHost reports whether host is an IP address (with a zone, for IPv6)
// or has the syntax of a DNS host name.
func validHost(host string) bool {
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	if len(host) > 253 {
		return false
	}
	for label := range strings.SplitSeq(strings.TrimSuffix(host, "."), ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// Serve listens on addr (already passed through [ListenAddr]) and serves h
// until ctx is done, then shuts down gracefully: it stops accepting
// connections and waits up to [ShutdownTimeout] for requests in flight,
// whose contexts are cancelled with ctx, before closing what is left.
// Before serving it passes the bound address to ready (if not nil), which
// tells the port chosen for ":0". It returns nil after a shutdown in time,
// or an error with context ("ops: listen 127.0.0.1:9090: ...").
func Serve(ctx context.Context, addr string, h http.Handler, ready func(net.Addr)) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("ops: listen %s: %w", addr, err)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	if ready != nil {
		ready(ln.Addr())
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	select {
	case err := <-served:
		return fmt.Errorf("ops: serve %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownTimeout)
	defer cancel()
	err = srv.Shutdown(sctx)
	if err != nil {
		err = errors.Join(err, srv.Close())
	}
	<-served // http.ErrServerClosed, now that Shutdown has begun
	if err != nil {
		return fmt.Errorf("ops: shut down %s: %w", ln.Addr(), err)
	}
	return nil
}
