package discordtest

import (
	"flag"
	"strconv"
)

// WaitingTests raises go test's -parallel to n for a test binary whose
// parallel tests spend most of their time waiting — for processes they
// started, a browser, a bot's answers, a lease to run out — rather than
// computing: -parallel's default, GOMAXPROCS, would run two of them at a
// time on two cores and leave the cores idle while they wait. A -parallel
// given on the command line is kept. Call it from TestMain, before m.Run.
func WaitingTests(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic("discordtest: WaitingTests outside a test binary: " + err.Error())
		}
	}
}
