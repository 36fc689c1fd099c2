package playground_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// suggests types "/"+prefix in the command box and returns whether the
// suggestions offer the command name, once they offer visible (a command
// every member is offered, which tells that the list is drawn); the box
// is emptied again.
func suggests(t *testing.T, ctx context.Context, prefix, visible, name string) bool {
	t.Helper()
	run(t, ctx,
		typeInto("#command-input", "/"+prefix),
		waitVisible(fmt.Sprintf(`.command-suggestion[data-command=%q]`, visible)),
	)
	offered := value(t, ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!document.querySelector('.command-suggestion[data-command=%q]')`, name)))
	value(t, ctx, chromedp.Evaluate[bool](`(() => {
		const input = document.querySelector('#command-input');
		input.value = '';
		input.dispatchEvent(new Event('input', {bubbles: true}));
		return true;
	})()`))
	return offered
}

// TestBrowserMembersAndTheirMenus: bob, a member without Manage Server as
// most members are, is not offered /settings, which alice, who manages
// the server, is; alice challenges bob from his menu in the member list
// ("Challenge to a game", the user command of a member's context menu),
// and gives him Manage Server there, after which he is offered /settings.
func TestBrowserMembersAndTheirMenus(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	bob := memberID(t, ctx, "bob")
	run(t, ctx, member("bob"))
	if suggests(t, ctx, "s", "stats", "settings") {
		t.Error("bob, without Manage Server, is offered /settings")
	}
	run(t, ctx, member("alice"))
	if !suggests(t, ctx, "s", "stats", "settings") {
		t.Error("alice, who manages the server, is not offered /settings")
	}

	entry := fmt.Sprintf(`#member-menu [data-member=%q]`, bob)
	run(t, ctx,
		click("#members-button"),
		click(entry+` [data-app="Challenge to a game"]`),
		waitVisible(fmt.Sprintf(`select[data-custom-id="v1/challenge/%s"]`, bob)),
		waitText(".message .interaction-command", "Challenge to a game"),
	)

	run(t, ctx,
		click("#members-button"),
		click(entry+` input[type="checkbox"]`),
		waitText("#locale-status", "bob may manage the server now"),
		member("bob"),
	)
	if !suggests(t, ctx, "s", "stats", "settings") {
		t.Error("bob, given Manage Server, is not offered /settings")
	}
}

// TestBrowserPlayFormFieldsShowThemselves: /play's form offers no member
// to challenge but the others, and its text fields are wide enough for
// their whole descriptions.
func TestBrowserPlayFormFieldsShowThemselves(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	alice := memberID(t, ctx, "alice")
	run(t, ctx, member("alice"), command("play"), waitVisible(`[data-option="rounds"]`))
	options := value(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('[data-option="opponent"] option')].map(o => o.value)`))
	for _, id := range options {
		if id == alice {
			t.Errorf("alice is offered herself as an opponent: %v", options)
		}
	}
	if len(options) < 2 {
		t.Errorf("the opponent field offers %v: want a blank entry and bob", options)
	}
	// A placeholder is cut when its text is wider than the field's box.
	cut := value(t, ctx, chromedp.Evaluate[[]string](`(() => {
		const canvas = document.createElement('canvas').getContext('2d');
		return [...document.querySelectorAll('.option-field input[placeholder]')].filter(input => {
			const style = getComputedStyle(input);
			canvas.font = style.font;
			const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
			return canvas.measureText(input.placeholder).width > room;
		}).map(input => input.dataset.option + ': ' + input.placeholder);
	})()`))
	if len(cut) > 0 {
		t.Errorf("placeholders cut: %s", strings.Join(cut, "; "))
	}
}

// TestBrowserSmallPrintOnAnyLine: "-# " and headings start blocks on any
// line of a text, as in Discord, not only in a text of one line.
func TestBrowserSmallPrintOnAnyLine(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	html := value(t, ctx, chromedp.Evaluate[string](`markdown("Solve it in 5 moves.\n-# Played today: 0.\n### Next\n**bold**")`))
	for _, want := range []string{`<div class="text-small">Played today: 0.</div>`, `<div class="text-heading h3">Next</div>`, `<strong>bold</strong>`} {
		if !strings.Contains(html, want) {
			t.Errorf("markdown gave %q, want it to contain %q", html, want)
		}
	}
	if strings.Contains(html, "-#") || strings.Contains(html, "###") {
		t.Errorf("markdown shows the marks literally: %q", html)
	}
}

// TestBrowserTheListFollowsPictures: a board's picture loads after its
// message is drawn; a channel scrolled to the bottom stays there, so the
// board's buttons are in sight.
func TestBrowserTheListFollowsPictures(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	for range 3 { // enough boards to scroll
		run(t, ctx,
			member("alice"),
			command("play"),
			choose(`[data-option="game"]`, "connect4"),
			typeInto(`[data-option="ai"]`, "rand"),
			click(`.autocomplete-choice[data-value="random"]`),
			click("#command-send"),
			waitVisible(`#command-input`),
		)
	}
	value(t, ctx, chromedp.Poll[bool](`document.querySelectorAll('.message .media-gallery img.media').length >= 3`, whileTestRuns))
	// Every picture loaded, and the page had a frame to lay it out.
	gap := value(t, ctx, chromedp.Evaluate[float64](`(async () => {
		const imgs = [...document.querySelectorAll('.message .media-gallery img.media')];
		await Promise.all(imgs.map(i => i.decode().catch(() => {})));
		await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
		const list = document.querySelector('#messages');
		return list.scrollHeight - list.scrollTop - list.clientHeight;
	})()`, chromedp.EvalAwaitPromise))
	if gap > 2 {
		t.Errorf("the channel stops %.0f px short of the bottom after its pictures loaded", gap)
	}
}
