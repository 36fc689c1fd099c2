// Package scheduler runs the bot's AI turns: jobs handed over through
// Submit wait in a fair queue (each owner's jobs in order, the owners round
// robin) for one of a fixed number of workers, so that searches never use
// more threads than the configured total and one member with many games
// cannot make everyone else wait.
//
// Pool is behind one of the two implementations of the bot's AI-turn
// seam (package bot, aiSeam): the one that runs the turns in this
// process, used without a shared queue; the other hands them to the
// queue the workers of every process share (internal/aiqueue). The
// solvers of a comparison always run on the Pool. Scheduler is what the
// bot submits to: a Pool, or a test's recorder.
package scheduler

import (
	"context"
	"sync"
)

// Job is work for a worker: an AI turn, or other work that must wait its
// turn among them (the solvers of a comparison). The queue tells jobs
// apart by identity: a Job is a pointer.
type Job interface {
	// Owner is the person the job is for, whom the queue serves in turn
	// with the others.
	Owner() string
	// Key names the job: a job whose key is queued or running is not
	// queued again. "" never matches.
	Key() string
	// Run does the job, on a worker.
	Run()
}

// Scheduler takes jobs to run on this process's workers.
type Scheduler interface {
	// Submit queues j and returns its place among the jobs waiting for a
	// worker: 0 when a worker is free for it, 1 when it is the next to be
	// served. ok is false if j was not queued: its key is queued or
	// running already, or the scheduler has stopped.
	Submit(ctx context.Context, j Job) (place int, ok bool)
}

// Pool is the Scheduler of one process: a fixed number of workers taking
// jobs from a fair queue.
type Pool struct {
	workers int
	onQueue func(waiting int)

	mu      sync.Mutex
	cond    *sync.Cond
	queue   fairQueue
	known   map[string]bool // the keys queued or running
	idle    int
	stopped bool
}

// NewPool returns a pool of workers (Start starts them). onQueue, if not
// nil, is told the number of jobs waiting whenever it changes, under the
// pool's lock.
func NewPool(workers int, onQueue func(waiting int)) *Pool {
	p := &Pool{workers: workers, onQueue: onQueue, known: map[string]bool{}}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// Start launches the workers; the returned group is done when all have
// stopped.
func (p *Pool) Start() *sync.WaitGroup {
	wg := &sync.WaitGroup{}
	for range p.workers {
		wg.Go(p.work)
	}
	return wg
}

// Stop makes the workers exit once their current job is done. Queued jobs
// are dropped, and later ones refused.
func (p *Pool) Stop() {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
	p.cond.Broadcast()
}

// Stopped reports whether Stop was called.
func (p *Pool) Stopped() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stopped
}

// Submit implements Scheduler. Its context is not used: the job is queued
// at once.
func (p *Pool) Submit(_ context.Context, j Job) (place int, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := j.Key()
	if p.stopped || key != "" && p.known[key] {
		return 0, false
	}
	if key != "" {
		p.known[key] = true
	}
	place = max(p.queue.push(j)-p.idle, 0)
	p.changed()
	p.cond.Signal()
	return place, true
}

// changed reports the queue's length to onQueue. The caller holds p.mu.
func (p *Pool) changed() {
	if p.onQueue != nil {
		p.onQueue(p.queue.len())
	}
}

func (p *Pool) work() {
	p.mu.Lock()
	p.idle++
	for {
		for p.queue.len() == 0 && !p.stopped {
			p.cond.Wait()
		}
		if p.stopped {
			p.idle--
			p.mu.Unlock()
			return
		}
		j := p.queue.pop()
		p.idle--
		p.changed()
		p.mu.Unlock()

		j.Run()

		p.mu.Lock()
		delete(p.known, j.Key())
		p.idle++
	}
}
