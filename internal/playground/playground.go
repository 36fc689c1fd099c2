// Package playground runs Gambit without a Discord token: the local
// stand-in of Discord (internal/discordtest), the real bot talking to it through
// the real discordgo client, and a web page that shows one channel the way
// Discord would and lets simulated members use the bot's commands, buttons
// and selects.
//
// The page (static/, embedded) renders the messages from the JSON the bot
// actually sent and sends every click and command through the stand-in as
// an interaction, so what a newcomer sees is what a Discord user would.
// The stand-in's identity (application, guild and channel IDs) and the
// simulated members, with the languages chosen for them and for the
// server, are kept in a state file next to the database, so games and
// settings survive restarting the playground.
package playground

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/discordtest"
)

//go:embed static
var static embed.FS

// responseMargin is how much longer than the stand-in waits for the
// bot's first response (Discord's three seconds, or longer in a test on
// a loaded machine) a command or click waits for it.
const responseMargin = 500 * time.Millisecond

// Member is a simulated member of the playground's server.
type Member struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Locale is the Discord locale of the member's client, which their
	// interactions carry; empty for the stand-in's default, en-US.
	Locale string `json:"locale,omitempty"`
	// NoManageServer is a member without the Manage Server permission,
	// as most members of a real server are: their Discord hides the
	// commands that need it (/settings), and the bot refuses them.
	NoManageServer bool `json:"no_manage_server,omitempty"`
}

// everyPermission is every permission bit Discord defines, which the
// stand-in grants a member unless told otherwise; withoutManageServer
// lacks Manage Server and Administrator, which implies it.
const (
	everyPermission     int64 = 1<<51 - 1
	withoutManageServer       = everyPermission &^ (discordgo.PermissionManageGuild | discordgo.PermissionAdministrator)
)

// State is what the playground keeps between runs.
type State struct {
	Identity discordtest.Identity `json:"identity"`
	Members  []Member             `json:"members"`
	// GuildLocale is the server's Discord locale (its guild_locale);
	// empty for the stand-in's default, en-US.
	GuildLocale string `json:"guild_locale,omitempty"`
}

// LoadState reads a state file; a missing file gives the zero State.
func LoadState(path string) (State, error) {
	var st State
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("playground: read state: %w", err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return st, fmt.Errorf("playground: state file %s: %w", path, err)
	}
	return st, nil
}

// SaveState writes a state file atomically.
func SaveState(path string, st State) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("playground: encode state: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return fmt.Errorf("playground: save state: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("playground: save state: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("playground: save state: %w", err)
	}
	return nil
}

// Page serves the playground's web page and its JSON API over a stand-in.
type Page struct {
	srv  *discordtest.Server
	log  *slog.Logger
	save func(State) error

	mu          sync.Mutex
	members     []Member
	guildLocale string
	commands    map[string]wireInteraction       // slash commands sent, by interaction ID
	seen        map[string][]discordtest.Message // the last versions of each message sent to a page, oldest first
}

// seenVersions is how many versions of a message the playground remembers
// having shown, so that a click on a version a page still shows after the
// bot changed the message reaches the bot as Discord's would — with the
// component clicked, on the message as it is now — and the bot, not the
// stand-in, answers it (an outdated board gets the bot's pointer to the
// newest).
const seenVersions = 4

// saw records a version of a message as sent to a page.
func (p *Page) saw(m discordtest.Message) {
	p.mu.Lock()
	defer p.mu.Unlock()
	vs := p.seen[m.ID]
	if n := len(vs); n > 0 && vs[n-1].Version == m.Version {
		return
	}
	if len(vs) == seenVersions {
		vs = vs[1:]
	}
	p.seen[m.ID] = append(vs, m)
}

