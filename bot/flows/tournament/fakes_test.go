package tournament_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/bot/flows/tournament"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/bot/play"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/games"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over a fake store that keeps the
// records in memory and changes them with storage's own rules (Join,
// AddRound, SetResult…, which both real stores apply in a transaction),
// and fake boards that record what the flow posts. The wire is tested in
// package bot against the stand-in (TestTournamentSwissToThePodium).

// fakeStore keeps tournaments and games in memory.
type fakeStore struct {
	mu          sync.Mutex
	now         func() time.Time
	tournaments map[storage.TournamentID]*storage.Tournament
	games       map[storage.GameID]*storage.Game
	seq         int
	settings    storage.GuildSettings // every guild's (thread_test.go)
	// beforeLeave, if set, runs once at the next LeaveTournament, before
	// it reads the record: another process's change meanwhile.
	beforeLeave func()
}

func newStore(now func() time.Time) *fakeStore {
	return &fakeStore{now: now, tournaments: map[storage.TournamentID]*storage.Tournament{}, games: map[storage.GameID]*storage.Game{}}
}

func (s *fakeStore) next() string {
	s.seq++
	return fmt.Sprintf("%05d", s.seq)
}

func (s *fakeStore) CreateTournament(_ context.Context, t *storage.Tournament, caps storage.TournamentCaps) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	open := 0
	for _, o := range s.tournaments {
		if o.GuildID == t.GuildID && !o.Status.Ended() {
			open++
		}
	}
	rec, err := storage.NewTournament(t, storage.TournamentID(s.next()), caps, open, s.now())
	if err != nil {
		return err
	}
	s.tournaments[rec.ID] = &rec
	*t = rec
	return nil
}

func (s *fakeStore) Tournament(_ context.Context, id storage.TournamentID) (*storage.Tournament, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tournaments[id]
	if !ok {
		return nil, storage.ErrNotFound
	}
	cp := *t
	return &cp, nil
}

// change applies one of storage's rules to tournament id, as a store's
// transaction does.
func (s *fakeStore) change(id storage.TournamentID, f func(old *storage.Tournament) (storage.Tournament, error)) (*storage.Tournament, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.tournaments[id]
	if !ok {
		return nil, storage.ErrNotFound
	}
	rec, err := f(old)
	if err != nil {
		return nil, err
	}
	s.tournaments[id] = &rec
	cp := rec
	return &cp, nil
}

func (s *fakeStore) JoinTournament(_ context.Context, id storage.TournamentID, e storage.Entrant) (*storage.Tournament, error) {
	return s.change(id, func(old *storage.Tournament) (storage.Tournament, error) { return storage.Join(old, e, s.now()) })
}

func (s *fakeStore) LeaveTournament(_ context.Context, id storage.TournamentID, p storage.PlayerID) (*storage.Tournament, error) {
	if f := s.beforeLeave; f != nil {
		s.beforeLeave = nil
		f()
	}
	return s.change(id, func(old *storage.Tournament) (storage.Tournament, error) { return storage.Leave(old, p, s.now()) })
}

func (s *fakeStore) SetTournamentStatus(_ context.Context, id storage.TournamentID, to storage.TournamentStatus) (*storage.Tournament, error) {
	return s.change(id, func(old *storage.Tournament) (storage.Tournament, error) { return storage.SetStatus(old, to, s.now()) })
}

func (s *fakeStore) PairRound(_ context.Context, id storage.TournamentID, version uint64, r storage.Round, games []*storage.Game) (*storage.Tournament, bool, error) {
	stored := false
	t, err := s.change(id, func(old *storage.Tournament) (storage.Tournament, error) {
		rec, add, err := storage.AddRound(old, version, r, games, s.now())
		if err != nil || !add {
			return rec, err
		}
		var ids []storage.GameID
		for _, g := range games {
			ng := storage.NewRecord(g, storage.GameID(s.next()), s.now())
			s.games[ng.ID] = &ng
			ids = append(ids, ng.ID)
		}
		stored = true
		return rec, storage.SetBoardGames(&rec, ids)
	})
	return t, stored, err
}

