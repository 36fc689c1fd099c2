package i18n_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
)

// prose matches text written for people: two words in a row (which a
// message ID, "move.not_your_turn", never has).
var prose = regexp.MustCompile(`[A-Za-z]{2,}[,.:;!?'’]? +[A-Za-z]{2,}`)

// notForPeople are the calls whose string arguments no user reads: errors
// of ours (logged, never shown) and log lines.
var notForPeople = map[string]bool{
	"fmt.Errorf": true, "errors.New": true, "panic": true, "play.Conflict": true,
	"log.Debug": true, "log.Info": true, "log.Warn": true, "log.Error": true,
	"http.Error":     true, // answers to Discord's servers (endpoint.go), not to players
	"corrupt.listed": true, // its first argument starts a log message (state.go)
	"b.scheduled":    true, // its what is the middle of its log messages (timers.go)
}

// definitions are the functions that define slash commands, and
// definition lists the types and calls that do, wherever a flow declares
// its commands: their English is checked against the catalogue by
// TestCommandsAreLocalized, which also wants every command, option and
// choice translated.
var (
	definitions = map[string]bool{"puzzleDefinition": true, "dailyDefinition": true}
	definition  = map[string]bool{
		"discordgo.ApplicationCommand": true, "discordgo.ApplicationCommandOption": true,
		"discordgo.ApplicationCommandOptionChoice": true, "mux.ChoiceOption": true,
	}
)

// allowed are the prose-like literals that are no text for people, and why.
var allowed = map[string]string{
	"in guild ": "a log attribute",
	"AI turn":   "keepClaim's what (ai.go): the beginning of its log messages",
	"bot: panic in an interaction handler: %v": "panicked.Error (middleware.go): an error that is logged, never shown; answerErrors replies with the catalogue's text",
	"Challenge to a game":                      "challengeMenu, the menu command's registered name: TestCommandsAreLocalized checks it against cmd.\"Challenge to a game.name\"",
}

// TestNoTextBypassesTheCatalogue reads the bot's source and fails on any
// string literal that reads like prose outside the calls that only write
// errors and logs: a text for people belongs in the catalogue, in every
// language. It is what catches a new reply, button or embed written in
// English in the code.
func TestNoTextBypassesTheCatalogue(t *testing.T) {
	fset := token.NewFileSet()
	for _, f := range botSources(t, fset) {
		for _, lit := range prosePassedOn(f) {
			text, _ := strconv.Unquote(lit.Value)
			if _, ok := allowed[text]; ok {
				continue
			}
			t.Errorf("%s: %q is text for people outside the catalogue (bot/i18n/locales)", fset.Position(lit.Pos()), text)
		}
	}
}

// botSources parses the source files of the bot, its flows and what they
// share (the packages that put text before people), tests left out.
func botSources(t *testing.T, fset *token.FileSet) []*ast.File {
	t.Helper()
	var files []*ast.File
	flows, err := filepath.Glob("../flows/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(flows) == 0 {
		t.Fatal("no flow found under bot/flows; is the test in bot/i18n?")
	}
	for _, dir := range append([]string{"..", "../render", "../mux", "../gamenames", "../play"}, flows...) {
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d source files found; is the test in bot/i18n?", len(files))
	}
	return files
}

// TestEveryMessageIsUsed fails on a message of the catalogue that no code
// asks for: its ID is no string literal of the bot's source, and no
// literal ending in "." or "_" starts it (an ID made of a prefix and a
// name, such as "board.first_" + the setting, or "game." + a game's name).
func TestEveryMessageIsUsed(t *testing.T) {
	fset := token.NewFileSet()
	literals := map[string]bool{}
	var prefixes []string
	for _, f := range botSources(t, fset) {
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				text, _ := strconv.Unquote(lit.Value)
				literals[text] = true
				if strings.HasSuffix(text, ".") || strings.HasSuffix(text, "_") {
					prefixes = append(prefixes, text)
				}
			}
			return true
		})
	}
	msgs, err := i18n.Messages(i18n.English)
	if err != nil {
		t.Fatal(err)
	}
	for id := range msgs {
		used := literals[id]
		for _, p := range prefixes {
			used = used || strings.HasPrefix(id, p)
		}
		if !used {
			t.Errorf("message %s is not used by the bot", id)
		}
	}
}

// prosePassedOn returns the string literals of a file that read like
// prose, except in import paths, struct tags and calls in notForPeople.
func prosePassedOn(f *ast.File) []*ast.BasicLit {
	var out []*ast.BasicLit
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec, *ast.Field:
			return false
		case *ast.FuncDecl:
			if definitions[n.Name.Name] {
				return false
			}
		case *ast.CallExpr:
			if notForPeople[callName(n.Fun)] || definition[callName(n.Fun)] {
				return false
			}
		case *ast.CompositeLit:
			if definition[typeName(n.Type)] {
				return false
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING && prose.MatchString(n.Value) {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// callName names a call's function as pkg.Func, or by its last selector
// for a method on a longer path (b.log.Warn is log.Warn).
func callName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		switch x := f.X.(type) {
		case *ast.Ident:
			return x.Name + "." + f.Sel.Name
		case *ast.SelectorExpr:
			return x.Sel.Name + "." + f.Sel.Name
		}
	}
	return ""
}

// typeName names a composite literal's type as pkg.Type, looking through
// slices and pointers ([]*discordgo.ApplicationCommandOption).
func typeName(t ast.Expr) string {
	switch x := t.(type) {
	case *ast.ArrayType:
		return typeName(x.Elt)
	case *ast.StarExpr:
		return typeName(x.X)
	}
	return callName(t)
}
