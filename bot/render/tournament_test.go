package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies"
)

// bigTournament is a running Swiss of sixty players, the cap, with the
// longest names Discord allows, in its first round.
func bigTournament() *storage.Tournament {
	t := &storage.Tournament{
		ID: "000ab", GuildID: "1", ChannelID: "2", Creator: storage.User("1"), Name: strings.Repeat("N", 100),
		Format: storage.FormatSwiss, SwissRounds: 20, Kind: "connect4", MoveTime: 2 * time.Minute, MaxPlayers: 60,
		OpenToAI: true, Status: storage.TournamentRunning,
	}
	r := storage.Round{Number: 1}
	for i := range 60 {
		p := storage.Player{ID: storage.User(fmt.Sprint(100000000000000000 + i)), Name: strings.Repeat("x", 32)}
		t.Entrants = append(t.Entrants, storage.Entrant{Player: p, Withdrawn: i%7 == 0})
		if i%2 == 1 {
			r.Boards = append(r.Boards, storage.Board{White: t.Entrants[i-1].Player.ID, Black: p.ID})
		}
	}
	t.Rounds = []storage.Round{r}
	return t
}

func TestTournamentMessagesKeepDiscordsLimitsAtTheCap(t *testing.T) {
	tr := bigTournament()
	var rows []TournamentRow
	for i, e := range tr.Entrants {
		rows = append(rows, TournamentRow{Rank: i + 1, Player: e.Player, Score: 39 - i%40, Buchholz: 401, SonnebornBerger: 1203, Won: 19, Drawn: 1, Withdrawn: e.Withdrawn})
	}
	for _, loc := range []string{i18n.English, i18n.Indonesian} {
		l := i18n.For(loc)
		announced := *tr
		announced.Status, announced.Rounds = storage.TournamentAnnounced, nil
		for i, m := range []Message{
			TournamentAnnouncement(l, &announced, strategies.ForGame("connect4")),
			TournamentAnnouncement(l, tr, nil),
			TournamentPairings(l, tr, tr.Rounds[0], nil, rows),
			TournamentStandings(l, tr, 1, rows),
			TournamentPodium(l, tr, rows),
			TournamentList(l, []*storage.Tournament{tr, &announced}),
		} {
			checkDiscord(t, m)
			if pictured := len(m.Files) == 1 && m.Embeds[0].Image != nil && m.Embeds[0].Image.URL == "attachment://"+m.Files[0].Name; pictured != (i >= 2 && i <= 4) {
				t.Errorf("%s: message %d has the table's picture: %v (files %d)", loc, i, pictured, len(m.Files))
			}
			if len(m.AllowedMentions.Users) > 0 || len(m.AllowedMentions.Parse) > 0 {
				t.Errorf("%s: a tournament's message pings %v", loc, m.AllowedMentions)
			}
		}
	}
}

func TestTournamentAnnouncementsButtonsFollowItsStatus(t *testing.T) {
	tr := bigTournament()
	tr.Status, tr.Rounds = storage.TournamentAnnounced, nil
	for i := range tr.Entrants {
		tr.Entrants[i].Withdrawn = false
	}
	l := i18n.Default
	id := string(tr.ID)
	for _, tc := range []struct {
		status storage.TournamentStatus
		want   []string
	}{
		{storage.TournamentAnnounced, []string{customid.TournamentJoin.Build(id), customid.TournamentLeave.Build(id), customid.TournamentStart.Build(id), customid.TournamentCancel.Build(id), customid.TournamentAI.Build(id)}},
		{storage.TournamentRunning, []string{customid.TournamentLeave.Build(id), customid.TournamentCancel.Build(id)}},
		{storage.TournamentPaused, []string{customid.TournamentLeave.Build(id), customid.TournamentCancel.Build(id)}},
		{storage.TournamentFinished, nil},
		{storage.TournamentCancelled, nil},
	} {
		tr.Status = tc.status
		m := TournamentAnnouncement(l, tr, strategies.ForGame("connect4"))
		var got []string
		buttons, selects, _ := flatten(t, m)
		for _, b := range buttons {
			got = append(got, b.CustomID)
		}
		for _, s := range selects {
			got = append(got, s.CustomID)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: components %v, want %v", tc.status, got, tc.want)
		}
	}
}

func TestTournamentScoresReadAsPeopleWriteThem(t *testing.T) {
	for n, want := range map[int]string{0: "0", 1: "½", 2: "1", 7: "3½", 40: "20"} {
		if got := TournamentScore(storage.FormatSwiss, n); got != want {
			t.Errorf("%d half-points read %q, want %q", n, got, want)
		}
	}
	if got := TournamentScore(storage.FormatArena, 7); got != "7" {
		t.Errorf("7 Arena points read %q", got)
	}
	for n, want := range map[int]string{0: "0", 1: "¼", 2: "½", 3: "¾", 13: "3¼"} {
		if got := quarters(n); got != want {
			t.Errorf("%d quarter-points read %q, want %q", n, got, want)
		}
	}
}

