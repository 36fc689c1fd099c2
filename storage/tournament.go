package storage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Tournaments are kept as records of their own, storage.Tournament, not as
// the values of package tournament: the record is what a server's
// tournament is in Discord terms — members and AI strategies by PlayerID,
// the games of each board by GameID, the announcement's guild and channel,
// the caps, the status — with JSON names that are the stores' record
// format, while package tournament's values are the pairing engine's
// working form (players by pairing number, results as TRF codes, no
// Discord), free to change with the engine. The flows translate: an
// entrant's pairing number is their index in Entrants plus one, fixed at
// the start (StartTournament seeds them), and each Board is one Entry on
// each side. The store knows no pairing rule; it keeps the record's
// invariants (Tournament.Validate) and makes every change one transaction,
// so that replicas sharing a store run one tournament without double
// pairings or lost results.

// TournamentID identifies a tournament: short, unique, sorted by creation.
type TournamentID string

// Format is how a tournament pairs its players.
type Format string

// The formats.
const (
	// FormatArena pairs a player again as soon as their game ends, for a
	// fixed Duration; each wave of pairings is a Round.
	FormatArena Format = "arena"
	// FormatSwiss plays SwissRounds rounds paired by the FIDE Dutch
	// system.
	FormatSwiss Format = "swiss"
	// FormatRoundRobin plays everyone against everyone, Cycles times
	// (Berger tables), 3 to 12 players.
	FormatRoundRobin Format = "round_robin"
)

// Valid reports whether f is a known format.
func (f Format) Valid() bool { return f == FormatArena || f == FormatSwiss || f == FormatRoundRobin }

// MinPlayers is the fewest entrants a tournament of format f starts with.
func (f Format) MinPlayers() int {
	if f == FormatRoundRobin {
		return 3
	}
	return 2
}

// TournamentStatus is where a tournament is in its life: announced
// (taking entries) until it starts, running (paired round by round, or
// continuously for an Arena), possibly paused and resumed, and at last
// finished with its standings or cancelled. The last two are final.
type TournamentStatus string

// The tournament statuses.
const (
	TournamentAnnounced TournamentStatus = "announced"
	TournamentRunning   TournamentStatus = "running"
	TournamentPaused    TournamentStatus = "paused"
	TournamentFinished  TournamentStatus = "finished"
	TournamentCancelled TournamentStatus = "cancelled"
)

// Valid reports whether s is a known status.
func (s TournamentStatus) Valid() bool {
	switch s {
	case TournamentAnnounced, TournamentRunning, TournamentPaused, TournamentFinished, TournamentCancelled:
		return true
	}
	return false
}

// Ended reports whether a tournament in status s is over and never
// changes again.
func (s TournamentStatus) Ended() bool { return s == TournamentFinished || s == TournamentCancelled }

// Started reports whether a tournament in status s has started and not
// ended.
func (s TournamentStatus) Started() bool { return s == TournamentRunning || s == TournamentPaused }

// Entrant is one player of a tournament: a member or an AI strategy.
type Entrant struct {
	// Player is who plays, with their display name when they entered.
	Player Player `json:"player"`
	// Rating is their rating in the tournament's game when they entered,
	// which seeds them at the start.
	Rating int `json:"rating,omitempty"`
	// JoinedAt is set by the store.
	JoinedAt time.Time `json:"joined_at"`
	// Withdrawn is set when the player left a started tournament; they
	// are paired no more. WithdrawnAfter is the number of rounds paired
	// when they left.
	Withdrawn      bool `json:"withdrawn,omitempty"`
	WithdrawnAfter int  `json:"withdrawn_after,omitempty"`
	// NoShow is set on a member withdrawn by the result of a game they
	// lost on the move timer without having made a move (Game.NoShow,
	// SetResult, while a pairing is left), not by their own Withdraw. In
	// an Arena or a Swiss a no-show may join again while it takes them
	// back (TakesBack, Join).
	NoShow bool `json:"no_show,omitempty"`
	// Rank and Score are the final standing of a finished tournament
	// (FinishTournament): the place from 1, and the score in the format's
	// unit (half-points in a Swiss or round robin, points in an Arena).
	Rank  int `json:"rank,omitempty"`
	Score int `json:"score,omitempty"`
}

// BoardResult is how one board of a round ended, from the game's record.
type BoardResult string

// The board results. BoardPending is the empty string: the game is on.
const (
	BoardPending BoardResult = ""
	BoardWhite   BoardResult = "white" // White won the game
	BoardBlack   BoardResult = "black" // Black won the game
	BoardDraw    BoardResult = "draw"
	// BoardWhiteForfeit and BoardBlackForfeit: the side named won by
	// forfeit — the other did not show or ran out of time.
	BoardWhiteForfeit BoardResult = "white_forfeit"
	BoardBlackForfeit BoardResult = "black_forfeit"
	// BoardUnplayed: the game was aborted or cancelled; no points for
	// either side.
	BoardUnplayed BoardResult = "unplayed"
	// BoardBye: White sat the round out with the pairing's bye.
	BoardBye BoardResult = "bye"
)

// Valid reports whether r is a known board result.
func (r BoardResult) Valid() bool {
	switch r {
	case BoardPending, BoardWhite, BoardBlack, BoardDraw, BoardWhiteForfeit, BoardBlackForfeit, BoardUnplayed, BoardBye:
		return true
	}
	return false
}

// Board is one pairing of a round: White and Black play Game, White
// moving first (seat 0), or White has the bye (Black empty, no game).
type Board struct {
	White PlayerID `json:"white"`
	Black PlayerID `json:"black,omitempty"`
	// Game is the game of the board, created with the round.
	Game GameID `json:"game,omitempty"`
	// Result is set once, from the ended game (RecordTournamentResult).
	Result BoardResult `json:"result,omitempty"`
	// Plies is the length of the ended game, for Arena scoring.
	Plies int `json:"plies,omitempty"`
}

// IsBye reports whether the board is a bye.
func (b Board) IsBye() bool { return b.Black == "" }

// Round is one round of a Swiss or round robin, or one wave of pairings
// of an Arena.
type Round struct {
	// Number is the round's number, from 1.
	Number int `json:"number"`
	// Boards are the round's pairings.
	Boards []Board `json:"boards"`
	// PairedAt is set by the store.
	PairedAt time.Time `json:"paired_at"`
	// Thread is the channel of the thread its boards are posted in, when
	// the server has a thread per round (SetRoundThread); empty, they are
	// in the tournament's channel.
	Thread string `json:"thread,omitempty"`
	// Unannounced is set when the round is paired and cleared
	// (AnnounceRound) once its pairings are posted: a process that stops
	// between the two leaves it set, and another posts them.
	Unannounced bool `json:"unannounced,omitempty"`
}

