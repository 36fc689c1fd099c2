package discordtest

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/gambitbot/gambit/internal/apiurl"
)

// discordEpoch is the first millisecond of 2015, the epoch of Discord's
// snowflake IDs.
const discordEpoch = 1420070400000

// maxBodyBytes bounds request bodies (Discord's own upload limit is 25 MiB).
const maxBodyBytes = 25 << 20

// apiPrefix matches the versioned API prefix discordgo (v9) and current
// Discord clients (v10) use.
var apiPrefix = regexp.MustCompile(`^/api/v(9|10)(/.*)$`)

// Server is a running Discord stand-in. Create one with [New] and stop it
// with [Server.Close]. All methods are safe for concurrent use.
type Server struct {
	token string
	appID string
	bot   User
	clock Clock
	log   *slog.Logger
	spec  *spec

	http     *httptest.Server
	base     *url.URL
	upgrader websocket.Upgrader
	done     chan struct{}
	close    sync.Once
	subs     sync.WaitGroup

	mu             sync.Mutex
	changed        chan struct{} // closed and replaced on every change
	idSeq          uint64
	identity       Identity
	lean           bool // no body checks, no request log
	answerWithin   time.Duration
	defaultGuild   string
	defaultChannel string
	users          map[string]User
	guilds         map[string]*guild
	channels       map[string]*Channel
	messages       map[string]*Message
	order          []string             // message IDs in creation order
	commands       map[string][]Command // by guild ID, "" for global
	interactions   map[string]*interactionState
	byToken        map[string]*interactionState
	attachments    map[string]Attachment
	nonces         map[nonceKey]string // enforced nonces: the message each created
	requests       []Request
	violations     []Violation
	faults         []*pendingFault
	dispatchDelay  time.Duration
	sessions       map[string]*gwSession
	conns          map[*gwConn]bool
	subscribers    map[*subscriber]bool
	botPerms       map[string]int64  // channel ID → the bot's permissions there
	memberPerms    map[string]int64  // guild ID/user ID → the member's permissions
	departed       map[string]bool   // IDs of the guilds the bot was removed from and of their channels
	locales        map[string]string // user or guild ID → Discord locale, see SetLocale
	web            webDelivery       // HTTP delivery of interactions (httpdelivery.go)
	shards         sharding          // the gateway's shards (shards.go)
	limits         limiter           // the rate limits and their counters (ratelimit.go)
}

// guild is the server's record of a guild and its members.
type guild struct {
	Guild
	created  time.Time
	members  map[string]time.Time // user ID → joined at
	channels []string
}

// ServerOption configures a [Server].
type ServerOption func(*Server)

// WithClock makes the server take the time from c instead of the system
// clock; use a [ManualClock] to test Discord's deadlines without sleeping.
func WithClock(c Clock) ServerOption { return func(s *Server) { s.clock = c } }

// WithLogger makes the server log to l. By default it does not log.
func WithLogger(l *slog.Logger) ServerOption { return func(s *Server) { s.log = l } }

// WithToken sets the bot token the server accepts (without the "Bot "
// prefix). By default a random token is made; see [Server.Token].
func WithToken(token string) ServerOption { return func(s *Server) { s.token = token } }

// Identity fixes the IDs a server would otherwise make up at start: the
// application's (which is also the bot user's), the default guild's and
// the default channel's. A stand-in restarted with the same identity keeps
// pointing at the records a bot stored (the playground relies on it).
// Empty fields are made up as usual.
type Identity struct {
	ApplicationID string `json:"application_id"`
	GuildID       string `json:"guild_id"`
	ChannelID     string `json:"channel_id"`
}

// WithoutChecks turns off the checks of request bodies against Discord's
// schema and rules, and the log of requests ([Server.Requests] stays
// empty). They cost a load test as much CPU as the bot under test, and the
// log grows with every request; every other test keeps both.
func WithoutChecks() ServerOption { return func(s *Server) { s.lean = true } }

// WithAnswerDeadline makes the server wait d for an interaction's first
// answer instead of Discord's 3 seconds. It is for tests on the system
// clock, where a loaded machine can take longer than that without the
// bot being at fault; a test of the deadline itself runs on a
// [ManualClock] and keeps Discord's.
func WithAnswerDeadline(d time.Duration) ServerOption {
	return func(s *Server) { s.answerWithin = d }
}

// AnswerDeadline returns how long the server waits for an interaction's
// first answer: Discord's 3 seconds, or what [WithAnswerDeadline] set.
func (s *Server) AnswerDeadline() time.Duration { return s.answerWithin }

