package apiurl

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080", true},
		{" https://proxy.example/ ", "https://proxy.example", true},
		{"http://127.0.0.1:8080/api/v10", "", false},
		{"ftp://host", "", false},
		{"127.0.0.1:8080", "", false},
		{"http://", "", false},
		{"http://u:p@host", "", false},
		{"http://host?x=1", "", false},
		{"%zz", "", false},
	} {
		u, err := Parse(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("Parse(%q) error = %v, want ok %v", tc.in, err, tc.ok)
			continue
		}
		if tc.ok && u.String() != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, u, tc.want)
		}
	}
}

func TestTransportRewritesHost(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		w.WriteHeader(http.StatusTeapot)
	}))
	defer srv.Close()
	base, err := Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: Transport(base, nil)}
	resp, err := client.Get("https://discord.com/api/v9/gateway?encoding=json")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTeapot || got == nil {
		t.Fatalf("status %d, request %v: the request did not reach the base URL", resp.StatusCode, got)
	}
	if got.URL.Path != "/api/v9/gateway" || got.URL.RawQuery != "encoding=json" {
		t.Errorf("request reached %s?%s, want /api/v9/gateway?encoding=json", got.URL.Path, got.URL.RawQuery)
	}
}
