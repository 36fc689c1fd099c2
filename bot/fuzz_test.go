package bot

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/gamenames"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
)

// routedPatterns are the patterns the router must serve.
var routedPatterns = []customid.Pattern{
	customid.Move, customid.Pick, customid.Resign, customid.ResignConfirm, customid.Rematch,
	customid.Accept, customid.Take, customid.Decline, customid.Repost, customid.PrivacyDelete,
}

// FuzzRouter checks the bot's component router on any custom ID: it never
// panics, a match has a handler and non-empty parameters that the pattern
// itself matches, and at most one route matches, so the order of the
// routes never decides what a click does.
func FuzzRouter(f *testing.F) {
	b := &Bot{}
	b.assemble()
	m := b.intake.mux
	for _, p := range routedPatterns {
		if !slices.Contains(m.Patterns(), p) {
			f.Fatalf("the router has no route for %s", p)
		}
	}
	for _, seed := range []string{
		"", "/", "v1", "v1/move/0001k/0/5", "v1/move/0001k/0/5/x", "v1/move/0001k/-1/99", "v1/pick/0001k/3/1",
		"v1/resign/0001k/4", "v1/resign/0001k/4/yes", "v1/resign/0001k/4/YES", "v1/rematch/0001k",
		"v1/accept/0001k", "v1/decline/0001k", "v1/repost/0001k", "v1/privacy/delete/42",
		"v1/privacy/delete/", "v9/accept/0001k", "v1/accept//", "v1/test-panic/1",
		"v1/move/" + strings.Repeat("g", 200) + "/0/5",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, id string) {
		h, params, pattern, ok := m.Match(id)
		matches := 0
		for _, p := range m.Patterns() {
			if _, ok := p.Match(id); ok {
				matches++
			}
		}
		if !ok {
			if h != nil || params != nil || pattern != "" || matches != 0 {
				t.Fatalf("match(%q) = no match with %v %q, %d routes matching", id, params, pattern, matches)
			}
			return
		}
		if matches != 1 {
			t.Fatalf("%q matches %d routes", id, matches)
		}
		if h == nil || len(params) == 0 {
			t.Fatalf("match(%q) = %s with handler %v and params %v", id, pattern, h != nil, params)
		}
		for k, v := range params {
			if v == "" || strings.Contains(v, "/") {
				t.Fatalf("match(%q): parameter %s = %q", id, k, v)
			}
		}
		again, ok := pattern.Match(id)
		if !ok || len(again) != len(params) {
			t.Fatalf("match(%q) = %s, but the pattern gives %v, %v", id, pattern, again, ok)
		}
	})
}

// fuzzBytes reads the fuzzer's bytes as decisions; past the end every
// read is zero, which ends every list.
type fuzzBytes struct {
	b    []byte
	made int // options made so far, bounded to keep an execution fast
}

// maxFuzzOptions bounds the options of one input: the fuzzer minimizes
// every interesting input, and a slow execution stalls it for a minute.
const maxFuzzOptions = 24

// maxFuzzInput bounds the bytes of one input, for the same reason: the
// minimizer tries to remove every range of bytes.
const maxFuzzInput = 256

func (r *fuzzBytes) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *fuzzBytes) str() string {
	n := min(int(r.byte()%32), len(r.b))
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// fuzzNumbers are the float64 values at the edges of the option parsers.
var fuzzNumbers = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 0.05, 0.099999999, 0.1000000001, 1.5, 2, 28, 29, 59.9999999999, 60,
	60.0000000001, 61, 336, 337, 1e12, -1e12, 1 << 53, 1<<53 + 2, -(1 << 53), -(1<<53 + 2), 1e18, 9.3e9, 9.3e18,
	1e300, -1e300, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN(),
}

func (r *fuzzBytes) number() float64 {
	if c := r.byte(); c < 128 {
		return fuzzNumbers[int(c)%len(fuzzNumbers)]
	}
	var u uint64
	for range 8 {
		u = u<<8 | uint64(r.byte())
	}
	return math.Float64frombits(u)
}

// fuzzNames are the option names the commands read, and a few others.
var fuzzNames = []string{
	"game", "opponent", "ai", "rounds", "first", "movetime", "cell", "scope", "user", "games", "turn-timeout",
	"delete", "", "GAME", " game",
}

func (r *fuzzBytes) name() string {
	if c := r.byte(); c < 200 {
		return fuzzNames[int(c)%len(fuzzNames)]
	}
	return r.str()
}

