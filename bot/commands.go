package bot

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/flows/challenges"
	"github.com/gambitbot/gambit/bot/flows/duel"
	"github.com/gambitbot/gambit/bot/flows/info"
	"github.com/gambitbot/gambit/bot/flows/mygames"
	"github.com/gambitbot/gambit/bot/flows/privacy"
	"github.com/gambitbot/gambit/bot/flows/puzzles"
	"github.com/gambitbot/gambit/bot/flows/settings"
	"github.com/gambitbot/gambit/bot/flows/versus"
	"github.com/gambitbot/gambit/bot/mux"
)

// The slash commands' names and options are a contract: documentation and
// checks outside the code rely on them. Add options; never rename.

// Every string option has a max_length; answers still quote typed text
// only through mux.Echo, since only Discord's client enforces the limit.

// commandDefinitions returns the commands Gambit registers, as the flows
// declared them on m (in the order declared, which /help's overview
// keeps), localised. A command that says nowhere where it works works
// everywhere: installed to a server, in its channels; installed to a
// user's account (docs/server-admins.md, "Install to your account"), also
// in the user's DMs with Gambit, group DMs and servers that did not add
// Gambit (reach.go says how boards work there). /settings and /tournament
// say otherwise: a server's alone.
func commandDefinitions(m *mux.Mux) []*discordgo.ApplicationCommand {
	cmds := m.Definitions()
	for _, c := range cmds {
		if c.Contexts == nil {
			c.Contexts = &[]discordgo.InteractionContextType{
				discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel,
			}
			c.IntegrationTypes = &[]discordgo.ApplicationIntegrationType{
				discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall,
			}
		}
	}
	return localizeCommands(cmds)
}

// routes declares every flow's commands and components on a new Mux, in
// the order /help lists the commands, and gives it the middleware chain
// (middleware.go).
func (b *Bot) routes() *mux.Mux {
	m := mux.New()
	shared := infoFlow{b} // what the privacy and settings flows need of the bot
	challenges.New(b.store, challengeGames{b.games}, challengeBoards{duelBoards{b.games}}, seamTurns{b}, b.withGame, challenges.Config{
		DefaultAI: b.cfg.AI.Default, ChallengeTTL: b.cfg.Games.ChallengeTTL, MaxMoveTime: MaxMoveTime,
		AppID: func() string { return b.discord.appID }, Now: b.now, Log: b.log,
	}).Routes(m)
	duel.New(b.store, duelBoards{b.games}, seamTurns{b}, b.withGame, b.log).Routes(m)
	info.New(b.store, &b.places.locales, func() []*discordgo.ApplicationCommand { return b.intake.defs }).Routes(m)
	mygames.New(b.store, gameBoards{b.boards}, b.withGame).Routes(m)
	privacy.New(b.store, privacyBot{shared}, b.log).Routes(m)
	puzzles.New(b.store, soloGames{b.games}, duelBoards{b.games}, b.withGame, puzzles.Config{
		Submit: workerTasks(b), LowPriority: lowPriority, Compare: b.ai.compare, Hinted: b.timers.daily.CountHint, Now: b.now, Log: b.log,
	}).Routes(m)
	b.timers.daily.Routes(m)
	b.reviews.Routes(m)
	settings.New(b.store, chosenForms{forms: &b.places.forms, now: b.now}, settings.Config{
		MoveTime: b.cfg.AI.MoveTime, TurnTimeout: b.cfg.Games.TurnTimeout, MaxMoveTime: MaxMoveTime,
		ParseGames: parseKinds, CompleteGames: shared.completeGames, MaxGames: maxGamesOption,
	}).Routes(m)
	versus.New(b.store, versusGames{b.games}, duelBoards{b.games}, versusTurns{seamTurns{b}}, b.withGame, versus.Config{
		MaxMoveTime: MaxMoveTime, MaxOpen: b.cfg.Games.MaxPerUser, Instance: b.cfg.Shards.Instance, Log: b.log,
	}).Routes(m)
	b.timers.tournaments.Routes(m)
	c := chain{log: b.log, metrics: b.cfg.Metrics, reach: &b.places.reach}
	m.Use(c.measure, b.timers.daily.PostResults, c.answerErrors, c.recoverPanics, releaseAI, c.markPrivate)
	return m
}

