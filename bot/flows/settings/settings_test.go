package settings_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/flows/internal/flowtest"
	"github.com/gambitbot/gambit/bot/flows/settings"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/mux"
	"github.com/gambitbot/gambit/bot/mux/muxtest"
	"github.com/gambitbot/gambit/storage"
)

// These tests construct the flow alone, over the flows' test store
// (flowtest): no bot, no stand-in. The wire is tested in package bot against the stand-in
// (TestSettingsNeedManageServerAndApply, TestBoardFormPerServerAndPerMember,
// TestConcurrentSettingsKeepBothChanges).

// store is the flows' test store (flowtest), counting the saves of
// settings.
type store struct {
	*flowtest.Store
	updates int // UpdateGuildSettings and PutUserSettings calls
}

func newStore(t *testing.T) *store { return &store{Store: flowtest.New(t, nil)} }

func (s *store) UpdateGuildSettings(ctx context.Context, id string, change func(*storage.GuildSettings) error) (storage.GuildSettings, error) {
	s.updates++
	return s.Store.UpdateGuildSettings(ctx, id, change)
}

func (s *store) PutUserSettings(ctx context.Context, id string, u storage.UserSettings) error {
	s.updates++
	return s.Store.PutUserSettings(ctx, id, u)
}

// guild returns guild id's settings as stored.
func (s *store) guild(t *testing.T, id string) storage.GuildSettings {
	t.Helper()
	gs, err := s.GuildSettings(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// user returns user id's settings as stored.
func (s *store) user(t *testing.T, id string) storage.UserSettings {
	t.Helper()
	us, err := s.UserSettings(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return us
}

// forms records what the flow told the memory of board forms.
type forms []string

func (f *forms) UserChose(id string, form storage.BoardForm) {
	*f = append(*f, "u:"+id+"="+string(form))
}
func (f *forms) GuildChose(id string, form storage.BoardForm) {
	*f = append(*f, "g:"+id+"="+string(form))
}

// newFlow returns the flow over store on a Mux of its own. Its games
// option knows connect4 and othello.
func newFlow(store settings.Store, told *forms) (*mux.Mux, *muxtest.Recorder) {
	m := mux.New()
	settings.New(store, told, settings.Config{
		MoveTime: 2 * time.Second, TurnTimeout: 24 * time.Hour, MaxMoveTime: time.Minute, MaxGames: 100,
		ParseGames: func(text string) ([]storage.Kind, error) {
			var out []storage.Kind
			for _, k := range strings.Split(text, ",") {
				if k = strings.TrimSpace(k); k != "connect4" && k != "othello" {
					return nil, mux.Err("settings.unknown_game", "Game", mux.Quote(k), "Choices", "connect4, othello")
				}
				out = append(out, storage.Kind(strings.TrimSpace(k)))
			}
			return out, nil
		},
	}).Routes(m)
	return m, &muxtest.Recorder{}
}

func option(name string, typ discordgo.ApplicationCommandOptionType, v any) *discordgo.ApplicationCommandInteractionDataOption {
	return muxtest.Option(name, typ, v)
}

func TestSettingsChangeOnlyWhatTheyName(t *testing.T) {
	store := newStore(t)
	store.Seed(func(sink storage.Sink) error {
		return sink.GuildSettings("guild", storage.GuildSettings{MoveTime: 5 * time.Second, AllowedGames: []storage.Kind{"connect4"}, Board: storage.BoardEmoji})
	})
	var told forms
	m, rec := newFlow(store, &told)
	admin := muxtest.Member("ann", discordgo.PermissionManageGuild)
	err := muxtest.Run(m, rec, muxtest.Command(admin, discordgo.EnglishUS, "settings",
		option("turn-timeout", discordgo.ApplicationCommandOptionInteger, 48.0),
		option("rated", discordgo.ApplicationCommandOptionBoolean, false)))
	if err != nil {
		t.Fatal(err)
	}
	want := storage.GuildSettings{MoveTime: 5 * time.Second, TurnTimeout: 48 * time.Hour, AllowedGames: []storage.Kind{"connect4"}, Casual: true, Board: storage.BoardEmoji}
	got := store.guild(t, "guild")
	if got.MoveTime != want.MoveTime || got.TurnTimeout != want.TurnTimeout || len(got.AllowedGames) != 1 || got.Casual != want.Casual || got.Board != want.Board {
		t.Errorf("saved %+v, want %+v", got, want)
	}
	if len(told) != 1 || told[0] != "g:guild=emoji" {
		t.Errorf("told the forms %v, want the server's emoji", told)
	}
	resp := rec.Only(t)
	if resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || resp.Data.Embeds[0].Title != "Settings saved" {
		t.Errorf("answer %+v, want the saved settings, privately", resp.Data)
	}
	fields := map[string]string{}
	for _, f := range resp.Data.Embeds[0].Fields {
		fields[f.Name] = f.Value
	}
	if !strings.Contains(fields["Turn timeout"], "48") || !strings.Contains(fields["New games"], "casual") || !strings.Contains(fields["Allowed games"], "Connect Four") {
		t.Errorf("shown %v", fields)
	}

	// Without options: shown, not saved, the defaults named as such.
	show := muxtest.Command(admin, discordgo.EnglishUS, "settings")
	show.GuildID = "other"
	updates := store.updates
	if err := muxtest.Run(m, rec, show); err != nil {
		t.Fatal(err)
	}
	if store.updates != updates {
		t.Error("showing the settings saved them")
	}
	shown := rec.Responses()[1].Data.Embeds[0]
	if shown.Title != "Gambit's settings here" || !strings.Contains(shown.Fields[0].Value, "(default)") {
		t.Errorf("shown %q with %q, want the defaults named", shown.Title, shown.Fields[0].Value)
	}
}

func TestSettingsRefuseBeforeSavingAnything(t *testing.T) {
	for _, tc := range []struct {
		name   string
		member *discordgo.Member
		dm     bool
		opts   []*discordgo.ApplicationCommandInteractionDataOption
		want   string // in the refusal
	}{
		{"not an admin", muxtest.Member("bob", 0), false, nil, "Manage Server"},
		{"in a DM", nil, true, nil, "use it in a server"},
		{"a turn timeout of 0", muxtest.Member("ann", discordgo.PermissionAdministrator), false,
			[]*discordgo.ApplicationCommandInteractionDataOption{option("turn-timeout", discordgo.ApplicationCommandOptionInteger, 0.0)}, "between 1 and 336"},
		{"a fractional turn timeout", muxtest.Member("ann", discordgo.PermissionAdministrator), false,
			[]*discordgo.ApplicationCommandInteractionDataOption{option("turn-timeout", discordgo.ApplicationCommandOptionInteger, 1.5)}, "turn-timeout"},
		{"a move time past the most", muxtest.Member("ann", discordgo.PermissionAdministrator), false,
			[]*discordgo.ApplicationCommandInteractionDataOption{option("movetime", discordgo.ApplicationCommandOptionNumber, 61.0)}, "60"},
		{"an unknown board form, with a good change", muxtest.Member("ann", discordgo.PermissionAdministrator), false,
			[]*discordgo.ApplicationCommandInteractionDataOption{
				option("rated", discordgo.ApplicationCommandOptionBoolean, false),
				option("board", discordgo.ApplicationCommandOptionString, "ascii"),
			}, `"ascii"`},
		{"an unknown game", muxtest.Member("ann", discordgo.PermissionAdministrator), false,
			[]*discordgo.ApplicationCommandInteractionDataOption{option("games", discordgo.ApplicationCommandOptionString, "chess")}, `"chess"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := newStore(t)
			var told forms
			m, rec := newFlow(store, &told)
			raw := muxtest.Command(tc.member, discordgo.EnglishUS, "settings", tc.opts...)
			if tc.dm {
				raw.GuildID, raw.User = "", &discordgo.User{ID: "ann"}
			}
			err := muxtest.Run(m, rec, raw)
			if text := muxtest.UserError(t, err, i18n.English); !strings.Contains(text, tc.want) {
				t.Errorf("refusal %q, want it to say %q", text, tc.want)
			}
			if store.updates != 0 || len(told) != 0 || len(rec.Responses()) != 0 {
				t.Errorf("a refused change did something: %d saves, forms told %v, %d answers", store.updates, told, len(rec.Responses()))
			}
		})
	}
}

func TestBoardSavesAPlayersOwnForm(t *testing.T) {
	store := newStore(t)
	var told forms
	m, rec := newFlow(store, &told)
	bob := muxtest.Member("bob", 0)
	form := func(v string) *discordgo.Interaction {
		return muxtest.Command(bob, discordgo.EnglishUS, "board", option("form", discordgo.ApplicationCommandOptionString, v))
	}
	if err := muxtest.Run(m, rec, form("both")); err != nil {
		t.Fatal(err)
	}
	if got := store.user(t, "bob").Board; got != storage.BoardBoth {
		t.Errorf("saved %q, want both", got)
	}
	if text := rec.Responses()[0].Data.Content; !strings.HasPrefix(text, "Saved.") || !strings.Contains(text, "the picture and the emoji grid") {
		t.Errorf("answer %q", text)
	}
	if err := muxtest.Run(m, rec, form("server")); err != nil {
		t.Fatal(err)
	}
	if got := store.user(t, "bob").Board; got != storage.BoardDefault {
		t.Errorf("server saved %q, want the default (the server's)", got)
	}
	if want := []string{"u:bob=both", "u:bob="}; len(told) != 2 || told[0] != want[0] || told[1] != want[1] {
		t.Errorf("told the forms %v, want %v", told, want)
	}
	err := muxtest.Run(m, rec, form("ascii"))
	var ue *mux.UserError
	if !errors.As(err, &ue) || store.user(t, "bob").Board != storage.BoardDefault {
		t.Errorf("an unknown form: %v, saved %q", err, store.user(t, "bob").Board)
	}
}