// shownWith returns the newest version shown of message id that has the
// component customID, if it is no longer on the message.
func (p *Page) shownWith(id, customID string) (discordtest.Message, bool) {
	if now, ok := p.srv.Message(id); !ok || hasComponent(now, customID) {
		return discordtest.Message{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	vs := p.seen[id]
	for i := len(vs) - 1; i >= 0; i-- {
		if hasComponent(vs[i], customID) {
			return vs[i], true
		}
	}
	return discordtest.Message{}, false
}

func hasComponent(m discordtest.Message, customID string) bool {
	_, ok := m.Component(customID)
	return ok
}

// NewPage makes the page for srv with the members and server locale of
// st, adding the members the stand-in does not know yet and giving the
// stand-in their locales; save, if not nil, is called with the page's
// members and server locale (st's Identity left zero) whenever they
// change.
func NewPage(srv *discordtest.Server, st State, save func(State) error, log *slog.Logger) (*Page, error) {
	p := &Page{srv: srv, log: log, save: save, commands: map[string]wireInteraction{}, seen: map[string][]discordtest.Message{}}
	for _, m := range st.Members {
		if _, err := srv.AddUserWithID(m.ID, m.Name); err != nil {
			return nil, fmt.Errorf("playground: member %s: %w", m.Name, err)
		}
		srv.SetLocale(m.ID, m.Locale)
		if m.NoManageServer {
			if err := srv.SetMemberPermissions(srv.GuildID(), m.ID, withoutManageServer); err != nil {
				return nil, fmt.Errorf("playground: member %s: %w", m.Name, err)
			}
		}
		p.members = append(p.members, m)
	}
	srv.SetLocale(srv.GuildID(), st.GuildLocale)
	p.guildLocale = st.GuildLocale
	return p, nil
}

// Members returns the simulated members.
func (p *Page) Members() []Member {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Member(nil), p.members...)
}

// Saved returns what the page keeps in the state file: the members and
// the server's locale (Identity is the caller's).
func (p *Page) Saved() State {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.saved()
}

// saved is Saved for a caller that holds p.mu.
func (p *Page) saved() State {
	return State{Members: append([]Member(nil), p.members...), GuildLocale: p.guildLocale}
}

// MaxMembers is how many members AddMember lets the playground have.
const MaxMembers = 16

// ErrTooManyMembers is AddMember's refusal once there are MaxMembers.
var ErrTooManyMembers = fmt.Errorf("the playground has its %d members already, the most it takes", MaxMembers)

// AddMember adds a simulated member, unless there are MaxMembers already.
func (p *Page) AddMember(name string) (Member, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 32 {
		return Member{}, errors.New("a member's name has 1 to 32 characters")
	}
	// The count is checked, the member added and the list saved under
	// one lock: concurrent adds neither pass the cap nor save out of order.
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.members) >= MaxMembers {
		return Member{}, ErrTooManyMembers
	}
	u := p.srv.AddUser(name)
	m := Member{ID: u.ID, Name: u.Username}
	p.members = append(p.members, m)
	if p.save != nil {
		if err := p.save(p.saved()); err != nil {
			return m, err
		}
	}
	return m, nil
}

// ErrUnknownLocale is SetLocale's refusal of a locale the bot has no
// catalogue for.
var ErrUnknownLocale = fmt.Errorf("the bot speaks only the Discord locales %s", strings.Join(i18n.Locales(), ", "))

// ErrUnknownMember is SetLocale's refusal of an ID that is no member's.
var ErrUnknownMember = errors.New("no member of the playground has this ID")

