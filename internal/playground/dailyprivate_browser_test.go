package playground_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// boardsIn counts the messages matching sel that show a puzzle's board:
// its moves, Hint or Solve, or a board's picture.
func boardsIn(sel string) chromedp.Action[int] {
	return chromedp.Evaluate[int](fmt.Sprintf(`[...document.querySelectorAll(%q)].filter(m => m.querySelector(
		'button[data-custom-id^="v1/move/"], button[data-custom-id^="v1/hint/"], button[data-custom-id^="v1/solve/"], img.media')).length`, sel))
}

// TestBrowserDailyAttemptIsPrivate plays the sliding-tile daily puzzle
// as alice from /daily: Play shows her board only to her, she slides a
// tile and lets Gambit's Solve finish it, and the channel gets one line
// of result. Bob then sees that line and nothing of her board.
func TestBrowserDailyAttemptIsPrivate(t *testing.T) {
	t.Parallel()
	const day = "2026-11-23" // the 8-puzzle's day
	ctx := browser(t, startPlayground(t, onDay(day)))
	play := `.message.ephemeral button[data-custom-id^="v1/daily/"][data-custom-id$="/play"]`
	tile := `.message.ephemeral button[data-custom-id^="v1/move/"][data-custom-id*="/0/"]:enabled`
	solve := `.message.ephemeral button[data-custom-id^="v1/solve/"][data-custom-id$="/1"]`
	const result = "let Gambit finish today's puzzle (8-Puzzle) after 1 move with no hints."
	run(t, ctx,
		member("alice"),
		command("daily"),
		click("#command-send"),
		chromedp.WaitVisible(css(play)),
		pressUntil(play, tile),
		pressUntil(tile, solve),
		pressUntilText(solve, ".message:not(.ephemeral)", result),
		waitText(".message.ephemeral .container", "Solved by Gambit"),
	)
	if n := value(t, ctx, boardsIn(".message:not(.ephemeral)")); n != 0 {
		t.Errorf("alice sees %d boards in the channel, want hers only ephemeral", n)
	}
	shot := value(t, ctx, chromedp.FullScreenshot(100))
	t.Logf("screenshot: %s", saveArtifact(t, "playground-daily-private-alice.png", shot))

	run(t, ctx,
		member("bob"),
		waitText(".message:not(.ephemeral)", "@alice "+result),
	)
	if n := value(t, ctx, boardsIn(".message")); n != 0 {
		t.Errorf("bob sees %d boards, want none of alice's attempt", n)
	}
	if n := value(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('.message.ephemeral').length`)); n != 0 {
		t.Errorf("bob sees %d ephemeral messages, want none of alice's", n)
	}
	shot = value(t, ctx, chromedp.FullScreenshot(100))
	t.Logf("screenshot: %s", saveArtifact(t, "playground-daily-private-bob.png", shot))
}
