// Package ops is the bot's operations endpoint: an optional HTTP server,
// enabled by GAMBIT_OPS_ADDR, that serves
//
//   - GET /healthz: the named health checks, as JSON, 200 or 503;
//   - GET /metrics: the bot's Prometheus metrics ([Metrics]);
//   - GET /backup: a consistent copy of the database, as a download, only
//     to a client that presents the operations token (GAMBIT_OPS_TOKEN).
//
// [ListenAddr] turns the operator's GAMBIT_OPS_ADDR into a listen address
// (loopback unless a host is given), [ValidateToken] checks the token,
// [Handler] builds the endpoint and [Serve] runs it until the bot stops,
// refusing requests for foreign host names on a loopback address (DNS
// rebinding).
package ops

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/netip"
	"os"
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

// SnapshotTimeout bounds the copy GET /backup takes before sending it. A
// write that grows the database waits for the copy, so a copy that takes
// longer fails rather than hold the bot's writes past Discord's 3-second
// deadline.
const SnapshotTimeout = 3 * time.Second

// Timeouts of [Serve]'s server. A backup is sent from its own copy, so a
// slow download holds up nothing but itself, and WriteTimeout only ends
// downloads that would never finish.
const (
	// ReadHeaderTimeout bounds reading a request's head.
	ReadHeaderTimeout = 10 * time.Second
	// ReadTimeout bounds reading a whole request (they have no body).
	ReadTimeout = 30 * time.Second
	// WriteTimeout bounds writing a response, a backup download included.
	WriteTimeout = 10 * time.Minute
	// IdleTimeout closes kept-alive connections idle this long.
	IdleTimeout = 2 * time.Minute
)

// MinTokenLength is the shortest operations token [ValidateToken] accepts.
const MinTokenLength = 16

// The least variety [ValidateToken] accepts in a token: distinct
// characters, and bits of entropy estimated from the frequency of its
// characters (its length times their Shannon entropy). A token of one
// character repeated has none; `openssl rand -hex 32` makes one of about
// 250 bits.
const (
	MinTokenDistinct = 6
	MinTokenBits     = 40
)

// Check is one named health check, e.g. "storage" or "gateway".
type Check struct {
	// Name names the check in /healthz's answer.
	Name string
	// Probe reports whether the checked part works: nil if it does, an
	// error saying what is wrong if not. Its context expires after
	// [ProbeTimeout]; a probe that has not returned by then fails.
	Probe func(ctx context.Context) error
}

// Snapshot takes a consistent copy of the database and returns it as a
// file open for reading at its start, holding no lock on the database any
// more: however slowly the file is read, the bot's writes go on. Closing
// the file discards the copy. storage/bolt's (*Store).Snapshot has this
// signature. It must stop when ctx is done (the copy took too long, the
// client went away, the bot stops).
type Snapshot func(ctx context.Context) (*os.File, error)

// Backup configures GET /backup.
type Backup struct {
	// Snapshot takes the copy sent. When nil, /backup does not exist (404).
	Snapshot Snapshot
	// Token is the operations token (GAMBIT_OPS_TOKEN) that a request must
	// present as "Authorization: Bearer <Token>". When empty, /backup is
	// off: it answers 403 saying how to turn it on.
	Token string
}

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
//   - GET /backup takes a copy with backup.Snapshot, bounded by
//     [SnapshotTimeout], and sends it as application/octet-stream with its
//     Content-Length, named "gambit-<UTC timestamp>.db" by its
//     Content-Disposition. It ignores Range: each request takes a new
//     copy, and parts of two copies do not make a database.
//     It needs backup.Token as a bearer token: a request without it or
//     with another gets 401, and without a token configured /backup is off
//     (403). /healthz and /metrics need no token.
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
	if backup.Snapshot != nil {
		mux.Handle("GET /backup", requireToken(backup.Token, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			serveBackup(w, r, backup.Snapshot)
		})))
	}
	return mux
}

