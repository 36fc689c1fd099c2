package playground_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gambitbot/gambit/bot/i18n"
	"github.com/gambitbot/gambit/bot/render"
	"github.com/gambitbot/gambit/internal/playground"
	"github.com/gambitbot/gambit/storage"
)

// swissRounds is the length of the Swiss the browser test plays: with
// four players, three rounds are everyone against everyone (no pairing
// repeats), so that the test meets every kind of board — two members,
// a member and an AI, two AIs — whatever the results of the first round.
const swissRounds = 3

// TestBrowserSwissToThePodium plays a Swiss of Tic-Tac-Toe in the page,
// from /tournament create to the podium: alice announces it, open to AIs,
// joins, enters two AIs with the announcement's select and starts it once
// bob has joined (the page switched to him); then, round after round, the
// page shows the pairings (with the standings and their picture after
// round 1), alice and bob play their boards by clicking — against each
// other and against the AIs — while the AIs' board plays itself, and at
// the end the podium, with the final standings as text and picture. With
// GAMBIT_UPDATE_DOCS=1 it writes docs/tournament.png.
//
// The tournament's time per move is a day, the most it may be: no move
// timer runs out before the test binary's deadline (go test -timeout), so
// no forfeit depends on how fast the machine plays the test.
func TestBrowserSwissToThePodium(t *testing.T) {
	t.Parallel()
	var store storage.Store
	ctx := browser(t, startPlayground(t, func(c *playground.Config) { store = c.Store }))
	members := memberNames{}
	for _, name := range []string{"alice", "bob"} {
		members[storage.User(memberID(t, ctx, name))] = name
	}
	id := announceSwiss(t, ctx)

	shown := members.shown
	seen := map[string]int{} // boards played, by who sat at them
	for n := 1; n <= swissRounds; n++ {
		head := fmt.Sprintf("Round %d:", n)
		pairings := messageWith(t, ctx, head)
		tr, err := store.Tournament(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Rounds) < n {
			t.Fatalf("the page shows round %d's pairings, the store has %d rounds", n, len(tr.Rounds))
		}
		round := tr.Rounds[n-1]
		text := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).innerText`, pairings)))
		if len(round.Boards) != 2 {
			t.Fatalf("round %d of four players has boards %+v, want two games", n, round.Boards)
		}
		players := map[storage.PlayerID]storage.Player{}
		for _, e := range tr.Entrants {
			players[e.Player.ID] = e.Player
		}
		for _, b := range round.Boards {
			line := shown(players[b.White]) + " (moves first) vs " + shown(players[b.Black])
			if !strings.Contains(text, line) {
				t.Errorf("round %d's pairings do not say %q:\n%s", n, line, text)
			}
		}
		if n > 1 {
			if !strings.Contains(text, fmt.Sprintf("Standings after round %d", n-1)) {
				t.Errorf("round %d's pairings come without the standings after round %d:\n%s", n, n-1, text)
			}
			run(t, ctx, pictureShown(pairings))
		}
		for _, b := range round.Boards {
			humans := 0
			for _, p := range []storage.PlayerID{b.White, b.Black} {
				if _, ok := members[p]; ok {
					humans++
				}
			}
			seen[[]string{"two AIs", "a member and an AI", "two members"}[humans]]++
			if humans > 0 {
				playBoard(t, ctx, store, b.Game, members)
			}
		}
		// Every board of the round has ended, the AIs' too, when the
		// next round's pairings or the podium are up; each board comes
		// to say how its game ended.
		next := "The tournament is over"
		if n < swissRounds {
			next = fmt.Sprintf("Round %d:", n+1)
		}
		run(t, ctx, waitText(".message .embed", next))
		for _, b := range round.Boards {
			g, err := store.Game(context.Background(), b.Game)
			if err != nil {
				t.Fatal(err)
			}
			if !g.Status.Ended() || len(g.Moves) == 0 {
				t.Fatalf("round %d's game %s is %s after %d moves when the next pairings are up", n, g.ID, g.Status, len(g.Moves))
			}
			// The board's last edit may follow the pairings: the game's
			// end is stored, and the tournament moves on, first.
			run(t, ctx, waitText(fmt.Sprintf(`.message[data-message-id=%q]`, g.MessageID), members.ended(g)))
		}
	}
	for _, kind := range []string{"two members", "a member and an AI", "two AIs"} {
		if seen[kind] == 0 {
			t.Errorf("no board of %s in %d rounds: %v", kind, swissRounds, seen)
		}
	}

	podium := messageWith(t, ctx, "The tournament is over")
	tr, err := store.Tournament(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Status != storage.TournamentFinished {
		t.Fatalf("the podium is up and the tournament is %s", tr.Status)
	}
	run(t, ctx, pictureShown(podium))
	text := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).innerText`, podium)))
	for _, e := range tr.Entrants {
		if e.Rank == 1 && !strings.Contains(text, "🥇 "+shown(e.Player)) {
			t.Errorf("the podium does not give %s, first, the gold:\n%s", shown(e.Player), text)
		}
		if !strings.Contains(text, shown(e.Player)) {
			t.Errorf("the final standings leave out %s:\n%s", shown(e.Player), text)
		}
	}
	if !strings.Contains(text, "Final standings") {
		t.Errorf("the podium has no final standings:\n%s", text)
	}
	// The table's lines, each led by a medal or a place, are drawn apart:
	// no emoji runs into the line above.
	if overlaps := value(t, ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`(() => {
		const rects = [...document.querySelectorAll(%q + ' .embed-field-value .emoji')]
			.map(e => [e.textContent, e.getBoundingClientRect()]).sort((a, b) => a[1].top - b[1].top);
		const out = [];
		for (let i = 1; i < rects.length; i++) {
			const [above, a] = rects[i-1], [below, b] = rects[i];
			if (b.top > a.top + 1 && b.top < a.bottom - 1) out.push(below + ' runs into ' + above);
		}
		return out;
	})()`, podium))); len(overlaps) > 0 {
		t.Errorf("the final standings' lines run into each other: %v", overlaps)
	}
	run(t, ctx, chromedp.ScrollIntoView(css(podium)))
	shot := value(t, ctx, chromedp.FullScreenshot(100))
	t.Logf("screenshot: %s", saveArtifact(t, "playground-tournament.png", shot))
	updateDocs(t, ctx, "tournament.png")
}

