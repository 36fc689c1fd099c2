package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestBoardResultOf reads each way a duel ends as its board's result:
// White is seat 0, a forfeited game is a win by forfeit, an aborted or
// cancelled one unplayed, a game on none yet.
func TestBoardResultOf(t *testing.T) {
	for _, tc := range []struct {
		status Status
		winner int
		want   BoardResult
		ended  bool
	}{
		{StatusFinished, 0, BoardWhite, true},
		{StatusFinished, 1, BoardBlack, true},
		{StatusFinished, Draw, BoardDraw, true},
		{StatusForfeited, 0, BoardWhiteForfeit, true},
		{StatusForfeited, 1, BoardBlackForfeit, true},
		{StatusAborted, 0, BoardUnplayed, true},
		{StatusCancelled, 0, BoardUnplayed, true},
		{StatusActive, 0, BoardPending, false},
	} {
		g := &Game{Status: tc.status}
		if tc.status.Ended() {
			g.Result = &Result{Winner: tc.winner}
		}
		if got, ok := BoardResultOf(g); got != tc.want || ok != tc.ended {
			t.Errorf("a %s game won by %d: %q, %v; want %q, %v", tc.status, tc.winner, got, ok, tc.want, tc.ended)
		}
	}
}

// TestSortTournaments lists those not ended first, oldest first, then at
// most history ended ones, newest first.
func TestSortTournaments(t *testing.T) {
	list := []*Tournament{
		{ID: "1", Status: TournamentFinished}, {ID: "2", Status: TournamentRunning},
		{ID: "3", Status: TournamentCancelled}, {ID: "4", Status: TournamentAnnounced},
		{ID: "5", Status: TournamentFinished},
	}
	ids := func(l []*Tournament) []TournamentID {
		var out []TournamentID
		for _, t := range l {
			out = append(out, t.ID)
		}
		return out
	}
	if got := ids(SortTournaments(slices.Clone(list), 2)); !slices.Equal(got, []TournamentID{"2", "4", "5", "3"}) {
		t.Errorf("with a history of 2: %v", got)
	}
	if got := ids(SortTournaments(slices.Clone(list), 0)); !slices.Equal(got, []TournamentID{"2", "4"}) {
		t.Errorf("without history: %v", got)
	}
}

// largeSwiss returns a running Swiss at the caps: 60 players, its 20
// rounds paired, every board played but the last round's first.
func largeSwiss() *Tournament {
	t := &Tournament{ID: "t1", Version: 1, GuildID: "g1", ChannelID: "c1", Creator: User("alice"), Format: FormatSwiss,
		SwissRounds: maxSwissRounds, Kind: "connect4", MoveTime: time.Minute, MaxPlayers: 60, Status: TournamentRunning}
	for i := range 60 {
		t.Entrants = append(t.Entrants, Entrant{Player: Player{ID: User(fmt.Sprint(i)), Name: fmt.Sprintf("Player %d", i)}, Rating: 1500})
	}
	for r := range maxSwissRounds {
		round := Round{Number: r + 1}
		for b := range 30 {
			round.Boards = append(round.Boards, Board{White: User(fmt.Sprint((b + r) % 60)), Black: User(fmt.Sprint((b + r + 30) % 60)),
				Game: SequenceID(uint64(r*30 + b + 1)), Result: BoardDraw, Plies: 40})
		}
		t.Rounds = append(t.Rounds, round)
	}
	t.Rounds[maxSwissRounds-1].Boards[0].Result = BoardPending
	return t
}

