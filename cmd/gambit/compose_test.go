package main

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// composeService is the part of a Compose service the tests check.
type composeService struct {
	Image       string            `yaml:"image"`
	Build       string            `yaml:"build"`
	Command     any               `yaml:"command"` // a string, or a list of arguments
	Environment map[string]string `yaml:"environment"`
	Volumes     []string          `yaml:"volumes"`
	Profiles    []string          `yaml:"profiles"`
	Deploy      struct {
		Replicas *int `yaml:"replicas"`
	} `yaml:"deploy"`
}

// replicas is how many containers of the service Compose runs.
func (s composeService) replicas() int {
	if s.Deploy.Replicas != nil {
		return *s.Deploy.Replicas
	}
	return 1
}

// readCompose parses the repository's compose.yaml.
func readCompose(t *testing.T) map[string]composeService {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]composeService `yaml:"services"`
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return compose.Services
}

// composeURL parses a service's URL setting, with Compose's
// ${VARIABLE}s, which it fills in from .env, replaced by x.
func composeURL(s composeService, key string) (*url.URL, error) {
	return url.Parse(regexp.MustCompile(`\$\{[^}]*\}`).ReplaceAllString(s.Environment[key], "x"))
}

// TestComposeFileRunsReplicasBehindTheProxy checks the repository's
// compose.yaml, which docs/operating.md's "Running on several machines" points to,
// without Docker: it parses, its gambit services set only settings that
// .env.example documents, and two of them at least run `serve` from this
// repository's image and listen where the Caddyfile sends requests.
func TestComposeFileRunsReplicasBehindTheProxy(t *testing.T) {
	root := filepath.Join("..", "..")
	services := readCompose(t)
	pg, ok := services["postgres"]
	if !ok || !strings.HasPrefix(pg.Image, "postgres:") {
		t.Fatalf("compose.yaml has no postgres service: %+v", services)
	}
	proxy, ok := services["caddy"]
	if !ok {
		t.Fatal("compose.yaml has no caddy service")
	}
	var caddyfile []byte
	for _, v := range proxy.Volumes {
		if from, to, _ := strings.Cut(v, ":"); strings.HasPrefix(to, "/etc/caddy/Caddyfile") {
			var err error
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
	for name, s := range services {
		if s.Build == "." {
			for key := range s.Environment {
				if strings.HasPrefix(key, "GAMBIT_") && !regexp.MustCompile(`(?m)^#? ?`+key+`=`).Match(envExample) {
					t.Errorf("%s sets %s, which .env.example does not document", name, key)
				}
			}
		}
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

// TestComposeRunsTheCapacityPlanInMiniature checks, without Docker, that
// compose.yaml runs docs/capacity.md's plan in miniature: the bot and
// serve processes reach PostgreSQL through PgBouncer in transaction mode
// (deploy/pgbouncer), told so by GAMBIT_DB_POOLER, and leave the AI turns
// to the workers; two workers at least connect to PostgreSQL directly, as
// River's LISTEN/NOTIFY needs a session of its own; every gambit process
// shares Discord's rate limits through the compose Redis; every pool is
// bounded (GAMBIT_DB_MAX_CONNS), and PgBouncer's server connections and the
// workers' fit in PostgreSQL's max_connections with room for `gambit db`.
func TestComposeRunsTheCapacityPlanInMiniature(t *testing.T) {
	const adminRoom = 5 // connections left for gambit db, psql and PostgreSQL's superuser
	services := readCompose(t)
	pg := services["postgres"]
	maxConns := 100 // PostgreSQL's default
	if args, ok := pg.Command.([]any); ok {
		for i := 0; i+1 < len(args); i++ {
			if v, ok := strings.CutPrefix(fmt.Sprint(args[i+1]), "max_connections="); ok && args[i] == "-c" {
				maxConns, _ = strconv.Atoi(v)
			}
		}
	}
	bouncer, ok := services["pgbouncer"]
	if !ok {
		t.Fatal("compose.yaml has no pgbouncer service")
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", bouncer.Build, "pgbouncer.ini"))
	if err != nil {
		t.Fatalf("the pgbouncer service's build %q: %v", bouncer.Build, err)
	}
	ini := map[string]string{} // section/key → value
	section := ""
	for line := range strings.Lines(string(raw)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[]")
		} else if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, ";") {
			ini[section+"/"+strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if mode := ini["pgbouncer/pool_mode"]; mode != "transaction" {
		t.Errorf("pgbouncer.ini: pool_mode %q, want transaction", mode)
	}
	dbName := pg.Environment["POSTGRES_DB"]
	if target := ini["databases/"+dbName]; !strings.Contains(target, "host=postgres ") || !strings.Contains(target, "dbname="+dbName) {
		t.Errorf("pgbouncer.ini: database %s is %q, want the compose postgres service's", dbName, target)
	}
	atoi := func(key string) int {
		n, err := strconv.Atoi(ini[key])
		if err != nil {
			t.Errorf("pgbouncer.ini: %s=%q: %v", key, ini[key], err)
		}
		return n
	}
	serverConns := atoi("pgbouncer/default_pool_size") + atoi("pgbouncer/reserve_pool_size")
	if redis, ok := services["redis"]; !ok || !strings.HasPrefix(redis.Image, "redis:") {
		t.Error("compose.yaml has no redis service, the limiter's store")
	}

	direct, clients := 0, 0 // connections the workers open to PostgreSQL, and the others to PgBouncer
	var workers, front []string
	for name, s := range services {
		if s.Build != "." {
			continue
		}
		if u, err := composeURL(s, "GAMBIT_REDIS_URL"); err != nil || u.Scheme != "redis" || u.Hostname() != "redis" {
			t.Errorf("%s: GAMBIT_REDIS_URL=%q, want the compose redis service", name, s.Environment["GAMBIT_REDIS_URL"])
		}
		db, err := composeURL(s, envDatabaseURL)
		if err != nil {
			t.Errorf("%s: %s: %v", name, envDatabaseURL, err)
			continue
		}
		conns, err := strconv.Atoi(s.Environment[envDBMaxConns])
		if err != nil || conns < 2 {
			t.Errorf("%s: %s=%q: every process needs its connection budget", name, envDBMaxConns, s.Environment[envDBMaxConns])
		}
		if db.User.Username() != pg.Environment["POSTGRES_USER"] || db.Path != "/"+dbName {
			t.Errorf("%s: %s=%q, want user %s and database %s", name, envDatabaseURL, s.Environment[envDatabaseURL], pg.Environment["POSTGRES_USER"], dbName)
		}
		switch s.Command {
		case "serve", "bot":
			front = append(front, name)
			clients += s.replicas() * conns
			if db.Host != "pgbouncer:"+ini["pgbouncer/listen_port"] {
				t.Errorf("%s: %s reaches %s, want PgBouncer (pgbouncer:%s)", name, envDatabaseURL, db.Host, ini["pgbouncer/listen_port"])
			}
			if s.Environment["GAMBIT_DB_POOLER"] != "pgbouncer" {
				t.Errorf("%s: behind PgBouncer without GAMBIT_DB_POOLER=pgbouncer", name)
			}
			if s.Environment[envAITurns] != "workers" {
				t.Errorf("%s: %s=%q, want workers: the gambit worker services play the AI turns", name, envAITurns, s.Environment[envAITurns])
			}
		case "worker":
			workers = append(workers, strings.Repeat(name+" ", s.replicas()))
			direct += s.replicas() * conns
			if db.Host != "postgres:5432" {
				t.Errorf("%s: %s reaches %s, want PostgreSQL itself (postgres:5432): River listens for its jobs", name, envDatabaseURL, db.Host)
			}
		default:
			t.Errorf("%s runs gambit %v; want bot, serve or worker", name, s.Command)
		}
	}
	if n := len(strings.Fields(strings.Join(workers, " "))); n < 2 {
		t.Errorf("compose.yaml runs %d gambit worker processes; want two at least", n)
	}
	if len(front) < 2 {
		t.Errorf("compose.yaml runs gambit bot or serve as %v; want two at least", front)
	}
	if max := atoi("pgbouncer/max_client_conn"); clients > max {
		t.Errorf("the bot and serve processes may open %d connections to PgBouncer, whose max_client_conn is %d", clients, max)
	}
	if serverConns+direct+adminRoom > maxConns {
		t.Errorf("PgBouncer's %d server connections and the workers' %d, with %d for administration, exceed PostgreSQL's max_connections %d",
			serverConns, direct, adminRoom, maxConns)
	}
}
