package playground_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gambitbot/gambit/bot"
	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/internal/playground"
	"github.com/gambitbot/gambit/storage/bolt"
)

// The browser tests drive the real page in headless Chromium (Debian's
// chromium package; .ci/run installs it). Without a browser they skip,
// unless GAMBIT_REQUIRE_BROWSER=1 (set by CI) makes that a failure.

// How long a page takes to load, draw and answer depends on the machine
// (a loaded one, -race), so no browser test sets a limit of its own: a
// test waits for what it looks for until shortly before the test binary's
// own deadline (go test -timeout, discordtest.UntilTestDeadline), which
// leaves discordtest.DeadlineMargin for failing with a screenshot and the
// page.

// whileTestRuns makes a poll wait as long as its context lasts
// (discordtest.UntilTestDeadline) instead of chromedp's 30 seconds, and
// look every pollEvery instead of at every animation frame, which made
// each waiting window draw 60 frames a second.
var whileTestRuns = both(chromedp.WithPollingTimeout(0), chromedp.WithPollingInterval(pollEvery))

// pollEvery is how often a test looks again for what it waits for in the
// page: a member's eye is no faster. chromedp looks at every animation
// frame (Poll) or every 5 ms (WaitVisible, WaitEnabled), which spent most
// of the browser's CPU and much of the test binary's on looking.
const pollEvery = 50 * time.Millisecond

// both applies two options.
func both[T any](a, b func(T)) func(T) { return func(x T) { a(x); b(x) } }

// waitVisible waits until an element matching sel is visible.
func waitVisible(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.WaitVisible(css(sel), chromedp.RetryInterval(pollEvery))
}

// waitEnabled waits until an element matching sel is enabled.
func waitEnabled(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.WaitEnabled(css(sel), chromedp.RetryInterval(pollEvery))
}

// findChromium returns the browser to drive, or "" if there is none.
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startPlayground runs a playground with a new database on a free
// loopback port, its settings changed by edit, and returns its URL; it
// stops when the test ends.
func startPlayground(t *testing.T, edit ...func(*playground.Config)) string {
	t.Helper()
	url, _ := runPlayground(t, filepath.Join(t.TempDir(), "playground.db"), edit...)
	return url
}

// runPlayground runs a playground on db, its settings changed by edit,
// and returns its URL and the function that stops it (called, if not
// before, when the test ends).
func runPlayground(t *testing.T, db string, edit ...func(*playground.Config)) (string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	ln, err := playground.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	store, err := bolt.Open(db, &bolt.Options{AIRatings: bot.AIRatings}) // as gambit playground opens it
	if err != nil {
		t.Fatal(err)
	}
	cfg := playground.Config{
		Listener:  ln,
		Store:     store,
		StatePath: strings.TrimSuffix(db, ".db") + ".json",
		Bot:       bot.Config{AI: bot.AIConfig{MoveTime: 300 * time.Millisecond}, Timers: bot.TimerConfig{TickInterval: 50 * time.Millisecond}},
		Ready: func(url string) {
			urls <- url
		},
		// A click the bot answers late on a loaded machine must not
		// be lost to Discord's 3 seconds: the test waits for the
		// answer ("You played …"), not for the bot's speed.
		StandIn: []discordtest.ServerOption{discordtest.AnswerUntilTestDeadline(t)},
	}
	for _, e := range edit {
		e(&cfg)
	}
	go func() {
		defer store.Close()
		done <- playground.Run(ctx, cfg)
	}()
	stop := sync.OnceFunc(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("playground: %v", err)
		}
	})
	t.Cleanup(stop)
	started, cancelStarted := discordtest.UntilTestDeadline(t, context.Background())
	defer cancelStarted()
	select {
	case url := <-urls:
		return url, stop
	case err := <-done:
		t.Fatalf("playground did not start: %v", err)
	case <-started.Done():
		t.Fatal("playground did not start")
	}
	return "", stop
}

