package discordtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// storeMessage adds a new message, giving it an ID and timestamp. The
// caller holds s.mu.
func (s *Server) storeMessage(m *Message) {
	m.ID = s.newID()
	m.Timestamp = s.clock.Now()
	s.messages[m.ID] = m
	s.order = append(s.order, m.ID)
	for _, a := range m.Attachments {
		s.attachments[a.ID] = a
	}
	s.emit(MessageCreated, m)
}

// editMessage applies an edit to a message. The stored message is
// replaced, never changed, so snapshots handed out stay as they were. An
// edit ends the loading state of a deferred response. The caller holds
// s.mu.
func (s *Server) editMessage(c *call, old *Message, data messageBody) (*Message, error) {
	m := *old
	if err := data.apply(&m, c.files); err != nil {
		return nil, err
	}
	m.Flags &^= discordgo.MessageFlagsLoading
	if m.empty() {
		return nil, errEmptyMessage
	}
	if err := s.messageRules(c, old, &m); err != nil {
		return nil, err
	}
	m.Version++
	m.EditedTimestamp = s.clock.Now()
	s.messages[m.ID] = &m
	for _, a := range c.files {
		s.attachments[a.ID] = a
	}
	s.emit(MessageUpdated, &m)
	return &m, nil
}

// messageRules checks a message as a create or an edit (of old, nil for a
// create) leaves it against the rules Discord applies to the whole
// message: a components-v2 message has no content or embeds (an edit that
// makes a message components-v2 must clear them) and keeps its flag, and
// every attachment:// its components show names one of its files. It
// records a violation and returns the 50035 answer. The caller holds
// s.mu.
func (s *Server) messageRules(c *call, old, m *Message) error {
	const v2 = discordgo.MessageFlagsIsComponentsV2
	switch {
	case old != nil && old.Flags&v2 != 0 && m.Flags&v2 == 0:
		return s.ruleViolation(c, "/flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
			"the IS_COMPONENTS_V2 flag cannot be removed from a message")
	case m.Flags&v2 != 0 && (m.Content != "" || len(m.Embeds) > 0):
		return s.ruleViolation(c, "/content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
			"a message with the IS_COMPONENTS_V2 flag cannot have content or embeds")
	}
	for _, u := range media(m.Components) {
		name, ok := strings.CutPrefix(u, attachmentScheme)
		if !ok {
			continue
		}
		if _, found := m.Attachment(name); !found {
			return s.ruleViolation(c, "/components", "UNFURLED_MEDIA_ATTACHMENT_NOT_FOUND",
				fmt.Sprintf("%s names no attachment of the message", u))
		}
	}
	return nil
}

// deleteMessage marks a message deleted. The caller holds s.mu.
func (s *Server) deleteMessage(old *Message) {
	m := *old
	m.Deleted = true
	s.messages[m.ID] = &m
	s.emit(MessageDeleted, &m)
}

// emit tells subscribers, waiters and the bot's gateway sessions about a
// change of a message. Ephemeral messages exist only for their user, so
// Discord does not dispatch them. The caller holds s.mu.
func (s *Server) emit(t EventType, m *Message) {
	for sub := range s.subscribers {
		sub.push(Event{Type: t, Message: *m})
	}
	if !m.Ephemeral() {
		switch t {
		case MessageCreated:
			s.dispatch("MESSAGE_CREATE", s.wireMessage(m), intentGuildMessages)
		case MessageUpdated:
			s.dispatch("MESSAGE_UPDATE", s.wireMessage(m), intentGuildMessages)
		case MessageDeleted:
			s.dispatch("MESSAGE_DELETE", map[string]string{"id": m.ID, "channel_id": m.ChannelID, "guild_id": m.GuildID}, intentGuildMessages)
		}
	}
	s.broadcast()
}

// Messages returns the messages of a channel that are not deleted, oldest
// first, including ephemeral ones (see [Message.VisibleTo]).
func (s *Server) Messages(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, id := range s.order {
		if m := s.messages[id]; m.ChannelID == channelID && !m.Deleted {
			out = append(out, *m)
		}
	}
	return out
}

// Message returns the current state of a message, deleted or not.
func (s *Server) Message(id string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return Message{}, false
	}
	return *m, true
}

// WaitMessage waits until a message, in its current state, satisfies
// match, and returns that state. Messages are tried oldest first, deleted
// ones included (their Deleted field is set).
func (s *Server) WaitMessage(ctx context.Context, match func(Message) bool) (Message, error) {
	return waitFor(ctx, s, func() (Message, bool, error) {
		for _, id := range s.order {
			if m := *s.messages[id]; match(m) {
				return m, true, nil
			}
		}
		return Message{}, false, nil
	})
}

// subscriber buffers events for one subscription without bound, so that a
// slow reader never blocks the server.
type subscriber struct {
	mu    sync.Mutex
	queue []Event
	wake  chan struct{}
}

func (sub *subscriber) push(e Event) {
	sub.mu.Lock()
	sub.queue = append(sub.queue, e)
	sub.mu.Unlock()
	select {
	case sub.wake <- struct{}{}:
	default:
	}
}

func (sub *subscriber) pop() (Event, bool) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	if len(sub.queue) == 0 {
		return Event{}, false
	}
	e := sub.queue[0]
	sub.queue = slices.Delete(sub.queue, 0, 1)
	return e, true
}

// Subscribe returns a channel of every message change from now on, in
// order, for live views such as the playground. The channel is closed when
// ctx ends or the server closes.
func (s *Server) Subscribe(ctx context.Context) <-chan Event {
	out := make(chan Event)
	sub := &subscriber{wake: make(chan struct{}, 1)}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
		close(out)
		return out
	default:
	}
	s.subscribers[sub] = true
	s.subs.Add(1)
	go func() {
		defer s.subs.Done()
		defer close(out)
		defer func() {
			s.mu.Lock()
			delete(s.subscribers, sub)
			s.mu.Unlock()
		}()
		for {
			e, ok := sub.pop()
			if !ok {
				select {
				case <-sub.wake:
					continue
				case <-ctx.Done():
					return
				case <-s.done:
					return
				}
			}
			select {
			case out <- e:
			case <-ctx.Done():
				return
			case <-s.done:
				return
			}
		}
	}()
	return out
}
