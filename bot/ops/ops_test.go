package ops_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/gambitbot/gambit/bot/ops"
	"github.com/gambitbot/gambit/internal/discordtest"
)

// hang bounds a wait for something another goroutine does, which only a
// hang makes long: it lasts until the test binary's deadline, less the
// margin a failure report needs, so a loaded machine makes these tests
// slower, never failing.
func hang(t *testing.T) time.Duration {
	t.Helper()
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d)
	}
	return time.Hour
}

// serve starts h on a test server and returns its URL.
func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// token is the operations token of the tests' /backup.
const token = "test-ops-token-0123456789abcdef"

// bearer sets the request's Authorization to a bearer token.
func bearer(token string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }
}

// do sends a request, changed by each of edit, and returns the response
// with its body read.
func do(t *testing.T, method, url string, edit ...func(*http.Request)) (*http.Response, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), hang(t))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edit {
		e(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, url, err)
	}
	return resp, body
}

// health gets /healthz and decodes its answer.
func health(t *testing.T, url string) (int, ops.Health) {
	t.Helper()
	resp, body := do(t, http.MethodGet, url+"/healthz")
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var h ops.Health
	if err := json.Unmarshal(body, &h); err != nil {
		t.Fatalf("healthz body %q: %v", body, err)
	}
	return resp.StatusCode, h
}

func ok(context.Context) error { return nil }

// deadlineSeen is a context's deadline as a probe or snapshot saw it, and
// when it looked.
type deadlineSeen struct {
	deadline, at time.Time
	has          bool
}

// seeDeadline records ctx's deadline in seen.
func seeDeadline(ctx context.Context, seen chan<- deadlineSeen) {
	d, has := ctx.Deadline()
	seen <- deadlineSeen{deadline: d, at: time.Now(), has: has}
}

// checkDeadline checks that what saw was given a deadline of timeout
// from when it started: it started after sent (the request was sent) and
// before it looked, so the deadline lies between those plus timeout,
// however slowly the request went.
func checkDeadline(t *testing.T, what string, seen deadlineSeen, sent time.Time, timeout time.Duration) {
	t.Helper()
	if !seen.has {
		t.Errorf("%s had no deadline, want %s", what, timeout)
	} else if seen.deadline.Before(sent.Add(timeout)) || seen.deadline.After(seen.at.Add(timeout)) {
		t.Errorf("%s's deadline is %s after the request and %s after it looked, want %s from its start",
			what, seen.deadline.Sub(sent), seen.deadline.Sub(seen.at), timeout)
	}
}

func TestHealthzOK(t *testing.T) {
	probed := make(chan deadlineSeen, 1)
	storage := func(ctx context.Context) error {
		seeDeadline(ctx, probed)
		return nil
	}
	url := serve(t, ops.Handler(ops.NewMetrics(), []ops.Check{{"storage", storage}, {"gateway", ok}}, ops.Backup{}))

	sent := time.Now()
	code, h := health(t, url)
	if code != http.StatusOK {
		t.Errorf("status %d, want 200", code)
	}
	want := ops.Health{Status: "ok", Checks: map[string]string{"storage": "ok", "gateway": "ok"}}
	if !reflect.DeepEqual(h, want) {
		t.Errorf("got %+v, want %+v", h, want)
	}
	checkDeadline(t, "the probe", <-probed, sent, ops.ProbeTimeout)

	// The exact body the operator's monitoring sees.
	_, body := do(t, http.MethodGet, url+"/healthz")
	if got, want := string(body), `{"status":"ok","checks":{"gateway":"ok","storage":"ok"}}`+"\n"; got != want {
		t.Errorf("body %q, want %q", got, want)
	}
}