// WithIdentity starts the server with the given IDs; see [Identity].
func WithIdentity(id Identity) ServerOption { return func(s *Server) { s.identity = id } }

// Identity returns the server's application, guild and channel IDs.
func (s *Server) Identity() Identity {
	return Identity{ApplicationID: s.appID, GuildID: s.defaultGuild, ChannelID: s.defaultChannel}
}

// New starts a stand-in on a random loopback port, with one guild, one text
// channel in it and the bot user. It panics if the embedded OpenAPI
// description cannot be loaded, which cannot happen with an intact build.
func New(opts ...ServerOption) *Server {
	sp, err := discordSpec()
	if err != nil {
		panic(err)
	}
	s := &Server{
		token:        randomHex(24),
		clock:        systemClock{},
		answerWithin: callbackDeadline,
		log:          slog.New(slog.DiscardHandler),
		spec:         sp,
		done:         make(chan struct{}),
		changed:      make(chan struct{}),
		users:        map[string]User{},
		guilds:       map[string]*guild{},
		channels:     map[string]*Channel{},
		messages:     map[string]*Message{},
		commands:     map[string][]Command{},
		interactions: map[string]*interactionState{},
		byToken:      map[string]*interactionState{},
		attachments:  map[string]Attachment{},
		nonces:       map[nonceKey]string{},
		sessions:     map[string]*gwSession{},
		conns:        map[*gwConn]bool{},
		subscribers:  map[*subscriber]bool{},
		botPerms:     map[string]int64{},
		memberPerms:  map[string]int64{},
		departed:     map[string]bool{},
	}
	s.limits.RateLimits = DiscordRateLimits()
	for _, opt := range opts {
		opt(s)
	}
	s.mu.Lock()
	s.appID = cmp.Or(s.identity.ApplicationID, s.newID())
	s.bot = User{ID: s.appID, Username: "gambit-test-bot", Bot: true}
	s.users[s.bot.ID] = s.bot
	g := s.addGuild("Test Guild", s.identity.GuildID)
	s.defaultGuild = g.ID
	s.defaultChannel = s.addChannel(g.ID, "general", s.identity.ChannelID).ID
	s.mu.Unlock()

	// The base URL is set before the server starts serving, so that
	// handlers reading it are ordered after the write.
	s.http = httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	s.base = &url.URL{Scheme: "http", Host: s.http.Listener.Addr().String()}
	s.http.Start()
	return s
}

// Close disconnects every gateway session, ends every subscription and
// stops the server.
func (s *Server) Close() {
	s.close.Do(func() {
		s.mu.Lock()
		close(s.done)
		for c := range s.conns {
			c.closeWith(websocket.CloseGoingAway)
		}
		s.mu.Unlock()
		s.http.Close()
		s.web.inflight.Wait()
		s.subs.Wait()
	})
}

// URL returns the server's base URL, such as http://127.0.0.1:41234.
func (s *Server) URL() string { return s.base.String() }

// Token returns the bot token the server accepts, without the "Bot "
// prefix. It changes when the bot starts more gateway sessions than
// RateLimits.SessionStarts allows, as Discord resets the token then.
func (s *Server) Token() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.token
}

// ApplicationID returns the bot's application ID, which is also the bot
// user's ID.
func (s *Server) ApplicationID() string { return s.appID }

// BotUser returns the bot's user.
func (s *Server) BotUser() User { return s.bot }

// Transport returns an HTTP transport that sends every request to the
// stand-in, whatever host its URL names. Give it to discordgo as
// session.Client = &http.Client{Transport: srv.Transport()}.
func (s *Server) Transport() http.RoundTripper {
	return apiurl.Transport(s.base, s.http.Client().Transport)
}

// Request is a recorded HTTP request the server answered.
type Request struct {
	Time   time.Time // by the server's clock
	Method string
	Path   string // as sent, e.g. /api/v9/channels/1/messages
	// Route is the OpenAPI path template the path matched, e.g.
	// /channels/{channel_id}/messages, or empty if it matched none.
	Route string
	Query url.Values
	// Body is the JSON body; for a multipart request, its payload_json.
	Body []byte
	// Files are the files a multipart request uploaded, in order.
	Files []Attachment
	// Status is the answer's HTTP status, 0 for a connection the server
	// dropped (Fault.Drop).
	Status   int
	Response []byte
}

// Requests returns every request answered so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Violations returns every request body refused so far for breaking
// Discord's schema or rules, oldest first.
func (s *Server) Violations() []Violation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Violation(nil), s.violations...)
}

// AssertNoViolations fails tb, listing them, if the bot has sent any body
// Discord would refuse.
func (s *Server) AssertNoViolations(tb testing.TB) {
	tb.Helper()
	for _, v := range s.Violations() {
		tb.Errorf("discordtest: Discord would refuse this request: %s", v)
	}
}

