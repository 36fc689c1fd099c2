package storage

import (
	"fmt"
	"strings"
	"time"
)

// ValidClaim checks the arguments of Store.Claim, for the stores: a key
// and an owner are needed and the time to live must be positive.
func ValidClaim(key, owner string, ttl time.Duration) error {
	switch {
	case key == "":
		return fmt.Errorf("storage: claim: %w: empty key", ErrInvalid)
	case owner == "":
		return fmt.Errorf("storage: claim %s: %w: empty owner", key, ErrInvalid)
	case ttl <= 0:
		return fmt.Errorf("storage: claim %s: %w: time to live %v is not positive", key, ErrInvalid, ttl)
	}
	return nil
}

// ClaimOf reports whether the claim key is keyed to the Discord user
// userID: its last segment, after a slash, is the ID ("review/member/ID").
// DeleteUser deletes such claims with the user's other data.
func ClaimOf(key, userID string) bool {
	rest, ok := strings.CutSuffix(key, userID)
	return ok && userID != "" && strings.HasSuffix(rest, "/")
}

// ValidDelivery checks the arguments of Store.FirstDelivery, for the
// stores: an interaction ID of at most 200 bytes without NUL, and a
// positive time to live.
func ValidDelivery(id string, ttl time.Duration) error {
	switch {
	case id == "" || len(id) > maxIDLen || strings.ContainsRune(id, 0):
		return fmt.Errorf("storage: record interaction %q: %w: want an interaction ID", id, ErrInvalid)
	case ttl <= 0:
		return fmt.Errorf("storage: record interaction %s: %w: time to live %v is not positive", id, ErrInvalid, ttl)
	}
	return nil
}
