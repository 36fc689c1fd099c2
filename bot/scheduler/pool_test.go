package scheduler

import (
	"context"
	"testing"
)

// keyed is a job with a key whose Run tells ran and then waits for
// proceed.
type keyed struct {
	owner, key string
	ran        chan<- string
	proceed    <-chan struct{}
}

func (j *keyed) Owner() string { return j.owner }
func (j *keyed) Key() string   { return j.key }
func (j *keyed) Run() {
	j.ran <- j.key
	<-j.proceed
}

func TestPoolQueuesAKeyOnceAndNothingOnceStopped(t *testing.T) {
	ctx := context.Background()
	waiting := -1
	p := NewPool(1, func(n int) { waiting = n }) // never started: jobs wait
	if place, ok := p.Submit(ctx, &keyed{owner: "ann", key: "g/1"}); !ok || place != 1 {
		t.Errorf("first submit: place %d, ok %v; want 1, true", place, ok)
	}
	if _, ok := p.Submit(ctx, &keyed{owner: "ann", key: "g/1"}); ok {
		t.Error("a key already queued was queued again")
	}
	for range 2 {
		if _, ok := p.Submit(ctx, &job{owner: "bob"}); !ok {
			t.Error("a job without a key was refused")
		}
	}
	if waiting != 3 {
		t.Errorf("onQueue last told %d waiting, want 3", waiting)
	}
	p.Stop()
	if !p.Stopped() {
		t.Error("Stopped is false after Stop")
	}
	if _, ok := p.Submit(ctx, &keyed{owner: "ann", key: "g/2"}); ok {
		t.Error("a job was queued after Stop")
	}
}

func TestPoolFreesAKeyOnceItsJobRan(t *testing.T) {
	ctx := context.Background()
	p := NewPool(1, nil)
	wg := p.Start()
	defer wg.Wait()
	defer p.Stop()
	ran, proceed := make(chan string), make(chan struct{})
	j := &keyed{owner: "ann", key: "g/1", ran: ran, proceed: proceed}
	if _, ok := p.Submit(ctx, j); !ok {
		t.Fatal("refused")
	}
	<-ran // running: its key is still known
	if _, ok := p.Submit(ctx, &keyed{owner: "ann", key: "g/1", ran: ran, proceed: proceed}); ok {
		t.Error("a key running was queued again")
	}
	close(proceed)
	// Once the worker is done with it, the key may be queued again: the
	// worker takes it only after forgetting the first.
	for {
		if _, ok := p.Submit(ctx, &keyed{owner: "ann", key: "g/1", ran: ran, proceed: proceed}); ok {
			break
		}
	}
	if got := <-ran; got != "g/1" {
		t.Errorf("ran %q", got)
	}
}
