package ops_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/gambitbot/gambit/bot/ops"
)

// dashboardFile is the Grafana dashboard shipped for the bot's metrics.
const dashboardFile = "../../deploy/grafana/gambit-dashboard.json"

// dashboard is the part of a Grafana dashboard's JSON model the tests read.
type dashboard struct {
	Inputs []struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		PluginID string `json:"pluginId"`
	} `json:"__inputs"`
	SchemaVersion int                           `json:"schemaVersion"`
	Panels        []dashPanel                   `json:"panels"`
	Templating    struct{ List []dashVariable } `json:"templating"`
}

// dashPanel is a panel, or a row whose Panels are those it holds when
// collapsed.
type dashPanel struct {
	Title      string `json:"title"`
	Type       string `json:"type"`
	Datasource *struct {
		UID string `json:"uid"`
	} `json:"datasource"`
	Targets []struct {
		Expr  string `json:"expr"`
		RefID string `json:"refId"`
	} `json:"targets"`
	Panels []dashPanel `json:"panels"`
}

// dashVariable is a template variable; Query is a string in older models
// and {"query": "...", "refId": ...} in newer ones.
type dashVariable struct {
	Name  string          `json:"name"`
	Type  string          `json:"type"`
	Query json.RawMessage `json:"query"`
}

// query is the PromQL query of a template variable ("" for none).
func (v dashVariable) query() (string, error) {
	if len(v.Query) == 0 {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(v.Query, &s); err == nil {
		return s, nil
	}
	var o struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(v.Query, &o); err != nil {
		return "", fmt.Errorf("variable %s: query: %w", v.Name, err)
	}
	return o.Query, nil
}

// descName is the family name in a [prometheus.Desc]'s String, which
// offers no other way to it.
var descName = regexp.MustCompile(`^Desc\{fqName: "([^"]+)"`)

// exportedFamilies returns every metric family registered by
// [ops.NewMetrics] (from its registry's Describe) with its type (from a
// Gather after each vector of [ops.Metrics] was given a child: a vector
// without one is not exposed). It fails the test on a family registered
// but not gathered so.
func exportedFamilies(t *testing.T) map[string]dto.MetricType {
	t.Helper()
	m := ops.NewMetrics()
	// The collectors are pointer fields of the groups (AI, REST…) that
	// are Metrics' struct fields.
	groups := reflect.ValueOf(m).Elem()
	for g := range groups.NumField() {
		group := groups.Field(g)
		if group.Kind() != reflect.Struct {
			continue
		}
		for i := range group.NumField() {
			name := groups.Type().Field(g).Name + "." + group.Type().Field(i).Name
			if vec, ok := metricVec(group.Field(i)); ok && !givenAChild(vec) {
				t.Fatalf("Metrics.%s: no child with up to 8 labels", name)
			}
		}
	}
	gathered, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	types := make(map[string]dto.MetricType, len(gathered))
	for _, f := range gathered {
		types[f.GetName()] = f.GetType()
	}

	descs := make(chan *prometheus.Desc)
	go func() {
		m.Registry.Describe(descs)
		close(descs)
	}()
	families := map[string]dto.MetricType{}
	for d := range descs {
		name := descName.FindStringSubmatch(d.String())
		if name == nil {
			t.Fatalf("no name in %s", d)
		}
		typ, ok := types[name[1]]
		if !ok {
			t.Errorf("%s is registered but was not gathered: is it a vector outside ops.Metrics?", name[1])
			continue
		}
		families[name[1]] = typ
	}
	if len(families) == 0 {
		t.Fatal("the registry describes no metric")
	}
	return families
}

// metricVec returns the vector a collector field f holds, if it is one.
func metricVec(f reflect.Value) (*prometheus.MetricVec, bool) {
	if f.Kind() != reflect.Pointer || f.Type().Elem().Kind() != reflect.Struct {
		return nil, false
	}
	embedded := f.Elem().FieldByName("MetricVec")
	if !embedded.IsValid() {
		return nil, false
	}
	return embedded.Interface().(*prometheus.MetricVec), true
}

// givenAChild gives vec a child, trying up to 8 label values (a vector
// takes as many as it has labels), and reports whether one took.
func givenAChild(vec *prometheus.MetricVec) bool {
	for n := 0; n <= 8; n++ {
		if _, err := vec.GetMetricWithLabelValues(slices.Repeat([]string{"x"}, n)...); err == nil {
			return true
		}
	}
	return false
}

// ownFamily tells the bot's own metrics from those of the client
// library's Go runtime and process collectors.
func ownFamily(name string) bool {
	return !strings.HasPrefix(name, "go_") && !strings.HasPrefix(name, "process_")
}

// seriesFamily returns the family a series name belongs to: the name
// itself, or a histogram's (or summary's) family for its _bucket, _sum
// and _count series.
func seriesFamily(name string, families map[string]dto.MetricType) (string, error) {
	if typ, ok := families[name]; ok {
		if typ == dto.MetricType_HISTOGRAM {
			return "", fmt.Errorf("%s is a histogram: query its _bucket, _sum or _count series", name)
		}
		return name, nil
	}
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		base, ok := strings.CutSuffix(name, suffix)
		if !ok {
			continue
		}
		switch typ, ok := families[base]; {
		case !ok:
		case typ == dto.MetricType_HISTOGRAM, typ == dto.MetricType_SUMMARY && suffix != "_bucket":
			return base, nil
		default:
			return "", fmt.Errorf("%s: %s is a %s, which has no %s series", name, base, typ, suffix)
		}
	}
	return "", fmt.Errorf("%s is not a metric the bot exports", name)
}

