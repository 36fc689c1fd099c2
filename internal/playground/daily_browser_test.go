package playground_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/playground"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/daily"
)

// onDay runs the playground's bot on a clock moved to noon UTC of day,
// so that the daily puzzle is the one of that day whenever the test
// runs; time goes on from there.
func onDay(day string) func(*playground.Config) {
	return func(c *playground.Config) {
		at, err := time.Parse(time.DateOnly, day)
		if err != nil {
			panic(err)
		}
		offset := time.Until(at.Add(12 * time.Hour))
		c.Bot.Now = func() time.Time { return time.Now().Add(offset) }
	}
}

// pressUntilText clicks the enabled element matching sel until an
// element matching where says text: a click on an element the page is
// redrawing is lost, and given again on the new one (see pressUntil).
func pressUntilText(sel, where, text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](fmt.Sprintf(`(() => {
			if ([...document.querySelectorAll(%q)].some(m => m.innerText.includes(%q))) return true;
			const b = document.querySelector(%q);
			if (b && !b.disabled && !b.dataset.pressed) { b.dataset.pressed = "1"; b.click(); }
			return false;
		})()`, where, text, sel), whileTestRuns)(ctx, t)
		return err
	})
}

// TestBrowserDailyPuzzle turns the daily puzzle on with /settings in the
// page, waits for the day's post (a Connect Four position, made by the
// playground's daily key), takes a hint and plays the one winning column; a member who speaks Indonesian then
// sees the solvers in /harian. The page is pictured for the docs
// (docs/daily.png with GAMBIT_UPDATE_DOCS=1).
func TestBrowserDailyPuzzle(t *testing.T) {
	t.Parallel()
	const day = "2026-11-24" // Connect Four's day
	var store storage.Store
	ctx := browser(t, startPlayground(t, onDay(day), func(c *playground.Config) { store = c.Store }))
	run(t, ctx,
		member("alice"),
		command("settings"),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			id, err := chromedp.Evaluate[string](`[...document.querySelector('[data-option="daily-channel"]').options].find(o => o.value).value`)(ctx, t)
			if err != nil {
				return err
			}
			_, err = choose(`[data-option="daily-channel"]`, id)(ctx, t)
			return err
		}),
		click("#command-send"),
		waitText(".message.ephemeral", "every day at 00:00 UTC"),
		waitText(".message .container", "Daily puzzle · "+day),
		waitPicture(),
	)
	post := `.message:not(.ephemeral) button[data-custom-id^="v1/daily/"]`
	guild := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).dataset.customId.split('/')[2]`, post)))
	key, err := store.Secret(context.Background(), storage.DailyKey)
	if err != nil {
		t.Fatal(err)
	}
	p, err := daily.ForDay(context.Background(), key, day, guild)
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != daily.Connect4 {
		t.Fatalf("the puzzle of %s is %s, want Connect Four's", day, p.Kind)
	}
	hint := fmt.Sprintf(`button[data-custom-id="v1/daily/%s/%s/hint"]`, guild, day)
	answer := fmt.Sprintf(`button[data-custom-id="v1/daily/%s/%s/move/%s"]`, guild, day, p.Answer)
	run(t, ctx,
		pressUntilText(hint, ".message.ephemeral", "The move is one of"),
		pressUntilText(answer, ".message.ephemeral", "is right"),
		waitText(".message.ephemeral", "Your streak: 1 day"),
	)
	shot := value(t, ctx, chromedp.FullScreenshot(100))
	t.Logf("screenshot: %s", saveArtifact(t, "playground-daily.png", shot))
	updateDocs(t, ctx, "daily.png")

	id := i18n.For(i18n.Indonesian)
	run(t, ctx,
		member("bob"),
		choose("#member-locale", i18n.Indonesian),
		waitText("#locale-status", "Indonesian"),
		typeInto("#command-input", "/"+id.T("cmd.daily.name")),
		click(`.command-suggestion[data-command="daily"]`),
		click("#command-send"),
		waitText(".message.ephemeral", id.T("daily.solvers")),
		waitText(".message.ephemeral", "· "+id.T("unit.hint", "Count", 1)),
	)
	if s := value(t, ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('.message.ephemeral')].pop().innerText`)); !strings.Contains(s, "Runtutanmu: 0 hari") {
		t.Errorf("bob's /harian:\n%s", s)
	}
}
