package discordtest

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// openapiJSON is Discord's official OpenAPI 3.1 description of its HTTP API
// (github.com/discord/discord-api-spec, MIT licence in openapi/LICENSE).
//
//go:embed openapi/openapi.json
var openapiJSON []byte

// englishPrinter renders schema errors in English.
var englishPrinter = message.NewPrinter(language.English)

// specURL names the embedded document inside the schema compiler; it is
// never fetched.
const specURL = "urn:discordtest:openapi.json"

// Violation is a request body that Discord would refuse: it breaks the
// request schema of Discord's OpenAPI description or a rule of Discord's
// that the schema cannot express. The server answers such a request with
// 400 Invalid Form Body and records the violation.
type Violation struct {
	Method string // HTTP method of the request
	Path   string // request path, e.g. /api/v9/channels/1/messages
	Route  string // the OpenAPI path template, e.g. /channels/{channel_id}/messages
	// Location is the JSON pointer of the offending value inside the
	// request body, e.g. /data/components/0/components/1/emoji/name.
	Location string
	Code     string // machine-readable reason, e.g. COMPONENT_CUSTOM_ID_DUPLICATED
	Message  string // human-readable reason
}

// String formats the violation for test failure messages.
func (v Violation) String() string {
	return fmt.Sprintf("%s %s: body%s: %s (%s)", v.Method, v.Route, v.Location, v.Message, v.Code)
}

// operation is one method of one path of the spec.
type operation struct {
	pointer  string // JSON pointer of the application/json request schema, "" if none
	required bool   // whether the spec requires a request body

	once   sync.Once
	schema *jsonschema.Schema
	err    error

	// checked holds what the latest bodies validated against the schema
	// broke, by the body's SHA-256: the outcome depends on nothing else,
	// and a bot sends the same bodies again and again (its commands at
	// every start, the same answer in many games), and validating one
	// takes milliseconds of CPU under the race detector.
	checkedMu sync.Mutex
	checked   map[[sha256.Size]byte][]Violation
}

// maxChecked bounds an operation's checked bodies: the stand-in of a
// long playground session keeps no more.
const maxChecked = 1024

// seen returns the violations found in the body of sum before, if it
// was validated and is still kept.
func (op *operation) seen(sum [sha256.Size]byte) ([]Violation, bool) {
	op.checkedMu.Lock()
	defer op.checkedMu.Unlock()
	vs, ok := op.checked[sum]
	return slices.Clone(vs), ok
}

// keep records the violations found in the body of sum.
func (op *operation) keep(sum [sha256.Size]byte, vs []Violation) {
	op.checkedMu.Lock()
	defer op.checkedMu.Unlock()
	if op.checked == nil || len(op.checked) >= maxChecked {
		op.checked = map[[sha256.Size]byte][]Violation{}
	}
	op.checked[sum] = slices.Clone(vs)
}

// route is one path template of the spec, split into segments.
type route struct {
	template string
	segments []string
	ops      map[string]*operation // by HTTP method
}

// spec is the parsed OpenAPI document. It is loaded once per process
// because the document is large; schemas are compiled lazily, one
// operation at a time, under mu because the compiler is not safe for
// concurrent use.
type spec struct {
	routes []*route

	mu       sync.Mutex
	compiler *jsonschema.Compiler
}

var (
	loadSpecOnce sync.Once
	loadedSpec   *spec
	loadSpecErr  error
)

// discordSpec returns the process-wide parsed spec.
func discordSpec() (*spec, error) {
	loadSpecOnce.Do(func() {
		loadedSpec, loadSpecErr = parseSpec(openapiJSON)
	})
	return loadedSpec, loadSpecErr
}

func parseSpec(raw []byte) (*spec, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("discordtest: parse OpenAPI document: %w", err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("discordtest: OpenAPI document is not an object")
	}
	paths, ok := root["paths"].(map[string]any)
	if !ok {
		return nil, errors.New("discordtest: OpenAPI document has no paths")
	}
	patchSpec(root)

	sp := &spec{compiler: jsonschema.NewCompiler()}
	// OpenAPI 3.1 schemas are JSON Schema 2020-12.
	sp.compiler.DefaultDraft(jsonschema.Draft2020)
	if err := sp.compiler.AddResource(specURL, doc); err != nil {
		return nil, fmt.Errorf("discordtest: load OpenAPI document: %w", err)
	}
	for template, item := range paths {
		methods, _ := item.(map[string]any)
		rt := &route{template: template, segments: strings.Split(strings.Trim(template, "/"), "/"), ops: map[string]*operation{}}
		for method, op := range methods {
			opObj, ok := op.(map[string]any)
			if !ok || method == "parameters" {
				continue
			}
			o := &operation{}
			if body, ok := opObj["requestBody"].(map[string]any); ok {
				o.required, _ = body["required"].(bool)
				if content, ok := body["content"].(map[string]any); ok && content["application/json"] != nil {
					o.pointer = specURL + "#/paths/" + escapePointer(template) + "/" + method +
						"/requestBody/content/application~1json/schema"
				}
			}
			rt.ops[strings.ToUpper(method)] = o
		}
		sp.routes = append(sp.routes, rt)
	}
	// Map iteration order is random; sort so that matching is deterministic.
	slices.SortFunc(sp.routes, func(a, b *route) int { return strings.Compare(a.template, b.template) })
	return sp, nil
}