// requireToken passes to next only the requests that present token as
// their bearer token; it refuses every request when token is empty.
func requireToken(token string, next http.Handler) http.Handler {
	if token == "" {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "ops: /backup is off: set GAMBIT_OPS_TOKEN to turn it on, then send it as \"Authorization: Bearer <token>\"", http.StatusForbidden)
		})
	}
	// Comparing digests takes the same time whatever the length and the
	// content of the presented token.
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, presented, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		got := sha256.Sum256([]byte(presented))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 || !strings.EqualFold(scheme, "Bearer") {
			w.Header().Set("WWW-Authenticate", `Bearer realm="gambit-ops"`)
			http.Error(w, "ops: /backup needs the operations token: send \"Authorization: Bearer <GAMBIT_OPS_TOKEN>\"", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ValidateToken checks an operations token (GAMBIT_OPS_TOKEN): at least
// [MinTokenLength] characters, all of them allowed in a bearer token
// (letters, digits and -._~+/, then = signs at the end), and not too
// predictable (see [MinTokenDistinct] and [MinTokenBits]). Its error names
// the setting but never shows the token.
func ValidateToken(token string) error {
	bad := func(why string) error {
		return fmt.Errorf("ops: GAMBIT_OPS_TOKEN: %s; make one with: openssl rand -hex 32", why)
	}
	if len(token) < MinTokenLength {
		return bad(fmt.Sprintf("%d characters, want at least %d", len(token), MinTokenLength))
	}
	body := strings.TrimRight(token, "=")
	if body == "" || strings.TrimLeft(body, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/") != "" {
		return bad("a character other than letters, digits and -._~+/ (and = at the end)")
	}
	if distinct, bits := tokenEntropy(token); distinct < MinTokenDistinct || bits < MinTokenBits {
		return bad(fmt.Sprintf("too easy to guess: %d different characters, about %.0f bits; want at least %d and %d bits",
			distinct, bits, MinTokenDistinct, MinTokenBits))
	}
	return nil
}

// tokenEntropy returns the distinct characters of token and its entropy in
// bits estimated from their frequencies: its length times their Shannon
// entropy.
func tokenEntropy(token string) (distinct int, bits float64) {
	counts := map[rune]int{}
	n := 0
	for _, r := range token {
		counts[r]++
		n++
	}
	for _, c := range counts {
		p := float64(c) / float64(n)
		bits -= float64(n) * p * math.Log2(p)
	}
	return len(counts), bits
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
func serveBackup(w http.ResponseWriter, r *http.Request, snapshot Snapshot) {
	name := "gambit-" + time.Now().UTC().Format("20060102T150405Z") + ".db"
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method == http.MethodHead {
		return
	}
	fail := func(msg string) {
		h.Del("Content-Disposition")
		http.Error(w, "ops: backup: "+msg, http.StatusInternalServerError)
	}
	ctx, cancel := context.WithTimeout(r.Context(), SnapshotTimeout)
	defer cancel()
	f, err := snapshot(ctx)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			fail(fmt.Sprintf("the copy took longer than %s, as long as it may hold up the bot's writes; "+
				"stop the bot and run gambit db backup instead (%v)", SnapshotTimeout, err))
		} else {
			fail(err.Error())
		}
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		fail(err.Error())
		return
	}
	// The copy is taken and holds up nothing: its download may be slow.
	// A client that goes away gets a short file, which the length exposes.
	h.Set("Content-Length", strconv.FormatInt(fi.Size(), 10))
	_, _ = io.Copy(w, f)
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
//
// On a loopback address Serve answers only requests whose Host is a
// loopback name or address (localhost, 127.0.0.1, [::1], …) without a port
// or with the bound one, and refuses others with 421: a web page that
// rebinds its own host name to 127.0.0.1 (DNS rebinding) reaches the
// endpoint with its own name as Host. The server's timeouts are
// [ReadHeaderTimeout], [ReadTimeout], [WriteTimeout] and [IdleTimeout].
func Serve(ctx context.Context, addr string, h http.Handler, ready func(net.Addr)) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("ops: listen %s: %w", addr, err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsLoopback() {
		h = loopbackHostsOnly(h, strconv.Itoa(tcp.Port))
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
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

// loopbackHostsOnly passes to h the requests whose Host header is a
// loopback name or address with no port or the given one, and answers
// others 421 Misdirected Request.
func loopbackHostsOnly(h http.Handler, port string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host, port) {
			http.Error(w, fmt.Sprintf("ops: Host %q refused: this endpoint listens on loopback and answers only localhost, 127.0.0.1 or [::1]", r.Host),
				http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether host, a Host header, names a loopback
// address ("localhost", "127.0.0.1", "[::1]"), with no port or port.
func loopbackHost(host, port string) bool {
	name, p, err := net.SplitHostPort(host)
	if err != nil { // no port
		name, p = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), port
	}
	if p != port {
		return false
	}
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(name)
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}
