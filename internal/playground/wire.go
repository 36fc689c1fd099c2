package playground

import (
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// wireMessage is a message as the page receives it.
type wireMessage struct {
	ID          string                    `json:"id"`
	Author      wireAuthor                `json:"author"`
	Content     string                    `json:"content"`
	Embeds      []*discordgo.MessageEmbed `json:"embeds"`
	Components  []discordtest.Component   `json:"components"`
	Attachments []wireAttachment          `json:"attachments"`
	Ephemeral   bool                      `json:"ephemeral"`
	Loading     bool                      `json:"loading"`
	Timestamp   time.Time                 `json:"timestamp"`
	Edited      bool                      `json:"edited"`
	Deleted     bool                      `json:"deleted"`
	Interaction *wireInteraction          `json:"interaction"`
	// Thread is the thread the message is in, StartsThread the thread
	// started from it (threads show inline, under their starter).
	Thread       *wireThread `json:"thread,omitempty"`
	StartsThread *wireThread `json:"starts_thread,omitempty"`
}

// wireThread names a thread of the page's channel.
type wireThread struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// wireAttachment is a file of a message, served by the stand-in at URL.
type wireAttachment struct {
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	URL         string `json:"url"`
}

type wireAuthor struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Bot  bool   `json:"bot"`
}

// wireInteraction names the command a bot message answers.
type wireInteraction struct {
	UserID   string `json:"user_id"`
	UserName string `json:"user_name"`
	Command  string `json:"command"`
}

// wire converts a stand-in message for the page.
func (p *Page) wire(m discordtest.Message) wireMessage {
	name := m.Author.Username
	if m.Author.Bot {
		name = "Gambit"
	}
	w := wireMessage{
		ID: m.ID, Author: wireAuthor{ID: m.Author.ID, Name: name, Bot: m.Author.Bot},
		Content: m.Content, Embeds: m.Embeds, Components: m.Components,
		Ephemeral: m.Ephemeral(), Loading: m.Loading(), Timestamp: m.Timestamp,
		Edited: !m.EditedTimestamp.IsZero(), Deleted: m.Deleted,
	}
	if w.Embeds == nil {
		w.Embeds = []*discordgo.MessageEmbed{}
	}
	if w.Components == nil {
		w.Components = []discordtest.Component{}
	}
	w.Attachments = []wireAttachment{}
	for _, a := range m.Attachments {
		w.Attachments = append(w.Attachments, wireAttachment{Filename: a.Filename, ContentType: a.ContentType, URL: a.URL})
	}
	if in, ok := p.commandOf(m.InteractionID); ok {
		w.Interaction = &in
	}
	if th, ok := p.srv.Channel(m.ChannelID); ok && th.IsThread() {
		w.Thread = &wireThread{ID: th.ID, Name: th.Name}
	}
	if th, ok := p.srv.Channel(m.ID); ok && th.IsThread() { // a thread from a message has the message's ID
		w.StartsThread = &wireThread{ID: th.ID, Name: th.Name}
	}
	return w
}

// shown reports whether a message of channel id shows on the page: the
// page's channel, or one of its threads, which show inline.
func (p *Page) shown(id string) bool {
	if id == p.srv.ChannelID() {
		return true
	}
	th, ok := p.srv.Channel(id)
	return ok && th.ParentID == p.srv.ChannelID()
}