func (s *fakeStore) RecordTournamentResult(_ context.Context, game storage.GameID) (*storage.Tournament, bool, error) {
	s.mu.Lock()
	g, ok := s.games[game]
	s.mu.Unlock()
	if !ok || g.Settings.Tournament == "" {
		return nil, false, storage.ErrNotFound
	}
	set := false
	t, err := s.change(g.Settings.Tournament, func(old *storage.Tournament) (storage.Tournament, error) {
		rec, ok, err := storage.SetResult(old, g, s.now())
		set = ok
		return rec, err
	})
	return t, set, err
}

func (s *fakeStore) FinishTournament(_ context.Context, id storage.TournamentID, placings []storage.Placing) (*storage.Tournament, error) {
	return s.change(id, func(old *storage.Tournament) (storage.Tournament, error) {
		return storage.Finish(old, placings, s.now())
	})
}

func (s *fakeStore) list(keep func(*storage.Tournament) bool) []*storage.Tournament {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*storage.Tournament
	for _, t := range s.tournaments {
		if keep(t) {
			cp := *t
			out = append(out, &cp)
		}
	}
	return out
}

func (s *fakeStore) GuildTournaments(_ context.Context, guildID string, history int) ([]*storage.Tournament, error) {
	return storage.SortTournaments(s.list(func(t *storage.Tournament) bool { return t.GuildID == guildID }), history), nil
}

func (s *fakeStore) OpenTournaments(context.Context, storage.Shards) ([]*storage.Tournament, error) {
	list := s.list(func(t *storage.Tournament) bool { return !t.Status.Ended() })
	slices.SortFunc(list, func(a, b *storage.Tournament) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return list, nil
}

func (s *fakeStore) Game(_ context.Context, id storage.GameID) (*storage.Game, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok {
		return nil, storage.ErrNotFound
	}
	cp := *g
	return &cp, nil
}

func (s *fakeStore) Rank(context.Context, storage.Ladder, storage.PlayerID, int) (storage.RankView, error) {
	return storage.RankView{}, storage.ErrNotFound
}

// end ends game id with White's result: 1 a win, 0.5 a draw, 0 a loss;
// forfeit as the move timer ends it.
func (s *fakeStore) end(t *testing.T, id storage.GameID, white float64, forfeit bool) *storage.Game {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[id]
	res := &storage.Result{Winner: storage.Draw}
	switch white {
	case 1:
		res.Winner = 0
	case 0:
		res.Winner = 1
	}
	g.Status, g.Result = storage.StatusFinished, res
	if forfeit {
		g.Status, res.Outcome = storage.StatusForfeited, storage.TimedOut
	}
	g.Deadline = time.Time{}
	cp := *g
	return &cp
}

// play makes n moves in game id (their text is no matter here).
func (s *fakeStore) play(t *testing.T, id storage.GameID, n int) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[id]
	for range n {
		g.Moves = append(g.Moves, "1")
	}
	g.Turn = len(g.Moves) % 2
}

// fakeBoards records what the flow posts and shows.
type fakeBoards struct {
	mu     sync.Mutex
	posts  []render.Message
	shown  []storage.GameID
	begins int
	placed // thread_test.go

	// forfeited are the games Forfeit was asked to end.
	forfeited []storage.GameID
}

func (b *fakeBoards) Begin(_ context.Context, g *storage.Game) error {
	gm, err := play.Game(g)
	if err != nil {
		return err
	}
	pos, err := gm.Start(games.Options{Rounds: g.Settings.Rounds})
	if err != nil {
		return err
	}
	g.Status, g.Position, g.Turn = storage.StatusActive, pos.String(), 0
	b.mu.Lock()
	b.begins++
	b.mu.Unlock()
	return nil
}

func (b *fakeBoards) Show(_ context.Context, id storage.GameID) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.shown = append(b.shown, id)
	return nil
}

func (b *fakeBoards) Forfeit(ctx context.Context, id storage.GameID, p storage.PlayerID) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.forfeited = append(b.forfeited, id)
	return true, nil
}

func (b *fakeBoards) Post(ctx context.Context, channelID, nonce string, msg render.Message) error {
	_, err := b.Send(ctx, channelID, nonce, msg)
	return err
}

func (b *fakeBoards) Lang(string, string) *i18n.Localizer { return i18n.Default }

