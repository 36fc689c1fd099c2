package main

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// composeService is the part of a Compose service the test checks.
type composeService struct {
	Image       string            `yaml:"image"`
	Build       string            `yaml:"build"`
	Command     string            `yaml:"command"`
	Environment map[string]string `yaml:"environment"`
	Volumes     []string          `yaml:"volumes"`
}

// TestComposeFileRunsReplicasBehindTheProxy checks the repository's
// compose.yaml, which docs/operating.md's "Running on several machines" points to,
// without Docker: it parses, its gambit services run `serve` from this
// repository's image on the compose PostgreSQL, listen where the Caddyfile
// sends requests, and set only settings that .env.example documents.
func TestComposeFileRunsReplicasBehindTheProxy(t *testing.T) {
	root := filepath.Join("..", "..")
	raw, err := os.ReadFile(filepath.Join(root, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]composeService `yaml:"services"`
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	pg, ok := compose.Services["postgres"]
	if !ok || !strings.HasPrefix(pg.Image, "postgres:") {
		t.Fatalf("compose.yaml has no postgres service: %+v", compose.Services)
	}
	proxy, ok := compose.Services["caddy"]
	if !ok {
		t.Fatal("compose.yaml has no caddy service")
	}
	var caddyfile []byte
	for _, v := range proxy.Volumes {
		if from, to, _ := strings.Cut(v, ":"); strings.HasPrefix(to, "/etc/caddy/Caddyfile") {
			if caddyfile, err = os.ReadFile(filepath.Join(root, from)); err != nil {
				t.Fatalf("the caddy service mounts %s: %v", from, err)
			}
		}
	}
	if caddyfile == nil {
		t.Fatal("the caddy service mounts no Caddyfile")
	}
	envExample, err := os.ReadFile(filepath.Join(root, ".env.example"))
	if err != nil {
		t.Fatal(err)
	}
	var replicas []string
	for name, s := range compose.Services {
		if s.Command != "serve" {
			continue
		}
		replicas = append(replicas, name)
		if s.Build != "." {
			t.Errorf("%s: build %q, want . (the repository's Dockerfile)", name, s.Build)
		}
		_, port, err := net.SplitHostPort(s.Environment["GAMBIT_SERVE_ADDR"])
		if err != nil || !strings.HasPrefix(s.Environment["GAMBIT_SERVE_ADDR"], "0.0.0.0:") {
			t.Errorf("%s: GAMBIT_SERVE_ADDR=%q, want 0.0.0.0:port (every interface of the container)", name, s.Environment["GAMBIT_SERVE_ADDR"])
		}
		if !regexp.MustCompile(`reverse_proxy[^{\n]*\s` + regexp.QuoteMeta(name+":"+port) + `[\s{]`).Match(caddyfile) {
			t.Errorf("%s listens on port %s, but the Caddyfile's reverse_proxy does not name %s:%s:\n%s", name, port, name, port, caddyfile)
		}
		// Compose fills in ${VARIABLE}s from .env; any value does here.
		u, err := url.Parse(regexp.MustCompile(`\$\{[^}]*\}`).ReplaceAllString(s.Environment[envDatabaseURL], "x"))
		if err != nil || u.Scheme != "postgres" || u.Hostname() != "postgres" || u.User.Username() != pg.Environment["POSTGRES_USER"] ||
			u.Path != "/"+pg.Environment["POSTGRES_DB"] {
			t.Errorf("%s: %s=%q, want the compose postgres service's database (%s@postgres/%s)", name, envDatabaseURL,
				s.Environment[envDatabaseURL], pg.Environment["POSTGRES_USER"], pg.Environment["POSTGRES_DB"])
		}
		for key := range s.Environment {
			if strings.HasPrefix(key, "GAMBIT_") && !regexp.MustCompile(`(?m)^#? ?`+key+`=`).Match(envExample) {
				t.Errorf("%s sets %s, which .env.example does not document", name, key)
			}
		}
	}
	if slices.Sort(replicas); len(replicas) < 2 {
		t.Errorf("compose.yaml runs gambit serve as %v; want two replicas at least", replicas)
	}
	guide, err := os.ReadFile(filepath.Join(root, "docs", "operating.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(guide), "(../compose.yaml)") {
		t.Error("the operators' guide, docs/operating.md, does not link compose.yaml")
	}
}
