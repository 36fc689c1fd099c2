package mux

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
)

// Options are a command's options by name, with the options of a
// subcommand flattened in and the subcommand's name kept.
type Options struct {
	// Sub is the subcommand's name ("delete"), with its group's before it
	// if any; "" for none.
	Sub string
	// Focused is the option an autocomplete request is for.
	Focused string
	byName  map[string]*discordgo.ApplicationCommandInteractionDataOption
	keys    map[string]string // each option's key in the catalogue: cmd.<command>[.<sub>].<option>
}

// OptionsOf reads the options of the command name as an interaction
// gives them.
func OptionsOf(name string, in []*discordgo.ApplicationCommandInteractionDataOption) Options {
	o := Options{byName: map[string]*discordgo.ApplicationCommandInteractionDataOption{}, keys: map[string]string{}}
	var walk func(key string, list []*discordgo.ApplicationCommandInteractionDataOption)
	walk = func(key string, list []*discordgo.ApplicationCommandInteractionDataOption) {
		for _, opt := range list {
			if opt == nil {
				continue // Discord never sends one; a forged payload might
			}
			switch opt.Type {
			case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
				if o.Sub == "" {
					o.Sub = opt.Name
				} else {
					o.Sub += " " + opt.Name
				}
				walk(key+"."+opt.Name, opt.Options)
			default:
				o.byName[opt.Name] = opt
				o.keys[opt.Name] = key + "." + opt.Name
				if opt.Focused {
					o.Focused = opt.Name
				}
			}
		}
	}
	walk("cmd."+name, in)
	return o
}

// Has reports whether the option was given.
func (o Options) Has(name string) bool { _, ok := o.byName[name]; return ok }

// Str returns a string option (or the typed text of a focused one),
// trimmed, or "".
func (o Options) Str(name string) string {
	opt, ok := o.byName[name]
	if !ok {
		return ""
	}
	if s, ok := opt.Value.(string); ok {
		return strings.TrimSpace(s)
	}
	return ""
}

// Integer returns an integer option and whether it was given as one.
func (o Options) Integer(name string) (int64, bool, error) {
	opt, ok := o.byName[name]
	if !ok {
		return 0, false, nil
	}
	f, isNum := opt.Value.(float64)
	if !isNum || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, true, Err("error.whole_number", "Option", o.optionIn(name))
	}
	return int64(f), true, nil
}

// Seconds returns a number option of seconds as a duration, checked
// against [lo, hi].
func (o Options) Seconds(name string, lo, hi time.Duration) (time.Duration, bool, error) {
	opt, ok := o.byName[name]
	if !ok {
		return 0, false, nil
	}
	f, isNum := opt.Value.(float64)
	d := time.Duration(f * float64(time.Second))
	if !isNum || math.IsNaN(f) || d < lo || d > hi {
		return 0, true, Err("error.seconds_range", "Option", o.optionIn(name), "Min", strconv.FormatFloat(lo.Seconds(), 'g', -1, 64), "Max", strconv.FormatFloat(hi.Seconds(), 'g', -1, 64))
	}
	return d, true, nil
}

// Flag returns a boolean option and whether it was given as one.
func (o Options) Flag(name string) (v, given bool, err error) {
	opt, ok := o.byName[name]
	if !ok {
		return false, false, nil
	}
	v, isBool := opt.Value.(bool)
	if !isBool {
		return false, true, Err("error.true_false", "Option", o.optionIn(name))
	}
	return v, true, nil
}

// User returns a user option's ID, "" if not given. Who it is, Discord
// tells in the interaction's resolved data.
func (o Options) User(name string) string {
	opt, ok := o.byName[name]
	if !ok {
		return ""
	}
	id, _ := opt.Value.(string)
	return id
}

// optionIn is an option's name as the reader's Discord shows it: its
// name_localizations, from the catalogue's cmd.<command>.<option>.name.
func (o Options) optionIn(name string) Localized {
	key := o.keys[name] + ".name"
	return func(l *i18n.Localizer) string {
		if l.Locale() == i18n.English || !i18n.Has(key) {
			return name
		}
		return l.T(key)
	}
}

// ChoiceOption returns the definition of a string option limited to
// choices. Its max_length is the longest choice's value: Discord accepts
// only the choices anyway, and the limit says so to any client that might
// not.
func ChoiceOption(name, description string, required bool, list []*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	n := 0
	for _, c := range list {
		n = max(n, utf8.RuneCountInString(fmt.Sprint(c.Value)))
	}
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionString, Name: name, Description: description,
		Required: required, Choices: list, MaxLength: n,
	}
}

// Ptr returns a pointer to v, for a definition's optional fields
// (MinValue, DefaultMemberPermissions).
func Ptr[T any](v T) *T { return &v }
