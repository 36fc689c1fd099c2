package bot

import (
	"slices"
	"sync"
	"testing"
	"testing/synctest"
)

// A game's next holder decides while the previous one's Discord call is
// out, its own calls wait for the previous one's, another game waits for
// neither, and a game's lock is dropped once its last holder is done.
func TestGameLocksFreeDecisionsAndOrderCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			l     gameLocks
			mu    sync.Mutex
			steps []string
		)
		step := func(s string) {
			mu.Lock()
			defer mu.Unlock()
			steps = append(steps, s)
		}
		seen := func() []string {
			mu.Lock()
			defer mu.Unlock()
			return slices.Clone(steps)
		}
		first := l.acquire("a")
		first.send() // its answer is on the network
		go func() {
			second := l.acquire("a")
			step("second decided")
			second.send()
			step("second called Discord")
			second.release()
		}()
		other := l.acquire("b")
		other.send()
		other.release()
		synctest.Wait()
		if got := seen(); !slices.Equal(got, []string{"second decided"}) {
			t.Fatalf("while the first holder's call is out: %q, want the second to have decided and be waiting to call", got)
		}
		step("first's call answered")
		first.release()
		synctest.Wait()
		if got, want := seen(), []string{"second decided", "first's call answered", "second called Discord"}; !slices.Equal(got, want) {
			t.Fatalf("steps %q, want %q", got, want)
		}
		if len(l.games) != 0 {
			t.Fatalf("locks kept after every holder finished: %v", l.games)
		}
	})
}

// A holder that never calls Discord does not hold up the calls of the
// holders after it, whatever order they finish in.
func TestGameLocksSkipHoldersThatNeverCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var l gameLocks
		first := l.acquire("a")
		first.send()
		second := l.acquire("a") // decides nothing to say
		second.release()
		third := l.acquire("a")
		called := make(chan struct{})
		go func() {
			third.send()
			close(called)
			third.release()
		}()
		first.release()
		<-called
		synctest.Wait()
		if len(l.games) != 0 {
			t.Fatalf("locks kept after every holder finished: %v", l.games)
		}
	})
}