func TestHealthzFailing(t *testing.T) {
	gateway := func(context.Context) error { return errors.New("gateway: session closed: 4004 Authentication failed") }
	panicky := func(context.Context) error { panic("out of cheese") }
	checks := []ops.Check{{"storage", ok}, {"gateway", gateway}, {"cache", panicky}}
	url := serve(t, ops.Handler(ops.NewMetrics(), checks, ops.Backup{}))

	code, h := health(t, url)
	if code != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", code)
	}
	if h.Status != "failing" {
		t.Errorf("status %q, want failing", h.Status)
	}
	if got := h.Checks["storage"]; got != "ok" {
		t.Errorf("storage %q, want ok", got)
	}
	if got, want := h.Checks["gateway"], "gateway: session closed: 4004 Authentication failed"; got != want {
		t.Errorf("gateway %q, want %q", got, want)
	}
	if got := h.Checks["cache"]; !strings.Contains(got, "panicked: out of cheese") {
		t.Errorf("cache %q, want the probe's panic", got)
	}
}

func TestHealthzProbeTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	// One probe honours its context, the other ignores it, and the third
	// answers once the other two have started: the probes must run
	// concurrently. When the polite one gives up, the others must have
	// started too: probes run one after the other would fail that, in
	// any order, without the test timing anything.
	storageStarted, gatewayStarted, engineStarted := make(chan struct{}), make(chan struct{}), make(chan struct{})
	othersRunning := make(chan bool, 1)
	started := func(c chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}
	polite := func(ctx context.Context) error {
		close(storageStarted)
		<-ctx.Done()
		othersRunning <- started(gatewayStarted) && started(engineStarted)
		return ctx.Err()
	}
	stuck := func(context.Context) error { close(gatewayStarted); <-release; return nil }
	engine := func(ctx context.Context) error {
		close(engineStarted)
		for _, c := range []chan struct{}{storageStarted, gatewayStarted} {
			select {
			case <-c:
			case <-ctx.Done():
				return fmt.Errorf("the other probes did not start: %w", ctx.Err())
			}
		}
		return nil
	}
	checks := []ops.Check{{"storage", polite}, {"gateway", stuck}, {"engine", engine}}
	url := serve(t, ops.Handler(ops.NewMetrics(), checks, ops.Backup{}))

	start := time.Now()
	code, h := health(t, url)
	elapsed := time.Since(start)
	if code != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", code)
	}
	for _, name := range []string{"storage", "gateway"} {
		if got := h.Checks[name]; !strings.Contains(got, "no answer within 2s") || !strings.Contains(got, "deadline exceeded") {
			t.Errorf("%s: %q, want a timeout", name, got)
		}
	}
	if got := h.Checks["engine"]; got != "ok" {
		t.Errorf("engine %q, want ok", got)
	}
	if !<-othersRunning {
		t.Error("the storage probe timed out before the other probes started: probes run one after the other")
	}
	if elapsed < ops.ProbeTimeout {
		t.Errorf("answered after %s, before a probe's timeout (%s)", elapsed, ops.ProbeTimeout)
	}
}

func TestHandlerRejectsBadChecks(t *testing.T) {
	for name, checks := range map[string][]ops.Check{
		"no name":   {{"", ok}},
		"duplicate": {{"storage", ok}, {"storage", ok}},
		"no probe":  {{"storage", nil}},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("Handler accepted the checks")
				}
			}()
			ops.Handler(ops.NewMetrics(), checks, ops.Backup{})
		})
	}
}

