package bot_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gambitbot/gambit/bot/customid"
	"github.com/gambitbot/gambit/engine/adjacency"
	"github.com/gambitbot/gambit/internal/discordtest"
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/daily"
)

// dailyKey is the install's key of the daily puzzles, from the store.
func dailyKey(t *testing.T, h *harness) []byte {
	t.Helper()
	key, err := h.db().Secret(h.ctx(), storage.DailyKey)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// puzzleOf returns guild's puzzle of day, made as the bot makes it.
func puzzleOf(t *testing.T, h *harness, day, guild string) daily.Puzzle {
	t.Helper()
	p, err := daily.ForDay(h.ctx(), dailyKey(t, h), day, guild)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// dailyPost waits for the post of the daily puzzle of day in channel.
func dailyPost(t *testing.T, h *harness, channel, day string) discordtest.Message {
	t.Helper()
	m, err := h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool {
		return m.ChannelID == channel && m.VisibleTo == "" && strings.Contains(embedText(m), "Daily puzzle · "+day)
	})
	if err != nil {
		t.Fatalf("no daily puzzle posted for %s: %v\nlogs:\n%s", day, err, h.logs.String())
	}
	return readable(m)
}

// TestDailyBestMovePostedAndAnswered turns the daily puzzle on, lets the
// timers post it (on the manual clock, at the first tick of the day),
// and has members answer the day's Adjacency position from the post: a
// hint narrows the moves, a wrong move fails, the one winning move
// solves with a streak of a day, a second answer is refused, giving up
// shows the answer; /daily shows the solvers with their hints. Each
// answer stays private, and the channel sees each member's result once,
// without the answer. The next
// day brings the next post, and the old one's buttons are refused.
func TestDailyBestMovePostedAndAnswered(t *testing.T) {
	t.Parallel()
	h := start(t, withClock()) // 2026-11-22, Adjacency's day
	alice, bob, carol, dave := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID, h.srv.AddUser("dave").ID
	guild, channel := h.srv.GuildID(), h.srv.ChannelID()
	_, m := h.command(alice, "settings", opt("daily-channel", channel))
	if s := embedText(m); !strings.Contains(s, "Daily puzzle") || !strings.Contains(s, "<#"+channel+">") {
		t.Fatalf("/settings daily-channel answered:\n%s", s)
	}
	day := "2026-11-22"
	post := dailyPost(t, h, channel, day)
	p := puzzleOf(t, h, day, guild)
	if p.Kind != daily.Adjacency || !strings.Contains(embedText(post), "to move: find the one move that wins") && !strings.Contains(embedText(post), "saves the game") {
		t.Fatalf("the post of %s puzzle %+v says:\n%s", p.Kind, p, embedText(post))
	}
	b, err := adjacency.ParseBoard(p.Position)
	if err != nil {
		t.Fatal(err)
	}
	wrong := ""
	for _, mv := range b.Moves(nil) {
		if b.FormatMove(mv) != p.Answer {
			wrong = b.FormatMove(mv)
		}
	}
	move := func(cell string) string {
		id, ok := find(post, customid.DailyMove, map[string]string{"cell": cell})
		if !ok {
			t.Fatalf("no button plays %s on the post: %+v", cell, controls(post))
		}
		return id
	}
	hint, _ := find(post, customid.DailyHint, nil)
	giveUp, _ := find(post, customid.DailyGiveUp, nil)

	if r := h.click(carol, post.ID, hint); !r.Ephemeral() || !strings.Contains(r.Content, "The move is one of") || !strings.Contains(r.Content, "**"+p.Answer+"**") {
		t.Fatalf("carol's hint: %q", r.Content)
	}
	if r := h.click(bob, post.ID, move(wrong)); !strings.Contains(text(r), "**"+wrong+"** is not it") || !strings.Contains(text(r), "**"+p.Answer+"**") {
		t.Fatalf("bob's wrong move:\n%s", text(r))
	}
	r := h.click(carol, post.ID, move(p.Answer))
	if s := text(r); !r.Ephemeral() || !strings.Contains(s, "**"+p.Answer+"** is right") || !strings.Contains(s, "Your streak: 1 day") {
		t.Fatalf("carol's answer:\n%s", s)
	}
	newPuzzle, ok := find(r, customid.PracticeNew, map[string]string{"kind": "adjacency"})
	if !ok {
		t.Fatalf("no New puzzle after a solve: %+v", controls(r))
	}
	practiceHintAndGiveUp(t, h, carol, h.click(carol, r.ID, newPuzzle))
	if r := h.click(bob, post.ID, move(p.Answer)); !strings.Contains(r.Content, "You missed today's puzzle") {
		t.Errorf("bob's second answer: %q", r.Content)
	}
	if r := h.click(alice, post.ID, giveUp); !strings.Contains(text(r), "You gave up") || !strings.Contains(text(r), "**"+p.Answer+"**") {
		t.Errorf("alice's give up:\n%s", text(r))
	}
	_, board := h.command(dave, "daily")
	s := text(board)
	if !board.Ephemeral() || !strings.Contains(s, "Today's solvers") || !strings.Contains(s, "1. <@"+carol+"> · 1 hint") ||
		strings.Contains(s, "<@"+bob+">") || !strings.Contains(s, "Played today: 3.") || !strings.Contains(s, "Your streak: 0 days") {
		t.Fatalf("/daily:\n%s", s)
	}
	if _, ok := find(board, customid.DailyMove, nil); !ok {
		t.Errorf("/daily offers dave, who has not played, no moves: %+v", controls(board))
	}
	if _, carols := h.command(carol, "daily"); strings.Contains(text(carols), "is right") || !strings.Contains(text(carols), "You solved today's puzzle") {
		t.Errorf("/daily for carol, who solved it:\n%s", text(carols))
	} else if _, ok := find(carols, customid.DailyMove, nil); ok {
		t.Errorf("/daily offers carol moves after her solve")
	}
	a, err := h.store.DailyAttempt(h.ctx(), guild, day, storage.User(bob))
	if err != nil || a.Status != storage.DailyFailed || a.Moves != 1 {
		t.Errorf("bob's attempt %+v, %v; want failed after one move", a, err)
	}
	for _, want := range []struct{ user, says string }{
		{carol, "solved today's puzzle (Adjacency) with 1 hint. 🔥 1 day in a row."},
		{bob, "missed today's puzzle"},
		{alice, "gave up today's puzzle (Adjacency) with no hints."},
	} {
		got := resultsOf(t, h, channel, want.user, want.says)
		if len(got) != 1 || strings.Contains(text(got[0]), p.Answer) || len(got[0].Attachments) > 0 {
			t.Errorf("the results of <@%s> in the channel: %d, %+v; want one, without the answer", want.user, len(got), got)
		}
	}

	// The next day: the next post; yesterday's buttons are refused.
	h.clock.Advance(12 * time.Hour)
	dailyPost(t, h, channel, "2026-11-23")
	if r := h.clickSeen(dave, post, move(p.Answer)); !strings.Contains(r.Content, "earlier day's puzzle") {
		t.Errorf("a move on yesterday's post: %q", r.Content)
	}
}

// practiceHintAndGiveUp takes hints on a practice best-move puzzle until
// none narrows its moves further — each shows the puzzle again in place,
// its moves narrowed down around the answer — then gives it up, which
// shows the answer.
func practiceHintAndGiveUp(t *testing.T, h *harness, user string, practice discordtest.Message) {
	t.Helper()
	if s := text(practice); !practice.Ephemeral() || !strings.Contains(s, "Practice puzzle") || !strings.Contains(s, "does not count") {
		t.Fatalf("New puzzle showed:\n%s", s)
	}
	moves := 0
	for _, c := range controls(practice) {
		if _, ok := customid.PracticeMove.Match(c.CustomID); ok {
			moves++
		}
	}
	giveUp, ok := find(practice, customid.PracticeGiveUp, nil)
	if !ok {
		t.Fatalf("no Give up on the practice puzzle: %+v", controls(practice))
	}
	answer := text(h.click(user, practice.ID, giveUp))
	at := strings.Index(answer, "The move that ")
	if !strings.Contains(answer, "You gave up") || at < 0 {
		t.Fatalf("giving the practice puzzle up:\n%s", answer)
	}
	best := answer[strings.Index(answer[at:], "**")+at:]
	best = best[:strings.Index(best[2:], "**")+4] // **cell**
	hints := 0
	for shown := practice; ; hints++ {
		hint, ok := find(shown, customid.PracticeHint, map[string]string{"n": strconv.Itoa(hints + 1)})
		if !ok {
			break
		}
		next := h.click(user, shown.ID, hint)
		line := text(next)[strings.Index(text(next), "The move is one of"):]
		line = line[:strings.Index(line, "\n")+1]
		if next.ID != practice.ID || !strings.Contains(line, best) || strings.Count(line, "**") >= 2*moves {
			t.Fatalf("hint %d on the practice puzzle (answer %s, %d moves): message %s, %q", hints+1, best, moves, next.ID, line)
		}
		moves, shown = strings.Count(line, "**")/2, next
	}
	if hints == 0 || moves > 2 {
		t.Errorf("%d hints left %d moves; want hints until two are left", hints, moves)
	}
}

// TestDailyTilesPlayedAsOwnPuzzle plays a sliding-tile daily puzzle from
// /daily: Play starts the member's own board from the day's start (a
// second Play shows it again), its hint is recorded, the solve settles the attempt (the board, the streak
// and the solvers say so) and the solved board offers New puzzle, a
// practice puzzle that counts for nothing.
func TestDailyTilesPlayedAsOwnPuzzle(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	h.clock.Advance(12 * time.Hour) // 2026-11-23, the 8-puzzle's day
	carol := h.srv.AddUser("carol").ID
	guild, day := h.srv.GuildID(), "2026-11-23"
	_, m := h.command(carol, "daily")
	if !strings.Contains(text(m), "Slide the tiles into order") || !strings.Contains(text(m), "Nobody yet") {
		t.Fatalf("/daily on a tiles day:\n%s", text(m))
	}
	play, ok := find(m, customid.DailyPlay, nil)
	if !ok {
		t.Fatalf("no Play on /daily: %+v", controls(m))
	}
	h.click(carol, m.ID, play)
	g := h.waitGame(h.latestGame(carol).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	p := puzzleOf(t, h, day, guild)
	if g.Start != p.Position || g.Settings.Daily != day || !g.Solo() {
		t.Fatalf("the daily game %+v; want the day's start %s", g, p.Position)
	}
	if r := h.click(carol, m.ID, play); !r.Ephemeral() || r.ID == g.MessageID || !hasControl(r, customid.Hint) {
		t.Errorf("a second Play: %q; want her board shown again", r.Content)
	} else {
		g = h.waitGame(g.ID, "the board shown again", func(g *storage.Game) bool { return g.MessageID == r.ID })
	}
	board := h.board(g.ID)
	hint, _ := find(board, customid.Hint, nil)
	if r := h.click(carol, board.ID, hint); !strings.Contains(r.Content, "Next:") {
		t.Fatalf("hint: %q", r.Content)
	}
	for _, s := range tileSolution(t, g) {
		dir, _, _ := strings.Cut(s, "/")
		if r := h.move(carol, g.ID, dir); r.ID != g.MessageID {
			t.Fatalf("move %s: %q", dir, r.Content)
		}
	}
	h.waitGame(g.ID, "the solve", func(g *storage.Game) bool { return g.Solved() })
	solved := h.waitBoard(g.ID, "New puzzle on the solved board", func(m discordtest.Message) bool {
		_, ok := find(m, customid.NewPuzzle, nil)
		return ok
	})
	a, err := h.store.DailyAttempt(h.ctx(), guild, day, storage.User(carol))
	if err != nil || a.Status != storage.DailySolved || a.Hints != 1 || a.GameID != g.ID || a.Moves != p.Moves {
		t.Fatalf("carol's attempt %+v, %v; want solved in %d moves with 1 hint", a, err, p.Moves)
	}
	_, m = h.command(carol, "daily")
	if s := text(m); !strings.Contains(s, "1. <@"+carol+"> · 1 hint") || !strings.Contains(s, "Your streak: 1 day") || !strings.Contains(s, "You solved today's puzzle") {
		t.Fatalf("/daily after the solve:\n%s", s)
	}
	newPuzzle, _ := find(solved, customid.NewPuzzle, nil)
	h.click(carol, solved.ID, newPuzzle)
	practice := h.waitGame(h.latestGame(carol).ID, "the practice board", func(g *storage.Game) bool { return g.MessageID != "" })
	if practice.ID == g.ID || practice.Settings.Daily != "" || practice.Kind != g.Kind {
		t.Fatalf("New puzzle dealt %+v", practice)
	}
}

// TestDailySettingsAndDirectMessages turns the daily puzzle on and off
// and refuses /daily outside a server.
func TestDailySettingsAndDirectMessages(t *testing.T) {
	t.Parallel()
	h := start(t)
	alice := h.srv.AddUser("alice").ID
	channel := h.srv.ChannelID()
	h.command(alice, "settings", opt("daily-channel", channel))
	if got, err := h.store.DailyChannels(h.ctx()); err != nil || got[h.srv.GuildID()] != channel {
		t.Fatalf("daily channels %v, %v", got, err)
	}
	_, m := h.command(alice, "settings", opt("daily", false))
	if s := embedText(m); !strings.Contains(s, "off (turn it on with daily-channel)") {
		t.Errorf("/settings daily:false answered:\n%s", s)
	}
	if got, err := h.store.DailyChannels(h.ctx()); err != nil || len(got) != 0 {
		t.Fatalf("daily channels after turning it off: %v, %v", got, err)
	}
	dm, err := h.srv.AddDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := h.srv.SendCommand(discordtest.SlashCommand{UserID: alice, Name: "daily", ChannelID: dm.ID})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := ix.Reply(h.ctx()); err != nil || !strings.Contains(r.Content, "belongs to a server") {
		t.Errorf("/daily in a DM: %q, %v", r.Content, err)
	}
}

// publicNaming returns the messages of channel that user can see and
// that name game id: a board of it (a control whose custom ID carries
// the ID) or its ID in the text.
func publicNaming(h *harness, channel, user string, id storage.GameID) []discordtest.Message {
	var out []discordtest.Message
	for _, m := range h.srv.Messages(channel) {
		if !m.VisibleToUser(user) {
			continue
		}
		named := strings.Contains(text(readable(m)), string(id))
		for _, c := range components(m) {
			named = named || strings.Contains(c.CustomID, "/"+string(id)+"/") || strings.HasSuffix(c.CustomID, "/"+string(id))
		}
		if named {
			out = append(out, m)
		}
	}
	return out
}

// resultsOf waits until the channel shows a result of user's attempt
// that contains want, and returns every public message naming user.
func resultsOf(t *testing.T, h *harness, channel, user, want string) []discordtest.Message {
	t.Helper()
	if _, err := h.srv.WaitMessage(h.ctx(), func(m discordtest.Message) bool {
		return m.ChannelID == channel && m.VisibleTo == "" && strings.Contains(text(readable(m)), "<@"+user+">") && strings.Contains(text(readable(m)), want)
	}); err != nil {
		t.Fatalf("no result of <@%s> saying %q in the channel: %v\nlogs:\n%s", user, want, err, h.logs.String())
	}
	var out []discordtest.Message
	for _, m := range h.srv.Messages(channel) {
		if m.VisibleTo == "" && strings.Contains(text(readable(m)), "<@"+user+">") {
			out = append(out, readable(m))
		}
	}
	return out
}

// TestDailyAttemptIsPrivate plays the sliding-tile daily puzzle from the
// post as two members while a third watches the channel. Play shows each
// member their own board, ephemeral; a second Play shows it again; Hint,
// the moves and Solve answer on it. Carol solves it by her moves; dave
// makes a move, the bot restarts, /daily offers him Continue, which
// shows his board again as he left it, and Solve finishes it. Bob, in
// the channel, never sees a board of theirs: only one result each — the
// member, the outcome, the moves and hints, the streak — and no picture.
func TestDailyAttemptIsPrivate(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	h.clock.Advance(12 * time.Hour) // 2026-11-23, the 8-puzzle's day
	alice, bob, carol, dave := h.srv.AddUser("alice").ID, h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID, h.srv.AddUser("dave").ID
	channel, day := h.srv.ChannelID(), "2026-11-23"
	h.command(alice, "settings", opt("daily-channel", channel))
	post := dailyPost(t, h, channel, day)
	play, ok := find(post, customid.DailyPlay, nil)
	if !ok {
		t.Fatalf("no Play on the post: %+v", controls(post))
	}
	private := func(who string, m discordtest.Message, g *storage.Game, what string) {
		t.Helper()
		if !m.Ephemeral() || m.VisibleTo != who || m.ID != g.MessageID {
			t.Fatalf("%s: message %s (ephemeral %v, visible to %q), board %q; want %s's board, ephemeral:\n%s", what, m.ID, m.Ephemeral(), m.VisibleTo, g.MessageID, who, text(m))
		}
	}

	// Carol: Play, Play again, a hint, her moves.
	board := h.click(carol, post.ID, play)
	g := h.waitGame(h.latestGame(carol).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	private(carol, board, g, "carol's Play")
	again := h.click(carol, post.ID, play)
	g = h.waitGame(g.ID, "the board shown again", func(g *storage.Game) bool { return g.MessageID == again.ID })
	private(carol, again, g, "carol's second Play")
	board = again
	hint, _ := find(board, customid.Hint, nil)
	if r := h.click(carol, board.ID, hint); !r.Ephemeral() || !strings.Contains(r.Content, "Next:") {
		t.Fatalf("carol's hint: %q", r.Content)
	}
	for _, s := range tileSolution(t, g) {
		dir, _, _ := strings.Cut(s, "/")
		id, value, ok := moveControl(board, dir)
		if !ok {
			t.Fatalf("no control for %s on carol's board: %+v", dir, controls(board))
		}
		if value != "" {
			board = h.click(carol, board.ID, id, value)
		} else {
			board = h.click(carol, board.ID, id)
		}
		private(carol, board, g, "carol's move "+dir)
	}
	h.waitGame(g.ID, "the solve", func(g *storage.Game) bool { return g.Solved() })
	p := puzzleOf(t, h, day, h.srv.GuildID())
	if got := resultsOf(t, h, channel, carol, "solved"); len(got) != 1 || !strings.Contains(text(got[0]), render1(p.Moves, "move")) ||
		!strings.Contains(text(got[0]), "1 hint") || !strings.Contains(text(got[0]), "1 day") {
		t.Errorf("carol's results in the channel: %d, %+v", len(got), got)
	}

	// Dave: Play, a move, a restart, /daily's Continue, Solve.
	board = h.click(dave, post.ID, play)
	gd := h.waitGame(h.latestGame(dave).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	private(dave, board, gd, "dave's Play")
	first, _, _ := strings.Cut(tileSolution(t, gd)[0], "/")
	id, value, _ := moveControl(board, first)
	if value != "" {
		board = h.click(dave, board.ID, id, value)
	} else {
		board = h.click(dave, board.ID, id)
	}
	private(dave, board, gd, "dave's move")
	h.stop()
	h.run()
	_, m := h.command(dave, "daily")
	cont, ok := find(m, customid.DailyPlay, nil)
	if !ok || !strings.Contains(text(m), "Continue") {
		t.Fatalf("/daily for dave mid-attempt offers no Continue:\n%s\n%+v", text(m), controls(m))
	}
	board = h.click(dave, m.ID, cont)
	gd = h.waitGame(gd.ID, "the board shown again", func(g *storage.Game) bool { return g.MessageID == board.ID })
	private(dave, board, gd, "dave's Continue")
	if len(gd.Moves) != 1 || gd.Status != storage.StatusActive {
		t.Fatalf("dave's game after the restart: %+v", gd)
	}
	solve, ok := find(board, customid.Solve, nil)
	if !ok {
		t.Fatalf("no Solve on dave's board: %+v", controls(board))
	}
	board = h.click(dave, board.ID, solve)
	private(dave, board, h.game(gd.ID), "dave's Solve")
	if got := resultsOf(t, h, channel, dave, "Gambit"); len(got) != 1 || !strings.Contains(text(got[0]), "1 move") || !strings.Contains(text(got[0]), "no hints") {
		t.Errorf("dave's results in the channel: %d, %+v", len(got), got)
	}

	// Bob's view of the channel.
	for _, id := range []storage.GameID{g.ID, gd.ID} {
		if got := publicNaming(h, channel, bob, id); len(got) > 0 {
			t.Errorf("bob sees %d messages of game %s, first:\n%s", len(got), id, text(readable(got[0])))
		}
	}
	for _, m := range h.srv.Messages(channel) {
		if m.VisibleToUser(bob) && m.ID != post.ID && len(m.Attachments) > 0 {
			t.Errorf("bob sees a picture in message %s:\n%s", m.ID, text(readable(m)))
		}
	}
}

// hasControl reports whether m offers a control matching p.
func hasControl(m discordtest.Message, p customid.Pattern) bool {
	_, ok := find(m, p, nil)
	return ok
}

// render1 is how a result names n of unit in English.
func render1(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// TestDailyAttemptRacedRepostedAndGivenUp: two Play clicks at once open
// one attempt, both answered privately; /games' Re-post shows its board
// again to its member alone, and so does a typed move once every token
// showing it has expired; Give up on it then posts the result once, and the next click on the
// board brings it up to its end. In a
// server that did not add Gambit, where it can only answer interactions,
// the board is as private and the result is a public follow-up of the
// click that ended the attempt. Bob, in both channels, sees no board.
func TestDailyAttemptRacedRepostedAndGivenUp(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	h.clock.Advance(12 * time.Hour) // 2026-11-23, the 8-puzzle's day
	bob, carol := h.srv.AddUser("bob").ID, h.srv.AddUser("carol").ID
	channel := h.srv.ChannelID()
	_, m := h.command(carol, "daily")
	play, ok := find(m, customid.DailyPlay, nil)
	if !ok {
		t.Fatalf("no Play on /daily: %+v", controls(m))
	}
	var clicks [2]*discordtest.Interaction
	for i := range clicks {
		ix, err := h.srv.ClickButton(carol, m.ID, play)
		if err != nil {
			t.Fatal(err)
		}
		clicks[i] = ix
	}
	for i, ix := range clicks {
		if r, err := ix.Reply(h.ctx()); err != nil || !r.Ephemeral() {
			t.Fatalf("Play %d answered %+v, %v; want an answer only carol sees", i+1, r, err)
		}
	}
	open, err := h.store.ActiveGames(h.ctx(), storage.User(carol))
	if err != nil || len(open) != 1 {
		t.Fatalf("carol's open games after two Plays: %d, %v; want one", len(open), err)
	}
	g := open[0]
	if a, err := h.store.DailyAttempt(h.ctx(), h.srv.GuildID(), "2026-11-23", storage.User(carol)); err != nil || a.GameID != g.ID {
		t.Fatalf("carol's attempt %+v, %v; want game %s", a, err, g.ID)
	}

	_, list := h.command(carol, "games")
	repost, ok := find(list, customid.Repost, map[string]string{"game": string(g.ID)})
	if !ok {
		t.Fatalf("/games offers no Re-post of the daily game: %+v", controls(list))
	}
	h.click(carol, list.ID, repost)
	old := g.MessageID
	g = h.waitGame(g.ID, "the board shown again", func(g *storage.Game) bool { return g.MessageID != old && g.MessageID != "" })
	board := h.board(g.ID)
	if !board.Ephemeral() || board.VisibleTo != carol {
		t.Fatalf("Re-post showed the daily board ephemeral %v, to %q", board.Ephemeral(), board.VisibleTo)
	}
	// A typed move once every token showing the board has expired shows
	// the board again, to carol alone.
	h.clock.Advance(20 * time.Minute)
	first, _, _ := strings.Cut(tileSolution(t, g)[0], "/")
	if _, r := h.command(carol, "move", opt("cell", first)); !r.Ephemeral() || !strings.Contains(r.Content, "You played") {
		t.Fatalf("/move answered %q", r.Content)
	}
	old = g.MessageID
	g = h.waitGame(g.ID, "the board shown again", func(g *storage.Game) bool { return g.MessageID != old && len(g.Moves) == 1 })
	if board = h.board(g.ID); !board.Ephemeral() || board.VisibleTo != carol {
		t.Fatalf("after /move the daily board is ephemeral %v, to %q", board.Ephemeral(), board.VisibleTo)
	}
	resign, ok := find(board, customid.Resign, nil)
	if !ok {
		t.Fatalf("no Give up on the board: %+v", controls(board))
	}
	h.clock.Advance(20 * time.Minute) // every token showing the board has expired
	ask := h.click(carol, board.ID, resign)
	confirm, ok := find(ask, customid.ResignConfirm, nil)
	if !ok {
		t.Fatalf("Give up asked %q", ask.Content)
	}
	h.click(carol, ask.ID, confirm)
	h.waitGame(g.ID, "the end", func(g *storage.Game) bool { return g.Status.Ended() })
	// The result is posted once the handler returned: nothing could show
	// the end on the board, and the next click on it does.
	if got := resultsOf(t, h, channel, carol, "gave up"); len(got) != 1 || !strings.Contains(text(got[0]), "after 1 move with no hints") {
		t.Errorf("carol's results in the channel: %d, %+v", len(got), got)
	}
	tile, value, ok := moveControl(board, strings.SplitN(tileSolution(t, g)[0], "/", 2)[0])
	if !ok {
		t.Fatalf("no move on the board: %+v", controls(board))
	}
	if value != "" {
		h.click(carol, board.ID, tile, value)
	} else {
		h.click(carol, board.ID, tile)
	}
	if now, _ := h.srv.Message(board.ID); hasControl(readable(now), customid.Move) || !hasControl(readable(now), customid.NewPuzzle) {
		t.Errorf("a click on the board behind its end left it:\n%s", text(readable(now)))
	}
	for _, m := range h.srv.Messages(channel) {
		if m.VisibleTo == carol && strings.Contains(m.Content, "Sorry") {
			t.Errorf("carol was told %q", m.Content)
		}
	}
	if got := publicNaming(h, channel, bob, g.ID); len(got) > 0 {
		t.Errorf("bob sees %d messages of carol's game, first:\n%s", len(got), text(readable(got[0])))
	}

	_, elsewhere, err := h.srv.AddForeignGuild("Elsewhere", carol, bob)
	if err != nil {
		t.Fatal(err)
	}
	m = h.commandIn(carol, elsewhere.ID, "daily")
	play, _ = find(m, customid.DailyPlay, nil)
	board = h.click(carol, m.ID, play)
	ge := h.waitGame(h.latestGame(carol).ID, "the board", func(g *storage.Game) bool { return g.MessageID != "" })
	if !board.Ephemeral() || board.VisibleTo != carol || board.ID != ge.MessageID {
		t.Fatalf("Play where Gambit only answers showed %+v", board)
	}
	solve, _ := find(board, customid.Solve, nil)
	if r := h.click(carol, board.ID, solve); r.ID != board.ID {
		t.Fatalf("Solve answered %q", text(r))
	}
	if got := resultsOf(t, h, elsewhere.ID, carol, "Gambit"); len(got) != 1 || got[0].InteractionID == "" {
		t.Errorf("carol's results where Gambit only answers: %d, %+v", len(got), got)
	}
	if got := publicNaming(h, elsewhere.ID, bob, ge.ID); len(got) > 0 {
		t.Errorf("bob sees %d messages of carol's game elsewhere, first:\n%s", len(got), text(readable(got[0])))
	}
	noChannelRequests(t, h, elsewhere.ID)
}

// TestDailyAttemptSettledAfterALostEnd: a daily game ends (Gambit's
// Solve) but its attempt's end is lost — a crash between the two, played
// here by ending the game in the store alone; nothing is posted then.
// The member's next /daily settles the attempt from the game, says how
// it ended, and posts its result once.
func TestDailyAttemptSettledAfterALostEnd(t *testing.T) {
	t.Parallel()
	h := start(t, withClock())
	h.clock.Advance(12 * time.Hour) // 2026-11-23, the 8-puzzle's day
	carol := h.srv.AddUser("carol").ID
	_, m := h.command(carol, "daily")
	play, _ := find(m, customid.DailyPlay, nil)
	board := h.click(carol, m.ID, play)
	g := h.waitGame(h.latestGame(carol).ID, "the board", func(g *storage.Game) bool { return g.MessageID == board.ID })
	g.Status = storage.StatusAbandoned
	if _, err := h.store.FinishGame(h.ctx(), g, storage.Result{Winner: storage.Nobody, Outcome: storage.SolvedByGambit}); err != nil {
		t.Fatal(err)
	}
	if a, err := h.store.DailyAttempt(h.ctx(), h.srv.GuildID(), "2026-11-23", storage.User(carol)); err != nil || a.Status != storage.DailyPlaying {
		t.Fatalf("carol's attempt after the lost end: %+v, %v; want still playing", a, err)
	}
	_, m = h.command(carol, "daily")
	if s := text(m); !strings.Contains(s, "You gave up today's puzzle") || hasControl(m, customid.DailyPlay) {
		t.Errorf("/daily after the lost end:\n%s", s)
	}
	if got := resultsOf(t, h, h.srv.ChannelID(), carol, "let Gambit finish"); len(got) != 1 {
		t.Errorf("carol's results: %d, %+v; want one", len(got), got)
	}
	h.command(carol, "daily")
	if got := resultsOf(t, h, h.srv.ChannelID(), carol, "let Gambit finish"); len(got) != 1 {
		t.Errorf("carol's results after another /daily: %d; want one", len(got))
	}
}
