package bolt

import (
	"bytes"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
)

// The seed corpora live in testdata/fuzz/<FuzzName>/; run a target with
//
//	go test ./storage/bolt -run '^$' -fuzz '^FuzzDecodeGame$' -fuzztime 30s

// sampleGame is a finished game using every field.
func sampleGame() *storage.Game {
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	return &storage.Game{
		ID: "0000002a", Version: 7, Kind: storage.Kind("connect4"), Status: storage.StatusFinished,
		Players:  []storage.Player{{ID: storage.User("42"), Name: "alice"}, {ID: storage.AI("minimax")}},
		Turn:     1,
		Settings: storage.Settings{Rounds: 3, First: "me", MoveTime: time.Second},
		Moves:    []string{"d", "d", "e"}, Position: "6/6/6/6/6/2xo3 x",
		Result:  &storage.Result{Winner: 0, Outcome: storage.Resigned},
		GuildID: "1", ChannelID: "2", MessageID: "3",
		CreatedAt: at, UpdatedAt: at.Add(time.Minute),
	}
}

// roundTrip checks that a record that decoded re-encodes to a record that
// decodes to the same encoding: what the store reads, it can write back.
func roundTrip[T any](t *testing.T, v T, decode func([]byte) (T, error)) {
	t.Helper()
	enc, err := encode(v)
	if err != nil {
		t.Fatalf("re-encoding a decoded record: %v", err)
	}
	again, err := decode(enc)
	if err != nil {
		t.Fatalf("decoding a re-encoded record: %v", err)
	}
	enc2, _ := encode(again)
	if !bytes.Equal(enc, enc2) {
		t.Fatalf("round trip changed the record:\n%s\n%s", enc, enc2)
	}
}

func FuzzDecodeGame(f *testing.F) {
	g := sampleGame()
	data, _ := encode(g)
	f.Add([]byte(g.ID), data)
	f.Add([]byte(g.ID), data[:len(data)-3])
	f.Fuzz(func(t *testing.T, key, data []byte) {
		g, err := decodeGame(key, data)
		if err != nil {
			return
		}
		if err := g.Validate(); err != nil || string(g.ID) != string(key) || g.Version == 0 {
			t.Fatalf("decodeGame accepted an invalid game %+v: %v", g, err)
		}
		roundTrip(t, g, func(b []byte) (*storage.Game, error) { return decodeGame(key, b) })
	})
}

func FuzzDecodeRating(f *testing.F) {
	r := storage.NewRating(storage.User("42")).Apply(storage.NewRating(storage.AI("minimax")), 1, time.Unix(0, 0).UTC())
	data, _ := encode(r)
	f.Add([]byte(r.Player), data)
	f.Fuzz(func(t *testing.T, key, data []byte) {
		r, err := decodeRating("tictactoe", key, data)
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil || string(r.Player) != string(key) {
			t.Fatalf("decodeRating accepted an invalid rating %+v: %v", r, err)
		}
		roundTrip(t, r, func(b []byte) (storage.Rating, error) { return decodeRating("tictactoe", key, b) })
	})
}

func FuzzDecodeGuildSettings(f *testing.F) {
	data, _ := encode(storage.GuildSettings{MoveTime: time.Second, TurnTimeout: time.Hour, AllowedGames: []storage.Kind{storage.Kind("tictactoe")}})
	f.Add([]byte("1"), data)
	f.Fuzz(func(t *testing.T, key, data []byte) {
		s, err := decodeGuildSettings(key, data)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("decodeGuildSettings accepted invalid settings %+v: %v", s, err)
		}
		roundTrip(t, s, func(b []byte) (storage.GuildSettings, error) { return decodeGuildSettings(key, b) })
	})
}

func FuzzDecodeSchema(f *testing.F) {
	f.Add(encodeSchema(1))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decodeSchema(data)
		if err == nil && !bytes.Equal(encodeSchema(v), data) {
			t.Fatalf("schema %x decoded to %d, which encodes differently", data, v)
		}
	})
}
