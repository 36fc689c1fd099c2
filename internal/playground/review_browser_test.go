package playground_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// waitEmbedPictures waits until n pictures of an embed (a review's
// turning point and replay), served by the stand-in, have loaded and
// decoded in the page.
func waitEmbedPictures(n int) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](fmt.Sprintf(`[...document.querySelectorAll('.message .embed img.media')].filter(i => i.complete && i.naturalWidth > 0).length >= %d`, n),
			whileTestRuns)(ctx, t)
		return err
	})
}

// TestBrowserReviewAfterAGame plays Tic-Tac-Toe between alice and bob —
// bob's edge at move 2 loses — and has alice click Review under the
// finished board: the review shows her, privately, the
// turning point at move 2 labelled a blunder, its picture and the
// replay. With GAMBIT_UPDATE_DOCS=1 it writes docs/review.png.
func TestBrowserReviewAfterAGame(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	bob := memberID(t, ctx, "bob")
	play(t, ctx, challengeAccepted(t, ctx, bob), 0, "5", "2", "1", "9", "7", "3", "4")
	review := `button[data-custom-id^="v1/review/"]`
	run(t, ctx,
		waitText(".message .container", "wins"),
		member("alice"),
		waitEnabled(review),
		click(review),
		waitText(".message.ephemeral .embed-description", "Turning point:"),
		waitText(".message.ephemeral .embed-description", "a blunder"),
		waitEmbedPictures(2),
		chromedp.ScrollIntoView(css(".message.ephemeral .embed")),
	)
	shot := value(t, ctx, chromedp.FullScreenshot(100))
	t.Logf("screenshot: %s", saveArtifact(t, "playground-review.png", shot))
	updateDocs(t, ctx, "review.png")
}
