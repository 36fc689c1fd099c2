package bot

import (
	"bytes"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/render"
)

// The conversions below turn a rendered message into discordgo's request
// types, one for each way a message is sent. They agree on three rules:
//
//   - a components-v2 message (a board) carries its flag where the request
//     type has one, and no content or embeds: content is sent empty and
//     embeds as null, which also clears them when a classic message is
//     edited into a v2 one;
//   - the message's files are uploaded with fresh readers every time, so a
//     message sent again (a retry, an edit after a failed answer) uploads
//     them again;
//   - an edit lists exactly the new files as the attachments to keep, so
//     the previous board's picture is removed rather than piling up; an
//     edit without files removes every attachment.

// uploads returns msg's files as discordgo uploads.
func uploads(msg render.Message) []*discordgo.File {
	var out []*discordgo.File
	for _, f := range msg.Files {
		out = append(out, &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)})
	}
	return out
}

// attachments lists msg's files as the attachments of the message after
// an edit: the files uploaded with it (by their index in the upload), and
// no others.
func attachments(msg render.Message) *[]*discordgo.MessageAttachment {
	list := []*discordgo.MessageAttachment{}
	for i, f := range msg.Files {
		list = append(list, &discordgo.MessageAttachment{ID: strconv.Itoa(i), Filename: f.Name})
	}
	return &list
}

// legacy returns the content and embeds to send for msg: msg's own, or
// none for a components-v2 message.
func legacy(msg render.Message) (string, []*discordgo.MessageEmbed) {
	if msg.V2() {
		return "", nil
	}
	return msg.Content, nonNilEmbeds(msg.Embeds)
}

// responseData converts a rendered message for an interaction response.
func responseData(msg render.Message) *discordgo.InteractionResponseData {
	content, embeds := legacy(msg)
	return &discordgo.InteractionResponseData{
		Content: content, Embeds: embeds, Components: nonNilComponents(msg.Components),
		AllowedMentions: allowedMentions(msg), Flags: msg.Flags,
		Files: uploads(msg), Attachments: attachments(msg),
	}
}

// webhookEdit converts a rendered message for an edit through an
// interaction's token. The request has no flags: it edits a board that was
// sent as components-v2 already.
func webhookEdit(msg render.Message) *discordgo.WebhookEdit {
	content, embeds := legacy(msg)
	comps := nonNilComponents(msg.Components)
	return &discordgo.WebhookEdit{
		Content: &content, Embeds: &embeds, Components: &comps, AllowedMentions: allowedMentions(msg),
		Files: uploads(msg), Attachments: attachments(msg),
	}
}

// webhookParams converts a rendered message for a follow-up.
func webhookParams(msg render.Message) *discordgo.WebhookParams {
	content, embeds := legacy(msg)
	return &discordgo.WebhookParams{
		Content: content, Embeds: embeds, Components: nonNilComponents(msg.Components),
		AllowedMentions: allowedMentions(msg), Flags: msg.Flags, Files: uploads(msg),
	}
}

// messageSend converts a rendered message for a new channel message.
func messageSend(msg render.Message) *discordgo.MessageSend {
	content, embeds := legacy(msg)
	return &discordgo.MessageSend{
		Content: content, Embeds: embeds, Components: nonNilComponents(msg.Components),
		AllowedMentions: allowedMentions(msg), Flags: msg.Flags, Files: uploads(msg),
	}
}

// messageEdit converts a rendered message for an edit of the channel
// message id.
func messageEdit(channelID, id string, msg render.Message) *discordgo.MessageEdit {
	content, embeds := legacy(msg)
	comps := nonNilComponents(msg.Components)
	return &discordgo.MessageEdit{
		ID: id, Channel: channelID, Content: &content, Embeds: &embeds, Components: &comps,
		AllowedMentions: allowedMentions(msg), Flags: msg.Flags,
		Files: uploads(msg), Attachments: attachments(msg),
	}
}

func nonNilEmbeds(e []*discordgo.MessageEmbed) []*discordgo.MessageEmbed {
	if e == nil {
		return []*discordgo.MessageEmbed{}
	}
	return e
}

func nonNilComponents(c []discordgo.MessageComponent) []discordgo.MessageComponent {
	if c == nil {
		return []discordgo.MessageComponent{}
	}
	return c
}

// allowedMentions returns a message's mention rule, pinging nobody when
// the renderer did not say otherwise.
func allowedMentions(msg render.Message) *discordgo.MessageAllowedMentions {
	if msg.AllowedMentions != nil {
		return msg.AllowedMentions
	}
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}