func TestMetrics(t *testing.T) {
	m := ops.NewMetrics()
	m.Interactions.Handled.WithLabelValues("command:/play", "ok").Inc()
	m.Interactions.Handled.WithLabelValues("command:/play", "ok").Inc()
	m.Interactions.Handled.WithLabelValues("component:move", "panic").Inc()
	m.Interactions.FirstResponse.WithLabelValues("command:/play").Observe(0.120)
	m.AI.Queue.Set(3)
	m.AI.Wait.Observe(0.5)
	m.AI.SearchSeconds.WithLabelValues("connect4").Observe(1.5)
	m.AI.SearchDepth.WithLabelValues("connect4").Observe(14)
	m.AI.Overshoot.WithLabelValues("connect4").Observe(0.004)
	m.REST.Errors.WithLabelValues("404", "10008").Inc()
	m.Games.Active.Set(7)
	m.Games.ChallengesPending.Set(2)
	url := serve(t, ops.Handler(m, nil, ops.Backup{}))

	resp, body := do(t, http.MethodGet, url+"/metrics")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("parsing the exposition: %v\n%s", err, body)
	}

	// metric finds the one sample of family name with the given labels.
	metric := func(name string, typ dto.MetricType, labels ...string) *dto.Metric {
		t.Helper()
		f := fams[name]
		if f == nil {
			t.Fatalf("no %s in the exposition", name)
		}
		if f.GetType() != typ {
			t.Errorf("%s is a %s, want %s", name, f.GetType(), typ)
		}
		if f.GetHelp() == "" {
			t.Errorf("%s has no help text", name)
		}
	next:
		for _, s := range f.GetMetric() {
			for i := 0; i+1 < len(labels); i += 2 {
				found := false
				for _, l := range s.GetLabel() {
					found = found || l.GetName() == labels[i] && l.GetValue() == labels[i+1]
				}
				if !found {
					continue next
				}
			}
			return s
		}
		t.Fatalf("no %s%q in the exposition", name, labels)
		return nil
	}
	histogram := func(name string, count uint64, sum float64, labels ...string) {
		t.Helper()
		h := metric(name, dto.MetricType_HISTOGRAM, labels...).GetHistogram()
		if h.GetSampleCount() != count || h.GetSampleSum() != sum {
			t.Errorf("%s%q: %d samples summing to %g, want %d summing to %g", name, labels, h.GetSampleCount(), h.GetSampleSum(), count, sum)
		}
	}
	value := func(name string, typ dto.MetricType, want float64, labels ...string) {
		t.Helper()
		s := metric(name, typ, labels...)
		got := s.GetCounter().GetValue() + s.GetGauge().GetValue()
		if got != want {
			t.Errorf("%s%q = %g, want %g", name, labels, got, want)
		}
	}

	value("gambit_interactions_total", dto.MetricType_COUNTER, 2, "kind", "command:/play", "outcome", "ok")
	value("gambit_interactions_total", dto.MetricType_COUNTER, 1, "kind", "component:move", "outcome", "panic")
	histogram("gambit_interaction_first_response_seconds", 1, 0.120, "kind", "command:/play")
	value("gambit_ai_queue_length", dto.MetricType_GAUGE, 3)
	histogram("gambit_ai_queue_wait_seconds", 1, 0.5)
	histogram("gambit_ai_search_seconds", 1, 1.5, "game", "connect4")
	histogram("gambit_ai_search_depth", 1, 14, "game", "connect4")
	histogram("gambit_ai_overshoot_seconds", 1, 0.004, "game", "connect4")
	value("gambit_discord_rest_errors_total", dto.MetricType_COUNTER, 1, "status", "404", "code", "10008")
	value("gambit_games_active", dto.MetricType_GAUGE, 7)
	value("gambit_challenges_pending", dto.MetricType_GAUGE, 2)

	// The first response's buckets reach Discord's 3 s deadline; the
	// overshoot's run from 1 ms to 1 s.
	bounds := func(name string, labels ...string) (lo, hi float64) {
		t.Helper()
		b := metric(name, dto.MetricType_HISTOGRAM, labels...).GetHistogram().GetBucket()
		if n := len(b); n > 0 && math.IsInf(b[n-1].GetUpperBound(), +1) {
			b = b[:n-1] // the exposition's +Inf bucket
		}
		if len(b) == 0 {
			t.Fatalf("%s has no buckets", name)
		}
		return b[0].GetUpperBound(), b[len(b)-1].GetUpperBound()
	}
	if lo, hi := bounds("gambit_interaction_first_response_seconds", "kind", "command:/play"); lo != 0.001 || hi != 3 {
		t.Errorf("first response buckets %g … %g, want 0.001 … 3", lo, hi)
	}
	if lo, hi := bounds("gambit_ai_overshoot_seconds", "game", "connect4"); lo != 0.001 || hi != 1 {
		t.Errorf("overshoot buckets %g … %g, want 0.001 … 1", lo, hi)
	}

	// The Go runtime and process collectors are there too.
	for _, name := range []string{"go_goroutines", "process_cpu_seconds_total"} {
		if fams[name] == nil {
			t.Errorf("no %s in the exposition", name)
		}
	}
}