// SetLocale sets the Discord locale of the member memberID (their
// client's language, which their interactions carry) or, with memberID
// empty, of the server (guild_locale, the language of its boards and
// challenges) to one of i18n.Locales, and saves it. A refused change
// changes nothing.
func (p *Page) SetLocale(memberID, locale string) error {
	if !slices.Contains(i18n.Locales(), locale) {
		return fmt.Errorf("locale %q: %w", locale, ErrUnknownLocale)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	next := p.saved()
	id := p.srv.GuildID()
	if memberID == "" {
		next.GuildLocale = locale
	} else {
		i := slices.IndexFunc(next.Members, func(m Member) bool { return m.ID == memberID })
		if i < 0 {
			return fmt.Errorf("member %q: %w", memberID, ErrUnknownMember)
		}
		next.Members[i].Locale = locale
		id = memberID
	}
	if p.save != nil {
		if err := p.save(next); err != nil {
			return err
		}
	}
	p.members, p.guildLocale = next.Members, next.GuildLocale
	p.srv.SetLocale(id, locale)
	return nil
}

// SetManageServer gives the member memberID the Manage Server permission
// or takes it away, and saves it; a refused change changes nothing.
func (p *Page) SetManageServer(memberID string, manage bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	next := p.saved()
	i := slices.IndexFunc(next.Members, func(m Member) bool { return m.ID == memberID })
	if i < 0 {
		return fmt.Errorf("member %q: %w", memberID, ErrUnknownMember)
	}
	next.Members[i].NoManageServer = !manage
	if p.save != nil {
		if err := p.save(next); err != nil {
			return err
		}
	}
	perms := withoutManageServer
	if manage {
		perms = everyPermission
	}
	if err := p.srv.SetMemberPermissions(p.srv.GuildID(), memberID, perms); err != nil {
		return fmt.Errorf("playground: permissions of %s: %w", memberID, err)
	}
	p.members = next.Members
	return nil
}

// localeOrDefault is a locale as the stand-in applies it: empty is en-US.
func localeOrDefault(l string) string {
	if l == "" {
		return i18n.English
	}
	return l
}

// Handler returns the page and the API for a page served on a loopback
// address with the given port. It answers only requests for that address
// (a loopback name or address and the port in Host) and accepts changes
// (POST) only as application/json from its own origin:
//
//	GET  /                  the page (and /static/…)
//	GET  /api/state         server, channel, members and registered commands
//	GET  /api/messages      the messages a member sees (?member=ID)
//	GET  /api/events        their changes as server-sent events (?member=ID)
//	POST /api/members       add a member {"name"}
//	POST /api/command       a slash command {"member","name","options"}
//	POST /api/autocomplete  an autocomplete request, answered with choices
//	POST /api/click         a button click or select choice {"member","message","custom_id","values"}
//	POST /api/locale        a member's or the server's language {"member" or "guild","locale"}, answered with the state
//	POST /api/permissions   whether a member may manage the server {"member","manage_server"}, answered with the state
//	POST /api/user-command  a member's context-menu command on another {"member","name","target"}
func (p *Page) Handler(port int) http.Handler {
	mux := http.NewServeMux()
	assets, _ := fs.Sub(static, "static") // the directory is embedded
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(assets)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, assets, "index.html")
	})
	mux.HandleFunc("GET /api/state", p.state)
	mux.HandleFunc("GET /api/messages", p.messages)
	mux.HandleFunc("GET /api/events", p.events)
	mux.HandleFunc("POST /api/members", p.addMember)
	mux.HandleFunc("POST /api/command", p.command)
	mux.HandleFunc("POST /api/autocomplete", p.autocomplete)
	mux.HandleFunc("POST /api/click", p.click)
	mux.HandleFunc("POST /api/locale", p.setLocale)
	mux.HandleFunc("POST /api/permissions", p.setPermissions)
	mux.HandleFunc("POST /api/user-command", p.userCommand)
	return guard(port, mux)
}

// writeJSON answers with a JSON body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client may have gone
}

// fail answers with {"error": text}.
func fail(w http.ResponseWriter, status int, text string) {
	writeJSON(w, status, map[string]string{"error": text})
}

// member returns the member a request acts as, or answers 400.
func (p *Page) member(w http.ResponseWriter, id string) (Member, bool) {
	for _, m := range p.Members() {
		if m.ID == id {
			return m, true
		}
	}
	fail(w, http.StatusBadRequest, "unknown member "+id)
	return Member{}, false
}

func (p *Page) state(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, p.stateJSON())
}

// stateJSON is the answer of GET /api/state: the locales are those the
// bot has catalogues for, and a member's or the server's locale is never
// empty.
func (p *Page) stateJSON() map[string]any {
	bot := p.srv.BotUser()
	// The page types slash commands in its box and offers user commands
	// (such as "Challenge to a game") in a member's context menu.
	all := append(p.srv.Commands(""), p.srv.Commands(p.srv.GuildID())...)
	commands := slices.DeleteFunc(slices.Clone(all), func(c discordtest.Command) bool { return c.Type != discordgo.ChatApplicationCommand })
	userCommands := slices.DeleteFunc(all, func(c discordtest.Command) bool { return c.Type != discordgo.UserApplicationCommand })
	saved := p.Saved()
	for i := range saved.Members {
		saved.Members[i].Locale = localeOrDefault(saved.Members[i].Locale)
	}
	return map[string]any{
		"guild":         map[string]string{"id": p.srv.GuildID(), "name": "Gambit playground", "locale": localeOrDefault(saved.GuildLocale)},
		"channel":       map[string]string{"id": p.srv.ChannelID(), "name": "general"},
		"bot":           map[string]string{"id": bot.ID, "name": "Gambit"},
		"members":       saved.Members,
		"commands":      commands,
		"user_commands": userCommands,
		"locales":       i18n.Locales(),
	}
}

