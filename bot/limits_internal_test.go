package bot

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/strategies"
)

// TestEveryStringOptionHasAMaxLength walks the command definitions: every
// string option must have a max_length (Discord allows up to 6,000), short
// enough for an answer to quote, and long enough for every value it is
// meant to take — its choices, every strategy's name for ai.
func TestEveryStringOptionHasAMaxLength(t *testing.T) {
	var walk func(path string, opts []*discordgo.ApplicationCommandOption)
	seen := 0
	walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			name := path + " " + o.Name
			walk(name, o.Options)
			if o.Type != discordgo.ApplicationCommandOptionString {
				continue
			}
			seen++
			if o.MaxLength <= 0 || o.MaxLength > 100 {
				t.Errorf("%s: max_length %d, want 1–100", name, o.MaxLength)
			}
			for _, c := range o.Choices {
				if v := fmt.Sprint(c.Value); utf8.RuneCountInString(v) > o.MaxLength {
					t.Errorf("%s: choice %q is longer than max_length %d", name, v, o.MaxLength)
				}
			}
			if strings.TrimSpace(name) == "/play ai" {
				for _, info := range strategies.All() {
					if utf8.RuneCountInString(info.Name) > o.MaxLength {
						t.Errorf("%s: strategy %q is longer than max_length %d", name, info.Name, o.MaxLength)
					}
				}
			}
		}
	}
	b := &Bot{}
	b.assemble()
	for _, c := range b.intake.defs {
		walk("/"+c.Name, c.Options)
	}
	if seen == 0 {
		t.Fatal("no string option found: the walk is broken")
	}
}