// call is a request as handed to a REST handler.
type call struct {
	method string
	path   string
	route  string // OpenAPI path template
	params map[string]string
	query  url.Values
	body   []byte       // JSON body or multipart payload_json
	files  []Attachment // files of a multipart body
}

// handler answers a REST route. A nil response with a nil error is
// answered 204 No Content.
type handler func(c *call) (any, error)

// recorder captures the status and body of a response for [Request].
// recorder holds a response back until the request is recorded, so that
// a client that has its answer finds its request in [Server.Requests].
type recorder struct {
	http.ResponseWriter
	status  int
	body    bytes.Buffer
	dropped net.Conn // the taken-over connection of a dropped request
}

func (r *recorder) WriteHeader(status int) { r.status = status }

func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }

// drop takes the client's connection over, to be closed without an
// answer once the request is recorded (send), and reports whether it
// could; the request is recorded with status 0. (The stand-in serves
// HTTP/1.1, whose connections can always be taken over.)
func (r *recorder) drop() bool {
	conn, _, err := http.NewResponseController(r.ResponseWriter).Hijack()
	if err != nil {
		return false
	}
	r.dropped, r.status = conn, 0
	return true
}

// send writes the held response, or closes a dropped request's
// connection: either way after the request was recorded, so that a
// client that has seen the outcome finds its request in [Server.Requests].
func (r *recorder) send() {
	if r.dropped != nil {
		_ = r.dropped.Close()
		return
	}
	r.ResponseWriter.WriteHeader(r.status)
	_, _ = r.ResponseWriter.Write(r.body.Bytes()) // the client may have gone
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/" && websocket.IsWebSocketUpgrade(r) {
		s.serveGateway(w, r)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/attachments/") {
		s.serveAttachment(w, r)
		return
	}
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	req := Request{Time: s.clock.Now(), Method: r.Method, Path: r.URL.Path, Query: r.URL.Query()}
	defer func() {
		req.Status, req.Response = rec.status, rec.body.Bytes()
		s.mu.Lock()
		scope := rec.Header().Get("X-RateLimit-Scope")
		if rec.status == http.StatusTooManyRequests && scope == "" {
			scope = "cloudflare"
		}
		s.count(r.Method, req.Route, rec.status, scope, req.Time)
		if !s.lean {
			s.requests = append(s.requests, req)
			s.broadcast()
		}
		s.mu.Unlock()
		rec.send()
	}()

	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes))
	if err != nil {
		writeError(rec, httpError(http.StatusBadRequest))
		return
	}
	s.mu.Lock()
	banned := s.banned(rec, req.Time)
	s.mu.Unlock()
	if banned {
		return
	}
	m := apiPrefix.FindStringSubmatch(r.URL.Path)
	if m == nil {
		writeError(rec, httpError(http.StatusNotFound))
		return
	}
	rt, params := s.spec.match(m[2])
	if rt == nil {
		writeError(rec, httpError(http.StatusNotFound))
		return
	}
	req.Route = rt.template
	op := rt.ops[r.Method]
	if op == nil {
		writeError(rec, httpError(http.StatusMethodNotAllowed))
		return
	}
	s.mu.Lock()
	allowed := s.limit(rec, r.Method, rt.template, params, req.Time)
	s.mu.Unlock()
	if !allowed {
		return
	}
	c := &call{method: r.Method, path: r.URL.Path, route: rt.template, params: params, query: r.URL.Query()}
	if c.body, c.files, err = s.decodeBody(r.Header.Get("Content-Type"), raw); err != nil {
		writeError(rec, newAPIError(http.StatusBadRequest, CodeGeneral, err.Error()))
		return
	}
	req.Body, req.Files = c.body, c.files
	if !s.applyFault(rec, r, rt.template) {
		return
	}

	h, auth := s.route(r.Method, rt.template)
	if h == nil {
		s.log.Warn("discordtest: route not implemented by the stand-in", "method", r.Method, "route", rt.template)
		writeError(rec, httpError(http.StatusNotFound))
		return
	}
	if auth && r.Header.Get("Authorization") != "Bot "+s.Token() {
		writeError(rec, httpError(http.StatusUnauthorized))
		return
	}
	if vs := s.check(c, op); len(vs) > 0 {
		writeError(rec, invalidFormBody(vs))
		return
	}
	s.respond(rec, h, c)
}