// TestTournamentRules refuses records that break the rules: an entrant
// twice, a board of a non-entrant, a player on two boards, two byes.
func TestTournamentRules(t *testing.T) {
	if err := largeSwiss().Validate(); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]func(*Tournament){
		"an entrant twice":       func(t *Tournament) { t.Entrants[1] = t.Entrants[0] },
		"a board of a stranger":  func(t *Tournament) { t.Rounds[0].Boards[0].White = User("stranger") },
		"a player on two boards": func(t *Tournament) { t.Rounds[0].Boards[1].Black = t.Rounds[0].Boards[0].White },
		"two byes": func(t *Tournament) {
			t.Rounds[0].Boards[0] = Board{White: t.Rounds[0].Boards[0].White, Result: BoardBye}
			t.Rounds[0].Boards[1] = Board{White: t.Rounds[0].Boards[1].White, Result: BoardBye}
		},
		"a round too many": func(t *Tournament) { t.SwissRounds-- },
		"an erased id out of place": func(t *Tournament) {
			t.Entrants[0].Player.ID = PlayerID(string(Anonymous) + ":0")
		},
	} {
		tr := largeSwiss()
		bad(tr)
		if err := tr.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}

// BenchmarkSetResultLargest is the work of recording one result in the
// largest record the caps allow (60 players, 20 rounds), beyond the
// store's own: the change's rules and the record's encoding.
func BenchmarkSetResultLargest(b *testing.B) {
	old := largeSwiss()
	g := &Game{ID: old.Rounds[maxSwissRounds-1].Boards[0].Game, Status: StatusFinished, Result: &Result{Winner: 0}}
	now := time.Now()
	data, err := json.Marshal(old)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rec, ok, err := SetResult(old, g, now)
		if err != nil || !ok {
			b.Fatal(err)
		}
		if _, err := json.Marshal(&rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data)), "record-bytes")
}