// Done reports whether every board of the round has its result.
func (r Round) Done() bool {
	return !slices.ContainsFunc(r.Boards, func(b Board) bool { return b.Result == BoardPending })
}

// Tournament is a server's tournament, from announcement to podium.
type Tournament struct {
	// ID and Version are set by the store: Version is 1 when created and
	// grows by one with every change.
	ID      TournamentID `json:"id"`
	Version uint64       `json:"version"`
	// GuildID and ChannelID are where it was announced.
	GuildID   string `json:"guild_id"`
	ChannelID string `json:"channel_id"`
	// MessageID is the announcement's message, once known
	// (SetTournamentMessage): the bot edits it as the tournament changes.
	MessageID string `json:"message_id,omitempty"`
	// ThreadsRefused is set when Discord refused a thread for a round in
	// ChannelID (SetRoundThread with no thread): the later rounds are
	// posted in the channel without asking again.
	ThreadsRefused bool `json:"threads_refused,omitempty"`
	// Creator is the member who created it.
	Creator PlayerID `json:"creator"`
	// Name is its title, for the announcement and the TRF.
	Name string `json:"name,omitempty"`
	// Format, with SwissRounds for a Swiss (1–20), Cycles for a round
	// robin (1 or 2) and Duration for an Arena (up to a day).
	Format      Format        `json:"format"`
	SwissRounds int           `json:"swiss_rounds,omitempty"`
	Cycles      int           `json:"cycles,omitempty"`
	Duration    time.Duration `json:"duration,omitempty"`
	// Kind and Settings are the game every board plays, with its
	// settings; Settings.Casual makes the tournament's games unrated.
	Kind     Kind     `json:"kind"`
	Settings Settings `json:"settings"`
	// MoveTime is the time each player has for a move.
	MoveTime time.Duration `json:"move_time"`
	// StartAt is the time set for the start; zero when the creator
	// starts it.
	StartAt time.Time `json:"start_at,omitzero"`
	// MaxPlayers caps the entrants (within TournamentCaps.MaxPlayers).
	MaxPlayers int `json:"max_players"`
	// OpenToAI lets AI strategies be entered.
	OpenToAI bool `json:"open_to_ai,omitempty"`
	// Status is where the tournament is.
	Status TournamentStatus `json:"status"`
	// Entrants, in the order they joined until the start, then in their
	// seeding: an entrant's pairing number is their index plus one.
	Entrants []Entrant `json:"entrants,omitempty"`
	// Rounds are the rounds paired so far.
	Rounds []Round `json:"rounds,omitempty"`
	// Timestamps set by the store.
	CreatedAt time.Time `json:"created_at"`
	StartedAt time.Time `json:"started_at,omitzero"`
	EndedAt   time.Time `json:"ended_at,omitzero"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Errors of the tournament operations beside ErrNotFound, ErrConflict,
// ErrGameOver (a finished or cancelled tournament), ErrInvalid and
// ErrLimit; test them with errors.Is.
var (
	// ErrEntered reports a join by a player who is in the tournament
	// already.
	ErrEntered = errors.New("already entered")
	// ErrNotEntered reports a leave by a player who is not in the
	// tournament (or withdrew already).
	ErrNotEntered = errors.New("not entered")
	// ErrStarted reports a join of a tournament that has started.
	ErrStarted = errors.New("tournament has started")
)

// TournamentCaps are a server's caps on tournaments. A zero field is no
// cap. DefaultTournamentCaps are the bot's; docs/server-admins.md says why.
type TournamentCaps struct {
	// MaxOpen caps a server's tournaments not ended (announced, running
	// or paused) at once; CreateTournament counts them in the
	// transaction that stores the new one.
	MaxOpen int
	// MaxPlayers caps the entrants of one tournament: a new tournament's
	// MaxPlayers may not exceed it, and is set to it when zero (a
	// tournament without either is refused, but for a round robin's
	// twelve).
	MaxPlayers int
}

// DefaultTournamentCaps: three tournaments at once a server, sixty
// players a tournament. Sixty is the largest field whose Swiss pairings
// were checked identical to bbpPairings' (tournament's testdata, 5–60
// players), about 13 ms of CPU a round at that size, and thirty boards a
// round are thirty game messages, six seconds of a channel's posting
// rate; three at once let a server announce the next event while two
// run, and bound what one server puts on the shared AI queue at 90
// games.
var DefaultTournamentCaps = TournamentCaps{MaxOpen: 3, MaxPlayers: 60}

// The caps a tournament's *LimitError can name.
const (
	// LimitTournaments is TournamentCaps.MaxOpen.
	LimitTournaments Limit = "tournaments at once"
	// LimitPlayers is a tournament's MaxPlayers.
	LimitPlayers Limit = "players"
)

// TournamentLimitError reports a tournament or an entry refused at a cap.
// It matches ErrLimit with errors.Is.
type TournamentLimitError struct {
	// GuildID is the server, for LimitTournaments; Tournament the
	// tournament, for LimitPlayers.
	GuildID    string
	Tournament TournamentID
	// Limit says which cap, Count how many there are (at least Max).
	Limit Limit
	Count int
	Max   int
}

// Error implements error.
func (e *TournamentLimitError) Error() string {
	if e.Limit == LimitPlayers {
		return fmt.Sprintf("tournament %s has %d %s, the most allowed is %d", e.Tournament, e.Count, e.Limit, e.Max)
	}
	return fmt.Sprintf("guild %s has %d %s, the most allowed is %d", e.GuildID, e.Count, e.Limit, e.Max)
}

// Unwrap lets errors.Is match ErrLimit.
func (e *TournamentLimitError) Unwrap() error { return ErrLimit }

// Placing is one entrant's final standing, given to FinishTournament.
type Placing struct {
	Player PlayerID
	Rank   int
	Score  int
}

// PlayerTournament is one finished tournament of a player, for /stats.
type PlayerTournament struct {
	Tournament TournamentID
	GuildID    string
	Name       string
	Format     Format
	Kind       Kind
	EndedAt    time.Time
	// Players counts the entrants; Rank and Score are the player's.
	Players int
	Rank    int
	Score   int
}

// SkippedTournamentsError reports the tournaments a listing left out
// because their records are corrupt. It matches ErrCorrupt; what the
// listing returns beside it is complete for every other tournament.
type SkippedTournamentsError struct {
	IDs  []TournamentID
	Errs []error
}

// Error implements error.
func (e *SkippedTournamentsError) Error() string {
	if len(e.IDs) == 0 {
		return "skipped no tournament records"
	}
	return fmt.Sprintf("skipped %d corrupt tournament records: tournament %s: %v", len(e.IDs), e.IDs[0], e.Errs[0])
}

// Unwrap lets errors.Is match ErrCorrupt.
func (e *SkippedTournamentsError) Unwrap() error { return ErrCorrupt }

// Skip records tournament id as left out for err.
func (e *SkippedTournamentsError) Skip(id TournamentID, err error) {
	e.IDs = append(e.IDs, id)
	e.Errs = append(e.Errs, err)
}

// Err returns e if it holds a tournament, else nil.
func (e *SkippedTournamentsError) Err() error {
	if len(e.IDs) == 0 {
		return nil
	}
	return e
}

// TournamentStore keeps the servers' tournaments. storage.Store has it.
// Every change is one transaction on the stored record, which the stores
// lock (a row lock on PostgreSQL, the one writer of bbolt) from the read
// to the commit, so that of changes racing from any number of processes
// each sees the one before it.
type TournamentStore interface {
	// CreateTournament stores t, announced, assigning its ID, Version 1
	// and timestamps (and MaxPlayers from caps when zero). In the same
	// transaction it counts the guild's tournaments not ended and fails
	// with a *TournamentLimitError (ErrLimit) at caps.MaxOpen.
	CreateTournament(ctx context.Context, t *Tournament, caps TournamentCaps) error
	// Tournament loads a tournament; ErrNotFound if there is none.
	Tournament(ctx context.Context, id TournamentID) (*Tournament, error)
	// JoinTournament enters e before the start (JoinedAt set by the
	// store): ErrEntered for a player in already, ErrStarted once
	// started, ErrGameOver once ended, ErrInvalid for an AI when the
	// tournament is not open to AIs, and a *TournamentLimitError
	// (ErrLimit, LimitPlayers) when it is full — which holds under any
	// number of joins at once, from any number of processes.
	JoinTournament(ctx context.Context, id TournamentID, e Entrant) (*Tournament, error)
	// LeaveTournament takes p out: before the start the entry is
	// removed; once started p is withdrawn (paired no more, their
	// results kept). ErrNotEntered when p is not in, ErrGameOver once
	// ended.
	LeaveTournament(ctx context.Context, id TournamentID, p PlayerID) (*Tournament, error)
	// SetTournamentStatus starts (announced → running, which seeds the
	// entrants: rating highest first, then the earlier entry; at least
	// Format.MinPlayers of them), pauses (running → paused), resumes
	// (paused → running) or cancels (any status not ended → cancelled).
	// In the same transaction a pause stops the clocks of the games of
	// its boards under way and a resume (or a cancel of a paused one)
	// restarts them with the time each player to move had left
	// (PausesClocks, PauseGame), so that a paused tournament's players
	// neither move nor lose on time, whatever process reads the games.
	// A tournament already in status to fails with ErrConflict — of
	// racing starts, one starts it — an ended one with ErrGameOver, any
	// other change with ErrInvalid.
	SetTournamentStatus(ctx context.Context, id TournamentID, to TournamentStatus) (*Tournament, error)
	// PairRound records round r of a running tournament that the caller
	// paired from the tournament at version, with its games: games holds
	// one new active game for each board that is not a bye, in order,
	// White in seat 0; the store creates them in the same transaction
	// (no member's cap applies) and sets each board's Game. It reports
	// whether this call recorded the round: when the round was recorded
	// already — by another process pairing at the same moment, or before
	// a restart — it records nothing, creates no game and returns the
	// stored tournament with false, so the caller carries on with the
	// winner's pairings. For a round not yet recorded, a stale version
	// fails with ErrConflict (reload and pair again). The round must be
	// the next (its number one more than the rounds recorded); in a Swiss
	// or round robin the one before must be done, and a Swiss has no
	// more than SwissRounds; in an Arena a player is on one board at a
	// time. Boards pair entrants who have not withdrawn, each once;
	// byes (a Swiss's or round robin's, one a round) get BoardBye.
	// ErrInvalid for a tournament not running.
	PairRound(ctx context.Context, id TournamentID, version uint64, r Round, games []*Game) (*Tournament, bool, error)
	// RecordTournamentResult sets the result of the board played in game
	// from the game's stored record, read in the same transaction: a
	// win, a draw, a forfeit (a forfeited game: the no-show or timed-out
	// side loses) or unplayed (an aborted or cancelled game). It reports
	// whether this call set it: a result recorded already changes
	// nothing (false), so a redelivered end of a game is harmless.
	// ErrNotFound when the game is in no tournament, ErrInvalid when it
	// has not ended, ErrGameOver when the tournament was cancelled. It is
	// a transaction of its own after FinishGame's: a process that stops
	// between the two leaves the board on, so a process resuming the
	// tournaments (OpenTournaments) calls it for each of their
	// PendingGames that has ended.
	RecordTournamentResult(ctx context.Context, game GameID) (*Tournament, bool, error)
	// AnnounceRound records that the pairings of round n were posted:
	// it clears the round's Unannounced and reports whether this call
	// did (false when it was clear already). ErrInvalid for a round not
	// paired.
	AnnounceRound(ctx context.Context, id TournamentID, n int) (*Tournament, bool, error)
	// FinishTournament ends a running or paused tournament whose every
	// board has its result with the final standings: a Placing for
	// every entrant (withdrawn ones too), ranks from 1. ErrGameOver once
	// ended, ErrInvalid otherwise.
	FinishTournament(ctx context.Context, id TournamentID, placings []Placing) (*Tournament, error)
	// GuildTournaments lists a server's tournaments: every one not ended,
	// oldest first, then up to history ended ones (finished or
	// cancelled), newest first. A corrupt record is left out and named in
	// a *SkippedTournamentsError returned with the rest.
	GuildTournaments(ctx context.Context, guildID string, history int) ([]*Tournament, error)
	// OpenTournaments lists the tournaments not ended of the guilds in
	// shards (all with the zero Shards), oldest first: the ones a process
	// resumes after a restart. Corrupt records as in GuildTournaments.
	OpenTournaments(ctx context.Context, shards Shards) ([]*Tournament, error)
	// PlayerTournaments lists up to limit finished tournaments p played
	// in (0: all), newest first, with p's rank and score.
	PlayerTournaments(ctx context.Context, p PlayerID, limit int) ([]PlayerTournament, error)
	// SetTournamentMessage records the message of the tournament's
	// announcement (SetMessage), in any status.
	SetTournamentMessage(ctx context.Context, id TournamentID, messageID string) (*Tournament, error)
	// SetRoundThread records where round number round's boards go
	// (SetThread): with a thread, the round's Thread and, in the same
	// transaction, every game of the round still open whose board was not
	// posted yet moves into the thread (its ChannelID), so that whichever
	// process posts a missing board later — a restart's refresh — posts it
	// there; a round with its thread keeps it (false). With no thread,
	// Discord refused one: ThreadsRefused is set. ErrGameOver once ended,
	// ErrInvalid for a round not paired.
	SetRoundThread(ctx context.Context, id TournamentID, round int, thread string) (*Tournament, bool, error)
}

// AnnounceGrace is how long after its pairing a round's pairings are
// the pairing process's to post: a round still Unannounced after it lost
// them to a stop between the pairing and the post, and any advance posts
// them (a PostgreSQL store schedules an advance then, in the pairing's
// transaction).
const AnnounceGrace = 30 * time.Second

// Limits of a tournament record.
const (
	maxSwissRounds     = 20
	maxArena           = 24 * time.Hour
	maxRoundRobin      = 12
	maxTournamentName  = 100
	maxTournamentBoard = 1000 // boards a round, far above any cap
)

// Validate checks the rules every stored tournament obeys, apart from
// the id, version and timestamps the store assigns.
func (t *Tournament) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: tournament %s: %s", ErrInvalid, t.ID, fmt.Sprintf(format, args...))
	}
	if err := ValidateGuildID(t.GuildID); err != nil || len(t.GuildID) > maxIDLen || t.ChannelID == "" || len(t.ChannelID) > maxIDLen {
		return bad("a guild and a channel are needed")
	}
	if _, ok := t.Creator.UserID(); (!ok || t.Creator.Validate() != nil) && t.Creator != Anonymous {
		return bad("creator %q is not a member", t.Creator)
	}
	if len(t.Name) > maxTournamentName {
		return bad("a name of %d bytes", len(t.Name))
	}
	if len(t.MessageID) > maxIDLen {
		return bad("an announcement id of %d bytes", len(t.MessageID))
	}
	if !t.Kind.Valid() {
		return bad("unknown kind %q", t.Kind)
	}
	if !t.Status.Valid() {
		return bad("unknown status %q", t.Status)
	}
	if t.MoveTime <= 0 {
		return bad("no time per move")
	}
	switch t.Format {
	case FormatSwiss:
		if t.SwissRounds < 1 || t.SwissRounds > maxSwissRounds || t.Cycles != 0 || t.Duration != 0 {
			return bad("a Swiss has 1–%d rounds and nothing else", maxSwissRounds)
		}
	case FormatRoundRobin:
		if (t.Cycles != 1 && t.Cycles != 2) || t.SwissRounds != 0 || t.Duration != 0 || t.MaxPlayers > maxRoundRobin {
			return bad("a round robin has 1 or 2 cycles and at most %d players", maxRoundRobin)
		}
	case FormatArena:
		if t.Duration <= 0 || t.Duration > maxArena || t.SwissRounds != 0 || t.Cycles != 0 {
			return bad("an Arena lasts up to %s and has nothing else", maxArena)
		}
	default:
		return bad("unknown format %q", t.Format)
	}
	if t.MaxPlayers < t.Format.MinPlayers() {
		return bad("room for %d players, fewer than the format needs", t.MaxPlayers)
	}
	if len(t.Entrants) > t.MaxPlayers {
		return bad("%d entrants, more than its %d", len(t.Entrants), t.MaxPlayers)
	}
	seen := map[PlayerID]bool{}
	for _, e := range t.Entrants {
		if !erased(e.Player.ID) && (e.Player.ID == Anonymous || e.Player.ID == Anyone || e.Player.ID.Validate() != nil) {
			return bad("entrant %q is no player", e.Player.ID)
		}
		if seen[e.Player.ID] {
			return bad("%s entered twice", e.Player.ID)
		}
		seen[e.Player.ID] = true
		if e.Player.ID.IsAI() && !t.OpenToAI {
			return bad("AI %s entered a tournament closed to AIs", e.Player.ID)
		}
		if e.Withdrawn && t.Status == TournamentAnnounced {
			return bad("%s withdrew before the start", e.Player.ID)
		}
		if e.WithdrawnAfter < 0 || e.WithdrawnAfter > len(t.Rounds) || (!e.Withdrawn && (e.WithdrawnAfter != 0 || e.NoShow)) {
			return bad("%s withdrew after round %d", e.Player.ID, e.WithdrawnAfter)
		}
		if ((e.Rank != 0 || e.Score != 0) && t.Status != TournamentFinished) || e.Rank < 0 || e.Rank > len(t.Entrants) {
			return bad("%s has rank %d outside a finished tournament's standings", e.Player.ID, e.Rank)
		}
		if t.Status == TournamentFinished && e.Rank == 0 {
			return bad("%s has no rank in the finished tournament", e.Player.ID)
		}
	}
	if len(t.Rounds) > 0 && t.Status == TournamentAnnounced {
		return bad("rounds before the start")
	}
	for i, r := range t.Rounds {
		if err := t.validateRound(i, r, seen); err != nil {
			return bad("round %d: %v", i+1, err)
		}
	}
	if t.Status == TournamentFinished && slices.ContainsFunc(t.Rounds, func(r Round) bool { return !r.Done() }) {
		return bad("finished with a game on")
	}
	return nil
}

// validateRound checks round i, r: its number, and its boards' players
// (entrants, each once, a bye only outside an Arena), games and results.
func (t *Tournament) validateRound(i int, r Round, entrants map[PlayerID]bool) error {
	if r.Number != i+1 {
		return fmt.Errorf("numbered %d", r.Number)
	}
	if len(r.Boards) == 0 || len(r.Boards) > maxTournamentBoard {
		return fmt.Errorf("%d boards", len(r.Boards))
	}
	if len(r.Thread) > maxIDLen {
		return fmt.Errorf("a thread id of %d bytes", len(r.Thread))
	}
	if t.Format == FormatSwiss && r.Number > t.SwissRounds {
		return fmt.Errorf("beyond the Swiss's %d rounds", t.SwissRounds)
	}
	if t.Format == FormatRoundRobin && r.Number > t.plannedRounds() {
		return fmt.Errorf("beyond the %d rounds of a round robin of %d players", t.plannedRounds(), len(t.Entrants))
	}
	in := map[PlayerID]bool{}
	byes := 0
	for _, b := range r.Boards {
		for _, p := range []PlayerID{b.White, b.Black} {
			if p == "" && p == b.Black && b.White != "" {
				continue // a bye
			}
			if !entrants[p] {
				return fmt.Errorf("%q is no entrant", p)
			}
			if in[p] {
				return fmt.Errorf("%s on two boards", p)
			}
			in[p] = true
		}
		if !b.Result.Valid() || b.Plies < 0 {
			return fmt.Errorf("board of %s: result %q", b.White, b.Result)
		}
		if b.IsBye() {
			byes++
			if t.Format == FormatArena || b.Game != "" || b.Result != BoardBye || byes > 1 {
				return fmt.Errorf("a bye for %s that is not the round's one bye", b.White)
			}
			continue
		}
		if b.Game == "" || b.Result == BoardBye {
			return fmt.Errorf("board of %s and %s without its game", b.White, b.Black)
		}
	}
	return nil
}

// ErasedEntrant is the player ID that replaces the entrant of pairing
// number n (their index in Entrants plus one) who asked for their data to
// be deleted: unique in the tournament, so that its rounds still say who
// met whom, and no one's.
func ErasedEntrant(n int) PlayerID { return PlayerID(fmt.Sprintf("%s:%d", Anonymous, n)) }

// erased reports whether p is an ErasedEntrant.
func erased(p PlayerID) bool {
	rest, ok := strings.CutPrefix(string(p), string(Anonymous)+":")
	n, err := strconv.Atoi(rest)
	return ok && err == nil && n > 0 && ErasedEntrant(n) == p
}

// Erase returns the record DeleteUser stores for old when member p's data
// is deleted, and whether anything changes: before the start p's entry
// is removed; after it p becomes ErasedEntrant (in the entrants, the
// boards and as the creator), is withdrawn if the tournament is under
// way (for good, a no-show too), and each board of theirs still on — whose game DeleteUser deletes
// — is scored as the opponent's win by forfeit.
func Erase(old *Tournament, p PlayerID, now time.Time) (Tournament, bool, error) {
	i := old.entrant(p)
	if i < 0 && old.Creator != p {
		return Tournament{}, false, nil
	}
	rec := old.clone()
	if rec.Creator == p {
		rec.Creator = Anonymous
	}
	switch {
	case i < 0:
	case old.Status == TournamentAnnounced:
		rec.Entrants = slices.Delete(rec.Entrants, i, i+1)
	default:
		id := ErasedEntrant(i + 1)
		e := &rec.Entrants[i]
		e.Player = Player{ID: id}
		e.NoShow = false // withdrawn for good: no return offered, nobody to name
		if old.Status.Started() && !e.Withdrawn {
			rec.withdraw(i)
		}
		for r := range rec.Rounds {
			for j := range rec.Rounds[r].Boards {
				b := &rec.Rounds[r].Boards[j]
				switch {
				case b.White == p && b.Result == BoardPending:
					b.Result = BoardBlackForfeit
				case b.Black == p && b.Result == BoardPending:
					b.Result = BoardWhiteForfeit
				}
				if b.White == p {
					b.White = id
				}
				if b.Black == p {
					b.Black = id
				}
			}
		}
	}
	rec, err := changed(old, rec, now)
	return rec, err == nil, err
}

// withdraw withdraws entrant i of t, a started tournament, after the
// rounds paired so far: they are paired no more.
func (t *Tournament) withdraw(i int) {
	t.Entrants[i].Withdrawn, t.Entrants[i].WithdrawnAfter = true, len(t.Rounds)
}

// TakesBack reports whether a no-show of t may join again (Join): t is
// under way and is an Arena, or a Swiss with a round left to pair. A
// Swiss whose last round is paired has nothing to bring them back to,
// and a round robin's table has no place for them.
func (t *Tournament) TakesBack() bool {
	return t.Status.Started() && (t.Format == FormatArena || t.Format == FormatSwiss && len(t.Rounds) < t.SwissRounds)
}

// plannedRounds is the number of rounds t plays: a Swiss's SwissRounds,
// a round robin's Berger tables Cycles times; 0 for an Arena.
func (t *Tournament) plannedRounds() int {
	switch t.Format {
	case FormatSwiss:
		return t.SwissRounds
	case FormatRoundRobin:
		n := len(t.Entrants)
		return (n + n%2 - 1) * t.Cycles
	}
	return 0
}

// pairsAgain reports whether t, started, may pair again at now: an
// Arena before its end, a Swiss or a round robin with a round left.
func (t *Tournament) pairsAgain(now time.Time) bool {
	if t.Format == FormatArena {
		return now.Before(t.StartedAt.Add(t.Duration))
	}
	return len(t.Rounds) < t.plannedRounds()
}

// NoShowsBefore returns the entrants withdrawn as no-shows
// (Entrant.NoShow) after round r−1, whom round r is the first to leave
// out: its pairings say so.
func (t *Tournament) NoShowsBefore(r int) []Entrant {
	var out []Entrant
	for _, e := range t.Entrants {
		if e.NoShow && e.WithdrawnAfter == r-1 {
			out = append(out, e)
		}
	}
	return out
}

// entrant returns the index of p in t.Entrants, or -1.
func (t *Tournament) entrant(p PlayerID) int {
	return slices.IndexFunc(t.Entrants, func(e Entrant) bool { return e.Player.ID == p })
}

// Board returns the round number and index of the board whose game is
// id; ok false when none is.
func (t *Tournament) Board(id GameID) (round, board int, ok bool) {
	for i, r := range t.Rounds {
		for j, b := range r.Boards {
			if b.Game == id && id != "" {
				return i + 1, j, true
			}
		}
	}
	return 0, 0, false
}

// Games lists the games of t's boards, round by round.
func (t *Tournament) Games() []GameID {
	var out []GameID
	for _, r := range t.Rounds {
		for _, b := range r.Boards {
			if b.Game != "" {
				out = append(out, b.Game)
			}
		}
	}
	return out
}

// Players lists the entrants and the creator, the members a deletion of
// their data concerns, but for those erased already: the players that
// the stores index t under.
func (t *Tournament) Players() []PlayerID {
	var out []PlayerID
	for _, e := range t.Entrants {
		if !erased(e.Player.ID) {
			out = append(out, e.Player.ID)
		}
	}
	if t.Creator != Anonymous && t.entrant(t.Creator) < 0 {
		out = append(out, t.Creator)
	}
	return out
}

// PendingGames lists the games of t's boards still on.
func (t *Tournament) PendingGames() []GameID {
	var out []GameID
	for _, r := range t.Rounds {
		for _, b := range r.Boards {
			if b.Result == BoardPending && b.Game != "" {
				out = append(out, b.Game)
			}
		}
	}
	return out
}

// PendingGameOf returns the game of p's board still on, ok false when p
// has none.
func (t *Tournament) PendingGameOf(p PlayerID) (GameID, bool) {
	for _, r := range t.Rounds {
		for _, b := range r.Boards {
			if b.Result == BoardPending && b.Game != "" && (b.White == p || b.Black == p) {
				return b.Game, true
			}
		}
	}
	return "", false
}

// Entered reports whether p is an entrant of t who has not withdrawn.
func (t *Tournament) Entered(p PlayerID) bool {
	i := t.entrant(p)
	return i >= 0 && !t.Entrants[i].Withdrawn
}

// Result returns p's finished-tournament summary; ok false when p is not
// an entrant of a finished tournament.
func (t *Tournament) Result(p PlayerID) (PlayerTournament, bool) {
	i := t.entrant(p)
	if i < 0 || t.Status != TournamentFinished {
		return PlayerTournament{}, false
	}
	e := t.Entrants[i]
	return PlayerTournament{
		Tournament: t.ID, GuildID: t.GuildID, Name: t.Name, Format: t.Format, Kind: t.Kind,
		EndedAt: t.EndedAt, Players: len(t.Entrants), Rank: e.Rank, Score: e.Score,
	}, true
}

// CheckStoredTournament checks a tournament record read back from a
// store under key: it holds that tournament, obeys Validate and has a
// version.
func CheckStoredTournament(key string, t *Tournament) error {
	if string(t.ID) != key {
		return fmt.Errorf("record holds tournament %q", t.ID)
	}
	if err := t.Validate(); err != nil {
		return err
	}
	if t.Version == 0 {
		return errors.New("version 0")
	}
	return nil
}

// TournamentSink is a Sink that takes tournaments too, as both stores'
// imports do: a store's Export gives every tournament, as stored, to a
// Sink that is one, after the games, so that Copy carries the servers'
// tournaments with their games.
type TournamentSink interface {
	Sink
	// Tournament receives one tournament.
	Tournament(t *Tournament) error
}

// CheckImportedTournament checks a tournament a copy brings into a
// store as CheckStoredTournament does, and returns the sequence number
// of its ID, which the store's own sequence must pass.
func CheckImportedTournament(t *Tournament) (uint64, error) {
	if err := CheckStoredTournament(string(t.ID), t); err != nil {
		return 0, fmt.Errorf("tournament %s: %w", t.ID, err)
	}
	seq, ok := GameID(t.ID).Sequence()
	if !ok {
		return 0, fmt.Errorf("tournament %s: %w: the id is not a sequence number", t.ID, ErrInvalid)
	}
	return seq, nil
}

// NewTournament returns the record CreateTournament stores for t under
// id at time now, or why t may not be created: it must have no id and no
// entrants or rounds, fit caps and validate. open counts the guild's
// tournaments not ended.
func NewTournament(t *Tournament, id TournamentID, caps TournamentCaps, open int, now time.Time) (Tournament, error) {
	if t.ID != "" || len(t.Entrants) > 0 || len(t.Rounds) > 0 {
		return Tournament{}, fmt.Errorf("%w: a new tournament has no id, entrants or rounds", ErrInvalid)
	}
	if caps.MaxOpen > 0 && open >= caps.MaxOpen {
		return Tournament{}, &TournamentLimitError{GuildID: t.GuildID, Limit: LimitTournaments, Count: open, Max: caps.MaxOpen}
	}
	rec := *t
	if rec.MaxPlayers == 0 {
		rec.MaxPlayers = caps.MaxPlayers
		if rec.Format == FormatRoundRobin && (rec.MaxPlayers == 0 || rec.MaxPlayers > maxRoundRobin) {
			rec.MaxPlayers = maxRoundRobin
		}
	}
	if caps.MaxPlayers > 0 && rec.MaxPlayers > caps.MaxPlayers {
		return Tournament{}, fmt.Errorf("%w: room for %d players, above the cap of %d", ErrInvalid, rec.MaxPlayers, caps.MaxPlayers)
	}
	rec.ID, rec.Version, rec.Status = id, 1, TournamentAnnounced
	rec.CreatedAt, rec.UpdatedAt, rec.StartedAt, rec.EndedAt = now, now, time.Time{}, time.Time{}
	if err := rec.Validate(); err != nil {
		return Tournament{}, err
	}
	return rec, nil
}

// changed returns rec as the next version of old at time now, validated.
func changed(old *Tournament, rec Tournament, now time.Time) (Tournament, error) {
	rec.Version = old.Version + 1
	rec.UpdatedAt = now
	if err := rec.Validate(); err != nil {
		return Tournament{}, err
	}
	return rec, nil
}

// clone copies t deeply enough for a change: entrants, rounds and boards.
func (t *Tournament) clone() Tournament {
	rec := *t
	rec.Entrants = slices.Clone(t.Entrants)
	rec.Rounds = slices.Clone(t.Rounds)
	for i := range rec.Rounds {
		rec.Rounds[i].Boards = slices.Clone(rec.Rounds[i].Boards)
	}
	return rec
}

// Join returns the record JoinTournament stores when e enters old at
// time now, or its error. Once started, only a no-show (Entrant.NoShow)
// may join again, while old takes them back (TakesBack) and, an Arena,
// its time is not up, as on Lichess: they are paired again from the
// next pairing, and the rounds they missed stay absences.
func Join(old *Tournament, e Entrant, now time.Time) (Tournament, error) {
	i := old.entrant(e.Player.ID)
	switch {
	case old.Status.Ended():
		return Tournament{}, fmt.Errorf("%w: it is %s", ErrGameOver, old.Status)
	case old.TakesBack() && old.pairsAgain(now) && i >= 0 && old.Entrants[i].NoShow:
		rec := old.clone()
		rec.Entrants[i].Withdrawn, rec.Entrants[i].WithdrawnAfter, rec.Entrants[i].NoShow = false, 0, false
		return changed(old, rec, now)
	case i >= 0 && !old.Entrants[i].Withdrawn: // before the start or after: they are in
		return Tournament{}, fmt.Errorf("%w: %s", ErrEntered, e.Player.ID)
	case old.Status != TournamentAnnounced:
		return Tournament{}, ErrStarted
	case erased(e.Player.ID):
		return Tournament{}, fmt.Errorf("%w: player id %q", ErrInvalid, e.Player.ID)
	case len(old.Entrants) >= old.MaxPlayers:
		return Tournament{}, &TournamentLimitError{Tournament: old.ID, Limit: LimitPlayers, Count: len(old.Entrants), Max: old.MaxPlayers}
	}
	rec := old.clone()
	rec.Entrants = append(rec.Entrants, Entrant{Player: e.Player, Rating: e.Rating, JoinedAt: now})
	return changed(old, rec, now)
}

// Leave returns the record LeaveTournament stores when p leaves old at
// time now, or its error.
func Leave(old *Tournament, p PlayerID, now time.Time) (Tournament, error) {
	if old.Status.Ended() {
		return Tournament{}, fmt.Errorf("%w: it is %s", ErrGameOver, old.Status)
	}
	i := old.entrant(p)
	if i < 0 || old.Entrants[i].Withdrawn {
		return Tournament{}, fmt.Errorf("%w: %s", ErrNotEntered, p)
	}
	rec := old.clone()
	if old.Status == TournamentAnnounced {
		rec.Entrants = slices.Delete(rec.Entrants, i, i+1)
	} else {
		rec.withdraw(i)
	}
	return changed(old, rec, now)
}

// SetStatus returns the record SetTournamentStatus stores when old goes
// to status to at time now, or its error.
func SetStatus(old *Tournament, to TournamentStatus, now time.Time) (Tournament, error) {
	switch {
	case old.Status.Ended():
		return Tournament{}, fmt.Errorf("%w: it is %s", ErrGameOver, old.Status)
	case old.Status == to:
		return Tournament{}, fmt.Errorf("%w: it is %s already", ErrConflict, to)
	}
	rec := old.clone()
	rec.Status = to
	switch {
	case old.Status == TournamentAnnounced && to == TournamentRunning:
		if len(old.Entrants) < old.Format.MinPlayers() {
			return Tournament{}, fmt.Errorf("%w: %d players, a %s needs %d", ErrInvalid, len(old.Entrants), old.Format, old.Format.MinPlayers())
		}
		slices.SortStableFunc(rec.Entrants, func(a, b Entrant) int {
			return cmp.Or(cmp.Compare(b.Rating, a.Rating), a.JoinedAt.Compare(b.JoinedAt), cmp.Compare(a.Player.ID, b.Player.ID))
		})
		rec.StartedAt = now
	case old.Status == TournamentRunning && to == TournamentPaused,
		old.Status == TournamentPaused && to == TournamentRunning:
	case to == TournamentCancelled:
		rec.EndedAt = now
	default:
		return Tournament{}, fmt.Errorf("%w: a %s tournament cannot become %s", ErrInvalid, old.Status, to)
	}
	return changed(old, rec, now)
}

// PausesClocks reports what a change of a tournament's status from from
// to to does to the clocks of its games under way (PauseGame): a pause
// stops them (pause true), and leaving the pause — a resume, or a cancel
// of the paused tournament, whose games then play on as games of their
// own — restarts them (pause false); ok is false when the clocks stay
// as they are.
func PausesClocks(from, to TournamentStatus) (pause, ok bool) {
	switch {
	case to == TournamentPaused && from != TournamentPaused:
		return true, true
	case from == TournamentPaused && to != TournamentPaused:
		return false, true
	}
	return false, false
}

// AddRound returns the record PairRound stores when round r, paired from
// old at version, is added at time now, whether it is to be stored
// (false: the round is recorded already, and old is the answer), or the
// error. games are the new games of the boards that are not byes, in
// order; the store creates them and then completes the record with their
// ids by SetBoardGames, which validates it.
func AddRound(old *Tournament, version uint64, r Round, games []*Game, now time.Time) (Tournament, bool, error) {
	switch {
	case old.Status.Ended():
		return Tournament{}, false, fmt.Errorf("%w: it is %s", ErrGameOver, old.Status)
	case r.Number >= 1 && r.Number <= len(old.Rounds):
		return *old, false, nil
	case old.Version != version:
		return Tournament{}, false, fmt.Errorf("%w: paired from version %d, stored %d", ErrConflict, version, old.Version)
	case old.Status != TournamentRunning:
		return Tournament{}, false, fmt.Errorf("%w: the tournament is %s", ErrInvalid, old.Status)
	case r.Number != len(old.Rounds)+1:
		return Tournament{}, false, fmt.Errorf("%w: round %d after %d rounds", ErrInvalid, r.Number, len(old.Rounds))
	case old.Format != FormatArena && r.Number > 1 && !old.Rounds[r.Number-2].Done():
		return Tournament{}, false, fmt.Errorf("%w: round %d is not done", ErrInvalid, r.Number-1)
	}
	busy := map[PlayerID]bool{}
	for _, pr := range old.Rounds {
		for _, b := range pr.Boards {
			if b.Result == BoardPending {
				busy[b.White], busy[b.Black] = true, true
			}
		}
	}
	rec := old.clone()
	round := Round{Number: r.Number, Boards: slices.Clone(r.Boards), PairedAt: now, Unannounced: true}
	g := 0
	for i, b := range round.Boards {
		if j := old.entrant(b.White); j < 0 || old.Entrants[j].Withdrawn || busy[b.White] {
			return Tournament{}, false, fmt.Errorf("%w: %s cannot be paired", ErrInvalid, b.White)
		}
		if b.Game != "" || b.Result != BoardPending || b.Plies != 0 {
			return Tournament{}, false, fmt.Errorf("%w: a new board has no game or result", ErrInvalid)
		}
		if b.IsBye() {
			round.Boards[i].Result = BoardBye
			continue
		}
		if j := old.entrant(b.Black); j < 0 || old.Entrants[j].Withdrawn || busy[b.Black] {
			return Tournament{}, false, fmt.Errorf("%w: %s cannot be paired", ErrInvalid, b.Black)
		}
		if g >= len(games) {
			return Tournament{}, false, fmt.Errorf("%w: %d games for more boards", ErrInvalid, len(games))
		}
		if err := old.checkBoardGame(b, games[g]); err != nil {
			return Tournament{}, false, err
		}
		g++
	}
	if g != len(games) {
		return Tournament{}, false, fmt.Errorf("%w: %d games for %d boards", ErrInvalid, len(games), g)
	}
	rec.Rounds = append(rec.Rounds, round)
	rec.Version, rec.UpdatedAt = old.Version+1, now
	return rec, true, nil
}

// checkBoardGame checks that g, a new game, is board b's: the
// tournament's kind and guild, active, White in seat 0.
func (t *Tournament) checkBoardGame(b Board, g *Game) error {
	if g == nil || len(g.Players) != 2 || g.Players[0].ID != b.White || g.Players[1].ID != b.Black ||
		g.Kind != t.Kind || g.GuildID != t.GuildID || g.Status != StatusActive {
		return fmt.Errorf("%w: the game of %s and %s is not an active %s of the guild with White in seat 0", ErrInvalid, b.White, b.Black, t.Kind)
	}
	return CheckNew(g)
}

// SetBoardGames completes rec, a record AddRound returned, with the ids
// the store gave the round's games (in the order of its boards that are
// not byes) and validates it.
func SetBoardGames(rec *Tournament, ids []GameID) error {
	r := &rec.Rounds[len(rec.Rounds)-1]
	k := 0
	for i := range r.Boards {
		if !r.Boards[i].IsBye() && k < len(ids) {
			r.Boards[i].Game = ids[k]
			k++
		}
	}
	return rec.Validate()
}

// BoardResultOf returns the result of a board whose game g has ended, ok
// false when it has not. White is seat 0.
func BoardResultOf(g *Game) (BoardResult, bool) {
	switch {
	case g.Status == StatusAborted || g.Status == StatusCancelled:
		return BoardUnplayed, true
	case g.Result == nil || !g.Status.Ended():
		return BoardPending, false
	case g.Result.Winner == Draw:
		return BoardDraw, true
	case g.Status == StatusForfeited:
		return map[int]BoardResult{0: BoardWhiteForfeit, 1: BoardBlackForfeit}[g.Result.Winner], true
	}
	return map[int]BoardResult{0: BoardWhite, 1: BoardBlack}[g.Result.Winner], true
}

// SetResult returns the record RecordTournamentResult stores when game g
// of old has ended, whether it is to be stored (false: the board has its
// result already), or the error. A no-show (Game.NoShow) is withdrawn in
// the same change, as Lichess does: a member who never moves is not
// paired again to hold up opponent after opponent for a whole time per
// move. With no pairing left (a last round, an Arena's game that ended
// after its time) the lost game is all: a withdrawal would only mark a
// player who played every round as one who left. The result is set
// once, so the withdrawal happens once.
func SetResult(old *Tournament, g *Game, now time.Time) (Tournament, bool, error) {
	round, board, ok := old.Board(g.ID)
	if !ok {
		return Tournament{}, false, fmt.Errorf("%w: game %s in tournament %s", ErrNotFound, g.ID, old.ID)
	}
	if old.Rounds[round-1].Boards[board].Result != BoardPending {
		return *old, false, nil
	}
	if old.Status.Ended() {
		return Tournament{}, false, fmt.Errorf("%w: it is %s", ErrGameOver, old.Status)
	}
	res, ok := BoardResultOf(g)
	if !ok {
		return Tournament{}, false, fmt.Errorf("%w: game %s is %s", ErrInvalid, g.ID, g.Status)
	}
	rec := old.clone()
	b := &rec.Rounds[round-1].Boards[board]
	b.Result, b.Plies = res, len(g.Moves)
	if seat, ok := g.NoShow(); ok && rec.Status.Started() && rec.pairsAgain(now) {
		if i := rec.entrant(g.Players[seat].ID); i >= 0 && !rec.Entrants[i].Withdrawn {
			rec.withdraw(i)
			rec.Entrants[i].NoShow = true
		}
	}
	rec, err := changed(old, rec, now)
	return rec, err == nil, err
}

// Announce returns the record AnnounceRound stores when the pairings of
// round n of old were posted at time now, whether it is to be stored
// (false: they were recorded as posted already), or the error.
func Announce(old *Tournament, n int, now time.Time) (Tournament, bool, error) {
	if n < 1 || n > len(old.Rounds) {
		return Tournament{}, false, fmt.Errorf("%w: round %d of %d", ErrInvalid, n, len(old.Rounds))
	}
	if !old.Rounds[n-1].Unannounced {
		return *old, false, nil
	}
	rec := old.clone()
	rec.Rounds[n-1].Unannounced = false
	rec, err := changed(old, rec, now)
	return rec, err == nil, err
}

// Finish returns the record FinishTournament stores when old ends with
// placings at time now, or its error.
func Finish(old *Tournament, placings []Placing, now time.Time) (Tournament, error) {
	switch {
	case old.Status.Ended():
		return Tournament{}, fmt.Errorf("%w: it is %s", ErrGameOver, old.Status)
	case !old.Status.Started():
		return Tournament{}, fmt.Errorf("%w: the tournament is %s", ErrInvalid, old.Status)
	case slices.ContainsFunc(old.Rounds, func(r Round) bool { return !r.Done() }):
		return Tournament{}, fmt.Errorf("%w: a game is on", ErrInvalid)
	case len(placings) != len(old.Entrants):
		return Tournament{}, fmt.Errorf("%w: %d placings for %d entrants", ErrInvalid, len(placings), len(old.Entrants))
	}
	rec := old.clone()
	placed := map[PlayerID]bool{}
	for _, p := range placings {
		i := old.entrant(p.Player)
		if i < 0 || placed[p.Player] || p.Rank < 1 {
			return Tournament{}, fmt.Errorf("%w: placing of %s at %d", ErrInvalid, p.Player, p.Rank)
		}
		placed[p.Player] = true
		rec.Entrants[i].Rank, rec.Entrants[i].Score = p.Rank, p.Score
	}
	rec.Status, rec.EndedAt = TournamentFinished, now
	return changed(old, rec, now)
}

// SortTournaments sorts as GuildTournaments lists: those not ended
// first, oldest first, then the ended ones newest first, at most history
// of them.
func SortTournaments(list []*Tournament, history int) []*Tournament {
	slices.SortFunc(list, func(a, b *Tournament) int {
		if ae, be := a.Status.Ended(), b.Status.Ended(); ae != be {
			if ae {
				return 1
			}
			return -1
		} else if ae {
			return cmp.Compare(b.ID, a.ID)
		}
		return cmp.Compare(a.ID, b.ID)
	})
	open := slices.IndexFunc(list, func(t *Tournament) bool { return t.Status.Ended() })
	if open >= 0 && len(list)-open > history {
		list = list[:open+max(history, 0)]
	}
	return list
}