// browser opens url in a headless browser and returns its context: a
// window of the package's one Chromium (sharedBrowser) in a browser
// context of its own, with its own cookies, storage and cache, closed when
// the test ends.
func browser(t *testing.T, url string) context.Context {
	t.Helper()
	path := findChromium()
	if path == "" {
		if os.Getenv("GAMBIT_REQUIRE_BROWSER") == "1" {
			t.Fatal("no Chromium found, and GAMBIT_REQUIRE_BROWSER=1")
		}
		t.Skip("no Chromium found (install Debian's chromium package to run the browser tests)")
	}
	shared, err := sharedBrowser(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancelCtx := chromedp.NewContext(shared, chromedp.WithNewBrowserContext())
	t.Cleanup(cancelCtx)
	// The window opens with the first action and lives as long as the
	// test, so it opens without the deadline: the screenshot of a test
	// that ran out of time is taken after it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a window of %s: %v", path, err)
	}
	ctx, cancel := discordtest.UntilTestDeadline(t, ctx)
	t.Cleanup(cancel)
	run(t, ctx, chromedp.Navigate(url), waitVisible(`#connection[data-state="open"]`))
	return ctx
}

// theBrowser is the package's one Chromium, started by the first browser
// test (sharedBrowser) and stopped by TestMain when every test has ended,
// instead of one started and stopped for each test.
var theBrowser struct {
	once sync.Once
	ctx  context.Context // the browser's first tab, with no deadline
	stop func()
	err  error
}

// sharedBrowser starts the Chromium at path once and returns its context;
// each test opens a window of its own in it (browser).
func sharedBrowser(path string) (context.Context, error) {
	theBrowser.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.NoSandbox, // CI runs as root
			chromedp.WindowSize(1280, 1000),
		)
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(allocCtx, chromedp.WithErrorf(log.Printf))
		theBrowser.ctx, theBrowser.stop = ctx, func() { cancelCtx(); cancelAlloc() }
		if err := chromedp.Do(ctx); err != nil {
			theBrowser.err = fmt.Errorf("start %s: %w", path, err)
		}
	})
	return theBrowser.ctx, theBrowser.err
}

// stopBrowser stops the shared Chromium if a test started it.
func stopBrowser() {
	if theBrowser.stop != nil {
		theBrowser.stop()
	}
}

// css is a CSS selector.
func css(sel string) chromedp.CSS { return chromedp.CSS(sel) }

// run runs browser actions, failing the test with a screenshot's path on
// error.
func run(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		fail(t, ctx, err)
	}
}

// value runs one browser action that returns a value.
func value[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		fail(t, ctx, err)
	}
	return v
}

// fail ends a browser test, saving a screenshot and logging the page.
func fail(t *testing.T, ctx context.Context, err error) {
	t.Helper()
	// The test's context may be what ended: the screenshot and the page
	// are taken in the grace left for them.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), discordtest.DeadlineMargin/2)
	defer cancel()
	if shot, serr := chromedp.Run(ctx, chromedp.FullScreenshot(80)); serr == nil {
		t.Logf("screenshot of the failure: %s", saveArtifact(t, "failure-"+t.Name()+".jpg", shot))
	}
	html, _ := chromedp.Run(ctx, chromedp.OuterHTML(css("body")))
	t.Fatalf("browser: %v\npage:\n%s", err, html)
}

// saveArtifact writes a test artifact to GAMBIT_ARTIFACTS (CI keeps that
// directory) or to the test's temporary directory, and returns its path.
func saveArtifact(t *testing.T, name string, data []byte) string {
	t.Helper()
	dir := os.Getenv("GAMBIT_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, strings.ReplaceAll(name, "/", "_"))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// choose sets a native select's value and fires its change event, as a
// person choosing an option does.
func choose(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		js := fmt.Sprintf(`(() => {
			const el = document.querySelector(%q);
			if (!el || ![...el.options].some(o => o.value === %q)) return false;
			el.value = %q;
			el.dispatchEvent(new Event('input', {bubbles: true}));
			el.dispatchEvent(new Event('change', {bubbles: true}));
			return true;
		})()`, sel, value, value)
		ok, err := chromedp.Evaluate[bool](js)(ctx, t)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("select %s has no option %q", sel, value)
		}
		return nil
	})
}

// click clicks the element matching sel once it is shown and enabled.
// The element is found and clicked in one step inside the page, so a
// redraw between the two (the page replaces a list of choices with every
// answer to a keystroke, and a message whenever the stand-in edits it)
// cannot make the click act on a node that is gone.
func click(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](fmt.Sprintf(`(() => {
			const el = document.querySelector(%q);
			if (!el || el.disabled || !el.getClientRects().length) return false;
			el.click();
			return true;
		})()`, sel), whileTestRuns)(ctx, t)
		return err
	})
}

