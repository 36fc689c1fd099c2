package discordtest

import (
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Readable returns a components-v2 message as a user reads it, in the
// fields tests of the text use: the text displays above the container as
// Content, and the container as one embed (its heading as Title, the
// texts after it as Description, fields and the "-# " footer, its accent
// as Color). Components, attachments and flags stay as Discord keeps
// them; a classic message is returned as it is.
func (m Message) Readable() Message {
	if m.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
		return m
	}
	var top []string
	var embeds []*discordgo.MessageEmbed
	for _, c := range m.Components {
		switch c.Type {
		case discordgo.TextDisplayComponent:
			top = append(top, c.Content)
		case discordgo.ContainerComponent:
			e := &discordgo.MessageEmbed{}
			embeds = append(embeds, e)
			if c.AccentColor != nil {
				e.Color = *c.AccentColor
			}
			var body []string
			for _, cc := range c.Components {
				switch {
				case cc.Type != discordgo.TextDisplayComponent:
				case strings.HasPrefix(cc.Content, "### ") && e.Title == "":
					e.Title = strings.TrimPrefix(cc.Content, "### ")
				case strings.HasPrefix(cc.Content, "-# "):
					e.Footer = &discordgo.MessageEmbedFooter{Text: strings.TrimPrefix(cc.Content, "-# ")}
				case len(body) > 0 && strings.HasPrefix(cc.Content, "**") && strings.Contains(cc.Content, "**\n"):
					name, value, _ := strings.Cut(cc.Content, "\n")
					e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: strings.Trim(name, "*"), Value: value})
				default:
					body = append(body, cc.Content)
				}
			}
			e.Description = strings.Join(body, "\n")
		}
	}
	m.Content = strings.Join(top, "\n")
	m.Embeds = embeds
	return m
}
