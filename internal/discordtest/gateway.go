package discordtest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Gateway opcodes.
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opVoiceState     = 4
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatAck   = 11
)

// Gateway close codes the server sends, with Discord's reasons.
const (
	closeUnknownError      = 4000
	closeUnknownOpcode     = 4001
	closeDecodeError       = 4002
	closeNotAuthenticated  = 4003
	closeAuthFailed        = 4004
	closeAlreadyAuthed     = 4005
	closeInvalidAPIVersion = 4012
)

var closeReasons = map[int]string{
	4000: "Unknown error.",
	4001: "Unknown opcode.",
	4002: "Decode error.",
	4003: "Not authenticated.",
	4004: "Authentication failed.",
	4005: "Already authenticated.",
	4007: "Invalid seq.",
	4008: "Rate limited.",
	4009: "Session timed out.",
	4010: "Invalid shard.",
	4011: "Sharding required.",
	4012: "Invalid API version.",
	4013: "Invalid intent(s).",
	4014: "Disallowed intent(s).",
}

// resumable reports whether a session survives its connection being closed
// with code, per Discord's table of gateway close codes: after 4007 (invalid
// seq) and 4009 (session timed out) a client must start a new session, and
// after the codes that forbid reconnecting there is nothing to resume.
func resumable(code int) bool {
	switch code {
	case 4004, 4007, 4009, 4010, 4011, 4012, 4013, 4014:
		return false
	}
	return true
}

const (
	// heartbeatInterval is the interval, in milliseconds, sent in HELLO;
	// Discord's is about 41 s.
	heartbeatInterval = 41250
	// maxReplay bounds the dispatches kept per session for RESUME; a resume
	// from further back is answered with INVALID SESSION, as Discord does.
	maxReplay = 1000
	// writeTimeout bounds one websocket write.
	writeTimeout = 10 * time.Second
)

// Gateway intents that gate the events the server dispatches.
const (
	intentGuilds        = int64(discordgo.IntentsGuilds)
	intentGuildMembers  = int64(discordgo.IntentsGuildMembers)
	intentGuildMessages = int64(discordgo.IntentsGuildMessages)
)

// gwSession is a gateway session: it outlives its connections so that a
// client can resume it and be sent what it missed.
type gwSession struct {
	id      string
	shard   int // of Server.shards' count
	intents int64
	seq     int64
	log     []logged // dispatches, for replay on RESUME
	conn    *gwConn  // nil while disconnected
}

type logged struct {
	seq  int64
	data []byte
}

// gwConn is one websocket connection. Frames are written by a single
// goroutine (writeLoop) from a queue, so writes never interleave and a
// dispatch delay holds back later frames too, preserving order.
type gwConn struct {
	ws      *websocket.Conn
	session *gwSession // guarded by Server.mu; nil until IDENTIFY or RESUME

	mu     sync.Mutex
	queue  []outFrame
	wake   chan struct{}
	closed chan struct{}
	once   sync.Once
}

type outFrame struct {
	data  []byte
	delay time.Duration
}

// frame is a gateway payload.
type frame struct {
	Op int     `json:"op"`
	D  any     `json:"d"`
	S  *int64  `json:"s"`
	T  *string `json:"t"`
}

func (c *gwConn) enqueue(data []byte, delay time.Duration) {
	c.mu.Lock()
	c.queue = append(c.queue, outFrame{data: data, delay: delay})
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// send queues a non-dispatch payload.
func (c *gwConn) send(op int, d any) {
	data, _ := json.Marshal(frame{Op: op, D: d}) // payloads are plain data
	c.enqueue(data, 0)
}

func (c *gwConn) next() (outFrame, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		return outFrame{}, false
	}
	f := c.queue[0]
	c.queue = c.queue[1:]
	return f, true
}