// typeInto types text into the field matching sel, as keystrokes, once the
// field is shown: the field is found and focused in one step inside the
// page, and the keys go to the focused element.
func typeInto(sel, text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](fmt.Sprintf(`(() => {
			const el = document.querySelector(%q);
			if (!el || el.disabled || !el.getClientRects().length) return false;
			el.focus();
			return document.activeElement === el;
		})()`, sel), whileTestRuns)(ctx, t)
		if err != nil {
			return err
		}
		_, err = chromedp.KeyEvent(text)(ctx, t)
		return err
	})
}

// waitText waits until the text of the element matching sel contains want.
func waitText(sel, want string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](fmt.Sprintf(`(() => {
			const els = [...document.querySelectorAll(%q)];
			return els.some(e => e.innerText.includes(%q));
		})()`, sel, want), whileTestRuns)(ctx, t)
		return err
	})
}

// press clicks the enabled element matching sel until the page moves on
// (no element matches sel any more); see pressUntil.
func press(sel string) chromedp.Action[chromedp.Void] { return pressUntil(sel, "") }

// pressUntil clicks the enabled element matching sel until an element
// matches done (or, with done empty, until none matches sel). The page
// redraws a message whenever the stand-in changes it, and a click that
// lands on an element being replaced is lost, so it is given again on the
// new element. A repeated click of a move already made is refused by the
// bot as out of date.
func pressUntil(sel, done string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](fmt.Sprintf(`(() => {
			const done = %q, b = document.querySelector(%q);
			if (done ? document.querySelector(done) : !b) return true;
			if (b && !b.disabled && !b.dataset.pressed) { b.dataset.pressed = "1"; b.click(); }
			return false;
		})()`, done, sel), whileTestRuns)(ctx, t)
		return err
	})
}

// waitPicture waits until a board's picture, served by the stand-in, has
// loaded and decoded in the page.
func waitPicture() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](`[...document.querySelectorAll('.message .media-gallery img.media')].some(i => i.complete && i.naturalWidth > 0)`,
			whileTestRuns)(ctx, t)
		return err
	})
}

// member switches the page to the named member.
func member(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		id, err := memberIDOf(name)(ctx, t)
		if err != nil {
			return err
		}
		if id == "" {
			return fmt.Errorf("no member %q in the switcher", name)
		}
		_, err = chromedp.Steps(choose("#member-select", id), waitVisible(`#connection[data-state="open"]`))(ctx, t)
		return err
	})
}

// memberIDOf reads a member's ID from the switcher ("" if absent).
func memberIDOf(name string) chromedp.Action[string] {
	return chromedp.Evaluate[string](fmt.Sprintf(
		`[...document.querySelectorAll('#member-select option')].find(o => o.textContent.trim() === %q)?.value ?? ""`, name))
}

// command types a slash command's name and picks it from the suggestions.
func command(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		typeInto("#command-input", "/"+name),
		click(fmt.Sprintf(`.command-suggestion[data-command=%q]`, name)),
	)
}

// memberID returns the ID of a member, from the switcher.
func memberID(t *testing.T, ctx context.Context, name string) string {
	t.Helper()
	id := value(t, ctx, memberIDOf(name))
	if id == "" {
		t.Fatalf("no member %q", name)
	}
	return id
}

