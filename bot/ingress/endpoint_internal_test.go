package ingress

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// TestHTTPHandsSignedInteractionsToItsHandler drives the endpoint's
// handler with a Handler of the test's own: a PING is answered without it,
// a bad signature refused without it, and a signed interaction handed to
// it and answered 202 once it has answered.
func TestHTTPHandsSignedInteractionsToItsHandler(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	var got []string
	h := HandlerFunc(func(i *discordgo.Interaction, answered func()) {
		got = append(got, i.ID)
		answered()
	})
	e, err := NewHTTP(Endpoint{PublicKey: pub}, h, func() time.Time { return now }, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	post := func(body []byte, key ed25519.PrivateKey) *httptest.ResponseRecorder {
		ts := strconv.FormatInt(now.Unix(), 10)
		r := httptest.NewRequest(http.MethodPost, DefaultEndpointPath, bytes.NewReader(body))
		r.Header.Set("X-Signature-Timestamp", ts)
		r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, append([]byte(ts), body...))))
		w := httptest.NewRecorder()
		e.handler().ServeHTTP(w, r)
		return w
	}
	ix := func(id string, typ discordgo.InteractionType) []byte {
		b, err := json.Marshal(map[string]any{"id": id, "type": typ, "token": "t", "application_id": "a", "data": map[string]any{"id": "c", "name": "help", "type": 1}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	if w := post(ix("ping", discordgo.InteractionPing), priv); w.Code != http.StatusOK || !bytes.Contains(w.Body.Bytes(), []byte(`"type":1`)) {
		t.Errorf("PING answered %d %q, want 200 and a PONG", w.Code, w.Body)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	if w := post(ix("forged", discordgo.InteractionApplicationCommand), other); w.Code != http.StatusUnauthorized {
		t.Errorf("a forged request answered %d, want 401", w.Code)
	}
	if w := post(ix("real", discordgo.InteractionApplicationCommand), priv); w.Code != http.StatusAccepted {
		t.Errorf("a signed interaction answered %d, want 202", w.Code)
	}
	if len(got) != 1 || got[0] != "real" {
		t.Errorf("the handler got %v, want the signed interaction only", got)
	}
}