// syncCommands registers the commands want, in guild (empty: globally),
// overwriting the registered set only when a definition changed; the
// overwrite also removes stale commands.
func (d *discordLink) syncCommands(want []*discordgo.ApplicationCommand, guild string, log *slog.Logger) error {
	have, err := d.egress.Session.ApplicationCommands(d.appID, guild)
	d.egress.Observe(err)
	if err != nil {
		return fmt.Errorf("bot: list registered commands: %w", err)
	}
	if sameCommands(have, want) {
		log.Info("slash commands up to date", "count", len(want))
		return nil
	}
	_, err = d.egress.Session.ApplicationCommandBulkOverwrite(d.appID, guild, want)
	d.egress.Observe(err)
	if err != nil {
		return fmt.Errorf("bot: register commands: %w", err)
	}
	scope := "globally"
	if guild != "" {
		scope = "in guild " + guild
	}
	log.Info("slash commands registered", "count", len(want), "scope", scope, "replaced", len(have))
	return nil
}

// sameCommands reports whether the registered commands have exactly the
// wanted definitions, ignoring what Discord adds (IDs, versions, default
// values).
func sameCommands(have, want []*discordgo.ApplicationCommand) bool {
	if len(have) != len(want) {
		return false
	}
	byName := map[string]*discordgo.ApplicationCommand{}
	for _, c := range have {
		byName[c.Name] = c
	}
	for _, w := range want {
		h, ok := byName[w.Name]
		if !ok || !reflect.DeepEqual(canonicalCommand(h), canonicalCommand(w)) {
			return false
		}
	}
	return true
}

// canonicalCommand is the part of a command definition that Gambit sets,
// in a form where defaults and absent values compare equal.
func canonicalCommand(c *discordgo.ApplicationCommand) map[string]any {
	typ := c.Type
	if typ == 0 {
		typ = discordgo.ChatApplicationCommand
	}
	perms := ""
	if c.DefaultMemberPermissions != nil {
		perms = fmt.Sprint(*c.DefaultMemberPermissions)
	}
	var contexts []discordgo.InteractionContextType
	if c.Contexts != nil {
		contexts = *c.Contexts
	}
	var installs []discordgo.ApplicationIntegrationType
	if c.IntegrationTypes != nil {
		installs = *c.IntegrationTypes
	}
	return map[string]any{
		"type": typ, "name": c.Name, "description": c.Description, "permissions": perms,
		"contexts": fmt.Sprint(contexts), "integration_types": fmt.Sprint(installs), "options": canonicalOptions(c.Options),
		"names": canonicalLocalizations(c.NameLocalizations), "descriptions": canonicalLocalizations(c.DescriptionLocalizations),
	}
}

func canonicalOptions(opts []*discordgo.ApplicationCommandOption) []string {
	out := make([]string, 0, len(opts))
	for _, o := range opts {
		cp := *o
		cp.Options = nil
		choices := make([]string, len(o.Choices))
		for i, ch := range o.Choices {
			choices[i] = fmt.Sprintf("%s=%v%v", ch.Name, ch.Value, canonicalLocalizations(&ch.NameLocalizations))
		}
		cp.Choices = nil
		raw, _ := json.Marshal(cp) // a struct of plain fields always marshals
		out = append(out, string(raw)+"|"+strings.Join(choices, ",")+"|"+strings.Join(canonicalOptions(o.Options), ";"))
	}
	return out
}

// canonicalLocalizations is a command's localizations in a canonical form: absent and
// empty compare equal.
func canonicalLocalizations(m *map[discordgo.Locale]string) string {
	if m == nil || len(*m) == 0 {
		return ""
	}
	return fmt.Sprint(*m) // fmt sorts map keys
}
