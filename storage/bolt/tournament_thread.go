package bolt

import (
	"context"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// SetTournamentMessage implements storage.Store.
func (s *Store) SetTournamentMessage(ctx context.Context, id storage.TournamentID, messageID string) (*storage.Tournament, error) {
	t, _, err := s.changeTournament(ctx, id, "record the announcement of", func(_ *bbolt.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
		return storage.SetMessage(old, messageID, s.now())
	})
	return t, err
}

// SetRoundThread implements storage.Store: the round's thread and its
// games' moves into it are one transaction.
func (s *Store) SetRoundThread(ctx context.Context, id storage.TournamentID, round int, thread string) (*storage.Tournament, bool, error) {
	return s.changeTournament(ctx, id, "record a round's thread in", func(tx *bbolt.Tx, old *storage.Tournament) (storage.Tournament, bool, error) {
		now := s.now()
		rec, ok, err := storage.SetThread(old, round, thread, now)
		if err != nil || !ok || thread == "" {
			return rec, ok, err
		}
		for _, gid := range rec.ThreadGames(round) {
			g, err := getGame(tx, gid)
			if err != nil {
				return rec, false, err
			}
			moved, ok, err := storage.IntoThread(g, thread, now)
			if err != nil {
				return rec, false, err
			}
			if ok {
				if err := putGame(tx, g, &moved); err != nil {
					return rec, false, err
				}
			}
		}
		return rec, true, nil
	})
}