// promqlWords are PromQL's aggregation operators and keywords: words that
// name no metric when they are not followed by "(".
var promqlWords = map[string]bool{
	"sum": true, "min": true, "max": true, "avg": true, "group": true, "stddev": true, "stdvar": true,
	"count": true, "count_values": true, "bottomk": true, "topk": true, "quantile": true,
	"limitk": true, "limit_ratio": true,
	"and": true, "or": true, "unless": true, "atan2": true, "bool": true, "offset": true,
	"start": true, "end": true, "inf": true, "nan": true,
}

// promqlGrouping are the keywords followed by a list of label names.
var promqlGrouping = map[string]bool{
	"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true,
}

// promqlMetricNames returns the metric names a PromQL expression selects,
// in order: the identifiers that are neither functions (followed by "("),
// keywords nor label names (inside {...} or a grouping's (...)). Strings,
// durations in [...], numbers and Grafana's $variables are skipped.
// Selecting by {__name__=...} is not recognised.
func promqlMetricNames(expr string) ([]string, error) {
	var names []string
	isIdent := func(c byte, first bool) bool {
		return c == '_' || c == ':' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
	}
	// skipString returns the index after the string starting at i.
	skipString := func(i int) (int, error) {
		q := expr[i]
		for j := i + 1; j < len(expr); j++ {
			switch {
			case expr[j] == '\\' && q != '`':
				j++
			case expr[j] == q:
				return j + 1, nil
			}
		}
		return 0, fmt.Errorf("unterminated string at %d in %q", i, expr)
	}
	// skipGroup returns the index after the group opened at i, strings in
	// it skipped.
	skipGroup := func(i int) (int, error) {
		open, depth := expr[i], 0
		closing := map[byte]byte{'{': '}', '[': ']', '(': ')'}[open]
		for j := i; j < len(expr); {
			switch expr[j] {
			case '"', '\'', '`':
				next, err := skipString(j)
				if err != nil {
					return 0, err
				}
				j = next
				continue
			case open:
				depth++
			case closing:
				if depth--; depth == 0 {
					return j + 1, nil
				}
			}
			j++
		}
		return 0, fmt.Errorf("unclosed %c at %d in %q", open, i, expr)
	}
	nextNonSpace := func(i int) int {
		for i < len(expr) && strings.IndexByte(" \t\r\n", expr[i]) >= 0 {
			i++
		}
		return i
	}
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			next, err := skipString(i)
			if err != nil {
				return nil, err
			}
			i = next
		case c == '{' || c == '[':
			next, err := skipGroup(i)
			if err != nil {
				return nil, err
			}
			i = next
		case c == '$': // a Grafana variable: $name or ${name...}
			i++
			if i < len(expr) && expr[i] == '{' {
				next, err := skipGroup(i)
				if err != nil {
					return nil, err
				}
				i = next
			}
			for i < len(expr) && isIdent(expr[i], false) {
				i++
			}
		case '0' <= c && c <= '9' || c == '.': // a number or a duration
			for i < len(expr) && (isIdent(expr[i], false) || expr[i] == '.') {
				i++
			}
		case isIdent(c, true):
			j := i
			for j < len(expr) && isIdent(expr[j], false) {
				j++
			}
			word, after := expr[i:j], nextNonSpace(j)
			i = j
			lower := strings.ToLower(word)
			switch {
			case promqlGrouping[lower]:
				if after < len(expr) && expr[after] == '(' {
					next, err := skipGroup(after)
					if err != nil {
						return nil, err
					}
					i = next
				}
			case after < len(expr) && expr[after] == '(': // a function or an aggregation
			case promqlWords[lower]:
			default:
				names = append(names, word)
			}
		default:
			i++
		}
	}
	return names, nil
}

// labelValues matches a template variable's label_values(metric, label) or
// label_values(label) and query_result(expr).
var (
	labelValues = regexp.MustCompile(`^\s*label_values\((.*)\)\s*$`)
	queryResult = regexp.MustCompile(`^\s*query_result\((.*)\)\s*$`)
)