func (b *fakeBoards) Shared(*mux.Interaction) *i18n.Localizer { return i18n.Default }

// texts are the texts of the messages posted so far.
func (b *fakeBoards) texts() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.posts {
		out = append(out, text(m.Embeds))
	}
	return out
}

// text is the text of embeds: titles, descriptions and fields.
func text(embeds []*discordgo.MessageEmbed) string {
	var s strings.Builder
	for _, e := range embeds {
		s.WriteString(e.Title + "\n" + e.Description + "\n")
		for _, f := range e.Fields {
			s.WriteString(f.Name + "\n" + f.Value + "\n")
		}
	}
	return s.String()
}

// clock is a manual clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }

// fixture is a flow over a fake store and boards, its advances run on
// the caller's path so that a test sees their effect when Kick returns.
type fixture struct {
	m      *mux.Mux
	rec    *muxtest.Recorder
	store  *fakeStore
	boards *fakeBoards
	clock  *clock
	flow   *tournament.Flow
}

func newFixture(caps storage.TournamentCaps) *fixture {
	c := &clock{now: time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)}
	fx := &fixture{m: mux.New(), rec: &muxtest.Recorder{}, store: newStore(c.Now), boards: &fakeBoards{}, clock: c}
	fx.flow = tournament.New(fx.store, fx.boards, tournament.Config{
		Caps: caps, AIMoveTime: 2 * time.Second, SweepEvery: time.Minute, Go: func(f func()) { f() }, Now: c.Now,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	fx.flow.Routes(fx.m)
	return fx
}

// sub is a subcommand of /tournament with its options.
func sub(name string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}
}

func str(name, v string) *discordgo.ApplicationCommandInteractionDataOption {
	return muxtest.Option(name, discordgo.ApplicationCommandOptionString, v)
}

func num(name string, v float64) *discordgo.ApplicationCommandInteractionDataOption {
	return muxtest.Option(name, discordgo.ApplicationCommandOptionInteger, v)
}

func flag(name string, v bool) *discordgo.ApplicationCommandInteractionDataOption {
	return muxtest.Option(name, discordgo.ApplicationCommandOptionBoolean, v)
}

// command runs /tournament's subcommand s for member.
func (fx *fixture) command(member *discordgo.Member, s *discordgo.ApplicationCommandInteractionDataOption) error {
	return muxtest.Run(fx.m, fx.rec, muxtest.Command(member, discordgo.EnglishUS, "tournament", s))
}

// click runs member's click on customID; values, if any, are a select's.
func (fx *fixture) click(member *discordgo.Member, customID string, values ...string) error {
	raw := muxtest.Click(member, discordgo.EnglishUS, customID)
	if len(values) > 0 {
		raw.Data = discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.SelectMenuComponent, Values: values}
	}
	return muxtest.Run(fx.m, fx.rec, raw)
}

// last is the last answer's text.
func (fx *fixture) last(t *testing.T) string {
	t.Helper()
	resps := fx.rec.Responses()
	if len(resps) == 0 {
		t.Fatal("no answer")
	}
	return text(resps[len(resps)-1].Data.Embeds)
}

// only is the one tournament of the store.
func (fx *fixture) only(t *testing.T) *storage.Tournament {
	t.Helper()
	list := fx.store.list(func(*storage.Tournament) bool { return true })
	if len(list) != 1 {
		t.Fatalf("%d tournaments, want 1", len(list))
	}
	return list[0]
}

// announce has alice create a tournament with the create subcommand and
// the members join it; it returns the tournament's ID.
func (fx *fixture) announce(t *testing.T, create *discordgo.ApplicationCommandInteractionDataOption, members ...*discordgo.Member) string {
	t.Helper()
	if err := fx.command(alice, create); err != nil {
		t.Fatal(err)
	}
	id := string(fx.only(t).ID)
	for _, m := range members {
		if err := fx.click(m, customid.TournamentJoin.Build(id)); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// start has alice, the creator, start tournament id.
func (fx *fixture) start(t *testing.T, id string) {
	t.Helper()
	if err := fx.click(alice, customid.TournamentStart.Build(id)); err != nil {
		t.Fatal(err)
	}
}