func (c *gwConn) writeLoop() {
	for {
		select {
		case <-c.wake:
		case <-c.closed:
			return
		}
		for f, ok := c.next(); ok; f, ok = c.next() {
			if f.delay > 0 {
				select {
				case <-time.After(f.delay):
				case <-c.closed:
					return
				}
			}
			_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
			if err := c.ws.WriteMessage(websocket.TextMessage, f.data); err != nil {
				c.closeWith(websocket.CloseAbnormalClosure)
				return
			}
		}
	}
}

// closeWith sends a close frame with code and closes the connection. It is
// safe to call more than once and from any goroutine.
func (c *gwConn) closeWith(code int) {
	c.once.Do(func() {
		msg := websocket.FormatCloseMessage(code, closeReasons[code])
		_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
		close(c.closed)
		_ = c.ws.Close()
	})
}

// gatewayURL is the websocket URL handed out by GET /gateway. Like
// Discord's, it has no path: discordgo appends "/?v=9&encoding=json".
func (s *Server) gatewayURL() string { return "ws://" + s.base.Host }

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the client
	}
	c := &gwConn{ws: ws, wake: make(chan struct{}, 1), closed: make(chan struct{})}
	s.mu.Lock()
	select {
	case <-s.done:
		s.mu.Unlock()
		c.closeWith(websocket.CloseGoingAway)
		return
	default:
	}
	s.conns[c] = true
	s.mu.Unlock()
	go c.writeLoop()
	defer func() {
		c.closeWith(websocket.CloseNormalClosure)
		s.mu.Lock()
		delete(s.conns, c)
		if sess := c.session; sess != nil && sess.conn == c {
			sess.conn = nil
		}
		s.broadcast()
		s.mu.Unlock()
	}()

	q := r.URL.Query()
	if v := q.Get("v"); v != "" && v != "9" && v != "10" {
		c.closeWith(closeInvalidAPIVersion)
		return
	}
	if enc := q.Get("encoding"); enc != "" && enc != "json" {
		c.closeWith(closeDecodeError)
		return
	}
	c.send(opHello, map[string]int{"heartbeat_interval": heartbeatInterval})
	s.readLoop(c)
}

// readLoop handles the client's payloads until the connection ends.
func (s *Server) readLoop(c *gwConn) {
	for {
		mt, data, err := c.ws.ReadMessage()
		if err != nil {
			// Discord invalidates a session whose client closes with 1000 or
			// 1001; other closes leave it resumable.
			var ce *websocket.CloseError
			if errors.As(err, &ce) && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) {
				s.mu.Lock()
				if c.session != nil {
					delete(s.sessions, c.session.id)
				}
				s.mu.Unlock()
			}
			return
		}
		var in struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if mt != websocket.TextMessage || json.Unmarshal(data, &in) != nil {
			c.closeWith(closeDecodeError)
			return
		}
		if code := s.handleFrame(c, in.Op, in.D); code != 0 {
			c.closeWith(code)
			return
		}
	}
}

// handleFrame handles one payload and returns a close code if the
// connection must be closed.
func (s *Server) handleFrame(c *gwConn, op int, d json.RawMessage) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch op {
	case opHeartbeat:
		c.send(opHeartbeatAck, nil)
	case opIdentify:
		return s.identify(c, d)
	case opResume:
		return s.resume(c, d)
	case opPresenceUpdate, opVoiceState, opRequestMembers:
		if c.session == nil {
			return closeNotAuthenticated
		}
	default:
		return closeUnknownOpcode
	}
	return 0
}

// validToken reports whether a gateway token is the bot's; Discord accepts
// it with or without the "Bot " prefix.
func (s *Server) validToken(token string) bool {
	return strings.TrimPrefix(token, "Bot ") == s.token
}

