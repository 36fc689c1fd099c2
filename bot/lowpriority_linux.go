package bot

import (
	"runtime"
	"syscall"
)

// searchNice is the nice value of the threads that run AI searches: they
// yield the cores to interaction handling, which must answer within
// Discord's three seconds, and take whatever is left.
const searchNice = 10

// reviewNice is the default nice value of the threads that make games'
// reviews (Config.Review.Nice): the lowest priority, below the AI
// searches, so that a review takes only what the searches and
// interactions leave. The package's tests run reviews at searchNice
// (TestMain): beside other work at nice 0, a thread at nice 19 gets
// under 1% of a core, and a test would wait on the machine's load for a
// review it asked for.
var reviewNice = 19

// lowPriority runs f on an OS thread of its own at nice searchNice and
// returns when f has (atNice).
func lowPriority(f func()) { atNice(searchNice, f) }

// reviewPriority runs f on an OS thread of its own at nice and returns
// when f has (atNice): a review, at Config.Review.Nice.
func reviewPriority(nice int, f func()) { atNice(nice, f) }

// atNice runs f on an OS thread of its own at nice and returns when f
// has. The thread is not given back to the Go scheduler: an unprivileged
// process could not raise its priority again, so the goroutine exits
// still locked and the runtime ends the thread.
func atNice(nice int, f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // never unlocked: the thread dies with the goroutine
		// Best effort: without the right to renice, the work runs at
		// normal priority.
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), nice)
		f()
	}()
	<-done
}
