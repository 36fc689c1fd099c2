package bot

import (
	"github.com/gambitbot/gambit/storage"
	"github.com/gambitbot/gambit/strategies/review"
)

// SetReview sets each position's search of b's reviews and a hook called
// before a game is analysed (nil for none), before b runs.
func SetReview(b *Bot, budget review.Budget, analyze func(g *storage.Game)) {
	b.reviews.budget, b.reviews.analyze = &budget, analyze
}

// ReviewMemberClaim is the key of the claim on member's review in the
// making.
func ReviewMemberClaim(member string) string { return reviewMemberPrefix + member }
