package bot_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/discordtest"
)

// commandName is Discord's rule for the name of a slash command or option
// (in any locale), lowercase where a letter has cases.
var commandName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// TestCommandsAreLocalized checks the commands as registered with the
// stand-in: every command, option and fixed choice has an Indonesian name
// and description that follow Discord's rules, option names are unique in
// each language, and the catalogue's English is what the definitions say.
func TestCommandsAreLocalized(t *testing.T) {
	t.Parallel()
	h := start(t)
	cmds := h.srv.Commands("")
	if len(cmds) == 0 {
		t.Fatal("no commands registered")
	}
	en := i18n.Default
	checkName := func(what, name string) {
		t.Helper()
		if !commandName.MatchString(name) || name != strings.ToLower(name) {
			t.Errorf("%s: name %q breaks Discord's rules", what, name)
		}
	}
	var walk func(key string, opts []discordtest.CommandOption)
	walk = func(key string, opts []discordtest.CommandOption) {
		names := map[string]bool{}
		for _, o := range opts {
			k := key + "." + o.Name
			id, desc := o.NameLocalizations[i18n.Indonesian], o.DescriptionLocalizations[i18n.Indonesian]
			if id == "" || desc == "" {
				t.Errorf("option %s has no Indonesian name or description: %q, %q", k, id, desc)
			}
			checkName(k, id)
			if names[id] {
				t.Errorf("option %s: Indonesian name %q used twice", k, id)
			}
			names[id] = true
			if got := en.T(k + ".name"); got != o.Name {
				t.Errorf("option %s: the catalogue's English name is %q", k, got)
			}
			if got := en.T(k + ".desc"); got != o.Description {
				t.Errorf("option %s: the catalogue's English description %q differs from %q", k, got, o.Description)
			}
			for _, c := range o.Choices {
				if c.NameLocalizations[i18n.Indonesian] == "" {
					t.Errorf("option %s: choice %v has no Indonesian name", k, c.Value)
				}
			}
			walk(k, o.Options)
		}
	}
	names := map[string]bool{}
	for _, c := range cmds {
		k := "cmd." + c.Name
		id, desc := c.NameLocalizations[i18n.Indonesian], c.DescriptionLocalizations[i18n.Indonesian]
		if id == "" || desc == "" || desc == c.Description {
			t.Errorf("/%s has no Indonesian name or description: %q, %q", c.Name, id, desc)
		}
		checkName("/"+c.Name, id)
		if names[id] {
			t.Errorf("/%s: Indonesian name %q used twice", c.Name, id)
		}
		names[id] = true
		if got := en.T(k + ".desc"); got != c.Description {
			t.Errorf("/%s: the catalogue's English description %q differs from %q", c.Name, got, c.Description)
		}
		walk(k, c.Options)
	}
	if got := cmds[0].NameLocalizations[i18n.Indonesian]; got != "main" {
		t.Errorf("/play is called %q in Indonesian, want main", got)
	}
}