// identify starts a new session: READY, then a GUILD_CREATE per guild.
// The caller holds s.mu.
func (s *Server) identify(c *gwConn, d json.RawMessage) int {
	var id struct {
		Token   string  `json:"token"`
		Intents int64   `json:"intents"`
		Shard   *[2]int `json:"shard"`
	}
	if json.Unmarshal(d, &id) != nil {
		return closeDecodeError
	}
	if c.session != nil {
		return closeAlreadyAuthed
	}
	if !s.validToken(id.Token) {
		return closeAuthFailed
	}
	shard, code, refused := s.admit(id.Shard)
	if code != 0 {
		return code
	}
	if refused {
		c.send(opInvalidSession, false)
		return 0
	}
	if !s.startSession() {
		return closeAuthFailed
	}
	sess := &gwSession{id: randomHex(16), shard: shard, intents: id.Intents, conn: c}
	s.sessions[sess.id] = sess
	c.session = sess

	guilds := []map[string]any{}
	var mine []*guild
	for _, g := range s.sortedGuilds() {
		if ShardOf(g.ID, s.shards.shardCount()) == shard {
			guilds = append(guilds, map[string]any{"id": g.ID, "unavailable": true})
			mine = append(mine, g)
		}
	}
	s.dispatchTo(sess, "READY", map[string]any{
		"v":                  10,
		"user":               toWireUser(s.bot),
		"guilds":             guilds,
		"session_id":         sess.id,
		"session_type":       "normal",
		"resume_gateway_url": s.gatewayURL(),
		"shard":              []int{shard, s.shards.shardCount()},
		"application":        map[string]any{"id": s.appID, "flags": 0},
		"private_channels":   []any{},
	}, 0)
	for _, g := range mine {
		s.dispatchTo(sess, "GUILD_CREATE", s.wireGuild(g), 0)
	}
	s.broadcast()
	return 0
}

// resume reattaches a session and replays what it missed, or answers
// INVALID SESSION (not resumable) if there is nothing to resume. The
// caller holds s.mu.
func (s *Server) resume(c *gwConn, d json.RawMessage) int {
	var r struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if json.Unmarshal(d, &r) != nil {
		return closeDecodeError
	}
	sess := s.sessions[r.SessionID]
	if sess == nil || !s.validToken(r.Token) || r.Seq > sess.seq ||
		(len(sess.log) > 0 && r.Seq < sess.log[0].seq-1) {
		c.send(opInvalidSession, false)
		return 0
	}
	if old := sess.conn; old != nil && old != c {
		old.session = nil
		go old.closeWith(closeUnknownError)
	}
	sess.conn, c.session = c, sess
	for _, l := range sess.log {
		if l.seq > r.Seq {
			c.enqueue(l.data, 0)
		}
	}
	s.dispatchTo(sess, "RESUMED", map[string]any{}, 0)
	s.broadcast()
	return 0
}

// dispatchTo sends an event to one session, numbering and logging it. The
// caller holds s.mu.
func (s *Server) dispatchTo(sess *gwSession, event string, d any, delay time.Duration) {
	sess.seq++
	seq := sess.seq
	data, _ := json.Marshal(frame{Op: opDispatch, D: d, S: &seq, T: &event}) // payloads are plain data
	sess.log = append(sess.log, logged{seq: seq, data: data})
	if len(sess.log) > maxReplay {
		sess.log = sess.log[len(sess.log)-maxReplay:]
	}
	if sess.conn != nil {
		sess.conn.enqueue(data, delay)
	}
}

// dispatch sends an event to every session of the event's shard (see
// WithShards) that asked for intent (0: to every such session), after the
// configured dispatch delay. Sessions that are disconnected get it on
// RESUME. The caller holds s.mu.
func (s *Server) dispatch(event string, d any, intent int64) {
	shard := s.eventShard(event, d)
	for _, sess := range s.sessions {
		if sess.shard == shard && (intent == 0 || sess.intents&intent != 0) {
			s.dispatchTo(sess, event, d, s.dispatchDelay)
		}
	}
}

// WaitReady waits until a bot session has identified and is connected.
func (s *Server) WaitReady(ctx context.Context) error {
	_, err := waitFor(ctx, s, func() (struct{}, bool, error) {
		for _, sess := range s.sessions {
			if sess.conn != nil {
				return struct{}{}, true, nil
			}
		}
		return struct{}{}, false, nil
	})
	return err
}
