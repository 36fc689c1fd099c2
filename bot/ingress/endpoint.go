package ingress

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The interactions endpoint: Discord's other way of delivering
// interactions. Instead of a gateway connection, the application's
// Interactions Endpoint URL (developer portal, General Information)
// receives each interaction as an HTTP POST signed with ed25519, so that
// any number of replicas can sit behind a load balancer. Each request is
// checked (signature and timestamp), a PING is answered with a PONG, and
// every other interaction goes to the Handler, as one from the gateway.
//
// The handler answers through the callback route, as it does for the
// gateway — with its files, and with Discord's error if the answer is
// refused — and the HTTP request is then answered 202 with no body, as
// Discord's documentation says to do after using the callback route.

// Endpoint configures the HTTP endpoint.
type Endpoint struct {
	// PublicKey is the application's public key (developer portal,
	// General Information, "Public Key"), which Discord's signatures
	// verify against.
	PublicKey ed25519.PublicKey
	// Path is the URL path interactions are POSTed to; "" means
	// DefaultEndpointPath.
	Path string
}

// DefaultEndpointPath is the path of the interactions endpoint when
// Endpoint.Path is empty.
const DefaultEndpointPath = "/interactions"

const (
	// maxInteractionBytes bounds a request body. An interaction carries
	// the message a component is on, with its embeds and components: a
	// few KiB, far below this.
	maxInteractionBytes = 1 << 20
	// maxClockSkew is how far a request's signed timestamp may be from
	// the bot's clock: an older signed request is a replay.
	maxClockSkew = 5 * time.Minute
	// answerWait is how long a request waits for the interaction's first
	// response before it is answered anyway: Discord gives up after 3
	// seconds.
	answerWait = 3 * time.Second
	// endpointShutdown bounds the wait for requests in flight at shutdown;
	// each ends within answerWait.
	endpointShutdown = 10 * time.Second
)

// ParsePublicKey reads an application's public key as the developer
// portal shows it: 64 hexadecimal digits.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	k, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(k) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("bot: public key: want %d hexadecimal digits, as the developer portal shows it", 2*ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(k), nil
}

// HTTP is the interactions endpoint: an HTTP server that hands the
// interactions POSTed to it to a Handler.
type HTTP struct {
	ep        Endpoint
	h         Handler
	now       func() time.Time
	log       *slog.Logger
	listening atomic.Bool

	srv     *http.Server
	served  chan error
	quit    chan struct{}
	stopped chan error
}

// NewHTTP checks ep and returns the endpoint that hands interactions to h,
// checking their timestamps against now. It does not listen yet (Serve).
func NewHTTP(ep Endpoint, h Handler, now func() time.Time, log *slog.Logger) (*HTTP, error) {
	if len(ep.PublicKey) != ed25519.PublicKeySize {
		return nil, errors.New("bot: serve: no valid public key to verify interactions with")
	}
	if ep.Path == "" {
		ep.Path = DefaultEndpointPath
	}
	if !strings.HasPrefix(ep.Path, "/") {
		return nil, fmt.Errorf("bot: serve: endpoint path %q does not begin with /", ep.Path)
	}
	return &HTTP{ep: ep, h: h, now: now, log: log}, nil
}

// Serve listens on ln until ctx is done or Close is called; then it stops
// listening at once — a load balancer sends new interactions to another
// replica — and lets the requests in flight be answered. ln is closed by
// then.
func (e *HTTP) Serve(ctx context.Context, ln net.Listener) {
	mux := http.NewServeMux()
	mux.Handle("POST "+e.ep.Path, e.handler())
	e.srv = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      answerWait + 5*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
	e.served, e.quit, e.stopped = make(chan error, 1), make(chan struct{}), make(chan error, 1)
	go func() { e.served <- e.srv.Serve(ln) }()
	e.listening.Store(true)
	go func() {
		select {
		case <-ctx.Done():
		case <-e.quit:
		}
		// Stop listening at once, so that new interactions go elsewhere,
		// and let the requests in flight get their answers.
		e.listening.Store(false)
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), endpointShutdown)
		defer cancel()
		err := e.srv.Shutdown(sctx)
		if err != nil {
			err = errors.Join(err, e.srv.Close())
		}
		e.stopped <- err
	}()
	e.log.Info("interactions endpoint", "addr", ln.Addr().String(), "path", e.ep.Path)
}

// Close stops the endpoint, if ctx did not already, and returns once it
// has, with what went wrong.
func (e *HTTP) Close() error {
	close(e.quit)
	var err error
	if serr := <-e.stopped; serr != nil {
		err = fmt.Errorf("bot: shut down the interactions endpoint: %w", serr)
	}
	if serr := <-e.served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, fmt.Errorf("bot: interactions endpoint: %w", serr))
	}
	return err
}

// Listening reports whether the endpoint is listening.
func (e *HTTP) Listening() bool { return e.listening.Load() }

// handler is the handler of interaction requests: it verifies each,
// answers a PING, and hands every other interaction to the Handler.
func (e *HTTP) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxInteractionBytes))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "cannot read the request body", http.StatusBadRequest)
			return
		}
		if err := verifySignature(e.ep.PublicKey, r.Header, body, e.now()); err != nil {
			// Discord sends requests with bad signatures on purpose, to
			// check that they are refused: not worth a warning.
			e.log.Debug("interaction request refused", "remote", r.RemoteAddr, "err", err)
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		var i discordgo.Interaction
		if err := json.Unmarshal(body, &i); err != nil {
			e.log.Warn("signed interaction request that is not an interaction", "err", err)
			http.Error(w, "the body is not an interaction", http.StatusBadRequest)
			return
		}
		if i.Type == discordgo.InteractionPing {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}) // the client may have gone
			return
		}
		answered, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			e.h.Interaction(&i, func() { close(answered) })
		}()
		wait := time.NewTimer(answerWait)
		defer wait.Stop()
		select {
		case <-answered:
		case <-done:
		case <-wait.C:
			e.log.Warn("interaction not answered in time", "interaction", i.ID)
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusAccepted)
	})
}

// verifySignature checks a request's X-Signature-Ed25519, Discord's
// ed25519 signature of X-Signature-Timestamp followed by the body, against
// the application's public key, and that the timestamp (Unix seconds) is
// within maxClockSkew of now.
func verifySignature(key ed25519.PublicKey, h http.Header, body []byte, now time.Time) error {
	sigHex, ts := h.Get("X-Signature-Ed25519"), h.Get("X-Signature-Timestamp")
	if sigHex == "" || ts == "" {
		return errors.New("bot: no X-Signature-Ed25519 or X-Signature-Timestamp header")
	}
	sig, err := hex.DecodeString(sigHex)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return errors.New("bot: X-Signature-Ed25519 is not a hexadecimal ed25519 signature")
	}
	signed := make([]byte, 0, len(ts)+len(body))
	if !ed25519.Verify(key, append(append(signed, ts...), body...), sig) {
		return errors.New("bot: the signature does not verify against the public key")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("bot: X-Signature-Timestamp %q is not Unix seconds", ts)
	}
	if skew := now.Sub(time.Unix(sec, 0)); skew > maxClockSkew || skew < -maxClockSkew {
		return fmt.Errorf("bot: the request was signed %v from now, more than %v", skew.Round(time.Second), maxClockSkew)
	}
	return nil
}
