package playground

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// The page has no authentication: anything that can reach its port can
// play. The loopback bind keeps other machines out; guard keeps out the
// web pages open in this machine's browser:
//
//   - DNS rebinding: a host name of the attacker's that resolves to
//     127.0.0.1 makes the browser treat the playground as the attacker's
//     own origin. Every request (pages, API, the event stream) must name
//     the served address in Host: a loopback name and the served port.
//   - Cross-site requests: a foreign page may POST a form or a text/plain
//     fetch without asking. State-changing requests must come from the
//     page's own origin (http.CrossOriginProtection: Sec-Fetch-Site, or
//     Origin against Host) and be application/json, which a foreign page
//     cannot send without a CORS preflight that the playground never
//     grants.

// guard wraps h with the checks above for a page served on a loopback
// address with the given port.
func guard(servedPort int, h http.Handler) http.Handler {
	port := strconv.Itoa(servedPort)
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusForbidden, fmt.Sprintf("refused a cross-origin request (Origin %q): the playground only accepts changes from its own page", r.Header.Get("Origin")))
	}))
	checked := cop.Handler(requireJSON(h))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !servedHost(r.Host, port) {
			fail(w, http.StatusForbidden, fmt.Sprintf("refused a request for host %q: the playground answers only to a loopback address with port %s, such as http://127.0.0.1:%s/", r.Host, port, port))
			return
		}
		checked.ServeHTTP(w, r)
	})
}

// maxBody bounds the body of a state-changing request, above what any
// handler accepts (each reads its own, smaller, limit).
const maxBody = 64 << 10

// requireJSON refuses a state-changing request whose body is not
// declared application/json, before anything reads it, and one whose body
// holds anything but white space after its JSON value (each handler reads
// one value and would ignore the rest).
func requireJSON(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			ct := r.Header.Get("Content-Type")
			if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
				fail(w, http.StatusUnsupportedMediaType, fmt.Sprintf("refused a %s with Content-Type %q: send the request as JSON, with Content-Type: application/json", r.Method, ct))
				return
			}
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
			if err != nil {
				fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("refused a request body: %v", err))
				return
			}
			dec := json.NewDecoder(bytes.NewReader(body))
			var value json.RawMessage
			// A malformed value is left to the handler, which says what it
			// wanted.
			if dec.Decode(&value) == nil && dec.Decode(&value) != io.EOF {
				fail(w, http.StatusBadRequest, "malformed request: data after the JSON value: send exactly one JSON object")
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	})
}

// servedHost reports whether a Host header names the served address: a
// loopback name or address with the served port (80 if none is given).
func servedHost(hostHeader, port string) bool {
	host, p, err := net.SplitHostPort(hostHeader)
	if err != nil {
		host, p = strings.TrimSuffix(strings.TrimPrefix(hostHeader, "["), "]"), "80"
	}
	return p == port && isLoopback(host)
}

// isLoopback reports whether host is "localhost" or a loopback IP address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
