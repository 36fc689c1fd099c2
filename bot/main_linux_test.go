package bot

import (
	"flag"
	"os"
	"testing"
)

// TestMain makes the package's tests' reviews at the AI searches' nice
// instead of the lowest (reviewNice), so that no test waits on the
// machine's load for a review it asked for; a benchmark run
// (-test.bench) keeps the lowest, which BenchmarkAIFirstMoveBesideTwoGomokuReviews
// measures.
func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() == "" {
		reviewNice = searchNice
	}
	os.Exit(m.Run())
}
