package i18n

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/games/catalog"
)

// demoTexts returns a game's texts of the name "demo" in English and
// Indonesian, with extra files or lines added.
func demoTexts(extra map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{
		"en.toml": {Data: []byte("[game.demo]\ntitle = \"Demo\"\n")},
		"id.toml": {Data: []byte("[game.demo]\ntitle = \"Demo\"\n")},
	}
	for name, text := range extra {
		if f, ok := fsys[name]; ok {
			fsys[name] = &fstest.MapFile{Data: append(f.Data, text...)}
		} else {
			fsys[name] = &fstest.MapFile{Data: []byte(text)}
		}
	}
	return fsys
}

// TestGameTextsAreRefused checks what a game's texts may not do — hold a
// message outside game.<name>., miss a language, carry a file of a
// language the bot does not speak, be missing, repeat a message — and
// that each error names the file.
func TestGameTextsAreRefused(t *testing.T) {
	langs := []string{"en.toml", "id.toml"}
	ok, err := gameFiles("demo", demoTexts(nil), langs)
	if err != nil || len(ok) != 2 {
		t.Fatalf("good texts: %d files, %v", len(ok), err)
	}
	missing := demoTexts(nil)
	delete(missing, "id.toml")
	for _, c := range []struct {
		name  string
		texts fstest.MapFS
		want  []string
	}{
		{"a message of the bot's", demoTexts(map[string]string{"id.toml": "[board]\naccept = \"Terima\"\n"}), []string{"game demo's id.toml", "board.accept", "game.demo."}},
		{"another game's message", demoTexts(map[string]string{"en.toml": "[game.demos]\ntitle = \"Demos\"\n"}), []string{"game demo's en.toml", "game.demos.title"}},
		{"a missing language", missing, []string{"game demo's id.toml"}},
		{"a language the bot does not speak", demoTexts(map[string]string{"fr.toml": "[game.demo]\ntitle = \"Démo\"\n"}), []string{"game demo's fr.toml"}},
		{"a broken file", demoTexts(map[string]string{"en.toml": "title = \n"}), []string{"game demo's en.toml"}},
	} {
		_, err := gameFiles("demo", c.texts, langs)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.name, err, w)
			}
		}
	}
	if _, err := gameFiles("demo", nil, langs); err == nil || !strings.Contains(err.Error(), "game demo has no texts") {
		t.Errorf("no texts: %v", err)
	}
	demo := &games.Game{Name: "demo", Texts: demoTexts(nil)}
	if _, err := readFiles([]*games.Game{demo, demo}); err == nil || !strings.Contains(err.Error(), "game.demo.title is in both game demo's en.toml and game demo's en.toml") {
		t.Errorf("a message in two files: %v", err)
	}
}

// TestEveryGameSpeaksEveryLanguage checks that the catalogue loaded every
// catalog game's texts in every language: the fixed texts every game has.
// TestEveryMessageInEveryLanguage holds the rest of a game's texts to the
// same IDs in every language.
func TestEveryGameSpeaksEveryLanguage(t *testing.T) {
	for _, loc := range Locales() {
		msgs, err := Messages(loc)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range catalog.All() {
			for _, field := range []string{"title", "summary", "rules", "moving", "last"} {
				if id := "game." + g.Name + "." + field; msgs[id] == nil {
					t.Errorf("%s: %s is missing", loc, id)
				}
			}
		}
	}
}