// value returns a value of any JSON type, as encoding/json decodes it
// into an interface, and also NaN and infinities, which JSON cannot carry.
func (r *fuzzBytes) value(depth int) any {
	switch r.byte() % 8 {
	case 0:
		return nil
	case 1:
		return r.byte()%2 == 1
	case 2, 3:
		return r.number()
	case 4, 5:
		return r.str()
	case 6:
		if depth > 3 {
			return []any{}
		}
		n := int(r.byte() % 4)
		out := make([]any, n)
		for i := range out {
			out[i] = r.value(depth + 1)
		}
		return out
	default:
		if depth > 3 {
			return map[string]any{}
		}
		out := map[string]any{}
		for range int(r.byte() % 4) {
			out[r.str()] = r.value(depth + 1)
		}
		return out
	}
}

// options returns a list of options, nested through subcommands (or any
// other type: a hostile payload need not be well formed).
func (r *fuzzBytes) options(depth int) []*discordgo.ApplicationCommandInteractionDataOption {
	n := int(r.byte() % 6)
	var out []*discordgo.ApplicationCommandInteractionDataOption
	for range n {
		if r.made++; r.made > maxFuzzOptions {
			break
		}
		o := &discordgo.ApplicationCommandInteractionDataOption{
			Name:    r.name(),
			Type:    discordgo.ApplicationCommandOptionType(r.byte() % 13),
			Value:   r.value(0),
			Focused: r.byte()%4 == 0,
		}
		if depth < 4 && r.byte()%3 == 0 {
			o.Options = r.options(depth + 1)
		}
		out = append(out, o)
	}
	return out
}

// FuzzOptions checks the option parsers on any options a payload could
// carry: random trees built from the fuzzer's bytes (with NaN, infinities
// and huge numbers, which JSON cannot carry) and, when the bytes are a
// JSON list of options, the options encoding/json decodes from them as
// discordgo does. The bytes are also parsed as a /settings games list.
func FuzzOptions(f *testing.F) {
	for _, seed := range []string{
		"",
		"\x03\x00\x03\x04\x05chess",
		`[{"name":"game","type":3,"value":"connect4"},{"name":"rounds","type":4,"value":1e12}]`,
		`[{"name":"rounds","type":4,"value":9007199254740993},{"name":"movetime","type":10,"value":-1}]`,
		`[{"name":"movetime","type":10,"value":1e308},{"name":"first","type":3,"value":"sideways"}]`,
		`[{"name":"movetime","type":10,"value":60.0000001},{"name":"turn-timeout","type":4,"value":"12"}]`,
		`[{"name":"delete","type":1,"options":[{"name":"game","type":3,"value":{"a":[1,null]}}]}]`,
		`[{"name":"opponent","type":6,"value":42},{"name":"ai","type":3,"value":"  minimax  ","focused":true}]`,
		`[{"name":"g","type":2,"options":[{"name":"h","type":1,"options":[{"name":"games","type":3,"value":"ALL"}]}]}]`,
		`[null]`,
		`[{"name":"delete","type":1,"options":[null]}]`,
		"adjacency, connect4,tictactoe,adjacency", "all", " ALL ", ",,, ,", "chess", "Connect4 TICTACTOE",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return // the same code paths, slower to minimize
		}
		r := &fuzzBytes{b: data}
		checkOptions(t, r.options(0), time.Duration(r.byte())*50*time.Millisecond, time.Duration(r.byte())*time.Second)

		var decoded []*discordgo.ApplicationCommandInteractionDataOption
		if json.Unmarshal(data, &decoded) == nil {
			checkOptions(t, decoded, 100*time.Millisecond, MaxMoveTime)
		}
		checkKinds(t, string(data))
	})
}