// respond runs a handler and writes its answer.
func (s *Server) respond(w http.ResponseWriter, h handler, c *call) {
	v, err := h(c)
	var apiErr *apiError
	switch {
	case errors.As(err, &apiErr):
		writeError(w, apiErr)
	case err != nil:
		s.log.Error("discordtest: handler failed", "err", err)
		writeError(w, httpError(http.StatusInternalServerError))
	case v == nil:
		w.WriteHeader(http.StatusNoContent)
	default:
		writeJSON(w, http.StatusOK, v)
	}
}

// check validates a body against the spec and the component rules and
// records what it finds.
func (s *Server) check(c *call, op *operation) []Violation {
	if s.lean {
		return nil
	}
	method, path, route, body := c.method, c.path, c.route, c.body
	vs, err := s.spec.validate(op, body)
	if err != nil {
		// A schema that does not compile is a defect of the stand-in, not
		// of the bot; report it without blaming the request.
		s.log.Error("discordtest: cannot validate request body", "route", route, "err", err)
	}
	if len(body) > 0 {
		vs = append(vs, checkRules(body, s.editsV2(c))...)
	}
	for i := range vs {
		vs[i].Method, vs[i].Path, vs[i].Route = method, path, route
	}
	if len(vs) > 0 {
		s.mu.Lock()
		s.violations = append(s.violations, vs...)
		s.mu.Unlock()
	}
	return vs
}

// editsV2 reports whether a request edits a message that has the
// IS_COMPONENTS_V2 flag, whose edits need not repeat the flag: a message
// edit, a webhook message edit, or an interaction response that updates
// the component's message (type 7).
func (s *Server) editsV2(c *call) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	var id string
	switch {
	case c.method == http.MethodPatch && c.params["channel_id"] != "":
		id = c.params["message_id"]
	case c.method == http.MethodPatch && c.params["webhook_token"] != "":
		st := s.byToken[c.params["webhook_token"]]
		if st == nil {
			return false
		}
		id = st.originalID
		if mid, ok := c.params["message_id"]; ok {
			id = mid
		}
	case c.params["interaction_token"] != "":
		var body struct {
			Type discordgo.InteractionResponseType `json:"type"`
		}
		st := s.interactions[c.params["interaction_id"]]
		if json.Unmarshal(c.body, &body) != nil || body.Type != discordgo.InteractionResponseUpdateMessage || st == nil {
			return false
		}
		id = st.MessageID
	}
	m := s.messages[id]
	return m != nil && m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0
}

// decodeBody returns the JSON payload of a request and its uploaded files.
func (s *Server) decodeBody(contentType string, raw []byte) ([]byte, []Attachment, error) {
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil || mediaType != "multipart/form-data" {
		return raw, nil, nil
	}
	mr := multipart.NewReader(bytes.NewReader(raw), params["boundary"])
	var payload []byte
	var files []Attachment
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return payload, files, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("discordtest: read multipart body: %w", err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, nil, fmt.Errorf("discordtest: read multipart part %q: %w", part.FormName(), err)
		}
		switch name := part.FormName(); {
		case name == "payload_json":
			payload = data
		case strings.HasPrefix(name, "files["):
			s.mu.Lock()
			id := s.newID()
			s.mu.Unlock()
			files = append(files, Attachment{
				ID:          id,
				Filename:    part.FileName(),
				ContentType: part.Header.Get("Content-Type"),
				Data:        data,
				URL:         s.base.String() + "/attachments/" + id + "/" + url.PathEscape(part.FileName()),
			})
		}
	}
}

// serveAttachment serves an uploaded file, as Discord's CDN would.
func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	id, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/attachments/"), "/")
	s.mu.Lock()
	a, ok := s.attachments[id]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", a.ContentType)
	_, _ = w.Write(a.Data)
}

// newID returns a fresh snowflake stamped with the server's clock. The
// caller holds s.mu.
func (s *Server) newID() string {
	s.idSeq++
	ms := uint64(max(s.clock.Now().UnixMilli()-discordEpoch, 0))
	return strconv.FormatUint(ms<<22|s.idSeq&(1<<22-1), 10)
}

// broadcast wakes everything waiting for a change. The caller holds s.mu.
func (s *Server) broadcast() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// waitFor calls check, under the server's lock, after every change until it
// reports done or fails, or ctx ends.
func waitFor[T any](ctx context.Context, s *Server, check func() (T, bool, error)) (T, error) {
	for {
		s.mu.Lock()
		v, done, err := check()
		changed := s.changed
		s.mu.Unlock()
		if err != nil || done {
			return v, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			var zero T
			return zero, fmt.Errorf("discordtest: wait: %w", ctx.Err())
		case <-s.done:
			var zero T
			return zero, errors.New("discordtest: wait: server closed")
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
