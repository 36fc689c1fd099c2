package versus_test

import (
	"testing"

	"github.com/gambitbot/gambit/internal/racetest"
)

// TestMain ends the test binary without the race runtime's second of
// sleep at exit (racetest.Main).
func TestMain(m *testing.M) { racetest.Main(m) }
