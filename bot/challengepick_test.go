package bot_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/storage"
)

// TestForgedChallengeMenuPicksAreRefused forges the user of the
// "Challenge to a game" menu's select, as a doctored client would: the bot
// itself, a member of another server only, an ID that is no user's ID and
// the clicker. Each pick is refused privately, as /challenge would refuse
// the same user typed, and nothing is created: no challenge counting
// against alice's cap, no message in the channel. The menu itself refuses
// a member of another server; the pick it offered still challenges bob.
func TestForgedChallengeMenuPicksAreRefused(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	elsewhere := h.srv.AddGuild("Elsewhere")
	ch, err := h.srv.AddChannel(elsewhere.ID, "games")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{alice, bob} {
		if err := h.srv.AddMember(elsewhere.ID, u); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := h.srv.SendUserCommand(alice, ch.ID, "Challenge to a game", carol)
	if err != nil {
		t.Fatal(err)
	}
	if m := h.reply("the menu on carol")(ix, nil); !m.Ephemeral() || strings.Contains(m.Content, "<@"+carol+">") {
		t.Errorf("the menu on carol, who is not in the server, answered %q (ephemeral %v); want a private refusal", m.Content, m.Ephemeral())
	}
	ix, err = h.srv.SendUserCommand(alice, ch.ID, "Challenge to a game", bob)
	if err != nil {
		t.Fatal(err)
	}
	picker := h.reply("the menu on bob")(ix, nil)
	pick, ok := find(picker, customid.ChallengePick, map[string]string{"user": bob})
	if !ok {
		t.Fatalf("the menu on bob answered %+v, want a game select", picker)
	}
	public := func() (n int) {
		for _, m := range h.srv.Messages(ch.ID) {
			if !m.Ephemeral() {
				n++
			}
		}
		return n
	}
	before := public()
	snap := takeSnapshot(h, nil, []string{alice, bob, carol}, nil)
	for who, user := range map[string]string{
		"the bot itself":             h.srv.BotUser().ID,
		"carol, not in the server":   carol,
		"an ID that is no user's ID": "garbage",
		"alice herself":              alice,
	} {
		forged := customid.ChallengePick.Build(user)
		m := h.clickSeen(alice, tampered(picker, discordgo.SelectMenuComponent, forged), forged, "connect4")
		if !m.Ephemeral() || strings.Contains(m.Content, "<@"+user+">") {
			t.Errorf("a forged pick of %s answered %q (ephemeral %v), want a private refusal", who, m.Content, m.Ephemeral())
		}
		snap.unchanged(h, "a forged pick of "+who)
	}
	if after := public(); after != before {
		t.Errorf("the forged picks posted %d messages in the channel, want none", after-before)
	}
	m := h.click(alice, picker.ID, pick, "connect4")
	if g := h.latestGame(alice); m.Ephemeral() || g.Status != storage.StatusPending || g.Players[1].ID != storage.User(bob) {
		t.Errorf("the pick the menu offered answered %q and stored %+v, want a challenge to bob", m.Content, g)
	}
}

// TestAnOpenChallengeIsTakenOnlyWhereItWasPosted forges an open
// challenge's Accept (v1/take/{game}) from another channel: carol's, of
// alice's challenge in a server carol is not in and of bob's in another
// channel of carol's server. Each is refused as a game that does not exist
// would be, and neither challenge nor the message clicked changes.
func TestAnOpenChallengeIsTakenOnlyWhereItWasPosted(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	private, side := elsewhere(t, h, "private", alice)
	var games []storage.GameID
	for _, c := range []struct{ user, channel string }{{alice, private.ID}, {bob, side.ID}} {
		m := h.commandIn(c.user, c.channel, "challenge", opt("game", "tictactoe"))
		if m.Ephemeral() {
			t.Fatalf("the open challenge in %s: %q", c.channel, m.Content)
		}
		games = append(games, h.waitGame(h.latestGame(c.user).ID, "the challenge's board", func(g *storage.Game) bool { return g.MessageID == m.ID }).ID)
	}
	hereMsg, _, _ := postOpen(t, h, bob) // a message carol sees in the default channel
	snap := takeSnapshot(h, games, []string{alice, bob, carol}, []string{hereMsg.ID})
	for _, id := range games {
		forged := customid.Take.Build(string(id))
		m := h.clickSeen(carol, tampered(hereMsg, discordgo.ButtonComponent, forged), forged)
		refused(t, "carol's forged Accept of "+string(id), m, "Game "+string(id)+" does not exist")
		snap.unchanged(h, "carol's forged Accept of "+string(id))
	}
}

// TestANewPuzzleForgedOnADuelIsRefused forges New puzzle
// (v1/newpuzzle/{game}), which deals a practice puzzle like an ended daily
// puzzle's game, with a duel's ID: it is refused privately, as a stale
// button, and deals nothing.
func TestANewPuzzleForgedOnADuelIsRefused(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	for _, kind := range []storage.Kind{"connect4", "gomoku"} {
		g := challengeAndAccept(t, h, alice, bob, kind)
		board := h.board(g.ID)
		snap := takeSnapshot(h, []storage.GameID{g.ID}, []string{alice, bob, carol}, []string{board.ID})
		forged := customid.NewPuzzle.Build(string(g.ID))
		m := h.clickSeen(carol, tampered(board, discordgo.ButtonComponent, forged), forged)
		if !m.Ephemeral() || strings.Contains(m.Content, "our side") {
			t.Errorf("a forged New puzzle on a %s duel answered %q (ephemeral %v), want a private refusal", kind, m.Content, m.Ephemeral())
		}
		snap.unchanged(h, "a forged New puzzle on a "+string(kind)+" duel")
	}
}

// TestAForgedClickInAnotherChannelIsNotAdoptedAsTheBoard forges a move
// on a game whose board's message ID was never saved (the bot learns it
// from the next click on the board), from a message in another channel:
// the click is refused, a player's too, and that message does not become
// the game's board, which would then show the game's moves in that
// channel (a player's move would have replaced another game's challenge).
func TestAForgedClickInAnotherChannelIsNotAdoptedAsTheBoard(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	g := challengeAndAccept(t, h, alice, bob, storage.Kind("tictactoe"))
	g.MessageID = ""
	if err := h.store.UpdateGame(h.ctx(), g); err != nil {
		t.Fatal(err)
	}
	side, err := h.srv.AddChannel(h.srv.GuildID(), "side")
	if err != nil {
		t.Fatal(err)
	}
	there := h.commandIn(bob, side.ID, "challenge", opt("game", "connect4")) // a public message in the other channel
	snap := takeSnapshot(h, []storage.GameID{g.ID}, []string{alice, bob, carol}, []string{there.ID})
	for who, user := range map[string]string{"carol, who does not play": carol, "alice, who is to move": alice} {
		forged := customid.Move.Build(string(g.ID), "0", "5")
		m := h.clickSeen(user, tampered(there, discordgo.ButtonComponent, forged), forged)
		if now := h.game(g.ID); now.MessageID != "" {
			t.Fatalf("a forged move by %s from another channel made message %s the board of %s (the other channel's is %s)", who, now.MessageID, g.ID, there.ID)
		}
		if !m.Ephemeral() {
			t.Errorf("a forged move by %s from another channel answered %q, want a private refusal", who, m.Content)
		}
		snap.unchanged(h, "a forged move by "+who+" from another channel")
	}
}

// TestARematchForgedInAnotherChannelIsRefused forges Rematch
// (v1/rematch/{game}) of alice's finished game on a message of another
// channel: it is refused privately, starts nothing, leaves the message
// clicked as it was and the game's Rematch as it was.
func TestARematchForgedInAnotherChannelIsRefused(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g := playTicTacToe(t, h, alice, bob)
	side, err := h.srv.AddChannel(h.srv.GuildID(), "side")
	if err != nil {
		t.Fatal(err)
	}
	there := h.commandIn(bob, side.ID, "challenge", opt("game", "connect4"))
	snap := takeSnapshot(h, []storage.GameID{g.ID}, []string{alice, bob}, []string{there.ID})
	forged := customid.Rematch.Build(string(g.ID))
	m := h.clickSeen(alice, tampered(there, discordgo.ButtonComponent, forged), forged)
	if !m.Ephemeral() || m.ID == there.ID {
		t.Errorf("a forged Rematch from another channel answered %q (ephemeral %v), want a private refusal", m.Content, m.Ephemeral())
	}
	snap.unchanged(h, "a forged Rematch from another channel")
	if h.game(g.ID).Rematched {
		t.Error("a forged Rematch from another channel used up the game's rematch")
	}
}

// TestAChallengeIsAnsweredOnlyOnItsMessage forges Accept and Decline
// (v1/accept/{game}, v1/decline/{game}) of alice's challenge to bob on a
// message of another channel: bob's clicks, and carol's, are refused
// privately without naming anyone; the challenge stays pending and the
// message clicked as it was.
func TestAChallengeIsAnsweredOnlyOnItsMessage(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob, carol := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	_, challenge := h.command(alice, "challenge", opt("user", bob), opt("game", "tictactoe"))
	g := h.waitGame(h.latestGame(alice).ID, "the challenge's board", func(g *storage.Game) bool { return g.MessageID == challenge.ID })
	side, err := h.srv.AddChannel(h.srv.GuildID(), "side")
	if err != nil {
		t.Fatal(err)
	}
	there := h.commandIn(carol, side.ID, "challenge", opt("game", "connect4"))
	snap := takeSnapshot(h, []storage.GameID{g.ID}, []string{alice, bob, carol}, []string{there.ID, challenge.ID})
	for _, forged := range []string{customid.Accept.Build(string(g.ID)), customid.Decline.Build(string(g.ID))} {
		for who, user := range map[string]string{"bob": bob, "carol": carol} {
			m := h.clickSeen(user, tampered(there, discordgo.ButtonComponent, forged), forged)
			if !m.Ephemeral() || strings.Contains(m.Content, "<@") || strings.Contains(m.Content, "bob") {
				t.Errorf("%s's forged %s from another channel answered %q (ephemeral %v), want a private refusal naming nobody", who, forged, m.Content, m.Ephemeral())
			}
			snap.unchanged(h, who+"'s forged "+forged+" from another channel")
		}
	}
}

// TestAPuzzlesButtonsForgedInAnotherChannelAreRefused forges Solve on
// alice's puzzle (v1/solve/{game}/{ply}) on a message of another channel:
// it is refused as an outdated board, the puzzle is not solved and the
// message clicked is not turned into the puzzle's board.
func TestAPuzzlesButtonsForgedInAnotherChannelAreRefused(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice, bob := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID
	g, _ := newPuzzle(t, h, alice, opt("game", "8puzzle"))
	side, err := h.srv.AddChannel(h.srv.GuildID(), "side")
	if err != nil {
		t.Fatal(err)
	}
	there := h.commandIn(bob, side.ID, "challenge", opt("game", "connect4"))
	snap := takeSnapshot(h, []storage.GameID{g.ID}, []string{alice, bob}, []string{there.ID})
	forged := customid.Solve.Build(string(g.ID), "0")
	if m := h.clickSeen(alice, tampered(there, discordgo.ButtonComponent, forged), forged); !m.Ephemeral() {
		t.Errorf("a forged Solve from another channel answered %q, want a private refusal", m.Content)
	}
	snap.unchanged(h, "a forged Solve from another channel")
}
