package storage

// Showcases are the games between two AIs a member starts for a channel
// to watch (/versus). Settings.StartedBy names the member while the game
// is open, and the stores list an open showcase in their open-games
// index under two keys beside its players (ShowcaseKeys): its starter's,
// ShowcasesOf, and its place's, ShowcasesIn. So a member's showcases and
// a place's are read from the store's open games — ActiveGames of those
// keys — by any process, after any restart, and a member's count against
// their cap of open games where every other game of theirs does
// (CreateGame, Limits).

// ShowcasesOf is the key under which the stores list the open showcases
// member p started: ActiveGames(ShowcasesOf(p)) lists them.
func ShowcasesOf(p PlayerID) PlayerID { return "showcases-of/" + p }

// ShowcasesIn is the key under which the stores list the open showcases
// of a place — a guild, or the channel of a DM: ActiveGames(ShowcasesIn(place))
// lists them.
func ShowcasesIn(place string) PlayerID { return PlayerID("showcases-in/" + place) }

// Place is where g is played for the caps of showcases: its guild, or
// its channel outside one.
func (g *Game) Place() string {
	if g.GuildID != "" {
		return g.GuildID
	}
	return g.ChannelID
}

// CappedKeys are the keys whose open games count against member p's caps
// (Limits): their own games and their showcases. ActiveGames of each,
// together, are what Limits.Check takes.
func CappedKeys(p PlayerID) []PlayerID { return []PlayerID{p, ShowcasesOf(p)} }

// ShowcaseKeys are the keys an open showcase is listed under in the
// open-games index beside its players; none for any other game.
func (g *Game) ShowcaseKeys() []PlayerID {
	if !g.Status.Open() || g.Settings.StartedBy == "" {
		return nil
	}
	return []PlayerID{ShowcasesOf(g.Settings.StartedBy), ShowcasesIn(g.Place())}
}

// CappedMember is the member whose caps (Limits) a new game counts
// against: its challenger in seat 0, or the member who started a
// showcase; ok false for a game no member asked for.
func (g *Game) CappedMember() (PlayerID, bool) {
	if p := g.Settings.StartedBy; p != "" {
		return p, true
	}
	p := g.Players[0].ID
	return p, !p.IsAI()
}
