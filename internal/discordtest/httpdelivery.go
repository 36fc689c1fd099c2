package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// This file is Discord's other way of delivering interactions: instead of
// an INTERACTION_CREATE on the gateway, an HTTP POST to the application's
// Interactions Endpoint URL, signed with ed25519 (X-Signature-Ed25519 over
// X-Signature-Timestamp followed by the body) by a key pair whose public
// half the developer portal shows. The endpoint answers with the initial
// response in its body (200), or with 202 and no body after sending it to
// the callback route, as Discord's documentation allows.

// endpointTimeout bounds one delivery to an endpoint. Discord gives up on
// an endpoint after 3 seconds; the stand-in waits longer so that a slow
// test machine is not mistaken for a broken bot, and enforces the 3 s
// rule by its own clock instead (a late answer gets 10062).
const endpointTimeout = 20 * time.Second

// maxEndpointAnswer bounds an endpoint's answer body.
const maxEndpointAnswer = 1 << 20

// webDelivery is the stand-in's state for HTTP delivery. Its key pair is
// made on first use; endpoints and next are guarded by Server.mu.
type webDelivery struct {
	once      sync.Once
	private   ed25519.PrivateKey
	public    ed25519.PublicKey
	client    *http.Client
	endpoints []string // empty: interactions go through the gateway
	next      int      // round-robin position in endpoints
	inflight  sync.WaitGroup
}

// keys makes the key pair and the client once.
func (w *webDelivery) keys() {
	w.once.Do(func() {
		w.public, w.private, _ = ed25519.GenerateKey(rand.Reader) // crypto/rand never fails
		// A fresh connection for every delivery, as from a load balancer's
		// point of view: a replica that stopped refuses the connection,
		// and the delivery moves on to the next endpoint.
		w.client = &http.Client{Timeout: endpointTimeout, Transport: &http.Transport{DisableKeepAlives: true}}
	})
}

// PublicKey returns the public key the server signs HTTP interactions
// with: the "Public Key" of the developer portal's application page, which
// the bot needs to verify them.
func (s *Server) PublicKey() ed25519.PublicKey {
	s.web.keys()
	return s.web.public
}

// Sign returns the X-Signature-Ed25519 header, hex encoded, that the
// server would send with body at timestamp (the X-Signature-Timestamp
// header, Unix seconds), so that a test can send its own signed requests.
func (s *Server) Sign(timestamp string, body []byte) string {
	s.web.keys()
	return hex.EncodeToString(ed25519.Sign(s.web.private, append([]byte(timestamp), body...)))
}

// DeliverOverHTTP makes the server deliver interactions by HTTP POST to
// the given endpoint URLs instead of the gateway: each delivery goes to the
// next endpoint in turn, and to the one after it if the connection is
// refused, as behind a load balancer. Before switching, the server checks
// every endpoint as Discord checks an Interactions Endpoint URL: a PING
// with a bad signature must be refused with 401 and a signed PING answered
// with a PONG. With no URLs, delivery returns to the gateway.
func (s *Server) DeliverOverHTTP(ctx context.Context, urls ...string) error {
	for _, u := range urls {
		if err := s.checkEndpoint(ctx, u); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.web.endpoints, s.web.next = append([]string(nil), urls...), 0
	return nil
}

// checkEndpoint sends the endpoint Discord's two checks.
func (s *Server) checkEndpoint(ctx context.Context, url string) error {
	s.mu.Lock()
	ping, _ := json.Marshal(map[string]any{ // plain data
		"id": s.newID(), "application_id": s.appID, "type": discordgo.InteractionPing,
		"token": "interaction-" + randomHex(32), "version": 1,
	})
	s.mu.Unlock()
	_, impostor, _ := ed25519.GenerateKey(rand.Reader)
	ts := strconv.FormatInt(s.clock.Now().Unix(), 10)
	bad := hex.EncodeToString(ed25519.Sign(impostor, append([]byte(ts), ping...)))
	status, _, err := s.post(ctx, url, ping, ts, bad)
	if err != nil {
		return fmt.Errorf("discordtest: check endpoint %s: %w", url, err)
	}
	if status != http.StatusUnauthorized {
		return fmt.Errorf("discordtest: check endpoint %s: a PING with a bad signature was answered %d, want 401", url, status)
	}
	status, answer, err := s.post(ctx, url, ping, ts, s.Sign(ts, ping))
	if err != nil {
		return fmt.Errorf("discordtest: check endpoint %s: %w", url, err)
	}
	var pong struct {
		Type discordgo.InteractionResponseType `json:"type"`
	}
	if status != http.StatusOK || json.Unmarshal(answer, &pong) != nil || pong.Type != discordgo.InteractionResponsePong {
		return fmt.Errorf("discordtest: check endpoint %s: a signed PING was answered %d %q, want 200 with a PONG", url, status, answer)
	}
	return nil
}

// post sends one signed delivery and returns the endpoint's status and
// body.
func (s *Server) post(ctx context.Context, url string, body []byte, ts, sig string) (int, []byte, error) {
	s.web.keys()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, fmt.Errorf("discordtest: deliver to %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Ed25519", sig)
	req.Header.Set("X-Signature-Timestamp", ts)
	resp, err := s.web.client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("discordtest: deliver to %s: %w", url, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxEndpointAnswer))
	if err != nil {
		return 0, nil, fmt.Errorf("discordtest: read the answer of %s: %w", url, err)
	}
	return resp.StatusCode, answer, nil
}