// TestANoShowIsWithdrawnByTheirResult: the result of a game its loser
// lost on the move timer without having made a move withdraws them, in
// the same change (a no-show), once; a move made, another way of losing
// or an AI's timeout withdraws nobody. A no-show may join a running Swiss
// or Arena again — a Swiss only while a round is left to pair — and
// nobody else may join after the start.
func TestANoShowIsWithdrawnByTheirResult(t *testing.T) {
	now := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)
	const played = 5 // rounds paired of the Swiss's maxSwissRounds
	swiss := func() *Tournament {
		t := largeSwiss()
		t.Rounds = t.Rounds[:played]
		t.Rounds[played-1].Boards[0].Result = BoardPending
		return t
	}
	board := swiss().Rounds[played-1].Boards[0]
	for _, tc := range []struct {
		name    string
		ai      bool
		status  Status
		outcome Outcome
		winner  int
		plies   int
		noShow  PlayerID
	}{
		{"White's time ran out before the first move", false, StatusForfeited, TimedOut, 1, 0, board.White},
		{"Black's time ran out before their first move", false, StatusForfeited, TimedOut, 0, 1, board.Black},
		{"White's time ran out after a move", false, StatusForfeited, TimedOut, 1, 1, ""},
		{"Black's time ran out after a move", false, StatusForfeited, TimedOut, 0, 2, ""},
		{"White withdrew before the first move", false, StatusForfeited, Resigned, 1, 0, ""},
		{"White resigned before the first move", false, StatusFinished, Resigned, 1, 0, ""},
		{"an AI's time ran out before its first move", true, StatusForfeited, TimedOut, 1, 0, ""},
	} {
		old := swiss()
		if tc.ai {
			old.OpenToAI = true
			ai := AI("minimax")
			old.Entrants[slices.IndexFunc(old.Entrants, func(e Entrant) bool { return e.Player.ID == board.White })].Player.ID = ai
			for i := range old.Rounds {
				for j := range old.Rounds[i].Boards {
					b := &old.Rounds[i].Boards[j]
					if b.White == board.White {
						b.White = ai
					}
					if b.Black == board.White {
						b.Black = ai
					}
				}
			}
		}
		b := old.Rounds[played-1].Boards[0]
		g := &Game{ID: b.Game, Kind: old.Kind, Status: tc.status, Players: []Player{{ID: b.White}, {ID: b.Black}},
			Settings: Settings{Tournament: old.ID}, Result: &Result{Winner: tc.winner, Outcome: tc.outcome}}
		for range tc.plies {
			g.Moves = append(g.Moves, "a1")
		}
		rec, ok, err := SetResult(old, g, now)
		if err != nil || !ok {
			t.Fatalf("%s: %v, %v", tc.name, ok, err)
		}
		for _, e := range rec.Entrants {
			want := e.Player.ID == tc.noShow
			if e.Withdrawn != want || e.NoShow != want || want && e.WithdrawnAfter != played {
				t.Errorf("%s: %s withdrawn %v (no-show %v) after %d", tc.name, e.Player.ID, e.Withdrawn, e.NoShow, e.WithdrawnAfter)
			}
		}
		if again, ok, err := SetResult(&rec, g, now); err != nil || ok || again.Version != rec.Version {
			t.Errorf("%s: recorded twice: %v, %v", tc.name, ok, err)
		}
		if tc.noShow == "" {
			continue
		}
		last := rec
		last.SwissRounds = played // no round left to pair
		if _, err := Join(&last, Entrant{Player: Player{ID: tc.noShow}}, now); !errors.Is(err, ErrStarted) {
			t.Errorf("%s: the no-show joins a Swiss whose last round is paired: %v, want ErrStarted", tc.name, err)
		}
		back, err := Join(&rec, Entrant{Player: Player{ID: tc.noShow}}, now)
		if err != nil {
			t.Fatalf("%s: the no-show joins again: %v", tc.name, err)
		}
		if i := back.entrant(tc.noShow); back.Entrants[i].Withdrawn || back.Entrants[i].NoShow || back.Entrants[i].WithdrawnAfter != 0 {
			t.Errorf("%s: joined again as %+v", tc.name, back.Entrants[i])
		}
		other := board.White
		if tc.noShow == board.White {
			other = board.Black
		}
		if _, err := Join(&back, Entrant{Player: Player{ID: other}}, now); !errors.Is(err, ErrEntered) {
			t.Errorf("%s: a player still in joins the running tournament: %v, want ErrEntered", tc.name, err)
		}
		left, err := Leave(&back, other, now)
		if err == nil {
			_, err = Join(&left, Entrant{Player: Player{ID: other}}, now)
		}
		if !errors.Is(err, ErrStarted) {
			t.Errorf("%s: a player who withdrew joins again: %v, want ErrStarted", tc.name, err)
		}
		rr := rec
		rr.Format, rr.SwissRounds, rr.Cycles = FormatRoundRobin, 0, 1
		if _, err := Join(&rr, Entrant{Player: Player{ID: tc.noShow}}, now); !errors.Is(err, ErrStarted) {
			t.Errorf("%s: a round robin's no-show joins again: %v, want ErrStarted", tc.name, err)
		}
		// A no-show whose data is deleted is gone for good: no return
		// offered, nobody to name in the next pairings.
		gone, ok, err := Erase(&rec, tc.noShow, now)
		if err != nil || !ok {
			t.Fatalf("%s: erase the no-show: %v, %v", tc.name, ok, err)
		}
		if len(gone.NoShowsBefore(played+1)) != 0 {
			t.Errorf("%s: the erased no-show is still a no-show: %+v", tc.name, gone.NoShowsBefore(played+1))
		}
	}
}

// TestALastRoundsNoShowIsNotWithdrawn: a no-show is withdrawn so that
// they are not paired again; when no pairing is left — a Swiss's or a
// round robin's last round, an Arena's game that ended after its time —
// their result is a lost game, not a withdrawal, which the final table
// would mark (greyed out, "withdrew", without a medal's tint) for a
// player who played every round.
func TestALastRoundsNoShowIsNotWithdrawn(t *testing.T) {
	start := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		format Format
		rounds int // paired, the last one's first board ending
		after  time.Duration
		want   bool // withdrawn
	}{
		{FormatSwiss, 2, time.Hour, true},
		{FormatSwiss, 3, time.Hour, false},
		{FormatRoundRobin, 2, time.Hour, true},
		{FormatRoundRobin, 3, time.Hour, false},
		{FormatArena, 3, 20 * time.Minute, true},
		{FormatArena, 3, 40 * time.Minute, false},
	} {
		old := fourPlayers(t, tc.format, tc.rounds, start)
		b := old.Rounds[tc.rounds-1].Boards[0]
		g := &Game{ID: b.Game, Kind: old.Kind, Status: StatusForfeited, Players: []Player{{ID: b.White}, {ID: b.Black}},
			Settings: Settings{Tournament: old.ID}, Result: &Result{Winner: 1, Outcome: TimedOut}} // White made no move
		rec, ok, err := SetResult(old, g, start.Add(tc.after))
		if err != nil || !ok {
			t.Fatalf("%s: %v, %v", tc.format, ok, err)
		}
		if e := rec.Entrants[0]; e.Withdrawn != tc.want || e.NoShow != tc.want {
			t.Errorf("%s, the no-show of round %d (%v after the start): withdrawn %v, no-show %v; want %v",
				tc.format, tc.rounds, tc.after, e.Withdrawn, e.NoShow, tc.want)
		}
	}
}

