// Package apiurl sends Discord API requests to another base URL: a REST
// proxy an operator runs, or the local stand-in of Discord in tests and
// the playground. It rewrites requests in an HTTP transport, so discordgo's
// endpoint variables stay untouched.
package apiurl

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Parse reads a base URL such as http://127.0.0.1:8080: an http or https
// URL with a host and no path beyond "/" (discordgo adds /api/vN itself),
// no query and no credentials.
func Parse(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("apiurl: %q: %w", s, err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("apiurl: %q: want an http or https URL", s)
	case u.Host == "":
		return nil, fmt.Errorf("apiurl: %q: no host", s)
	case u.Path != "" && u.Path != "/":
		return nil, fmt.Errorf("apiurl: %q: give the base URL without a path such as /api/v10", s)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return nil, fmt.Errorf("apiurl: %q: no query, fragment or credentials allowed", s)
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host}, nil
}

// Transport returns a transport that replaces the scheme and host of each
// request's URL with those of base and sends it with next (the default
// transport when next is nil). Paths, queries, headers and bodies pass
// unchanged.
func Transport(base *url.URL, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return rewrite{base: base, next: next}
}

type rewrite struct {
	base *url.URL
	next http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t rewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.URL.Scheme = t.base.Scheme
	out.URL.Host = t.base.Host
	out.Host = ""
	return t.next.RoundTrip(out)
}
