package storage

import (
	"fmt"
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
