package aiqueue

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/storage/postgres"
)

// The tournaments' advances are River jobs too: storage/postgres inserts
// a tournament's job (postgres.TournamentArgs) in the transaction of each
// change that makes an advance due — a start time, a start or
// resumption, an Arena's end, a withdrawal, a board's game ending — and a
// Worker given Config.Tournaments runs what is due (the bot's
// AdvanceTournament): a start at its time, a round's pairing and its
// posting, the podium. River hands a job to one worker, retries it when
// it fails and rescues it when its worker dies; the store's transactions
// let one of two runs pair a round, and only that one posts it.

// Advancer runs what is due of a tournament: *bot.Bot.
type Advancer interface {
	AdvanceTournament(ctx context.Context, id storage.TournamentID, at time.Time) error
}

// DefaultTournamentWorkers is Config.TournamentWorkers's default: an
// advance is a few store writes and messages, no search.
const DefaultTournamentWorkers = 2

// tournamentWorker is River's worker of the tournaments' jobs.
type tournamentWorker struct {
	river.WorkerDefaults[postgres.TournamentArgs]
	a Advancer
}

// Work runs what is due of the job's tournament. A job that runs before
// its time by this process's clock (River times it by the database's)
// waits for it, a snooze; a failure is tried again with River's backoff.
func (w *tournamentWorker) Work(ctx context.Context, job *river.Job[postgres.TournamentArgs]) error {
	err := w.a.AdvanceTournament(ctx, job.Args.Tournament, job.Args.At)
	if errors.Is(err, bot.ErrNotDue) {
		return river.JobSnooze(max(time.Until(job.Args.At), 0) + time.Second)
	}
	return err
}
