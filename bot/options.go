package bot

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/storage"
)

// options are a command's options by name, with the options of a
// subcommand flattened in and the subcommand's name kept.
type options struct {
	sub     string
	byName  map[string]*discordgo.ApplicationCommandInteractionDataOption
	focused string
}

func optionsOf(in []*discordgo.ApplicationCommandInteractionDataOption) options {
	o := options{byName: map[string]*discordgo.ApplicationCommandInteractionDataOption{}}
	var walk func([]*discordgo.ApplicationCommandInteractionDataOption)
	walk = func(list []*discordgo.ApplicationCommandInteractionDataOption) {
		for _, opt := range list {
			if opt == nil {
				continue // Discord never sends one; a forged payload might
			}
			switch opt.Type {
			case discordgo.ApplicationCommandOptionSubCommand, discordgo.ApplicationCommandOptionSubCommandGroup:
				if o.sub == "" {
					o.sub = opt.Name
				} else {
					o.sub += " " + opt.Name
				}
				walk(opt.Options)
			default:
				o.byName[opt.Name] = opt
				if opt.Focused {
					o.focused = opt.Name
				}
			}
		}
	}
	walk(in)
	return o
}

// maxEcho is the most characters of a user's text that an answer quotes.
const maxEcho = 40

// echo returns text a user typed (an option, a custom ID) as an answer may
// quote it: at most maxEcho characters, cut with "…". Every user error
// that quotes input quotes echo(input): options have a max_length, but only
// Discord's client enforces it, and a forged interaction can carry
// thousands of characters, which would push the answer past Discord's
// 2,000 and leave the user with none.
func echo(text string) string { return truncate(text, maxEcho) }

// has reports whether the option was given.
func (o options) has(name string) bool { _, ok := o.byName[name]; return ok }

// str returns a string option (or the typed text of a focused one), or "".
func (o options) str(name string) string {
	opt, ok := o.byName[name]
	if !ok {
		return ""
	}
	if s, ok := opt.Value.(string); ok {
		return strings.TrimSpace(s)
	}
	return ""
}

// integer returns an integer option and whether it was given as one.
func (o options) integer(name string) (int64, bool, error) {
	opt, ok := o.byName[name]
	if !ok {
		return 0, false, nil
	}
	f, isNum := opt.Value.(float64)
	if !isNum || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, true, userErr("error.whole_number", "Option", optionIn(name))
	}
	return int64(f), true, nil
}

// seconds returns a number option of seconds as a duration, checked
// against [lo, hi].
func (o options) seconds(name string, lo, hi time.Duration) (time.Duration, bool, error) {
	opt, ok := o.byName[name]
	if !ok {
		return 0, false, nil
	}
	f, isNum := opt.Value.(float64)
	d := time.Duration(f * float64(time.Second))
	if !isNum || math.IsNaN(f) || d < lo || d > hi {
		return 0, true, userErr("error.seconds_range", "Option", optionIn(name), "Min", strconv.FormatFloat(lo.Seconds(), 'g', -1, 64), "Max", strconv.FormatFloat(hi.Seconds(), 'g', -1, 64))
	}
	return d, true, nil
}

// flag returns a boolean option and whether it was given as one.
func (o options) flag(name string) (v, given bool, err error) {
	opt, ok := o.byName[name]
	if !ok {
		return false, false, nil
	}
	v, isBool := opt.Value.(bool)
	if !isBool {
		return false, true, userErr("error.true_false", "Option", optionIn(name))
	}
	return v, true, nil
}

// user returns a user option's ID, "" if not given. Who it is, Discord
// tells in the interaction's resolved data.
func (o options) user(name string) string {
	opt, ok := o.byName[name]
	if !ok {
		return ""
	}
	id, _ := opt.Value.(string)
	return id
}

// kind returns the game option as a storage.Kind.
func (o options) kind(name string) (storage.Kind, error) {
	k := storage.Kind(strings.ToLower(o.str(name)))
	if !isDuel(k) {
		return "", userErr("error.unknown_game", "Game", quote(o.str(name)), "Choices", duelNames())
	}
	return k, nil
}

// quote is echo in double quotes, as %q writes it: typed text in a reply.
func quote(text string) string { return strconv.Quote(echo(text)) }
