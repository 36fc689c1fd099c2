package discordtest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/forPelevin/gomoji"
)

// Discord's limits on message components that the OpenAPI schema cannot
// express (see Discord's documentation of message components).
const (
	maxActionRows      = 5    // top-level action rows in a classic message
	maxRowButtons      = 5    // buttons in one action row
	maxV2Components    = 40   // components, counted recursively, in a components-v2 message
	maxV2Text          = 4000 // characters of all text displays of a components-v2 message
	maxCustomIDLength  = 100
	maxSelectOptions   = 25
	componentsV2Flag   = int64(discordgo.MessageFlagsIsComponentsV2)
	buttonStyleLink    = discordgo.LinkButton
	buttonStylePremium = discordgo.PremiumButton
)

// messagePayload is the part of a request body that describes a message,
// as far as the component rules are concerned.
type messagePayload struct {
	Flags      *int64            `json:"flags"`
	Content    string            `json:"content"`
	Embeds     []json.RawMessage `json:"embeds"`
	Components []Component       `json:"components"`
	// v2 is set when the payload edits a message that has the
	// IS_COMPONENTS_V2 flag already.
	v2 bool
}

// checkRules applies the component rules to a request body. The message
// payload is the body itself or, for interaction callbacks, its "data";
// editsV2 says whether it edits a components-v2 message, whose rules apply
// without the flag in the body.
func checkRules(body []byte, editsV2 bool) []Violation {
	var top struct {
		messagePayload
		Data *messagePayload `json:"data"`
	}
	if err := json.Unmarshal(body, &top); err != nil {
		return nil // the schema check reports malformed bodies
	}
	if top.Data != nil {
		top.Data.v2 = editsV2
		return checkComponents("/data", *top.Data)
	}
	top.v2 = editsV2
	return checkComponents("", top.messagePayload)
}

// ruleChecker walks a component tree collecting violations.
type ruleChecker struct {
	out       []Violation
	customIDs map[string]string // custom_id → location of first use
	count     int
	text      int // characters of text displays
}

func (rc *ruleChecker) add(loc, code, format string, args ...any) {
	rc.out = append(rc.out, Violation{Location: loc, Code: code, Message: fmt.Sprintf(format, args...)})
}

func checkComponents(prefix string, p messagePayload) []Violation {
	rc := &ruleChecker{customIDs: map[string]string{}}
	v2 := p.v2 || p.Flags != nil && *p.Flags&componentsV2Flag != 0
	if v2 && (p.Content != "" || len(p.Embeds) > 0) {
		rc.add(prefix, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
			"a message with the IS_COMPONENTS_V2 flag cannot have content or embeds")
	}
	if !v2 {
		if len(p.Components) > maxActionRows {
			rc.add(prefix+"/components", "BASE_TYPE_BAD_LENGTH",
				"a message has at most %d action rows, got %d", maxActionRows, len(p.Components))
		}
		for i, c := range p.Components {
			if c.Type != discordgo.ActionsRowComponent {
				rc.add(fmt.Sprintf("%s/components/%d/type", prefix, i), "UNION_TYPE_CHOICES",
					"top-level components must be action rows unless the message has the IS_COMPONENTS_V2 flag")
			}
		}
	}
	rc.walk(prefix+"/components", p.Components)
	if v2 && rc.count > maxV2Components {
		rc.add(prefix+"/components", "BASE_TYPE_BAD_LENGTH",
			"a message has at most %d components in total, got %d", maxV2Components, rc.count)
	}
	if v2 && rc.text > maxV2Text {
		rc.add(prefix+"/components", "BASE_TYPE_BAD_LENGTH",
			"the text displays of a message hold at most %d characters in total, got %d", maxV2Text, rc.text)
	}
	return rc.out
}

func (rc *ruleChecker) walk(loc string, comps []Component) {
	for i := range comps {
		rc.component(loc+"/"+strconv.Itoa(i), &comps[i])
	}
}