func TestBrowserAdjacencyAgainstAnAI(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	run(t, ctx,
		member("alice"),
		command("play"),
		choose(`[data-option="game"]`, "adjacency"),
		typeInto(`[data-option="ai"]`, "gree"),
		click(`.autocomplete-choice[data-value="greedy"]`),
		typeInto(`[data-option="rounds"]`, "3"),
		click("#command-send"),
		waitText(".message .container", "Adjacency"),
		waitPicture(),
	)
	// Three moves of alice's, each through the first cell select, each
	// answered by the AI.
	for i := range 3 {
		// The AI has answered when a select for alice's next ply is up.
		pick := fmt.Sprintf(`select[data-custom-id^="v1/pick/"][data-custom-id*="/%d/"]`, 2*i)
		run(t, ctx, waitVisible(pick))
		sel := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).dataset.customId`, pick)))
		cell := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`[...document.querySelector(%q).options].find(o => o.value && !o.disabled).value`, pick)))
		run(t, ctx, choose(fmt.Sprintf(`select[data-custom-id=%q]`, sel), cell))
	}
	run(t, ctx, waitVisible(`button[data-custom-id^="v1/rematch/"]`))
	shot := value(t, ctx, chromedp.FullScreenshot(100))
	t.Logf("screenshot: %s", saveArtifact(t, "playground-adjacency.png", shot))
	updateDocs(t, ctx, "playground.png")
}

// TestBrowserAdjacencyInTwoClicks plays Adjacency moves the two-click way:
// a file under the board, then a rank on the picker only alice sees.
func TestBrowserAdjacencyInTwoClicks(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	run(t, ctx,
		member("alice"),
		command("play"),
		choose(`[data-option="game"]`, "adjacency"),
		typeInto(`[data-option="ai"]`, "gree"),
		click(`.autocomplete-choice[data-value="greedy"]`),
		typeInto(`[data-option="rounds"]`, "2"),
		click("#command-send"),
	)
	for i, f := range []string{"c", "e"} { // files with a free cell in any 2-round game
		file := fmt.Sprintf(`button[data-custom-id^="v1/file/"][data-custom-id*="/%d/"][data-custom-id$="/%s"]`, 2*i, f)
		rank := fmt.Sprintf(`.message.ephemeral button[data-custom-id^="v1/cell/"][data-custom-id*="/%d/%s"]:not([disabled])`, 2*i, f)
		run(t, ctx, waitEnabled(file), pressUntil(file, rank), waitVisible(rank))
		if i == 0 {
			// A second picker of the same file, as a file press given
			// again after a redraw opens (pressUntil): its buttons stay
			// after the move is played on the first.
			value(t, ctx, chromedp.Poll[bool](fmt.Sprintf(`(() => {
				if (new Set([...document.querySelectorAll(%q)].map(b => b.closest('.message'))).size >= 2) return true;
				const b = document.querySelector(%q);
				if (b && !b.disabled && !b.dataset.again) { b.dataset.again = "1"; b.click(); }
				return false;
			})()`, rank, file), whileTestRuns))
		}
		if i == 0 {
			shot := value(t, ctx, chromedp.FullScreenshot(100))
			t.Logf("screenshot: %s", saveArtifact(t, "playground-adjacency-two-clicks.png", shot))
		}
		cell := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).dataset.customId.split('/').pop()`, rank)))
		// The cell is pressed until the game has moved on (the AI's answer
		// is on the board, or the game is over), not until no such button
		// is left: a file press given again after a redraw (pressUntil)
		// opens a second picker, whose buttons stay after the move, and
		// the bot rightly refuses them as out of date. Only that cell's
		// buttons are pressed, so the move played is the one read.
		moved := fmt.Sprintf(`button[data-custom-id^="v1/file/"][data-custom-id*="/%d/"], button[data-custom-id^="v1/rematch/"]`, 2*i+2)
		chosen := fmt.Sprintf(`.message.ephemeral button[data-custom-id^="v1/cell/"][data-custom-id$="/%d/%s"]:not([disabled])`, 2*i, cell)
		run(t, ctx, pressUntil(chosen, moved), waitText(".message.ephemeral", "You played "+cell))
	}
	run(t, ctx, waitVisible(`button[data-custom-id^="v1/rematch/"]`))
}

func TestBrowserTicTacToeBetweenTwoMembers(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	bob := memberID(t, ctx, "bob")
	id := challengeAccepted(t, ctx, bob)
	// A drawn game: 1 X, 2 O, 3 X / 4 X, 5 O, 6 O / 7 O, 8 X, 9 X.
	play(t, ctx, id, 0, "1", "5", "9", "2", "8", "7", "3", "6", "4")
	run(t, ctx, waitText(".message .container", "Draw"), waitPicture())
	shot := value(t, ctx, chromedp.FullScreenshot(100))
	t.Logf("screenshot: %s", saveArtifact(t, "playground-tictactoe.png", shot))
}