// sendInteraction delivers an interaction: on the gateway, or by HTTP if
// [Server.DeliverOverHTTP] chose endpoints. The caller holds s.mu.
func (s *Server) sendInteraction(st *interactionState) {
	if len(s.web.endpoints) == 0 {
		s.dispatch("INTERACTION_CREATE", st.wire, 0)
		return
	}
	body, _ := json.Marshal(st.wire) // plain data
	order := make([]string, 0, len(s.web.endpoints))
	for i := range s.web.endpoints {
		order = append(order, s.web.endpoints[(s.web.next+i)%len(s.web.endpoints)])
	}
	s.web.next = (s.web.next + 1) % len(s.web.endpoints)
	ts := strconv.FormatInt(s.clock.Now().Unix(), 10)
	s.web.inflight.Add(1)
	go func() {
		defer s.web.inflight.Done()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-s.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		s.deliverHTTP(ctx, st, order, body, ts)
	}()
}

// deliverHTTP posts an interaction to the first endpoint in order that
// takes the connection and handles its answer.
func (s *Server) deliverHTTP(ctx context.Context, st *interactionState, order []string, body []byte, ts string) {
	sig := s.Sign(ts, body)
	for _, url := range order {
		status, answer, err := s.post(ctx, url, body, ts, sig)
		if refused(err) {
			s.log.Info("discordtest: endpoint refused the connection; trying the next", "url", url)
			continue
		}
		if err != nil {
			s.log.Warn("discordtest: interaction delivery failed", "url", url, "err", err)
			return
		}
		s.endpointAnswer(st, url, status, answer)
		return
	}
	s.log.Warn("discordtest: no endpoint took the interaction", "interaction", st.ID)
}

// refused reports whether a delivery failed because nothing listened.
func refused(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// endpointAnswer handles an endpoint's answer to a delivery: 202 means the
// bot answered through the callback route; 200 carries the initial
// response, handled as that route would handle it. Anything else is a
// violation: Discord would show "This interaction failed".
func (s *Server) endpointAnswer(st *interactionState, url string, status int, answer []byte) {
	switch status {
	case http.StatusAccepted:
		return
	case http.StatusOK:
		path := "/api/v10/interactions/" + st.ID + "/" + st.Token + "/callback"
		rt, params := s.spec.match(path[len("/api/v10"):])
		c := &call{method: http.MethodPost, path: path, route: rt.template, params: params, body: answer}
		if vs := s.check(c, rt.ops[http.MethodPost]); len(vs) > 0 {
			return
		}
		_, err := s.interactionCallback(c)
		if err == nil {
			return
		}
		var apiErr *apiError
		if errors.As(err, &apiErr) && apiErr.Code == CodeInvalidFormBody {
			return // interactionCallback recorded the violation
		}
		s.endpointViolation(url, fmt.Sprintf("the initial response in the answer's body was refused: %v", err))
	default:
		s.endpointViolation(url, fmt.Sprintf("the endpoint answered a signed interaction with %d %q; want 200 with a response or 202", status, answer))
	}
}

// endpointViolation records a wrong answer of an interactions endpoint.
func (s *Server) endpointViolation(url, msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.violations = append(s.violations, Violation{Method: http.MethodPost, Path: url, Route: "interactions endpoint", Code: "INTERACTION_ENDPOINT", Message: msg})
	s.broadcast()
}
