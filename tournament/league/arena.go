package league

import (
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/tournament"
)

// arenaPlayer is an Arena entrant's games so far, from the boards done.
type arenaPlayer struct {
	games        []tournament.ArenaGame
	lastOpponent int // pairing number, 0 for none
	colorRun     int // +k: White k games running; −k: Black
	busy         bool
	// The counts of Standing.
	won, drawn, lost, forfeitWins, forfeits int
}

// arenaPlayers reads the Arena's boards, by pairing number minus one: a
// player's boards come one after the other, so round order is the order
// they played them in. A forfeit scores as a win or a loss; an unplayed
// board (an aborted game) scores nothing and is no game, but its two
// players are each other's last opponent.
func arenaPlayers(t *storage.Tournament) []arenaPlayer {
	number := map[storage.PlayerID]int{}
	for i, e := range t.Entrants {
		number[e.Player.ID] = i + 1
	}
	players := make([]arenaPlayer, len(t.Entrants))
	for _, r := range t.Rounds {
		for _, b := range r.Boards {
			w, k := number[b.White], number[b.Black]
			if w == 0 || k == 0 {
				continue
			}
			if b.Result == storage.BoardPending {
				players[w-1].busy, players[k-1].busy = true, true
				continue
			}
			we, be := entries(b, w, k)
			for _, side := range []struct {
				p, opponent int
				e           tournament.Entry
				run         int
			}{{w, k, we, 1}, {k, w, be, -1}} {
				p := &players[side.p-1]
				p.lastOpponent = side.opponent
				if b.Result == storage.BoardUnplayed {
					continue
				}
				var res tournament.Result
				switch side.e.Result {
				case tournament.Win:
					res = tournament.Win
					p.won++
				case tournament.ForfeitWin:
					res = tournament.Win
					p.forfeitWins++
				case tournament.Draw:
					res = tournament.Draw
					p.drawn++
				case tournament.Loss:
					res = tournament.Loss
					p.lost++
				default:
					res = tournament.Loss
					p.forfeits++
				}
				p.games = append(p.games, tournament.ArenaGame{Result: res, Plies: b.Plies})
				if p.colorRun*side.run > 0 {
					p.colorRun += side.run
				} else {
					p.colorRun = side.run
				}
			}
		}
	}
	return players
}

// nextArena pairs the Arena's waiting entrants.
func nextArena(t *storage.Tournament) []storage.Board {
	players := arenaPlayers(t)
	var waiting []tournament.ArenaPlayer
	for i, e := range t.Entrants {
		if p := players[i]; !e.Withdrawn && !p.busy {
			waiting = append(waiting, tournament.ArenaPlayer{ID: i + 1, Points: tournament.ArenaScore(p.games, arenaRules).Total,
				Rating: e.Rating, LastOpponent: p.lastOpponent, ColorRun: p.colorRun})
		}
	}
	return boardsOf(t, tournament.PairArena(waiting, active(t)))
}
