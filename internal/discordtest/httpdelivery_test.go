package discordtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/internal/discordtest"
)

// endpoint is an interactions endpoint in a test: it verifies Discord's
// signature with discordgo's own check, answers PINGs, and answers every
// other interaction with answer (status and body), reporting it on got.
type endpoint struct {
	*httptest.Server
	got chan *discordgo.Interaction
}

func newEndpoint(t *testing.T, srv *discordtest.Server, status int, answer string) *endpoint {
	t.Helper()
	e := &endpoint{got: make(chan *discordgo.Interaction, 16)}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !discordgo.VerifyInteraction(r, srv.PublicKey()) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var i discordgo.Interaction
		if err := json.Unmarshal(body, &i); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if i.Type == discordgo.InteractionPing {
			_, _ = w.Write([]byte(`{"type":1}`))
			return
		}
		e.got <- &i
		w.WriteHeader(status)
		_, _ = w.Write([]byte(answer))
	}))
	t.Cleanup(e.Close)
	return e
}

// restOnly is a discordgo session that uses the REST API only, as a bot
// taking interactions by HTTP does; it registers gameCommands.
func restOnly(t *testing.T, srv *discordtest.Server) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: srv.Transport(), Timeout: waitTimeout(t)}
	if _, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), "", gameCommands); err != nil {
		t.Fatalf("register commands: %v", err)
	}
	return s
}

// resign sends "/chess resign" as a new user.
func resign(t *testing.T, srv *discordtest.Server, user string) *discordtest.Interaction {
	t.Helper()
	ix, err := srv.SendCommand(discordtest.SlashCommand{UserID: user, Name: "chess", Options: []discordtest.Option{{Name: "resign"}}})
	if err != nil {
		t.Fatalf("send command: %v", err)
	}
	return ix
}

func TestAnEndpointIsCheckedAsDiscordChecksIt(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	good := newEndpoint(t, srv, http.StatusOK, `{"type":4,"data":{"content":"ok"}}`)
	if err := srv.DeliverOverHTTP(ctx(t), good.URL); err != nil {
		t.Fatalf("an endpoint that verifies signatures and answers PING was refused: %v", err)
	}
	careless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"type":1}`))
	}))
	defer careless.Close()
	if err := srv.DeliverOverHTTP(ctx(t), careless.URL); err == nil || !strings.Contains(err.Error(), "bad signature") {
		t.Errorf("an endpoint that takes unsigned requests was accepted: %v", err)
	}
	mute := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !discordgo.VerifyInteraction(r, srv.PublicKey()) {
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	defer mute.Close()
	if err := srv.DeliverOverHTTP(ctx(t), mute.URL); err == nil || !strings.Contains(err.Error(), "PONG") {
		t.Errorf("an endpoint that does not answer PING was accepted: %v", err)
	}
}

func TestAnInitialResponseInTheAnswerBodyIsRecorded(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	restOnly(t, srv)
	e := newEndpoint(t, srv, http.StatusOK, `{"type":4,"data":{"content":"resigned","flags":64}}`)
	if err := srv.DeliverOverHTTP(ctx(t), e.URL); err != nil {
		t.Fatal(err)
	}
	alice := srv.AddUser("alice")
	ix := resign(t, srv, alice.ID)
	in := receive(t, e.got, "the interaction at the endpoint")
	if in.ID != ix.ID || in.Token != ix.Token || in.Member == nil || in.Member.User.ID != alice.ID {
		t.Fatalf("the endpoint got %+v, want interaction %s of alice", in, ix.ID)
	}
	m, err := ix.Reply(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if m.Content != "resigned" || !m.Ephemeral() || !m.VisibleToUser(alice.ID) {
		t.Errorf("reply = %+v, want alice's ephemeral \"resigned\"", m)
	}
	srv.AssertNoViolations(t)
}

func TestA202LeavesTheAnswerToTheCallbackRoute(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	s := restOnly(t, srv)
	e := newEndpoint(t, srv, http.StatusAccepted, "")
	if err := srv.DeliverOverHTTP(ctx(t), e.URL); err != nil {
		t.Fatal(err)
	}
	ix := resign(t, srv, srv.AddUser("alice").ID)
	in := receive(t, e.got, "the interaction at the endpoint")
	if err := s.InteractionRespond(in, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "by callback"},
	}); err != nil {
		t.Fatal(err)
	}
	if m, err := ix.Reply(ctx(t)); err != nil || m.Content != "by callback" {
		t.Errorf("reply = %+v, %v", m, err)
	}
	srv.AssertNoViolations(t)
}

func TestDeliveriesTakeTurnsAndSkipAnEndpointThatIsDown(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	restOnly(t, srv)
	answer := `{"type":4,"data":{"content":"ok"}}`
	a, b := newEndpoint(t, srv, http.StatusOK, answer), newEndpoint(t, srv, http.StatusOK, answer)
	if err := srv.DeliverOverHTTP(ctx(t), a.URL, b.URL); err != nil {
		t.Fatal(err)
	}
	alice := srv.AddUser("alice").ID
	for i, want := range []*endpoint{a, b, a, b} {
		ix := resign(t, srv, alice)
		if _, err := ix.Reply(ctx(t)); err != nil {
			t.Fatalf("interaction %d: %v", i, err)
		}
		if got := receive(t, want.got, "the interaction"); got.ID != ix.ID {
			t.Fatalf("interaction %d went to the wrong endpoint", i)
		}
	}
	a.Close() // connections to a are refused from now on
	for i := range 3 {
		ix := resign(t, srv, alice)
		if m, err := ix.Reply(ctx(t)); err != nil || m.Content != "ok" {
			t.Fatalf("interaction %d after a stopped: %+v, %v", i, m, err)
		}
		if got := receive(t, b.got, "the interaction at b"); got.ID != ix.ID {
			t.Fatalf("interaction %d: b got %s, want %s", i, got.ID, ix.ID)
		}
	}
	srv.AssertNoViolations(t)
}

func TestAWrongAnswerOfAnEndpointIsAViolation(t *testing.T) {
	t.Parallel()
	srv := discordtest.New()
	defer srv.Close()
	restOnly(t, srv)
	e := newEndpoint(t, srv, http.StatusInternalServerError, "oops")
	if err := srv.DeliverOverHTTP(ctx(t), e.URL); err != nil {
		t.Fatal(err)
	}
	resign(t, srv, srv.AddUser("alice").ID)
	receive(t, e.got, "the interaction at the endpoint")
	// The endpoint has answered, or is answering: wait for the stand-in
	// to take the answer in.
	deadline := time.Now().Add(waitTimeout(t))
	for len(srv.Violations()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no violation recorded for the endpoint's 500")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if v := srv.Violations()[0]; v.Code != "INTERACTION_ENDPOINT" || !strings.Contains(v.Message, "500") {
		t.Errorf("violation = %s, want the endpoint's 500", v)
	}
}