func TestBrowserAddMemberBeyondTheCap(t *testing.T) {
	t.Parallel()
	url := startPlayground(t)
	var st state
	api(t, "GET", url+"api/state", nil, &st)
	for i := len(st.Members); i < playground.MaxMembers-1; i++ {
		if code := api(t, "POST", url+"api/members", map[string]string{"name": fmt.Sprint("m", i)}, nil); code != 200 {
			t.Fatalf("member %d: %d", i+1, code)
		}
	}
	ctx := browser(t, url)
	// The page asks for the name with window.prompt; answer it.
	run(t, ctx,
		chromedp.Evaluate[chromedp.Void](`window.prompt = () => 'carol'`),
		click("#add-member"),
		waitText("#member-select", "carol"),
		// Adding carol switches to her and reconnects; click again once the
		// page has settled, as a member switch elsewhere waits (a click while
		// the page redraws may land beside the button).
		waitVisible(`#connection[data-state="open"]`),
		chromedp.Evaluate[chromedp.Void](`window.prompt = () => 'dave'`),
		click("#add-member"),
		waitText("#command-error", fmt.Sprintf("Could not add the member: the playground has its %d members already", playground.MaxMembers)),
	)
	if n := value(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('#member-select option').length`)); n != playground.MaxMembers {
		t.Errorf("the switcher lists %d members, want %d", n, playground.MaxMembers)
	}
}

// TestBrowserEightPuzzleSolvedWithHints deals an easy 8-puzzle through the
// page and solves it there: at each ply it presses Hint, reads the move
// from the private answer and presses the tile that plays it, until the
// board says the puzzle is solved.
func TestBrowserEightPuzzleSolvedWithHints(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	run(t, ctx,
		member("alice"),
		command("puzzle"),
		choose(`[data-option="game"]`, "8puzzle"),
		choose(`[data-option="difficulty"]`, "easy"),
		click("#command-send"),
		waitVisible(`button[data-custom-id^="v1/hint/"][data-custom-id$="/0"]`),
	)
	for ply := 0; ; ply++ {
		if ply > 10 {
			t.Fatal("an easy 8-puzzle not solved in 10 moves of hints")
		}
		hint := fmt.Sprintf(`button[data-custom-id^="v1/hint/"][data-custom-id$="/%d"]`, ply)
		run(t, ctx, waitEnabled(hint))
		seen := value(t, ctx, chromedp.Evaluate[int](`[...document.querySelectorAll('.message')].filter(m => m.innerText.includes('Next:')).length`))
		// The next hint names the tile that slides: "/move cell:7". Hint
		// is pressed again if a redraw swallowed the click (see pressUntil).
		move := value(t, ctx, chromedp.Poll[string](fmt.Sprintf(`(() => {
			const hints = [...document.querySelectorAll('.message')].filter(m => m.innerText.includes('Next:'));
			if (hints.length <= %d) {
				const b = document.querySelector(%q);
				if (b && !b.disabled && !b.dataset.pressed) { b.dataset.pressed = "1"; b.click(); }
				return null;
			}
			const m = hints[hints.length - 1].innerText.match(/move cell:(\d+)/);
			return m ? m[1] : null;
		})()`, seen, hint), whileTestRuns))
		// The board's button of that tile, labelled with its number.
		id := value(t, ctx, chromedp.Poll[string](fmt.Sprintf(`(() => {
			const b = [...document.querySelectorAll('button[data-custom-id^="v1/move/"]')]
				.find(b => b.dataset.customId.split('/')[3] === %q && b.innerText.trim() === %q);
			return b ? b.dataset.customId : null;
		})()`, strconv.Itoa(ply), move), whileTestRuns))
		tile := fmt.Sprintf(`button[data-custom-id=%q]`, id)
		run(t, ctx, waitEnabled(tile), press(tile))
		solved := value(t, ctx, chromedp.Poll[string](fmt.Sprintf(`(() => {
			if ([...document.querySelectorAll('.message .container')].some(e => e.innerText.includes('Solved'))) return "solved";
			return document.querySelector('button[data-custom-id^="v1/hint/"][data-custom-id$="/%d"]') ? "next" : null;
		})()`, ply+1), whileTestRuns))
		if solved == "solved" {
			break
		}
	}
	run(t, ctx, waitText(".message .container", "optimal!"))
	shot := value(t, ctx, chromedp.FullScreenshot(100))
	t.Logf("screenshot: %s", saveArtifact(t, "playground-8puzzle.png", shot))
}

// TestBrowserMessageLinksStayInThePage: the bot links boards as Discord
// message links (/games); in the playground they lead to the message in
// the page, not to discord.com.
func TestBrowserMessageLinksStayInThePage(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	bob := memberID(t, ctx, "bob")
	run(t, ctx,
		challenged(bob),
		command("games"),
		click("#command-send"),
		waitVisible(`.message.ephemeral a`),
	)
	href := value(t, ctx, chromedp.Evaluate[string](`document.querySelector('.message.ephemeral a').getAttribute('href')`))
	if !strings.HasPrefix(href, "#message-") {
		t.Fatalf("the board link in /games goes to %q, want a message of the page", href)
	}
	if !value(t, ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.getElementById(%q)?.querySelector('button[data-custom-id^="v1/accept/"]') != null`, strings.TrimPrefix(href, "#")))) {
		t.Errorf("the link %s does not lead to the challenge", href)
	}
}

