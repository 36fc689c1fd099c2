package bot

import (
	"sync"
	"testing"
)

// TestWorkInFlightTakesNoWorkOnceClosed: work begun before the stop is
// waited for; none begins after it, even when it races the stop (under
// -race, counting work with a WaitGroup's Add beside its Wait from zero
// is reported).
func TestWorkInFlightTakesNoWorkOnceClosed(t *testing.T) {
	var w workInFlight
	if !w.begin() {
		t.Fatal("work refused before the stop")
	}
	var racing sync.WaitGroup
	for range 50 {
		racing.Add(1)
		go func() {
			defer racing.Done()
			if w.begin() {
				w.end()
			}
		}()
	}
	w.close()
	if w.begin() {
		t.Fatal("work taken after the stop")
	}
	waited := make(chan struct{})
	go func() {
		w.wait()
		close(waited)
	}()
	w.end()
	<-waited
	racing.Wait()
}