// checkOptions checks every parser on every name in a list of options.
func checkOptions(t *testing.T, list []*discordgo.ApplicationCommandInteractionDataOption, lo, hi time.Duration) {
	t.Helper()
	o := mux.OptionsOf("fuzz", list)

	// What optionsOf should find: the last option of each name outside
	// subcommands and groups, and the subcommands' names in order; nil
	// options (a forged payload's nulls) are skipped.
	want := map[string]*discordgo.ApplicationCommandInteractionDataOption{}
	var subs []string
	var walk func([]*discordgo.ApplicationCommandInteractionDataOption)
	walk = func(list []*discordgo.ApplicationCommandInteractionDataOption) {
		for _, opt := range list {
			if opt == nil {
				continue
			}
			if opt.Type == discordgo.ApplicationCommandOptionSubCommand || opt.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				subs = append(subs, opt.Name)
				walk(opt.Options)
				continue
			}
			want[opt.Name] = opt
		}
	}
	walk(list)
	// Discord's subcommand names are never empty; optionsOf skips the
	// separator of a leading empty one, which does not matter.
	if !slices.Contains(subs, "") && o.Sub != strings.Join(subs, " ") {
		t.Fatalf("sub = %q, want %q", o.Sub, strings.Join(subs, " "))
	}

	names := slices.Clone(fuzzNames)
	for n := range want {
		names = append(names, n)
	}
	for _, name := range names {
		opt, given := want[name]
		if o.Has(name) != given {
			t.Fatalf("option %q: OptionsOf has it %v, want %v (%v)", name, o.Has(name), given, opt)
		}
		var value any
		if given {
			value = opt.Value
		}
		checkStr(t, o, name, value)
		checkInteger(t, o, name, given, value)
		checkSeconds(t, o, name, given, value, lo, hi)
		checkSeconds(t, o, name, given, value, 100*time.Millisecond, MaxMoveTime)

		k, err := gamenames.Kind(o, name)
		if err == nil && !gamenames.IsDuel(k) {
			t.Fatalf("kind(%q) = %q for %#v", name, k, value)
		}
		if err != nil && (k != "" || !isUserError(err)) {
			t.Fatalf("kind(%q) = %q, %v", name, k, err)
		}

		if s, _ := value.(string); o.User(name) != s {
			t.Fatalf("user(%q) = %q for %#v", name, o.User(name), value)
		}
		if name == "games" {
			checkKinds(t, o.Str(name))
		}
	}
}

func isUserError(err error) bool {
	var ue *mux.UserError
	return errors.As(err, &ue) && i18n.Has(ue.ID())
}

func checkStr(t *testing.T, o mux.Options, name string, value any) {
	s, isString := value.(string)
	want := ""
	if isString {
		want = strings.TrimSpace(s)
	}
	if got := o.Str(name); got != want {
		t.Fatalf("str(%q) = %q for %#v, want %q", name, got, value, want)
	}
}

func checkInteger(t *testing.T, o mux.Options, name string, given bool, value any) {
	n, gotGiven, err := o.Integer(name)
	if gotGiven != given {
		t.Fatalf("integer(%q) given = %v, want %v", name, gotGiven, given)
	}
	if !given {
		if n != 0 || err != nil {
			t.Fatalf("integer(%q) of a missing option = %d, %v", name, n, err)
		}
		return
	}
	f, isNum := value.(float64)
	whole := isNum && !math.IsNaN(f) && !math.IsInf(f, 0) && f == math.Trunc(f) && math.Abs(f) <= 1<<53
	switch {
	case whole && (err != nil || n != int64(f) || float64(n) != f):
		t.Fatalf("integer(%q) = %d, %v for %v", name, n, err, f)
	case !whole && (err == nil || !isUserError(err) || n != 0):
		t.Fatalf("integer(%q) = %d, %v for %#v: want a user error", name, n, err, value)
	}
}

func checkSeconds(t *testing.T, o mux.Options, name string, given bool, value any, lo, hi time.Duration) {
	d, gotGiven, err := o.Seconds(name, lo, hi)
	if gotGiven != given {
		t.Fatalf("seconds(%q) given = %v, want %v", name, gotGiven, given)
	}
	if !given {
		if d != 0 || err != nil {
			t.Fatalf("seconds(%q) of a missing option = %v, %v", name, d, err)
		}
		return
	}
	if err != nil {
		if d != 0 || !isUserError(err) {
			t.Fatalf("seconds(%q) = %v, %v for %#v", name, d, err, value)
		}
		return
	}
	f, isNum := value.(float64)
	if !isNum || math.IsNaN(f) || d < lo || d > hi {
		t.Fatalf("seconds(%q, %v, %v) = %v for %#v", name, lo, hi, d, value)
	}
	// The duration is the number of seconds, to the nanosecond.
	if diff := math.Abs(d.Seconds() - f); diff > 1e-6 {
		t.Fatalf("seconds(%q) = %v for %v seconds", name, d, f)
	}
}

// checkKinds checks parseKinds: valid kinds only, each once, each named
// in the text; "all" or nothing means every game (nil).
func checkKinds(t *testing.T, text string) {
	kinds, err := parseKinds(text)
	if err != nil {
		if kinds != nil || !isUserError(err) {
			t.Fatalf("parseKinds(%q) = %v, %v", text, kinds, err)
		}
		return
	}
	if trimmed := strings.TrimSpace(text); (trimmed == "" || strings.EqualFold(trimmed, "all")) && kinds != nil {
		t.Fatalf("parseKinds(%q) = %v, want nil (all games)", text, kinds)
	}
	lower := strings.ToLower(text)
	for i, k := range kinds {
		if !k.Valid() || slices.Contains(kinds[:i], k) || !strings.Contains(lower, string(k)) {
			t.Fatalf("parseKinds(%q) = %v", text, kinds)
		}
	}
}