// TestATournamentBoardEndsWithoutARematch: an ended game of a tournament's
// board offers Review but no Rematch — the tournament pairs its players'
// next game — while the same game outside a tournament offers both.
func TestATournamentBoardEndsWithoutARematch(t *testing.T) {
	g := &storage.Game{ID: "0000000b", Kind: "tictactoe", Status: storage.StatusFinished, Moves: []string{"b2"},
		Players:  []storage.Player{{ID: storage.User("1"), Name: "ann"}, {ID: storage.User("2"), Name: "bob"}},
		Result:   &storage.Result{Winner: 0},
		Settings: storage.Settings{Tournament: "t1"},
	}
	rematch := customid.Rematch.Build(string(g.ID))
	m := Game(View{Game: g, Lang: i18n.Default})
	if _, ok := buttonByID(t, m, rematch); ok {
		t.Error("a tournament's ended board offers a rematch")
	}
	if _, ok := buttonByID(t, m, customid.Review.Build(string(g.ID))); !ok {
		t.Error("a tournament's ended board has no Review")
	}
	g.Settings.Tournament = ""
	if _, ok := buttonByID(t, Game(View{Game: g, Lang: i18n.Default}), rematch); !ok {
		t.Error("the same game outside a tournament offers no rematch")
	}
}

// TestRoundRobinPairingsNameTheForfeits: a round robin's games against
// players who withdrew are won by forfeit, and the round's pairings say
// so beside its boards; a round of forfeits alone, paired as a bye for
// the store, says it has no game and names no bye.
func TestRoundRobinPairingsNameTheForfeits(t *testing.T) {
	player := func(n string) storage.Player { return storage.Player{ID: storage.User(n), Name: n} }
	tr := &storage.Tournament{ID: "T1", Name: "Friday", Format: storage.FormatRoundRobin, Cycles: 1, Kind: "tictactoe", Status: storage.TournamentRunning}
	for _, n := range []string{"ann", "bob", "cy", "dee", "eve", "fay", "gil"} {
		tr.Entrants = append(tr.Entrants, storage.Entrant{Player: player(n)})
	}
	l := i18n.For(i18n.English)
	for _, tc := range []struct {
		name     string
		boards   []storage.Board
		forfeits []storage.Board
		want     []string
		not      []string
	}{{
		name:     "a game and forfeits",
		boards:   []storage.Board{{White: "user:ann", Black: "user:bob", Game: "g1"}, {White: "user:fay"}},
		forfeits: []storage.Board{{White: "user:cy", Black: "user:dee", Result: storage.BoardWhiteForfeit}, {White: "user:eve", Black: "user:gil", Result: storage.BoardBlackForfeit}},
		want:     []string{"**Round 2**: each board follows", "<@ann> (moves first) vs <@bob>", "<@cy> wins by forfeit: <@dee> withdrew.", "<@gil> wins by forfeit: <@eve> withdrew.", "<@fay> sits this round out"},
	}, {
		name:     "forfeits alone",
		boards:   []storage.Board{{White: "user:bob"}},
		forfeits: []storage.Board{{White: "user:bob", Black: "user:dee", Result: storage.BoardWhiteForfeit}},
		want:     []string{"**Round 2**: no game to play this round.", "<@bob> wins by forfeit: <@dee> withdrew."},
		not:      []string{"sits this round out", "each board follows"},
	}} {
		m := TournamentPairings(l, tr, storage.Round{Number: 2, Boards: tc.boards}, tc.forfeits, nil)
		checkDiscord(t, m)
		text := m.Embeds[0].Description
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the pairings %q do not say %q", tc.name, text, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(text, n) {
				t.Errorf("%s: the pairings %q say %q", tc.name, text, n)
			}
		}
	}
}

// TestASwissCountsItsRoundsInTheWordOfItsRounds: a Swiss's rounds are
// "babak" in Indonesian, as its option (/turnamen buat babak:), its
// pairings ("Babak 2") and its standings say — not "ronde", the rounds
// of an Adjacency game, which a Swiss of Adjacency also shows.
func TestASwissCountsItsRoundsInTheWordOfItsRounds(t *testing.T) {
	tr := &storage.Tournament{ID: "000ab", GuildID: "1", ChannelID: "2", Creator: storage.User("1"),
		Format: storage.FormatSwiss, SwissRounds: 5, Kind: "adjacency", MoveTime: 2 * time.Minute, MaxPlayers: 60,
		Status: storage.TournamentAnnounced}
	for loc, want := range map[string]string{i18n.English: "Swiss, 5 rounds", i18n.Indonesian: "Swiss, 5 babak"} {
		l := i18n.For(loc)
		if got := TournamentAnnouncement(l, tr, nil).Embeds[0].Description; !strings.Contains(got, want) {
			t.Errorf("%s: the announcement says %q, want %q", loc, got, want)
		}
		if got := TournamentTitle(l, tr); !strings.Contains(got, want) {
			t.Errorf("%s: the title is %q, want %q in it", loc, got, want)
		}
	}
}