// announceSwiss has alice announce a Swiss of Tic-Tac-Toe open to AIs in
// the page, join it, enter two AIs with the announcement's select, and
// start it once bob has joined; it returns the tournament's ID.
func announceSwiss(t *testing.T, ctx context.Context) storage.TournamentID {
	t.Helper()
	run(t, ctx,
		member("alice"),
		command("tournament"),
		choose("#subcommand-select", "create"),
		choose(`[data-option="format"]`, "swiss"),
		choose(`[data-option="game"]`, "tictactoe"),
		typeInto(`[data-option="name"]`, "Playground Cup"),
		typeInto(`[data-option="rounds"]`, strconv.Itoa(swissRounds)),
		typeInto(`[data-option="movetime"]`, "86400"),
		click(`[data-option="ai"]`),
		click("#command-send"),
		waitText(".message .embed", fmt.Sprintf("Swiss, %d rounds", swissRounds)),
		waitText(".message .embed", "Open to AIs"),
	)
	join := `.message button[data-custom-id^="v1/tournament/"][data-custom-id$="/join"]`
	id := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).dataset.customId.split('/')[2]`, join)))
	ai := fmt.Sprintf(`select[data-custom-id="v1/tournament/%s/ai"]`, id)
	start := fmt.Sprintf(`button[data-custom-id="v1/tournament/%s/start"]`, id)
	run(t, ctx,
		pressUntilText(join, ".message .embed", "Players (1/"),
		member("bob"),
		pressUntilText(join, ".message .embed", "Players (2/"),
		member("alice"),
		waitEnabled(ai),
		choose(ai, "minimax"),
		waitText(".message .embed", "Players (3/"),
		waitEnabled(ai),
		choose(ai, "mcts"),
		waitText(".message .embed", "Players (4/"),
		waitText(".message .embed", "Monte Carlo"),
		pressUntilText(start, ".message .embed", "Under way"),
	)
	return storage.TournamentID(id)
}

// messageWith waits for the channel's message (not an answer only a
// member sees) whose text has want, and returns a selector of it.
func messageWith(t *testing.T, ctx context.Context, want string) string {
	t.Helper()
	id := value(t, ctx, chromedp.Poll[string](fmt.Sprintf(
		`[...document.querySelectorAll('.message:not(.ephemeral)')].find(m => m.innerText.includes(%q))?.dataset.messageId ?? null`, want),
		whileTestRuns))
	return fmt.Sprintf(`.message[data-message-id=%q]`, id)
}

// pictureShown waits until the picture of the message matching sel (a
// table of standings), served by the stand-in, has loaded and decoded in
// the page; it is scrolled into view first, as the page loads a picture
// when it is about to be seen.
func pictureShown(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Poll[bool](fmt.Sprintf(`(() => {
			const i = document.querySelector(%q + ' .embed img.media');
			if (!i) return false;
			if (!i.complete) i.scrollIntoView({block: 'nearest'});
			return i.complete && i.naturalWidth > 0;
		})()`, sel), whileTestRuns)(ctx, t)
		return err
	})
}

// playBoard plays game, a board of a member (or two), to its end in the
// page: at each member's turn the page switches to them and they press
// the board's first free cell; an AI's turn is waited out.
func playBoard(t *testing.T, ctx context.Context, store storage.Store, game storage.GameID, members memberNames) {
	t.Helper()
	moves := fmt.Sprintf(`button[data-custom-id^="v1/move/%s/"]`, game)
	msg := value(t, ctx, chromedp.Poll[string](fmt.Sprintf(
		`document.querySelector('.message:not(.ephemeral) ' + %q)?.closest('.message').dataset.messageId ?? null`, moves), whileTestRuns))
	board := fmt.Sprintf(`.message[data-message-id=%q]`, msg)
	for {
		// The board at a member's turn (a free cell enabled) or at the
		// end (no cells left: the game's end shows other buttons).
		cell := value(t, ctx, chromedp.Poll[string](fmt.Sprintf(`(() => {
			const m = document.querySelector(%q);
			if (!m) return null;
			const cells = [...m.querySelectorAll(%q)];
			if (!cells.length) return "end";
			return cells.find(b => !b.disabled)?.dataset.customId ?? null;
		})()`, board, moves), whileTestRuns))
		if cell == "end" {
			return
		}
		g, err := store.Game(context.Background(), game)
		if err != nil {
			t.Fatal(err)
		}
		if ply := strings.Split(cell, "/")[3]; ply != strconv.Itoa(len(g.Moves)) {
			continue // the page is about to show a move the store has
		}
		who, ok := members[g.Players[g.Turn].ID]
		if !ok {
			t.Fatalf("game %s: the board offers a move to %s, who is no member", game, g.Players[g.Turn].ID)
		}
		run(t, ctx, member(who), press(fmt.Sprintf(`button[data-custom-id=%q]`, cell)))
	}
}

// memberNames are the page's members by their player IDs.
type memberNames map[storage.PlayerID]string

// shown is a player's name as the page shows it, in English: a member's
// mention as "@name".
func (m memberNames) shown(p storage.Player) string {
	if name, ok := m[p.ID]; ok {
		return "@" + name
	}
	return render.PlayerName(i18n.For(i18n.English), "tictactoe", p)
}

// ended is what the board of g, an ended game, says of its end: its
// winner, or a draw.
func (m memberNames) ended(g *storage.Game) string {
	if g.Result == nil || g.Result.Winner == storage.Draw {
		return "Draw"
	}
	return m.shown(g.Players[g.Result.Winner]) + " wins"
}