// TestMetricsLint holds the metric names and help texts to Prometheus's
// conventions (units in names, _total on counters).
func TestMetricsLint(t *testing.T) {
	m := ops.NewMetrics()
	// Vectors only appear once they have a child.
	m.Interactions.Handled.WithLabelValues("command:/play", "ok")
	m.Interactions.FirstResponse.WithLabelValues("command:/play")
	m.AI.SearchSeconds.WithLabelValues("connect4")
	m.AI.SearchDepth.WithLabelValues("connect4")
	m.AI.Overshoot.WithLabelValues("connect4")
	m.REST.Errors.WithLabelValues("500", "0")
	names := []string{
		"gambit_interactions_total", "gambit_interaction_first_response_seconds",
		"gambit_ai_queue_length", "gambit_ai_queue_wait_seconds",
		"gambit_ai_search_seconds", "gambit_ai_search_depth", "gambit_ai_overshoot_seconds",
		"gambit_discord_rest_errors_total", "gambit_games_active", "gambit_challenges_pending",
	}
	// Each metric has one series here.
	if n, err := testutil.GatherAndCount(m.Registry, names...); err != nil || n != len(names) {
		t.Errorf("gathered %d series of %d metrics (%v)", n, len(names), err)
	}
	problems, err := testutil.GatherAndLint(m.Registry, names...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

// snapshotOf returns a Snapshot whose copies hold data.
func snapshotOf(t *testing.T, data []byte) ops.Snapshot {
	return func(ctx context.Context) (*os.File, error) {
		if ctx == nil {
			return nil, errors.New("no context")
		}
		f, err := os.CreateTemp(t.TempDir(), "snapshot-*")
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return nil, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
}

func TestBackup(t *testing.T) {
	data := make([]byte, 1<<20+17) // more than any buffer on the way
	for i := range data {
		data[i] = byte(rand.Uint32())
	}
	url := serve(t, ops.Handler(ops.NewMetrics(), nil, ops.Backup{Snapshot: snapshotOf(t, data), Token: token}))

	before := time.Now().UTC().Truncate(time.Second)
	resp, body := do(t, http.MethodGet, url+"/backup", bearer(token))
	after := time.Now().UTC()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/octet-stream" {
		t.Errorf("Content-Type %q, want application/octet-stream", ct)
	}
	if resp.ContentLength != int64(len(data)) {
		t.Errorf("Content-Length %d, want %d", resp.ContentLength, len(data))
	}
	cd := resp.Header.Get("Content-Disposition")
	match := regexp.MustCompile(`^attachment; filename="gambit-(\d{8}T\d{6}Z)\.db"$`).FindStringSubmatch(cd)
	if match == nil {
		t.Errorf("Content-Disposition %q, want an attachment named gambit-<UTC timestamp>.db", cd)
	} else if stamp, err := time.Parse("20060102T150405Z", match[1]); err != nil || stamp.Before(before) || stamp.After(after) {
		t.Errorf("backup named for %s (%v), want between %s and %s", match[1], err, before, after)
	}
	if !bytes.Equal(body, data) {
		t.Errorf("got %d bytes, want the %d the snapshot holds", len(body), len(data))
	}

	// Each request takes a new copy, so a resumed download would splice
	// two copies: a range gets the whole copy.
	resp, body = do(t, http.MethodGet, url+"/backup", bearer(token), func(r *http.Request) { r.Header.Set("Range", "bytes=1000-") })
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, data) {
		t.Errorf("GET /backup from byte 1000: status %d, %d bytes; want 200 with all %d", resp.StatusCode, len(body), len(data))
	}

	resp, body = do(t, http.MethodHead, url+"/backup", bearer(token))
	if resp.StatusCode != http.StatusOK || len(body) != 0 || resp.Header.Get("Content-Disposition") == "" {
		t.Errorf("HEAD /backup: status %d, %d bytes, Content-Disposition %q", resp.StatusCode, len(body), resp.Header.Get("Content-Disposition"))
	}
}

// TestBackupNeedsTheToken checks that /backup answers only the operations
// token, and is off without one, while /healthz and /metrics need none.
func TestBackupNeedsTheToken(t *testing.T) {
	data := []byte("the whole database")
	checks := []ops.Check{{"storage", ok}}
	t.Run("off without a token", func(t *testing.T) {
		url := serve(t, ops.Handler(ops.NewMetrics(), checks, ops.Backup{Snapshot: snapshotOf(t, data)}))
		for _, edit := range []func(*http.Request){bearer(""), bearer(token)} {
			resp, body := do(t, http.MethodGet, url+"/backup", edit)
			if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "GAMBIT_OPS_TOKEN") || bytes.Contains(body, data) {
				t.Errorf("status %d, body %q; want 403 saying how to turn /backup on", resp.StatusCode, body)
			}
		}
	})
	url := serve(t, ops.Handler(ops.NewMetrics(), checks, ops.Backup{Snapshot: snapshotOf(t, data), Token: token}))
	for name, edit := range map[string]func(*http.Request){
		"no token":        func(*http.Request) {},
		"empty token":     bearer(""),
		"wrong token":     bearer("test-ops-token-0123456789abcdeF"),
		"a prefix":        bearer(token[:len(token)-1]),
		"a longer token":  bearer(token + "0"),
		"basic auth":      func(r *http.Request) { r.SetBasicAuth("ops", token) },
		"the token alone": func(r *http.Request) { r.Header.Set("Authorization", token) },
	} {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			resp, body := do(t, method, url+"/backup", edit)
			if resp.StatusCode != http.StatusUnauthorized || bytes.Contains(body, data) || resp.Header.Get("Content-Disposition") != "" {
				t.Errorf("%s, %s: status %d, body %q; want 401 and no backup", name, method, resp.StatusCode, body)
			}
			if got := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer ") {
				t.Errorf("%s, %s: WWW-Authenticate %q, want a Bearer challenge", name, method, got)
			}
		}
	}
	for _, scheme := range []string{"Bearer", "bearer"} {
		resp, body := do(t, http.MethodGet, url+"/backup", func(r *http.Request) { r.Header.Set("Authorization", scheme+" "+token) })
		if resp.StatusCode != http.StatusOK || !bytes.Equal(body, data) {
			t.Errorf("%s and the token: status %d, body %q; want the backup", scheme, resp.StatusCode, body)
		}
	}
	for _, path := range []string{"/healthz", "/metrics"} {
		if resp, body := do(t, http.MethodGet, url+path); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s without a token: status %d, body %q; want 200", path, resp.StatusCode, body)
		}
	}
}