// setLocale sets a member's or the server's locale and answers with the
// new state.
func (p *Page) setLocale(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Member string `json:"member"`
		Guild  string `json:"guild"`
		Locale string `json:"locale"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, "malformed request: "+err.Error())
		return
	}
	if (req.Member == "") == (req.Guild == "") {
		fail(w, http.StatusBadRequest, `name either a "member" or the "guild" whose locale to set`)
		return
	}
	if req.Guild != "" && req.Guild != p.srv.GuildID() {
		fail(w, http.StatusBadRequest, "unknown server "+req.Guild+": the playground's is "+p.srv.GuildID())
		return
	}
	err := p.SetLocale(req.Member, req.Locale)
	switch {
	case errors.Is(err, ErrUnknownMember):
		fail(w, http.StatusBadRequest, "unknown member "+req.Member)
	case errors.Is(err, ErrUnknownLocale):
		fail(w, http.StatusBadRequest, err.Error())
	case err != nil:
		fail(w, http.StatusInternalServerError, err.Error())
	default:
		writeJSON(w, http.StatusOK, p.stateJSON())
	}
}

func (p *Page) messages(w http.ResponseWriter, r *http.Request) {
	m, ok := p.member(w, r.URL.Query().Get("member"))
	if !ok {
		return
	}
	out := []wireMessage{}
	for _, msg := range p.srv.ChannelAndThreads(p.srv.ChannelID()) {
		if msg.VisibleToUser(m.ID) {
			p.saw(msg)
			out = append(out, p.wire(msg))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// events streams the changes of the messages a member sees.
func (p *Page) events(w http.ResponseWriter, r *http.Request) {
	m, ok := p.member(w, r.URL.Query().Get("member"))
	if !ok {
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		fail(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	// Subscribe before the stream opens: the page loads the messages
	// once it is open, and no change may fall in between.
	events := p.srv.Subscribe(r.Context())
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": connected\n\n")
	flusher.Flush()
	keepAlive := time.NewTicker(20 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case e, open := <-events:
			if !open {
				return
			}
			msg := e.Message
			if !p.shown(msg.ChannelID) || (msg.VisibleTo != "" && msg.VisibleTo != m.ID) {
				continue
			}
			p.saw(msg)
			data, err := json.Marshal(p.wire(msg))
			if err != nil {
				p.log.Error("playground: encode message", "err", err)
				continue
			}
			fmt.Fprintf(w, "event: message\ndata: %s\n\n", data)
			flusher.Flush()
		case <-keepAlive.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			flusher.Flush()
		}
	}
}

func (p *Page) addMember(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, "malformed request: "+err.Error())
		return
	}
	m, err := p.AddMember(req.Name)
	if errors.Is(err, ErrTooManyMembers) {
		fail(w, http.StatusConflict, err.Error())
		return
	}
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// setPermissions gives a member Manage Server or takes it away, and
// answers with the new state.
func (p *Page) setPermissions(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Member       string `json:"member"`
		ManageServer bool   `json:"manage_server"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, "malformed request: "+err.Error())
		return
	}
	if err := p.SetManageServer(req.Member, req.ManageServer); errors.Is(err, ErrUnknownMember) {
		fail(w, http.StatusBadRequest, err.Error())
		return
	} else if err != nil {
		fail(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, p.stateJSON())
}