func (rc *ruleChecker) component(loc string, c *Component) {
	rc.count++
	if c.CustomID != "" {
		if len(c.CustomID) > maxCustomIDLength {
			rc.add(loc+"/custom_id", "BASE_TYPE_MAX_LENGTH",
				"custom_id is at most %d characters, got %d", maxCustomIDLength, len(c.CustomID))
		}
		if first, dup := rc.customIDs[c.CustomID]; dup {
			rc.add(loc+"/custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
				"custom_id %q is already used at %s", c.CustomID, first)
		} else {
			rc.customIDs[c.CustomID] = loc
		}
	}
	switch c.Type {
	case discordgo.TextDisplayComponent:
		rc.text += utf8.RuneCountInString(c.Content)
	case discordgo.ActionsRowComponent:
		rc.actionRow(loc, c.Components)
	case discordgo.ButtonComponent:
		rc.button(loc, c)
	case discordgo.SelectMenuComponent:
		if len(c.Options) > maxSelectOptions {
			rc.add(loc+"/options", "BASE_TYPE_BAD_LENGTH",
				"a select menu has at most %d options, got %d", maxSelectOptions, len(c.Options))
		}
		values := map[string]bool{}
		for i, o := range c.Options {
			optLoc := fmt.Sprintf("%s/options/%d", loc, i)
			if values[o.Value] {
				rc.add(optLoc+"/value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "option value %q is duplicated", o.Value)
			}
			values[o.Value] = true
			rc.emoji(optLoc+"/emoji", o.Emoji)
		}
	}
	rc.walk(loc+"/components", c.Components)
	if c.Accessory != nil {
		rc.component(loc+"/accessory", c.Accessory)
	}
	if c.Component != nil {
		rc.component(loc+"/component", c.Component)
	}
}

func (rc *ruleChecker) actionRow(loc string, children []Component) {
	buttons, selects := 0, 0
	for _, ch := range children {
		switch {
		case ch.Type == discordgo.ButtonComponent:
			buttons++
		case isSelect(ch.Type):
			selects++
		}
	}
	if buttons > maxRowButtons {
		rc.add(loc+"/components", "BASE_TYPE_BAD_LENGTH",
			"an action row has at most %d buttons, got %d", maxRowButtons, buttons)
	}
	if selects > 0 && len(children) > 1 {
		rc.add(loc+"/components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
			"a select menu must be alone in its action row, the row has %d components", len(children))
	}
}

func (rc *ruleChecker) button(loc string, c *Component) {
	switch discordgo.ButtonStyle(c.Style) {
	case buttonStyleLink:
		if c.URL == "" {
			rc.add(loc+"/url", "BASE_TYPE_REQUIRED", "a link button needs a url")
		}
		if c.CustomID != "" {
			rc.add(loc+"/custom_id", "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "a link button cannot have a custom_id")
		}
	case buttonStylePremium:
	default:
		if c.CustomID == "" {
			rc.add(loc+"/custom_id", "BASE_TYPE_REQUIRED", "a non-link button needs a custom_id")
		}
		if c.URL != "" {
			rc.add(loc+"/url", "BUTTON_COMPONENT_URL_NOT_ALLOWED", "only link buttons can have a url")
		}
	}
	rc.emoji(loc+"/emoji", c.Emoji)
}

// emoji accepts a custom emoji (one with an id) or a Unicode emoji Discord
// knows; arbitrary text, including symbols that are not emoji such as
// "♞", is refused as Discord refuses it.
func (rc *ruleChecker) emoji(loc string, e *Emoji) {
	if e == nil || e.ID != "" {
		return
	}
	if _, err := gomoji.GetInfo(e.Name); err != nil {
		rc.add(loc+"/name", "BUTTON_COMPONENT_INVALID_EMOJI", "%q is not a Unicode emoji; a custom emoji needs its id", e.Name)
	}
}

func isSelect(t discordgo.ComponentType) bool {
	switch t {
	case discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent, discordgo.RoleSelectMenuComponent,
		discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent:
		return true
	}
	return false
}
