package ingress

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Every IDENTIFY a session sends — at its first connection, when discordgo
// reconnects on its own after a dropped connection or a RECONNECT (op 7)
// whose resume failed, and in answer to INVALID SESSION (op 9) — waits
// for Gateway.identify first. discordgo offers no hook for the last two:
// it writes the IDENTIFY from its own read loop. So the sessions' gateway
// connections are dialled by gate, which wraps each one so that a write
// of an IDENTIFY frame waits; the resumes, heartbeats and everything else
// pass untouched.

// gate makes s dial its gateway connections through identifyConn.
func (g *Gateway) gate(s *discordgo.Session) {
	d := *websocket.DefaultDialer
	if s.Dialer != nil {
		d = *s.Dialer
	}
	var dialer net.Dialer
	wrap := func(c net.Conn) net.Conn {
		ctx, cancel := context.WithCancel(g.life())
		return &identifyConn{Conn: c, ctx: ctx, cancel: cancel, wait: func(ctx context.Context) error { return g.identify(ctx, s.ShardID) }}
	}
	d.NetDialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return wrap(c), nil
	}
	tlsConfig := d.TLSClientConfig
	d.NetDialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		cfg := &tls.Config{}
		if tlsConfig != nil {
			cfg = tlsConfig.Clone()
		}
		if cfg.ServerName == "" {
			cfg.ServerName, _, _ = net.SplitHostPort(addr)
		}
		tc := tls.Client(c, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			_ = c.Close()
			return nil, err
		}
		return wrap(tc), nil
	}
	s.Dialer = &d
}

// identifyConn is a gateway connection whose IDENTIFY frames wait for
// wait; it ends the wait when it is closed.
type identifyConn struct {
	net.Conn
	ctx    context.Context
	cancel context.CancelFunc
	wait   func(context.Context) error
}

// Write writes p, one frame as gorilla/websocket writes a small message,
// after wait if it is an IDENTIFY. If the wait fails the connection is
// closed: discordgo then reconnects, and identifies again through wait.
func (c *identifyConn) Write(p []byte) (int, error) {
	if isIdentify(p) {
		if err := c.wait(c.ctx); err != nil {
			_ = c.Close()
			return 0, fmt.Errorf("ingress: hold the gateway identify: %w", err)
		}
	}
	return c.Conn.Write(p)
}

// Close ends a wait under way and closes the connection.
func (c *identifyConn) Close() error {
	c.cancel()
	return c.Conn.Close()
}

// isIdentify reports whether p is a client's text frame (masked, as RFC
// 6455 wants) whose payload starts as discordgo writes an IDENTIFY:
// {"op":2,.
func isIdentify(p []byte) bool {
	const prefix = `{"op":2,`
	if len(p) < 2 || p[0]&0x0f != websocket.TextMessage || p[1]&0x80 == 0 {
		return false
	}
	i := 2
	switch p[1] & 0x7f {
	case 126:
		i += 2
	case 127:
		i += 8
	}
	if len(p) < i+4+len(prefix) {
		return false
	}
	key := p[i : i+4]
	i += 4
	for j := range len(prefix) {
		if p[i+j]^key[j%4] != prefix[j] {
			return false
		}
	}
	return true
}

// startLimit is what the gateway knows of Discord's session start limit:
// the starts left until resetAt, counted down by each identify of this
// process and asked of Discord again (GET /gateway/bot) once spent and
// reset. The other processes of the bot spend the same starts, so the
// count is an upper bound; Discord's answer after a reset corrects it.
type startLimit struct {
	known            bool
	total, remaining int
	resetAt          time.Time
}

// learn records Discord's session_start_limit, read at now.
func (g *Gateway) learn(l discordgo.SessionInformation, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.limit = startLimit{known: true, total: l.Total, remaining: l.Remaining, resetAt: now.Add(time.Duration(l.ResetAfter) * time.Millisecond)}
}

// spend takes one start if the limit has one left (or names none) and
// reports whether it did; otherwise it returns when the limit resets, and
// whether Discord must be asked again first.
func (g *Gateway) spend() (ok bool, ask bool, resetAt time.Time, total int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	l := &g.limit
	if !l.known || (l.remaining <= 0 && !g.now().Before(l.resetAt)) {
		return false, true, time.Time{}, 0
	}
	if l.total == 0 || l.remaining > 0 { // Total 0: Discord named no limit
		l.remaining--
		return true, false, time.Time{}, 0
	}
	return false, false, l.resetAt, l.total
}

// identify waits until shard id may send an IDENTIFY: while Discord's
// session start limit has no start left, until its reset; then, for a
// sharded bot, for its bucket of the identify queue shared by the bot's
// processes (awaitIdentify). Discord resets the bot's token when a bot
// identifies past its start limit; a crash loop would spend the day's
// starts in minutes. If Discord cannot be asked, the shard identifies
// anyway, through the queue: an outage of the REST API must not keep the
// gateway down.
func (g *Gateway) identify(ctx context.Context, id int) error {
	for {
		ok, ask, resetAt, total := g.spend()
		if ok {
			break
		}
		if ask {
			gw, err := g.cfg.Primary.GatewayBot()
			g.observe(err)
			if err != nil {
				g.log.Warn("could not ask Discord for the session start limit; identifying anyway", "shard", id, "err", err)
				break
			}
			g.learn(gw.SessionStartLimit, g.now())
			continue
		}
		g.log.Warn("Discord's session start limit is spent: waiting for its reset before identifying", "shard", id, "total", total, "reset_after", resetAt.Sub(g.now()))
		if err := g.sleep(ctx, resetAt.Sub(g.now())); err != nil {
			return err
		}
	}
	if mc := g.concurrency(); mc > 0 {
		return g.awaitIdentify(ctx, id, mc)
	}
	return nil
}

// sleep waits d on the gateway's clock (Config.Now), or until ctx is done.
func (g *Gateway) sleep(ctx context.Context, d time.Duration) error {
	until := g.now().Add(d)
	for g.now().Before(until) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(identifyPoll):
		}
	}
	return nil
}

// now returns the gateway's clock time.
func (g *Gateway) now() time.Time {
	if g.cfg.Now != nil {
		return g.cfg.Now()
	}
	return time.Now()
}
