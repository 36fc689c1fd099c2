package storage

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gambitbot/gambit/storage/glicko2"
)

// ProvisionalDeviation is the rating deviation above which a rating is
// provisional: shown with a "?" and listed below the established ratings
// on leaderboards, unranked. A newcomer
// starts at 350 and, against opponents with settled ratings, drops below 110
// after roughly a dozen games — the threshold Lichess uses as well.
const ProvisionalDeviation = 110

// AIDeviation is the rating deviation of every AI's fixed rating: small,
// since an AI's strength is measured in arena runs, not guessed from a few
// games, so a game against an AI moves the human by what the result says
// about them and leaves the AI where it is.
const AIDeviation = 50

// DefaultAIRating is the fixed rating of an AI strategy that AIRatings has
// no calibrated rating for.
const DefaultAIRating = 1500

// AIRatings gives an AI strategy's calibrated rating in a game kind; ok is
// false for a strategy or game it has no figure for. A nil AIRatings has
// none.
type AIRatings func(k Kind, strategy string) (rating float64, ok bool)

// Fixed returns r, the rating of player r.Player in a ladder of kind k, as
// it counts in a game: a user's unchanged, an AI's at its fixed rating
// (DefaultAIRating without a calibrated one) with deviation AIDeviation and
// the initial volatility, its record kept.
func (f AIRatings) Fixed(k Kind, r Rating) Rating {
	strategy, ok := r.Player.Strategy()
	if !ok {
		return r
	}
	r.Rating = DefaultAIRating
	if f != nil {
		if v, ok := f(k, strategy); ok {
			r.Rating = v
		}
	}
	r.Deviation, r.Volatility = AIDeviation, glicko2.Initial().Volatility
	return r
}

// Ladder names one rating list: a game kind, globally or within one guild.
// AI strategies appear in the same ladders as people, at fixed ratings (see
// AIRatings).
type Ladder struct {
	// Kind is the game rated.
	Kind Kind
	// Guild is the Discord guild id, or "" for the global ladder.
	Guild string
}

// Global returns the global ladder of a game kind.
func Global(k Kind) Ladder { return Ladder{Kind: k} }

// String returns the ladder's name: "connect4" or "connect4/<guild id>".
func (l Ladder) String() string {
	if l.Guild == "" {
		return string(l.Kind)
	}
	return string(l.Kind) + "/" + l.Guild
}

// ParseLadder is the inverse of Ladder.String.
func ParseLadder(s string) (Ladder, error) {
	kind, guild, _ := strings.Cut(s, "/")
	l := Ladder{Kind: Kind(kind), Guild: guild}
	if !l.Kind.Valid() || l.String() != s {
		return Ladder{}, fmt.Errorf("%w: ladder name %q", ErrInvalid, s)
	}
	return l, nil
}

// Rating is a player's Glicko-2 rating in one ladder with their record.
type Rating struct {
	// Player is who is rated.
	Player PlayerID `json:"player"`
	// Rating, Deviation and Volatility are the Glicko-2 estimate r, RD, σ.
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"rd"`
	Volatility float64 `json:"vol"`
	// Games counts rated games; Wins, Losses and Draws split them.
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Draws  int `json:"draws"`
	// UpdatedAt is when the last game changed the rating.
	UpdatedAt time.Time `json:"updated_at"`
}

// NewRating returns the rating of a player before their first game.
func NewRating(p PlayerID) Rating {
	g := glicko2.Initial()
	return Rating{Player: p, Rating: g.Rating, Deviation: g.Deviation, Volatility: g.Volatility}
}

// Provisional reports whether the rating is still too uncertain to rank.
func (r Rating) Provisional() bool { return r.Deviation > ProvisionalDeviation }

// Validate checks a stored rating.
func (r Rating) Validate() error {
	if err := r.Player.Validate(); err != nil {
		return err
	}
	for _, f := range []float64{r.Rating, r.Deviation, r.Volatility} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: rating of %s is not finite", ErrInvalid, r.Player)
		}
	}
	if r.Deviation <= 0 || r.Volatility <= 0 || r.Games < 0 || r.Wins < 0 || r.Losses < 0 || r.Draws < 0 ||
		r.Wins+r.Losses+r.Draws != r.Games {
		return fmt.Errorf("%w: rating of %s is inconsistent", ErrInvalid, r.Player)
	}
	return nil
}

// Apply returns the rating after one game against opp with the given score
// (1 win, 0.5 draw, 0 loss) played at time at; each game is its own
// Glicko-2 rating period.
func (r Rating) Apply(opp Rating, score float64, at time.Time) Rating {
	g := glicko2.Update(
		glicko2.Rating{Rating: r.Rating, Deviation: r.Deviation, Volatility: r.Volatility},
		[]glicko2.Outcome{{Opponent: glicko2.Rating{Rating: opp.Rating, Deviation: opp.Deviation, Volatility: opp.Volatility}, Score: score}},
		glicko2.DefaultTau)
	r.Rating, r.Deviation, r.Volatility = g.Rating, g.Deviation, g.Volatility
	r.Games++
	switch score {
	case 1:
		r.Wins++
	case 0:
		r.Losses++
	default:
		r.Draws++
	}
	r.UpdatedAt = at
	return r
}

// Standing is a rating with its place on a leaderboard.
type Standing struct {
	// Rank is 1 for the best established rating; 0 for a provisional one.
	Rank int
	// Rating is the player's rating.
	Rating Rating
}

// RankView is a player's standing with their neighbours on the leaderboard.
type RankView struct {
	// Player is the player's own standing.
	Player Standing
	// Above are the players just above, best first; Below those just below.
	Above, Below []Standing
}

// RatingChange is what a finished game did to one player in one ladder.
type RatingChange struct {
	// Ladder is the ladder changed.
	Ladder Ladder
	// Before and After are the player's ratings around the game.
	Before, After Rating
}