// patchSpec corrects the spec where it is stricter than Discord itself.
//
// default_member_permissions is documented by Discord as a string ("set of
// permissions represented as a bit set") and discordgo sends it as one, but
// the OpenAPI description types it as an integer; both are accepted here.
func patchSpec(root map[string]any) {
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				if p, ok := props["default_member_permissions"].(map[string]any); ok {
					if types, ok := p["type"].([]any); ok && slices.Contains(types, any("integer")) {
						p["type"] = append(slices.Clone(types), "string")
						p["pattern"] = "^[0-9]+$"
					}
				}
			}
			for _, child := range v {
				walk(child)
			}
		case []any:
			for _, child := range v {
				walk(child)
			}
		}
	}
	walk(root)
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// match finds the spec route of a concrete API path (without the /api/vN
// prefix) and the values of its parameters. Literal segments win over
// parameters, so /webhooks/1/t/messages/@original matches the @original
// route rather than {message_id}.
func (sp *spec) match(path string) (*route, map[string]string) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	var best *route
	bestScore := -1
	for _, rt := range sp.routes {
		if len(rt.segments) != len(segs) {
			continue
		}
		score, ok := 0, true
		for i, seg := range rt.segments {
			switch {
			case isParam(seg):
			case seg == segs[i]:
				// Weight earlier literals more, so the route is chosen by the
				// first segment where candidates differ.
				score += 1 << (len(segs) - i)
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if ok && score > bestScore {
			best, bestScore = rt, score
		}
	}
	if best == nil {
		return nil, nil
	}
	params := map[string]string{}
	for i, seg := range best.segments {
		if isParam(seg) {
			params[strings.Trim(seg, "{}")] = segs[i]
		}
	}
	return best, params
}

func isParam(seg string) bool { return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") }

// validate checks a JSON request body against the operation's schema and
// returns the violations found, located at the deepest failing values: a
// body validated before (operation.checked) gets what it got then.
func (sp *spec) validate(op *operation, body []byte) ([]Violation, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		if op.required {
			return []Violation{{Code: "BASE_TYPE_REQUIRED", Message: "request body is required"}}, nil
		}
		return nil, nil
	}
	if op.pointer == "" {
		return nil, nil
	}
	op.once.Do(func() {
		sp.mu.Lock()
		defer sp.mu.Unlock()
		op.schema, op.err = sp.compiler.Compile(op.pointer)
	})
	if op.err != nil {
		return nil, fmt.Errorf("discordtest: compile request schema %s: %w", op.pointer, op.err)
	}
	sum := sha256.Sum256(body)
	if vs, ok := op.seen(sum); ok {
		return vs, nil
	}
	var vs []Violation
	if inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body)); err != nil {
		vs = []Violation{{Code: "BASE_TYPE_BAD_JSON", Message: "body is not valid JSON: " + err.Error()}}
	} else if err := op.schema.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return nil, fmt.Errorf("discordtest: validate request body: %w", err)
		}
		vs = schemaViolations(ve)
	}
	op.keep(sum, vs)
	return vs, nil
}

// schemaViolations reduces a validation error tree to its deepest leaves.
// Discord's schemas are unions (oneOf/anyOf over component and callback
// types), so a single mistake fails every branch; the branches that do not
// apply fail early at a shallow "type" discriminator, while the branch that
// applies fails at the offending value, which is therefore the deepest.
func schemaViolations(ve *jsonschema.ValidationError) []Violation {
	var leaves []*jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	depth := 0
	for _, l := range leaves {
		depth = max(depth, len(l.InstanceLocation))
	}
	var out []Violation
	seen := map[string]bool{}
	for _, l := range leaves {
		if len(l.InstanceLocation) != depth {
			continue
		}
		v := Violation{
			Location: pointer(l.InstanceLocation),
			Code:     "SCHEMA_" + strings.ToUpper(strings.Join(l.ErrorKind.KeywordPath(), "_")),
			Message:  l.ErrorKind.LocalizedString(englishPrinter),
		}
		if key := v.Location + v.Message; !seen[key] {
			seen[key] = true
			out = append(out, v)
		}
	}
	return out
}

func pointer(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(escapePointer(s))
	}
	return b.String()
}
