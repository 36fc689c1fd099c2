package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/storetest"
)

// TestRacingTournamentAcrossProcesses races one tournament's joins,
// starts, first pairing and a result through two Store values on one
// database, each with its own pool, as two replicas of the bot would.
func TestRacingTournamentAcrossProcesses(t *testing.T) {
	t.Parallel()
	a, url := openTest(t, time.Now)
	defer a.Close()
	b, err := Open(context.Background(), url, &Options{MaxConns: 4, AIRatings: storetest.AIRatings})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	storetest.RaceTournament(t, a, b)
	if problems, err := a.Check(context.Background()); err != nil || len(problems) > 0 {
		t.Errorf("Check after the races: %v %q", err, problems)
	}
}

// TestCorruptTournamentIsSkipped runs storetest's test of a corrupt
// tournament record on PostgreSQL.
func TestCorruptTournamentIsSkipped(t *testing.T) {
	t.Parallel()
	storetest.CorruptTournamentIsSkipped(t, func(t testing.TB, now func() time.Time) (storage.Admin, func() storage.Admin) {
		s, _ := openTest(t, now)
		return s, nil
	}, rewriteTournament)
}

// rewriteTournament replaces the record of tournament id with record.
func rewriteTournament(t testing.TB, s storage.Admin, id storage.TournamentID, record []byte) (restore func()) {
	pool := s.(*Store).pool
	ctx := context.Background()
	var old []byte
	if err := pool.QueryRow(ctx, "SELECT record FROM tournaments WHERE id = $1", id).Scan(&old); err != nil {
		t.Fatal(err)
	}
	set := func(data []byte) {
		if _, err := pool.Exec(ctx, "UPDATE tournaments SET record = $2 WHERE id = $1", id, data); err != nil {
			t.Fatal(err)
		}
	}
	set(record)
	return func() { set(old) }
}