// TestARoundRobinsFreeRoundIsNoBye: the player a round robin's table
// leaves out of a round scores nothing, unlike a Swiss's bye, which is
// worth a win; the pairings must not announce it as "the bye", which
// players of Swiss events read as a point.
func TestARoundRobinsFreeRoundIsNoBye(t *testing.T) {
	player := func(n string) storage.Player { return storage.Player{ID: storage.User(n), Name: n} }
	for _, tc := range []struct {
		format   storage.Format
		loc      string
		want, no string
	}{
		{storage.FormatRoundRobin, i18n.English, "<@cy> sits this round out: no game, no points.", "bye"},
		{storage.FormatRoundRobin, i18n.Indonesian, "<@cy> tidak bermain di babak ini: tanpa permainan, tanpa nilai.", "bye"},
		{storage.FormatSwiss, i18n.English, "<@cy> has the bye.", "sits this round out"},
		{storage.FormatSwiss, i18n.Indonesian, "<@cy> mendapat bye.", "tidak bermain"},
	} {
		tr := &storage.Tournament{ID: "T1", Name: "Friday", Format: tc.format, Kind: "tictactoe", Status: storage.TournamentRunning}
		for _, n := range []string{"ann", "bob", "cy"} {
			tr.Entrants = append(tr.Entrants, storage.Entrant{Player: player(n)})
		}
		r := storage.Round{Number: 1, Boards: []storage.Board{{White: "user:ann", Black: "user:bob", Game: "g1"}, {White: "user:cy", Result: storage.BoardBye}}}
		text := TournamentPairings(i18n.For(tc.loc), tr, r, nil, nil).Embeds[0].Description
		if !strings.Contains(text, tc.want) || strings.Contains(text, tc.no) {
			t.Errorf("%s in %s: the pairings say %q, want %q and no %q", tc.format, tc.loc, text, tc.want, tc.no)
		}
	}
}

// TestUntitledTournamentsReadNaturally: a tournament without a name is
// called by its game and format, once: /tournament list does not repeat
// them after that title (a named one's line has them after its name),
// and /stats calls it by game and format too, not by its game alone.
func TestUntitledTournamentsReadNaturally(t *testing.T) {
	l := i18n.Default
	untitled := &storage.Tournament{ID: "00001", Format: storage.FormatSwiss, SwissRounds: 3, Kind: "tictactoe", Status: storage.TournamentRunning}
	named := *untitled
	named.ID, named.Name = "00002", "Friday Cup"
	lines := strings.Split(TournamentList(l, []*storage.Tournament{untitled, &named}).Embeds[0].Description, "\n")
	if len(lines) != 2 {
		t.Fatalf("the list: %q", lines)
	}
	if n := strings.Count(lines[0], "Tic-Tac-Toe"); n != 1 || strings.Count(lines[0], "Swiss, 3 rounds") != 1 {
		t.Errorf("the untitled tournament's line names its game and format more than once: %q", lines[0])
	}
	if !strings.Contains(lines[1], "**Friday Cup** · Tic-Tac-Toe · Swiss, 3 rounds") {
		t.Errorf("the named tournament's line: %q", lines[1])
	}
	for _, tc := range []struct {
		loc    string
		format storage.Format
		want   string
	}{
		{i18n.English, storage.FormatArena, "Tic-Tac-Toe Arena"},
		{i18n.English, storage.FormatRoundRobin, "Tic-Tac-Toe Round robin"},
		{i18n.Indonesian, storage.FormatSwiss, "Swiss"},
		{i18n.Indonesian, storage.FormatRoundRobin, "Kompetisi"},
	} {
		got := playerTournamentLines(i18n.For(tc.loc), []storage.PlayerTournament{{Format: tc.format, Kind: "tictactoe", Players: 4, Rank: 1, Score: 8}})
		if len(got) != 1 || !strings.Contains(got[0], tc.want) {
			t.Errorf("%s: /stats names an untitled %s %q, want it to say %q", tc.loc, tc.format, got, tc.want)
		}
	}
}

// TestANoShowsBoardSaysSo: the board of a tournament's game lost on the
// move timer without a move says that its loser is paired no more;
// another game's, or one lost on time after a move, does not.
func TestANoShowsBoardSaysSo(t *testing.T) {
	for _, tc := range []struct {
		name       string
		tournament storage.TournamentID
		moves      []string
		want       bool
	}{
		{"a tournament's game, no move", "00001", nil, true},
		{"a tournament's game, a move", "00001", []string{"a1"}, false},
		{"a game of no tournament, no move", "", nil, false},
	} {
		g := &storage.Game{Kind: "tictactoe", Status: storage.StatusForfeited, Moves: tc.moves,
			Players:  []storage.Player{{ID: storage.User("1"), Name: "alice"}, {ID: storage.User("2"), Name: "bob"}},
			Settings: storage.Settings{Tournament: tc.tournament}, Result: &storage.Result{Winner: 1, Outcome: storage.TimedOut}}
		for _, loc := range []string{i18n.English, i18n.Indonesian} {
			l := i18n.For(loc)
			line := resultLine(l, g)
			if says := strings.Contains(line, l.T("tournament.no_show_board", "Player", "<@1>")); says != tc.want {
				t.Errorf("%s, %s: %q says the no-show is paired no more: %v, want %v", tc.name, loc, line, says, tc.want)
			}
		}
	}
}