// variableExpr returns the PromQL expression in a template variable's
// query ("" for none).
func variableExpr(query string) (string, error) {
	if m := labelValues.FindStringSubmatch(query); m != nil {
		if k := strings.LastIndexByte(m[1], ','); k >= 0 {
			return m[1][:k], nil
		}
		return "", nil // label_values(label): no metric
	}
	if m := queryResult.FindStringSubmatch(query); m != nil {
		return m[1], nil
	}
	return "", fmt.Errorf("query %q is neither label_values(...) nor query_result(...)", query)
}

func TestPromQLMetricNames(t *testing.T) {
	tests := []struct {
		expr string
		want []string
	}{
		{`gambit_games_active`, []string{"gambit_games_active"}},
		{`max(gambit_games_active{job=~"$job", instance=~"$instance"})`, []string{"gambit_games_active"}},
		{`histogram_quantile(0.99, sum by (le, game) (rate(a_bucket{x="{[(", y='b'}[$__rate_interval])))`, []string{"a_bucket"}},
		{`sum(rate(a_sum[5m])) by (le) / sum without(kind) (rate(a_count[5m] offset 1h))`, []string{"a_sum", "a_count"}},
		{`a / on(instance) group_left(version) b > bool 0 and c unless d OR e`, []string{"a", "b", "c", "d", "e"}},
		{`time() - process_start_time_seconds{job="gambit"}`, []string{"process_start_time_seconds"}},
		{`SUM BY (x) (topk(5, m:rule:rate5m)) * 1e-3 + Inf`, []string{"m:rule:rate5m"}},
		{`label_replace(up, "dst", "$1", "src", "(.*)") @ start()`, []string{"up"}},
		{`rate(x[${__range}])`, []string{"x"}},
	}
	for _, tt := range tests {
		got, err := promqlMetricNames(tt.expr)
		if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: metric names %q, want %q", tt.expr, got, tt.want)
		}
	}
	for _, bad := range []string{`rate(x{job="a}[5m])`, `sum(rate(x[5m`} {
		if got, err := promqlMetricNames(bad); err == nil {
			t.Errorf("%s: names %q, want an error", bad, got)
		}
	}
}

// TestDashboardMatchesMetrics keeps deploy/grafana/gambit-dashboard.json
// in step with bot/ops/metrics.go: every query names only metrics the bot
// exports (a histogram by its series), and each of the bot's own metrics
// is on at least one panel.
func TestDashboardMatchesMetrics(t *testing.T) {
	families := exportedFamilies(t)

	data, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	// The dashboard imports anywhere: its data source is an input.
	if len(d.Inputs) != 1 || d.Inputs[0].Name != "DS_PROMETHEUS" || d.Inputs[0].PluginID != "prometheus" {
		t.Errorf("inputs %+v, want one: the Prometheus data source DS_PROMETHEUS", d.Inputs)
	}
	if d.SchemaVersion < 36 {
		t.Errorf("schemaVersion %d, want 36 or later (data sources by uid)", d.SchemaVersion)
	}

	used := map[string]bool{}
	check := func(where, expr string) {
		t.Helper()
		names, err := promqlMetricNames(expr)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			return
		}
		if len(names) == 0 {
			t.Errorf("%s: %q selects no metric", where, expr)
		}
		for _, name := range names {
			family, err := seriesFamily(name, families)
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			used[family] = true
		}
	}
	var walk func(panels []dashPanel)
	queries := 0
	walk = func(panels []dashPanel) {
		for _, p := range panels {
			walk(p.Panels)
			if p.Type == "row" {
				continue
			}
			if len(p.Targets) == 0 {
				t.Errorf("panel %q has no query", p.Title)
			}
			if p.Datasource == nil || p.Datasource.UID != "${DS_PROMETHEUS}" {
				t.Errorf("panel %q: data source %+v, want uid ${DS_PROMETHEUS}", p.Title, p.Datasource)
			}
			for _, q := range p.Targets {
				queries++
				check(fmt.Sprintf("panel %q query %s", p.Title, q.RefID), q.Expr)
			}
		}
	}
	walk(d.Panels)
	if queries == 0 {
		t.Fatal("the dashboard has no query")
	}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		q, err := v.query()
		if err == nil {
			q, err = variableExpr(q)
		}
		if err != nil {
			t.Errorf("variable %s: %v", v.Name, err)
		} else if q != "" {
			check("variable "+v.Name, q)
		}
	}

	var missing []string
	for name := range families {
		if ownFamily(name) && !used[name] {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	for _, name := range missing {
		t.Errorf("%s is on no panel of %s", name, dashboardFile)
	}
}