func TestBackupFails(t *testing.T) {
	t.Run("snapshot error", func(t *testing.T) {
		snapshot := func(context.Context) (*os.File, error) {
			return nil, errors.New("storage: snapshot data/gambit.db: database not open")
		}
		url := serve(t, ops.Handler(ops.NewMetrics(), nil, ops.Backup{Snapshot: snapshot, Token: token}))
		resp, body := do(t, http.MethodGet, url+"/backup", bearer(token))
		if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(string(body), "database not open") {
			t.Errorf("status %d, body %q; want 500 with the error", resp.StatusCode, body)
		}
		if cd := resp.Header.Get("Content-Disposition"); cd != "" {
			t.Errorf("failed backup offered as a download: %q", cd)
		}
	})
	t.Run("too slow", func(t *testing.T) {
		deadline := make(chan deadlineSeen, 1)
		snapshot := func(ctx context.Context) (*os.File, error) {
			seeDeadline(ctx, deadline)
			<-ctx.Done()
			return nil, fmt.Errorf("storage: snapshot data/gambit.db: %w", ctx.Err())
		}
		url := serve(t, ops.Handler(ops.NewMetrics(), nil, ops.Backup{Snapshot: snapshot, Token: token}))
		sent := time.Now()
		resp, body := do(t, http.MethodGet, url+"/backup", bearer(token))
		if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(string(body), "took longer than 3s") ||
			!strings.Contains(string(body), "gambit db backup") {
			t.Errorf("status %d, body %q; want 500 saying the copy took too long and what to do", resp.StatusCode, body)
		}
		checkDeadline(t, "the snapshot", <-deadline, sent, ops.SnapshotTimeout)
	})
}

