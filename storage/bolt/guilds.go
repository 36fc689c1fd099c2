package bolt

import (
	"context"
	"fmt"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// GuildSettings implements storage.Store.
func (s *Store) GuildSettings(ctx context.Context, guildID string) (storage.GuildSettings, error) {
	var gs storage.GuildSettings
	err := s.view(ctx, func(tx *bbolt.Tx) (err error) {
		gs = storage.GuildSettings{}
		if data := tx.Bucket(bucketGuilds).Get([]byte(guildID)); data != nil {
			gs, err = decodeGuildSettings([]byte(guildID), data)
		}
		return err
	})
	if err != nil {
		return storage.GuildSettings{}, fmt.Errorf("storage: settings of guild %s: %w", guildID, err)
	}
	return gs, nil
}

// PutGuildSettings implements storage.Store.
func (s *Store) PutGuildSettings(ctx context.Context, guildID string, gs storage.GuildSettings) error {
	err := gs.Validate()
	if err == nil {
		err = storage.ValidateGuildID(guildID)
	}
	if err == nil {
		err = s.update(ctx, func(tx *bbolt.Tx) error {
			data, err := encode(gs)
			if err != nil {
				return err
			}
			return tx.Bucket(bucketGuilds).Put([]byte(guildID), data)
		})
	}
	if err != nil {
		return fmt.Errorf("storage: save settings of guild %s: %w", guildID, err)
	}
	return nil
}

// UpdateGuildSettings implements storage.Store. Under concurrent writers
// the transaction may run twice, and change with it.
func (s *Store) UpdateGuildSettings(ctx context.Context, guildID string, change func(*storage.GuildSettings) error) (storage.GuildSettings, error) {
	var gs storage.GuildSettings
	err := storage.ValidateGuildID(guildID)
	if err == nil {
		err = s.update(ctx, func(tx *bbolt.Tx) (err error) {
			b := tx.Bucket(bucketGuilds)
			gs = storage.GuildSettings{}
			if data := b.Get([]byte(guildID)); data != nil {
				if gs, err = decodeGuildSettings([]byte(guildID), data); err != nil {
					return err
				}
			}
			if err := change(&gs); err != nil {
				return err
			}
			if err := gs.Validate(); err != nil {
				return err
			}
			data, err := encode(gs)
			if err != nil {
				return err
			}
			return b.Put([]byte(guildID), data)
		})
	}
	if err != nil {
		return storage.GuildSettings{}, fmt.Errorf("storage: update settings of guild %s: %w", guildID, err)
	}
	return gs, nil
}

// UserSettings implements storage.Store.
func (s *Store) UserSettings(ctx context.Context, userID string) (storage.UserSettings, error) {
	var us storage.UserSettings
	err := s.view(ctx, func(tx *bbolt.Tx) (err error) {
		us = storage.UserSettings{}
		if data := tx.Bucket(bucketUsers).Get([]byte(userID)); data != nil {
			us, err = decodeUserSettings([]byte(userID), data)
		}
		return err
	})
	if err != nil {
		return storage.UserSettings{}, fmt.Errorf("storage: settings of user %s: %w", userID, err)
	}
	return us, nil
}

// PutUserSettings implements storage.Store.
func (s *Store) PutUserSettings(ctx context.Context, userID string, us storage.UserSettings) error {
	err := us.Validate()
	if err == nil {
		err = storage.User(userID).Validate()
	}
	if err == nil {
		err = s.update(ctx, func(tx *bbolt.Tx) error {
			data, err := encode(us)
			if err != nil {
				return err
			}
			return tx.Bucket(bucketUsers).Put([]byte(userID), data)
		})
	}
	if err != nil {
		return fmt.Errorf("storage: save settings of user %s: %w", userID, err)
	}
	return nil
}
