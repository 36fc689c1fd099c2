package playground_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gambitbot/gambit/bot/i18n"
)

// challenged has alice challenge bob to Tic-Tac-Toe in the page, until
// the challenge shows its Accept button.
func challenged(bob string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		member("alice"),
		command("play"),
		choose(`[data-option="game"]`, "tictactoe"),
		choose(`[data-option="opponent"]`, bob),
		click("#command-send"),
		waitVisible(`button[data-custom-id^="v1/accept/"]`),
	)
}

// challengeAccepted has alice challenge bob to Tic-Tac-Toe in the page and
// bob accept, and returns the game's ID, read from its board.
func challengeAccepted(t *testing.T, ctx context.Context, bob string) string {
	t.Helper()
	run(t, ctx,
		challenged(bob),
		member("bob"),
		click(`button[data-custom-id^="v1/accept/"]`),
		waitVisible(`button[data-custom-id^="v1/move/"][data-custom-id$="/0/5"]`),
	)
	return value(t, ctx, chromedp.Evaluate[string](`document.querySelector('button[data-custom-id^="v1/move/"][data-custom-id$="/0/5"]').dataset.customId.split('/')[2]`))
}

// play has the members play cells in turn from ply, alice first when ply
// is even.
func play(t *testing.T, ctx context.Context, id string, ply int, cells ...string) {
	t.Helper()
	for i, cell := range cells {
		who := []string{"alice", "bob"}[(ply+i)%2]
		button := fmt.Sprintf(`button[data-custom-id="v1/move/%s/%d/%s"]`, id, ply+i, cell)
		run(t, ctx, member(who), waitEnabled(button), press(button))
	}
}

// TestBrowserAbortInIndonesian: in a server that speaks Indonesian, alice,
// who speaks it too, aborts a game with bob after her first move, with the board's Batalkan
// (Abort) button and its confirmation; the board says the game was
// called off without a result.
func TestBrowserAbortInIndonesian(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	id := i18n.For(i18n.Indonesian)
	run(t, ctx,
		choose("#server-locale", i18n.Indonesian),
		waitText("#locale-status", "Indonesian"),
	)
	game := challengeAccepted(t, ctx, memberID(t, ctx, "bob"))
	play(t, ctx, game, 0, "5")
	abort := fmt.Sprintf(`button[data-custom-id="v1/abort/%s/1"]`, game)
	confirm := fmt.Sprintf(`.message.ephemeral button[data-custom-id="v1/abort/%s/1/yes"]`, game)
	run(t, ctx,
		member("alice"),
		choose("#member-locale", i18n.Indonesian), // her answers in her language
		waitText("#locale-status", "Indonesian"),
		waitText(abort, id.T("board.abort")),
		pressUntil(abort, confirm),
		waitText(".message.ephemeral", id.T("abort.question")),
		pressUntilText(confirm, ".message .container", "Dibatalkan"),
	)
}

// TestBrowserDrawOfferDeclinedThenAccepted: once each side has moved
// twice, alice offers bob a draw, which he declines; after the next move
// bob offers one, which alice accepts: the game ends drawn by agreement.
func TestBrowserDrawOfferDeclinedThenAccepted(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	game := challengeAccepted(t, ctx, memberID(t, ctx, "bob"))
	play(t, ctx, game, 0, "1", "5", "9", "2")
	offer := func(ply int) string { return fmt.Sprintf(`button[data-custom-id="v1/draw/%s/%d"]`, game, ply) }
	answer := func(ply int, a string) string {
		return fmt.Sprintf(`button[data-custom-id="v1/draw/%s/%d/%s"]`, game, ply, a)
	}
	run(t, ctx,
		member("alice"),
		pressUntil(offer(4), answer(4, "decline")),
		waitText(".message .container", "offers a draw"),
		member("bob"),
		pressUntilText(answer(4, "decline"), ".message", "declined the draw"),
	)
	play(t, ctx, game, 4, "8")
	run(t, ctx,
		member("bob"),
		pressUntil(offer(5), answer(5, "accept")),
		member("alice"),
		pressUntilText(answer(5, "accept"), ".message .container", "Draw by agreement"),
	)
}

// TestBrowserOpenChallengeAccepted: alice posts /challenge without a
// member; bob accepts it with its Accept button and the board is his
// and hers.
func TestBrowserOpenChallengeAccepted(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	run(t, ctx,
		member("alice"),
		command("challenge"),
		choose(`[data-option="game"]`, "connect4"),
		click("#command-send"),
		waitText(".message", "challenges anyone here"),
		member("bob"),
		press(`button[data-custom-id^="v1/take/"]`),
		waitVisible(`button[data-custom-id^="v1/move/"][data-custom-id*="/0/"]`),
		waitText(".message .container", "Connect Four"),
	)
}
