package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DecodeJSON decodes the JSON encoding of a stored record into v, refusing
// unknown fields and trailing data, so that a record written by a newer
// Gambit or damaged at rest is reported, never half-read.
func DecodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after record")
	}
	return nil
}

// CheckStoredGame checks a game record read back from a store under key:
// it holds that game, obeys Game.Validate and has a version.
func CheckStoredGame(key string, g *Game) error {
	if string(g.ID) != key {
		return fmt.Errorf("record holds game %q", g.ID)
	}
	if err := g.Validate(); err != nil {
		return err
	}
	if g.Version == 0 {
		return errors.New("version 0")
	}
	return nil
}

// CheckImportedGame checks a game a copy brings into a store (a Sink's
// Game) as CheckStoredGame does, and returns the sequence number of its
// ID, which the store's own sequence must pass.
func CheckImportedGame(g *Game) (uint64, error) {
	if err := CheckStoredGame(string(g.ID), g); err != nil {
		return 0, fmt.Errorf("game %s: %w", g.ID, err)
	}
	seq, ok := g.ID.Sequence()
	if !ok {
		return 0, fmt.Errorf("game %s: %w: the id is not a sequence number", g.ID, ErrInvalid)
	}
	return seq, nil
}

// CheckStoredRating checks a rating record read back from a store under
// key: it is that player's and obeys Rating.Validate.
func CheckStoredRating(key string, r Rating) error {
	if string(r.Player) != key {
		return fmt.Errorf("record holds player %q", r.Player)
	}
	return r.Validate()
}