// TestBrowserSpeakingIndonesian: alice switches her language to
// Indonesian; the command box lists /help as /bantuan, and the bot's
// answer is in Indonesian. A locale the bot has no catalogue for is
// refused, the refusal shown and the selector put back.
func TestBrowserSpeakingIndonesian(t *testing.T) {
	t.Parallel()
	ctx := browser(t, startPlayground(t))
	run(t, ctx,
		member("alice"),
		choose("#member-locale", i18n.Indonesian),
		waitText("#locale-status", "Indonesian"),
		typeInto("#command-input", "/"+i18n.For(i18n.Indonesian).T("cmd.help.name")),
		click(`.command-suggestion[data-command="help"]`),
		click("#command-send"),
		waitText(".message.ephemeral", overview(i18n.Indonesian)),
		// The line above the answer names the command as alice's Discord
		// shows it.
		waitText(".interaction-command", "/"+i18n.For(i18n.Indonesian).T("cmd.help.name")),
		choose("#server-locale", i18n.Indonesian),
		waitText("#locale-status", "next edit"),
	)
	// Times relative to now read in alice's language, as a challenge's
	// expiry (<t:…:R>) does on her Discord.
	if s := value(t, ctx, chromedp.Evaluate[string](`formatTimestamp(Math.round(Date.now() / 1000) + 300, 'R')`)); s != "dalam 5 menit" {
		t.Errorf("a time 5 minutes ahead reads %q for alice, who speaks Indonesian; want %q", s, "dalam 5 menit")
	}
	shot := value(t, ctx, chromedp.FullScreenshot(100))
	t.Logf("screenshot: %s", saveArtifact(t, "playground-indonesian.png", shot))

	// "/" lists the commands by the names alice reads, in their order:
	// they were sorted by the English names.
	run(t, ctx,
		typeInto("#command-input", "/"),
		waitVisible(".command-suggestion"),
	)
	listed := value(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.command-suggestion .suggestion-name')].map((e) => e.textContent)`))
	if !slices.IsSorted(listed) || len(listed) < 5 || !slices.Contains(listed, "/"+i18n.For(i18n.Indonesian).T("cmd.help.name")) {
		t.Errorf("alice, in Indonesian, is offered the commands %q: want her names, in order", listed)
	}

	// A locale the selector does not offer, as a stale page could send.
	run(t, ctx,
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#member-locale').append(new Option('French', 'fr'))`),
		choose("#member-locale", "fr"),
		waitText("#command-error", `Could not set the language: locale "fr"`),
	)
	if l := value(t, ctx, chromedp.Evaluate[string](`document.querySelector('#member-locale').value`)); l != i18n.Indonesian {
		t.Errorf("the member's selector shows %q after the refusal, want %q", l, i18n.Indonesian)
	}
}

// The size of the docs' screenshots (updateDocs).
const docsWidth, docsHeight = 1280, 1300

// updateDocs writes a screenshot for the docs (docs/name) when
// GAMBIT_UPDATE_DOCS=1, so that the picture the docs show is the product's
// as its test saw it. The window is made tall enough for a whole game
// message first:
//
//	GAMBIT_UPDATE_DOCS=1 go test -run TestBrowserAdjacencyAgainstAnAI ./internal/playground
func updateDocs(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if os.Getenv("GAMBIT_UPDATE_DOCS") != "1" {
		return
	}
	run(t, ctx, chromedp.EmulateViewport(docsWidth, docsHeight))
	shot := value(t, ctx, chromedp.FullScreenshot(100))
	path := filepath.Join("..", "..", "docs", name)
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatalf("update the docs' picture: %v", err)
	}
	t.Logf("wrote %s", path)
}
