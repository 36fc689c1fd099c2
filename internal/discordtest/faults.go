package discordtest

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Fault is a failure the server injects into the REST requests that match
// it, to test how the bot copes with Discord misbehaving.
type Fault struct {
	// Method and Route select the requests: an HTTP method and an OpenAPI
	// path template such as "/interactions/{interaction_id}/{interaction_token}/callback".
	// Empty matches every method or route.
	Method string
	Route  string
	// Times is how many matching requests fail; 0 means one.
	Times int
	// Delay holds each matching request back this long (in real time)
	// before it is answered, to simulate a slow Discord.
	Delay time.Duration
	// Gate, if not nil, holds each matching request until the gate opens
	// (Gate.Open), telling the test of its arrival (Gate.Arrived): a test
	// keeps Discord's answer back at an explicit point, with no sleep.
	Gate *Gate
	// Advance moves the server's ManualClock (WithClock) forward this much
	// when a matching request arrives, before it is answered: the request
	// takes that long as Discord sees it — a slow answer, or the wait of a
	// rate limit — without the test sleeping. InjectFault panics if the
	// server's clock is not a ManualClock.
	Advance time.Duration
	// Status is the answer: 429 for a rate limit, 500, 502 or any other
	// error status. 0 answers the request normally (after Delay).
	Status int
	// RetryAfter is the wait a 429 asks for.
	RetryAfter time.Duration
	// Global makes a 429 a global rate limit rather than a per-route one.
	Global bool
	// Drop closes the connection without an answer (after Delay), as a
	// network failure or a proxy reset would: the client's HTTP library
	// reports an error of its own, which carries the request's URL. Status
	// is then ignored.
	Drop bool
}

// Gate holds the requests of a Fault until it opens.
type Gate struct {
	arrived chan struct{}
	open    chan struct{}
	once    sync.Once
}

// NewGate returns a closed gate.
func NewGate() *Gate { return &Gate{arrived: make(chan struct{}), open: make(chan struct{})} }

// Arrived yields once for each request the gate holds, as it arrives.
func (g *Gate) Arrived() <-chan struct{} { return g.arrived }

// Open lets the requests held go, and those to come pass.
func (g *Gate) Open() { g.once.Do(func() { close(g.open) }) }

// hold tells of a request's arrival and waits until the gate opens; false
// if the request or the server ended first.
func (g *Gate) hold(ctx context.Context, done <-chan struct{}) bool {
	select {
	case g.arrived <- struct{}{}:
	case <-g.open:
		return true
	case <-ctx.Done():
		return false
	case <-done:
		return false
	}
	select {
	case <-g.open:
		return true
	case <-ctx.Done():
		return false
	case <-done:
		return false
	}
}

type pendingFault struct {
	Fault
	left int
}

// InjectFault arms a fault for the next matching requests. Faults are
// tried in the order they were injected; a request takes at most one.
func (s *Server) InjectFault(f Fault) {
	if _, manual := s.clock.(*ManualClock); f.Advance != 0 && !manual {
		panic("discordtest: Fault.Advance needs a server with a ManualClock")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &pendingFault{Fault: f, left: max(f.Times, 1)})
}

// ClearFaults disarms every fault still pending.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFault consumes the first fault matching a request.
func (s *Server) takeFault(method, route string) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, pf := range s.faults {
		if (pf.Method == "" || pf.Method == method) && (pf.Route == "" || pf.Route == route) {
			if pf.left--; pf.left == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
			f := pf.Fault
			return &f
		}
	}
	return nil
}

// applyFault injects the fault matching a request, if any, and reports
// whether the request should still be answered normally.
func (s *Server) applyFault(w *recorder, r *http.Request, route string) bool {
	f := s.takeFault(r.Method, route)
	if f == nil {
		return true
	}
	if f.Gate != nil && !f.Gate.hold(r.Context(), s.done) {
		return false
	}
	if f.Advance > 0 {
		s.clock.(*ManualClock).Advance(f.Advance)
	}
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return false
		case <-s.done:
			return false
		}
	}
	if f.Drop && w.drop() {
		return false
	}
	switch f.Status {
	case 0:
		return true
	case http.StatusTooManyRequests:
		s.writeRateLimit(w, route, f)
	case http.StatusBadGateway:
		// Discord's 502s come from its proxy, as HTML.
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>\n"))
	default:
		writeError(w, httpError(f.Status))
	}
	return false
}

// writeRateLimit answers 429 with Discord's headers and body.
func (s *Server) writeRateLimit(w http.ResponseWriter, route string, f *Fault) {
	secs := f.RetryAfter.Seconds()
	h := w.Header()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(s.clock.Now().Add(f.RetryAfter).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", fmt.Sprintf("%x", route))
	scope := "user"
	if f.Global {
		h.Set("X-RateLimit-Global", "true")
		scope = "global"
	}
	h.Set("X-RateLimit-Scope", scope)
	writeJSON(w, http.StatusTooManyRequests, map[string]any{
		"message":     "You are being rate limited.",
		"retry_after": secs,
		"global":      f.Global,
	})
}

// CloseGateway closes every connected gateway session's websocket with a
// close code, as Discord does when something goes wrong. With a resumable
// code (such as 4000) the sessions stay resumable and missed events are
// replayed on RESUME; with one that is not (4004, 4007 invalid seq, 4009
// session timed out, 4010-4014) the sessions end, so a RESUME gets
// INVALID SESSION and the client must IDENTIFY again. It returns the
// number of connections closed.
func (s *Server) CloseGateway(code int) int {
	s.mu.Lock()
	var conns []*gwConn
	for id, sess := range s.sessions {
		if c := sess.conn; c != nil {
			sess.conn, c.session = nil, nil
			conns = append(conns, c)
		}
		if !resumable(code) {
			delete(s.sessions, id)
		}
	}
	s.broadcast()
	s.mu.Unlock()
	for _, c := range conns {
		c.closeWith(code)
	}
	return len(conns)
}

// RequestReconnect sends RECONNECT (opcode 7) on every connection, asking
// clients to reconnect and resume, as Discord does before restarting a
// gateway node.
func (s *Server) RequestReconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.send(opReconnect, nil)
	}
}

// SetDispatchDelay delays, in real time, every event dispatched from now on
// (interactions, message events) before it is written to the websocket.
// Order is kept. Zero removes the delay.
func (s *Server) SetDispatchDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dispatchDelay = d
}