func TestBackupNil(t *testing.T) {
	resp, _ := do(t, http.MethodGet, serve(t, ops.Handler(ops.NewMetrics(), nil, ops.Backup{Token: token}))+"/backup", bearer(token))
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("status %d, want 404", resp.StatusCode)
	}
}

func TestMethodNotAllowed(t *testing.T) {
	snapshot := func(context.Context) (*os.File, error) {
		return nil, errors.New("backup ran")
	}
	url := serve(t, ops.Handler(ops.NewMetrics(), []ops.Check{{"storage", ok}}, ops.Backup{Snapshot: snapshot, Token: token}))
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		for _, path := range []string{"/healthz", "/metrics", "/backup"} {
			resp, body := do(t, method, url+path, bearer(token))
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: status %d (%q), want 405", method, path, resp.StatusCode, body)
			}
			if allow := resp.Header.Get("Allow"); !strings.Contains(allow, "GET") {
				t.Errorf("%s %s: Allow %q, want GET", method, path, allow)
			}
		}
	}
}

func TestUnknownPath(t *testing.T) {
	url := serve(t, ops.Handler(ops.NewMetrics(), []ops.Check{{"storage", ok}}, ops.Backup{}))
	for _, path := range []string{"/", "/health", "/healthz/storage", "/metrics/x", "/debug/pprof/"} {
		resp, _ := do(t, http.MethodGet, url+path)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", path, resp.StatusCode)
		}
	}
}

func TestListenAddr(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		err      string // part of the error; "" when none is wanted
	}{
		{in: ":9090", want: "127.0.0.1:9090"},
		{in: "9090", want: "127.0.0.1:9090"},
		{in: "09090", want: "127.0.0.1:9090"},
		{in: "65535", want: "127.0.0.1:65535"},
		{in: "0.0.0.0:9090", want: "0.0.0.0:9090"},
		{in: "[::]:9090", want: "[::]:9090"},
		{in: "[::1]:9090", want: "[::1]:9090"},
		{in: "10.0.0.5:9090", want: "10.0.0.5:9090"},
		{in: "127.0.0.1:9090", want: "127.0.0.1:9090"},
		{in: ":0", want: "127.0.0.1:0"},
		{in: "localhost:9090", want: "localhost:9090"},
		{in: "ops.internal.example:1", want: "ops.internal.example:1"},
		{in: "[fe80::1%eth0]:9090", want: "[fe80::1%eth0]:9090"},

		{in: "", err: "empty"},
		{in: ":", err: `port ""`},
		{in: "65536", err: `port "65536"`},
		{in: ":99999", err: `port "99999"`},
		{in: ":-1", err: `port "-1"`},
		{in: ":+80", err: `port "+80"`},
		{in: ":http", err: `port "http"`},
		{in: "0.0.0.0:", err: `port ""`},
		{in: "0.0.0.0", err: "neither a port"},
		{in: "localhost", err: "neither a port"},
		{in: "garbage", err: "neither a port"},
		{in: " 9090", err: "neither a port"},
		{in: "::1:9090", err: "too many colons"},
		{in: "[::1]", err: "missing port"},
		{in: "[::1:9090", err: "missing ']'"},
		{in: "bad host!:9090", err: `host "bad host!"`},
		{in: "-x.example:9090", err: `host "-x.example"`},
		{in: "a..b:9090", err: `host "a..b"`},
	} {
		got, err := ops.ListenAddr(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ListenAddr(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		case tc.err != "" && err == nil:
			t.Errorf("ListenAddr(%q) = %q, want an error", tc.in, got)
		case tc.err != "" && (!strings.Contains(err.Error(), "GAMBIT_OPS_ADDR") || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ListenAddr(%q): error %q, want one naming GAMBIT_OPS_ADDR and saying %q", tc.in, err, tc.err)
		}
	}
}

// startServe runs Serve on a free loopback port and returns its address
// and the channel its result arrives on.
func startServe(t *testing.T, ctx context.Context, h http.Handler) (net.Addr, <-chan error) {
	t.Helper()
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- ops.Serve(ctx, "127.0.0.1:0", h, func(a net.Addr) { ready <- a }) }()
	select {
	case addr := <-ready:
		return addr, done
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	case <-time.After(hang(t)):
		t.Fatal("Serve did not report its address")
	}
	return nil, nil
}

