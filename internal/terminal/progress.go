package terminal

import (
	"fmt"
	"io"
	"os"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress returns the progress callback of a long run called name, whose
// work counts in unit ("games"): a bar when w is a terminal, otherwise a
// plain line at every tenth of the work and at its end, so that logs stay
// readable.
func Progress(w io.Writer, name, unit string) func(done, total int) {
	if IsTerminal(w) {
		var bar *progressbar.ProgressBar
		return func(done, total int) {
			if bar == nil {
				bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(name),
					progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
			}
			_ = bar.Set(done) // drawing on a terminal: nothing to do about a failure
		}
	}
	return func(done, total int) {
		if done*10/total != (done-1)*10/total { // a new tenth, and always the last
			fmt.Fprintf(w, "%s: %d/%d %s (%d%%)\n", name, done, total, unit, done*100/total)
		}
	}
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