// fourPlayers is a running tournament of format of four players, 0 to
// 3, started at start (an Arena of 30 minutes, a Swiss of 3 rounds, a
// round robin once), with rounds paired: 0 White on the first board of
// each, whose game of the last round is on.
func fourPlayers(t *testing.T, format Format, rounds int, start time.Time) *Tournament {
	t.Helper()
	tr := &Tournament{ID: "t1", Version: 1, GuildID: "g1", ChannelID: "c1", Creator: User("alice"), Format: format,
		Kind: "connect4", MoveTime: time.Minute, MaxPlayers: 4, Status: TournamentRunning, StartedAt: start}
	switch format {
	case FormatSwiss:
		tr.SwissRounds = 3
	case FormatRoundRobin:
		tr.Cycles = 1 // 3 rounds of 4 players
	case FormatArena:
		tr.Duration = 30 * time.Minute
	}
	p := func(i int) PlayerID { return User(fmt.Sprint(i)) }
	for i := range 4 {
		tr.Entrants = append(tr.Entrants, Entrant{Player: Player{ID: p(i)}, Rating: 1500})
	}
	for r := range rounds {
		tr.Rounds = append(tr.Rounds, Round{Number: r + 1, Boards: []Board{
			{White: p(0), Black: p(1 + r), Game: SequenceID(uint64(2*r + 1)), Result: BoardDraw, Plies: 9},
			{White: p(1 + (r+1)%3), Black: p(1 + (r+2)%3), Game: SequenceID(uint64(2*r + 2)), Result: BoardDraw, Plies: 9},
		}})
	}
	b := &tr.Rounds[rounds-1].Boards[0]
	b.Result, b.Plies = BoardPending, 0
	if err := tr.Validate(); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return tr
}

// TestANoShowJoinsNoArenaWhoseTimeIsUp: a no-show may come back to an
// Arena while it pairs, not once its time is up (the games still on
// keep it running): Join would take them back into no pairing.
func TestANoShowJoinsNoArenaWhoseTimeIsUp(t *testing.T) {
	start := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)
	old := fourPlayers(t, FormatArena, 1, start)
	b := old.Rounds[0].Boards[0]
	g := &Game{ID: b.Game, Kind: old.Kind, Status: StatusForfeited, Players: []Player{{ID: b.White}, {ID: b.Black}},
		Settings: Settings{Tournament: old.ID}, Result: &Result{Winner: 1, Outcome: TimedOut}}
	rec, _, err := SetResult(old, g, start.Add(10*time.Minute))
	if err != nil || !rec.Entrants[0].NoShow {
		t.Fatalf("the no-show: %+v, %v", rec.Entrants[0], err)
	}
	if _, err := Join(&rec, Entrant{Player: Player{ID: b.White}}, start.Add(29*time.Minute)); err != nil {
		t.Errorf("the no-show joins while the Arena pairs: %v", err)
	}
	if _, err := Join(&rec, Entrant{Player: Player{ID: b.White}}, start.Add(31*time.Minute)); !errors.Is(err, ErrStarted) {
		t.Errorf("the no-show joins an Arena whose time is up: %v, want ErrStarted", err)
	}
}