// userCommand runs a user command (a member's context menu, "Apps") of
// member on target, as Discord's client does from target's profile.
func (p *Page) userCommand(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Member string `json:"member"`
		Name   string `json:"name"`
		Target string `json:"target"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10)).Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, "malformed request: "+err.Error())
		return
	}
	m, ok := p.member(w, req.Member)
	if !ok {
		return
	}
	ix, err := p.srv.SendUserCommand(req.Member, "", req.Name, req.Target)
	if err == nil {
		p.mu.Lock()
		p.commands[ix.ID] = wireInteraction{UserID: m.ID, UserName: m.Name, Command: req.Name}
		p.mu.Unlock()
	}
	p.answer(w, r, ix, err)
}

// commandRequest is a slash command or autocomplete request from the page.
type commandRequest struct {
	Member  string          `json:"member"`
	Name    string          `json:"name"`
	Options []commandOption `json:"options"`
}

type commandOption struct {
	Name    string          `json:"name"`
	Value   any             `json:"value"`
	Focused bool            `json:"focused"`
	Options []commandOption `json:"options"`
}

// standIn converts options for the stand-in: JSON numbers become int64
// when whole (integer options need them) and float64 otherwise.
func standIn(opts []commandOption) []discordtest.Option {
	out := make([]discordtest.Option, 0, len(opts))
	for _, o := range opts {
		v := o.Value
		if n, ok := v.(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				v = i
			} else if f, err := n.Float64(); err == nil {
				v = f
			}
		}
		out = append(out, discordtest.Option{Name: o.Name, Value: v, Focused: o.Focused, Options: standIn(o.Options)})
	}
	return out
}

// decodeCommand reads a command request and checks its member.
func (p *Page) decodeCommand(w http.ResponseWriter, r *http.Request) (discordtest.SlashCommand, bool) {
	var req commandRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<10))
	dec.UseNumber()
	if err := dec.Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, "malformed request: "+err.Error())
		return discordtest.SlashCommand{}, false
	}
	if _, ok := p.member(w, req.Member); !ok {
		return discordtest.SlashCommand{}, false
	}
	return discordtest.SlashCommand{UserID: req.Member, Name: req.Name, Options: standIn(req.Options)}, true
}

func (p *Page) command(w http.ResponseWriter, r *http.Request) {
	cmd, ok := p.decodeCommand(w, r)
	if !ok {
		return
	}
	ix, err := p.srv.SendCommand(cmd)
	if err == nil {
		p.mu.Lock()
		name := ""
		for _, m := range p.members {
			if m.ID == cmd.UserID {
				name = m.Name
			}
		}
		p.commands[ix.ID] = wireInteraction{UserID: cmd.UserID, UserName: name, Command: commandPath(cmd)}
		p.mu.Unlock()
	}
	p.answer(w, r, ix, err)
}

// commandPath is a command as Discord names it on its answer: with its
// subcommand group and subcommand ("/privacy delete"), an option without
// a value being one.
func commandPath(cmd discordtest.SlashCommand) string {
	path := "/" + cmd.Name
	for opts := cmd.Options; len(opts) == 1 && opts[0].Value == nil; opts = opts[0].Options {
		path += " " + opts[0].Name
	}
	return path
}

// commandOf returns the slash command an interaction was.
func (p *Page) commandOf(interactionID string) (wireInteraction, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in, ok := p.commands[interactionID]
	return in, ok
}

func (p *Page) autocomplete(w http.ResponseWriter, r *http.Request) {
	cmd, ok := p.decodeCommand(w, r)
	if !ok {
		return
	}
	ix, err := p.srv.SendAutocomplete(cmd)
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), p.srv.AnswerDeadline()+responseMargin)
	defer cancel()
	resp, err := ix.Response(ctx)
	if err != nil {
		fail(w, http.StatusGatewayTimeout, "the application did not respond")
		return
	}
	choices := resp.Choices
	if choices == nil {
		choices = []discordtest.Choice{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"choices": choices})
}

func (p *Page) click(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Member   string   `json:"member"`
		Message  string   `json:"message"`
		CustomID string   `json:"custom_id"`
		Values   []string `json:"values"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, "malformed request: "+err.Error())
		return
	}
	if _, ok := p.member(w, req.Member); !ok {
		return
	}
	var ix *discordtest.Interaction
	var err error
	if shown, ok := p.shownWith(req.Message, req.CustomID); ok {
		ix, err = p.srv.ClickSeen(req.Member, shown, req.CustomID, req.Values...)
	} else if len(req.Values) > 0 {
		ix, err = p.srv.SelectValues(req.Member, req.Message, req.CustomID, req.Values...)
	} else {
		ix, err = p.srv.ClickButton(req.Member, req.Message, req.CustomID)
	}
	p.answer(w, r, ix, err)
}

// answer waits for the bot's first response to an interaction the page
// started and tells the page whether it came, as Discord's client does
// with "This interaction failed".
func (p *Page) answer(w http.ResponseWriter, r *http.Request, ix *discordtest.Interaction, err error) {
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), p.srv.AnswerDeadline()+responseMargin)
	defer cancel()
	if _, err := ix.Response(ctx); err != nil {
		fail(w, http.StatusGatewayTimeout, "the application did not respond")
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}
