package egress

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

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
//     them again — except in an edit, for the files the message already
//     carries with the same name and bytes (keep, from pictures): those
//     are listed by their attachment ID and not uploaded, so a progress
//     edit of a board whose position did not change uploads nothing;
//   - an edit lists exactly the message's files as the attachments to
//     keep (the kept ones by ID, the new ones by their index in the
//     upload), so the previous board's picture is removed rather than
//     piling up; an edit without files removes every attachment.
//
// The bot learns what a message carries from Discord's answers that hold
// the message (a channel message sent or edited, a follow-up, a webhook
// edit, @original read back), in memory only: after a restart, or after an
// answer without the message (an interaction response), the next edit
// uploads. Every edit goes through Keeping.

// uploads returns msg's files as discordgo uploads, but for those kept by
// ID (keep: attachment IDs by file name).
func uploads(msg render.Message, keep map[string]string) []*discordgo.File {
	var out []*discordgo.File
	for _, f := range msg.Files {
		if _, ok := keep[f.Name]; ok {
			continue
		}
		out = append(out, &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)})
	}
	return out
}

// attachments lists msg's files as the attachments of the message after
// an edit: those kept by their attachment ID (keep, by file name), the
// others by their index in the upload (uploads), and no others.
func attachments(msg render.Message, keep map[string]string) *[]*discordgo.MessageAttachment {
	list := []*discordgo.MessageAttachment{}
	uploaded := 0
	for _, f := range msg.Files {
		id, ok := keep[f.Name]
		if !ok {
			id = strconv.Itoa(uploaded)
			uploaded++
		}
		list = append(list, &discordgo.MessageAttachment{ID: id, Filename: f.Name})
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

// ResponseData converts a rendered message for an interaction response.
func ResponseData(msg render.Message) *discordgo.InteractionResponseData {
	content, embeds := legacy(msg)
	return &discordgo.InteractionResponseData{
		Content: content, Embeds: embeds, Components: nonNilComponents(msg.Components),
		AllowedMentions: allowedMentions(msg), Flags: msg.Flags,
		Files: uploads(msg, nil), Attachments: attachments(msg, nil),
	}
}

// WebhookEdit converts a rendered message for an edit through an
// interaction's token, keeping the files keep names by ID. The request has
// no flags: it edits a board that was sent as components-v2 already.
func WebhookEdit(msg render.Message, keep map[string]string) *discordgo.WebhookEdit {
	content, embeds := legacy(msg)
	comps := nonNilComponents(msg.Components)
	return &discordgo.WebhookEdit{
		Content: &content, Embeds: &embeds, Components: &comps, AllowedMentions: allowedMentions(msg),
		Files: uploads(msg, keep), Attachments: attachments(msg, keep),
	}
}

// WebhookParams converts a rendered message for a follow-up.
func WebhookParams(msg render.Message) *discordgo.WebhookParams {
	content, embeds := legacy(msg)
	return &discordgo.WebhookParams{
		Content: content, Embeds: embeds, Components: nonNilComponents(msg.Components),
		AllowedMentions: allowedMentions(msg), Flags: msg.Flags, Files: uploads(msg, nil),
	}
}

// MessageSend converts a rendered message for a new channel message.
func MessageSend(msg render.Message) *discordgo.MessageSend {
	content, embeds := legacy(msg)
	return &discordgo.MessageSend{
		Content: content, Embeds: embeds, Components: nonNilComponents(msg.Components),
		AllowedMentions: allowedMentions(msg), Flags: msg.Flags, Files: uploads(msg, nil),
	}
}

// MessageEdit converts a rendered message for an edit of the channel
// message id, keeping the files keep names by ID.
func MessageEdit(channelID, id string, msg render.Message, keep map[string]string) *discordgo.MessageEdit {
	content, embeds := legacy(msg)
	comps := nonNilComponents(msg.Components)
	return &discordgo.MessageEdit{
		ID: id, Channel: channelID, Content: &content, Embeds: &embeds, Components: &comps,
		AllowedMentions: allowedMentions(msg), Flags: msg.Flags,
		Files: uploads(msg, keep), Attachments: attachments(msg, keep),
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

// Keeping sends an edit of message id — send builds and sends it, keeping
// the files keep names by ID — and remembers what the message carries
// after it. id is "" for an @original whose ID was never learnt. An edit
// that kept a file and is refused as an invalid form (400/50035: another
// process replaced the attachment) is sent once more uploading every
// file; a failed edit forgets the message, whose state is then unknown.
func (c *Client) Keeping(id string, msg render.Message, send func(keep map[string]string) (*discordgo.Message, error)) (*discordgo.Message, error) {
	keep := c.pictures.keep(id, msg)
	m, err := send(keep)
	c.Observe(err)
	if err != nil && len(keep) > 0 && Code(err) == discordgo.ErrCodeInvalidFormBody {
		c.log.Info("an edit keeping an attachment was refused; uploading it again", "message", id, "err", err)
		m, err = send(nil)
		c.Observe(err)
	}
	if err != nil {
		c.pictures.forget(id)
		return nil, err
	}
	c.pictures.saw(m, msg)
	return m, nil
}

// EditChannelMessage edits the channel message id to msg (Keeping), with
// the request's options (its context).
func (c *Client) EditChannelMessage(channelID, id string, msg render.Message, opts ...discordgo.RequestOption) error {
	_, err := c.Keeping(id, msg, func(keep map[string]string) (*discordgo.Message, error) {
		return c.Session.ChannelMessageEditComplex(MessageEdit(channelID, id, msg, keep), opts...)
	})
	return err
}

// SendChannelMessage posts msg as a new message of a channel and remembers
// the files it carries.
func (c *Client) SendChannelMessage(channelID string, msg render.Message) (*discordgo.Message, error) {
	m, err := c.Session.ChannelMessageSendComplex(channelID, MessageSend(msg))
	return c.sent(m, err, msg)
}

// MaxNonce is the longest nonce Discord takes, in characters.
const MaxNonce = 25

// Nonce returns the nonce of SendChannelMessageOnce for key, the name of
// a message to be posted once: key itself if it has at most MaxNonce
// characters, else "h" and the start of key's SHA-256 in base64 (MaxNonce
// characters in all). Keys that differ give nonces that differ but with a
// negligible chance, provided no key that fits starts with "h".
func Nonce(key string) string {
	if len(key) <= MaxNonce {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "h" + base64.RawURLEncoding.EncodeToString(sum[:])[:MaxNonce-1]
}

// SendChannelMessageOnce posts msg as a new message of a channel, as
// SendChannelMessage, with nonce and enforce_nonce: Discord creates one
// message for a nonce of the bot's within a few minutes, and answers a
// second send with the same nonce with the message the first created
// (Discord's create-message documentation: "If another message was
// created by the same author with the same nonce, that message will be
// returned and no new message will be created"). Beyond those minutes a
// second send creates a second message. nonce is at most MaxNonce
// characters and unique among the bot's messages that must be posted
// once: Discord checks it across every channel of the bot.
func (c *Client) SendChannelMessageOnce(channelID, nonce string, msg render.Message) (*discordgo.Message, error) {
	if nonce == "" || len(nonce) > MaxNonce {
		return nil, fmt.Errorf("bot: send a message in channel %s: nonce %q is not 1 to %d characters", channelID, nonce, MaxNonce)
	}
	send := MessageSend(msg)
	for _, e := range send.Embeds {
		if e.Type == "" {
			e.Type = discordgo.EmbedTypeRich // as ChannelMessageSendComplex sets it
		}
	}
	body := onceSend{MessageSend: send, Nonce: nonce, EnforceNonce: true}
	endpoint := discordgo.EndpointChannelMessages(channelID)
	var (
		resp []byte
		err  error
	)
	if len(send.Files) > 0 {
		contentType, data, merr := discordgo.MultipartBodyWithJSON(body, send.Files)
		if merr != nil {
			return nil, fmt.Errorf("bot: send a message in channel %s: %w", channelID, merr)
		}
		resp, err = c.Session.RequestRaw(http.MethodPost, endpoint, contentType, data, endpoint, 0)
	} else {
		resp, err = c.Session.RequestWithBucketID(http.MethodPost, endpoint, body, endpoint)
	}
	var m *discordgo.Message
	if err == nil {
		if err = json.Unmarshal(resp, &m); err != nil {
			err = fmt.Errorf("bot: send a message in channel %s: decode the answer: %w", channelID, err)
		}
	}
	return c.sent(m, err, msg)
}

// onceSend is a new channel message with a nonce Discord enforces: the
// JSON of MessageSend, in the body or a multipart upload's payload_json,
// and the two fields discordgo's type lacks.
type onceSend struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce"`
	EnforceNonce bool   `json:"enforce_nonce"`
}

// sent counts err, Discord's error sending msg as m, and remembers the
// files m carries.
func (c *Client) sent(m *discordgo.Message, err error, msg render.Message) (*discordgo.Message, error) {
	c.Observe(err)
	if err != nil {
		return nil, err
	}
	c.pictures.saw(m, msg)
	return m, nil
}

// Saw records the files of msg that m, Discord's answer to sending or
// editing it, carries (a follow-up, @original read back).
func (c *Client) Saw(m *discordgo.Message, msg render.Message) { c.pictures.saw(m, msg) }

// Forget drops what is known of message id's files: it changed in a way
// whose answer did not show it (an interaction response).
func (c *Client) Forget(id string) { c.pictures.forget(id) }

// maxPictures bounds the messages pictures remembers; beyond it, one it
// knows is forgotten for each new one, and its next edit uploads again.
const maxPictures = 10_000

// pictures remembers, for messages the bot sent or edited in this
// process, the files each carries — by file name, the attachment ID and a
// hash of the bytes — so that an edit keeps a file that did not change
// instead of uploading it again. It only saves uploads: a message it does
// not know is edited by uploading. Edits of a board run under its game's
// lock, so no two race on one message.
type pictures struct {
	mu   sync.Mutex
	byID map[string][]picture // by message ID
}

// picture is a file a message carries.
type picture struct {
	name, id string
	sum      [sha256.Size]byte
}

// keep returns the attachment IDs, by file name, of msg's files that
// message id carries already with the same bytes.
func (p *pictures) keep(id string, msg render.Message) map[string]string {
	if id == "" || len(msg.Files) == 0 {
		return nil
	}
	p.mu.Lock()
	known := p.byID[id]
	p.mu.Unlock()
	var keep map[string]string
	for _, f := range msg.Files {
		sum := sha256.Sum256(f.Data)
		for _, k := range known {
			if k.name == f.Name && k.sum == sum {
				if keep == nil {
					keep = map[string]string{}
				}
				keep[f.Name] = k.id
			}
		}
	}
	return keep
}

// saw records the files of msg that m, Discord's answer to sending or
// editing it, carries.
func (p *pictures) saw(m *discordgo.Message, msg render.Message) {
	if m == nil || m.ID == "" {
		return
	}
	var carried []picture
	for _, f := range msg.Files {
		for _, a := range m.Attachments {
			if a.Filename == f.Name {
				carried = append(carried, picture{name: f.Name, id: a.ID, sum: sha256.Sum256(f.Data)})
			}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(carried) == 0 {
		delete(p.byID, m.ID)
		return
	}
	if p.byID == nil {
		p.byID = map[string][]picture{}
	}
	if _, ok := p.byID[m.ID]; !ok && len(p.byID) >= maxPictures {
		for other := range p.byID {
			delete(p.byID, other)
			break
		}
	}
	p.byID[m.ID] = carried
}

// forget drops what is known of message id: it changed in a way whose
// answer did not show it (an interaction response), or an edit failed.
func (p *pictures) forget(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.byID, id)
}
