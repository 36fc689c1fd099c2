package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gambitbot/gambit/internal/discordtest"
)

func TestServeNeedsAPublicKeyAndValidSettings(t *testing.T) {
	t.Setenv("DISCORD_TOKEN", "secret-token-value")
	t.Setenv("DISCORD_PUBLIC_KEY", "")
	code, _, errOut := gambit("serve")
	if code != 1 || !strings.Contains(errOut, "DISCORD_PUBLIC_KEY is not set") {
		t.Errorf("without a public key: exit %d, stderr %q; want DISCORD_PUBLIC_KEY named", code, errOut)
	}
	t.Setenv("DISCORD_PUBLIC_KEY", "abc123")
	t.Setenv("GAMBIT_SERVE_ADDR", "8080")
	t.Setenv("GAMBIT_SERVE_PATH", "interactions")
	code, _, errOut = gambit("serve")
	for _, name := range []string{"DISCORD_PUBLIC_KEY", "GAMBIT_SERVE_ADDR", "GAMBIT_SERVE_PATH"} {
		if code != 1 || !strings.Contains(errOut, name) {
			t.Errorf("bad settings: exit %d, stderr %q; want %s named", code, errOut, name)
		}
	}
	if strings.Contains(errOut, "secret-token-value") {
		t.Error("the token appears in the error output")
	}
}

func TestServeProcessAnswersSignedRequestsAndStopsOnSIGTERM(t *testing.T) {
	t.Parallel()
	srv := discordtest.New(discordtest.AnswerUntilTestDeadline(t)) // the 3 s rule runs on a manual clock in discordtest and bot
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "gambit.db")
	cmd, logs := startGambit(t, t.TempDir(), true, []string{"serve"},
		"DISCORD_TOKEN="+srv.Token(), "DISCORD_API_URL="+srv.URL(), "GAMBIT_DB="+db,
		"DISCORD_PUBLIC_KEY="+hex.EncodeToString(srv.PublicKey()), "GAMBIT_SERVE_ADDR=127.0.0.1:0",
		"GAMBIT_SERVE_PATH=/discord/interactions", "GAMBIT_OPS_ADDR=:0", "GAMBIT_LOG_LEVEL=debug")
	addr := logs.wait(t, regexp.MustCompile(`interactions endpoint"? addr=(\S+)`))
	opsAddr := logs.wait(t, regexp.MustCompile(`operations endpoint"? addr=(\S+)`))
	logs.wait(t, regexp.MustCompile(`bot running`))
	url := "http://" + addr + "/discord/interactions"

	ping := []byte(`{"id":"1","application_id":"` + srv.ApplicationID() + `","type":1,"token":"t","version":1}`)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	if code, body := post(t, url, ping, ts, srv.Sign(ts, ping)); code != http.StatusOK || strings.TrimSpace(body) != `{"type":1}` {
		t.Errorf("a signed PING: %d %q, want 200 with a PONG", code, body)
	}
	if code, _ := post(t, url, ping, ts, srv.Sign(ts, []byte(`{"type":2}`))); code != http.StatusUnauthorized {
		t.Errorf("a PING with a signature of another body: %d, want 401", code)
	}
	// The stand-in checks the endpoint as Discord does, then delivers a
	// command to it.
	ctx, cancel := discordtest.UntilTestDeadline(t, context.Background())
	defer cancel()
	if err := srv.DeliverOverHTTP(ctx, url); err != nil {
		t.Fatal(err)
	}
	alice := srv.AddUser("alice")
	ix, err := srv.SendCommand(discordtest.SlashCommand{UserID: alice.ID, Name: "play", Options: []discordtest.Option{{Name: "game", Value: "tictactoe"}}})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := ix.Reply(ctx); err != nil || m.Ephemeral() {
		t.Fatalf("/play through the endpoint: %+v, %v", m, err)
	}
	if code, body := get(t, "http://"+opsAddr+"/healthz"); code != http.StatusOK || !strings.Contains(body, `"interactions_endpoint":"ok"`) {
		t.Errorf("GET /healthz: %d %s", code, body)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	logs.wait(t, regexp.MustCompile(`bot stopped`))
	if err := cmd.Wait(); err != nil {
		t.Errorf("gambit serve after SIGTERM: %v; output:\n%s", err, logs)
	}
	if strings.Contains(logs.String(), srv.Token()) {
		t.Error("the bot token appears in the logs")
	}
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Route, "/gateway") {
			t.Errorf("gambit serve asked for the gateway: %s %s", r.Method, r.Path)
		}
	}
	srv.AssertNoViolations(t)
}

// post sends a signed interaction request and returns the status and body.
func post(t *testing.T, url string, body []byte, ts, sig string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature-Timestamp", ts)
	req.Header.Set("X-Signature-Ed25519", sig)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(answer)
}