// stopped waits for Serve's result.
func stopped(t *testing.T, done <-chan error, within time.Duration) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(within):
		t.Fatalf("Serve still running %s after its context ended", within)
		return nil
	}
}

func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	addr, done := startServe(t, ctx, ops.Handler(ops.NewMetrics(), []ops.Check{{"storage", ok}}, ops.Backup{}))
	tcp, isTCP := addr.(*net.TCPAddr)
	if !isTCP || !tcp.IP.IsLoopback() || tcp.Port == 0 {
		t.Fatalf("Serve reported %v, want a loopback address with the port it chose", addr)
	}

	code, h := health(t, "http://"+addr.String())
	if code != http.StatusOK || h.Status != "ok" {
		t.Errorf("healthz through Serve: %d %+v", code, h)
	}

	cancel()
	if err := stopped(t, done, hang(t)); err != nil {
		t.Errorf("Serve after its context ended: %v", err)
	}
	if conn, err := net.DialTimeout("tcp", addr.String(), hang(t)); err == nil {
		conn.Close()
		t.Errorf("%s still accepts connections after Serve returned", addr)
	}
}

// TestServeCancelsInFlight checks that a long request (a backup) learns
// that the bot stops, so that shutdown does not wait for it.
func TestServeCancelsInFlight(t *testing.T) {
	started := make(chan struct{})
	sawCancel := make(chan error, 1)
	snapshot := func(ctx context.Context) (*os.File, error) {
		close(started)
		<-ctx.Done()
		sawCancel <- ctx.Err()
		return nil, ctx.Err()
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	addr, done := startServe(t, ctx, ops.Handler(ops.NewMetrics(), nil, ops.Backup{Snapshot: snapshot, Token: token}))

	go func() {
		req, err := http.NewRequest(http.MethodGet, "http://"+addr.String()+"/backup", nil)
		if err != nil {
			return
		}
		bearer(token)(req)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	select {
	case <-started:
	case <-time.After(hang(t)):
		t.Fatal("the backup did not start")
	}
	cancel()
	// Serve returns nil only after a shutdown that ended in time: a backup
	// that did not learn of it would hold the shutdown until
	// ShutdownTimeout and make Serve return an error.
	if err := stopped(t, done, hang(t)); err != nil {
		t.Errorf("Serve: %v", err)
	}
	if err := <-sawCancel; !errors.Is(err, context.Canceled) {
		t.Errorf("backup's context ended with %v, want cancelled", err)
	}
}

func TestServeListenError(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()

	called := false
	err = ops.Serve(t.Context(), addr, http.NotFoundHandler(), func(net.Addr) { called = true })
	if err == nil || !strings.HasPrefix(err.Error(), "ops: listen "+addr+": ") {
		t.Errorf("Serve on a taken address: %v, want ops: listen %s: …", err, addr)
	}
	if called {
		t.Error("Serve called ready without listening")
	}
}

// TestServeRefusesForeignHosts checks the defence against DNS rebinding: on
// a loopback address only loopback names reach the endpoint, so a web page
// whose host name now resolves to 127.0.0.1 gets nothing, a backup least of
// all.
func TestServeRefusesForeignHosts(t *testing.T) {
	data := []byte("the whole database")
	h := ops.Handler(ops.NewMetrics(), []ops.Check{{"storage", ok}}, ops.Backup{Snapshot: snapshotOf(t, data), Token: token})
	addr, _ := startServe(t, t.Context(), h)
	port := strconv.Itoa(addr.(*net.TCPAddr).Port)
	url := "http://" + addr.String()
	host := func(h string) func(*http.Request) { return func(r *http.Request) { r.Host = h } }

	for _, foreign := range []string{
		"evil.example", "evil.example:" + port, "localhost.evil.example:" + port, "127.0.0.1.evil.example",
		"localhost:1", "127.0.0.1:" + port + "0", "10.0.0.5:" + port, "0.0.0.0:" + port, "[::]:" + port, "[fe80::1%25lo]:" + port,
	} {
		for _, path := range []string{"/healthz", "/metrics", "/backup"} {
			resp, body := do(t, http.MethodGet, url+path, host(foreign), bearer(token))
			if resp.StatusCode != http.StatusMisdirectedRequest || bytes.Contains(body, data) || !strings.Contains(string(body), "loopback") {
				t.Errorf("GET %s with Host %q: status %d, body %q; want 421 saying why", path, foreign, resp.StatusCode, body)
			}
		}
	}
	for _, local := range []string{
		addr.String(), "127.0.0.1", "localhost:" + port, "LocalHost", "127.0.0.2:" + port, "[::1]:" + port, "[::1]",
	} {
		resp, body := do(t, http.MethodGet, url+"/backup", host(local), bearer(token))
		if resp.StatusCode != http.StatusOK || !bytes.Equal(body, data) {
			t.Errorf("GET /backup with Host %q: status %d, body %q; want the backup", local, resp.StatusCode, body)
		}
	}

	// HTTP/1.0 allows a request without Host; on loopback it is refused too.
	conn, err := net.DialTimeout("tcp", addr.String(), hang(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /healthz HTTP/1.0\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(hang(t))); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("HTTP/1.0 without Host: status %d, want 421", resp.StatusCode)
	}
}

func TestValidateToken(t *testing.T) {
	for _, good := range []string{
		"0123456789abcdef", "a3f1c9e2b4d6a8f0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a6c8e0b2d4f6a8",
		"dGhlIG9wcyB0b2tlbiwgYmFzZTY0==", "with-._~+/chars0", "AAAA-bbbb_CCCC.dddd",
	} {
		if err := ops.ValidateToken(good); err != nil {
			t.Errorf("ValidateToken(%q): %v", good, err)
		}
	}
	for _, bad := range []string{
		"", "short", "0123456789abcde", "0123456789abcdef ghij", "0123456789abcdef\n", "0123456789abcdef\"",
		"0123456789=abcdef", "================", "päßwörd-päßwörd!", "Bearer 0123456789abcdef",
	} {
		err := ops.ValidateToken(bad)
		if err == nil {
			t.Errorf("ValidateToken(%q) accepted it", bad)
			continue
		}
		if !strings.Contains(err.Error(), "GAMBIT_OPS_TOKEN") || bad != "" && strings.Contains(err.Error(), bad) {
			t.Errorf("ValidateToken(%q): %q; want an error naming GAMBIT_OPS_TOKEN but not showing the token", bad, err)
		}
	}
}
