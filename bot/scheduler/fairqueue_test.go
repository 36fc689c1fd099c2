package scheduler

import (
	"math/rand/v2"
	"testing"
)

// job is a job of the tests: an owner and a name.
type job struct{ owner, name string }

func (j *job) Owner() string { return j.owner }
func (j *job) Key() string   { return "" }
func (j *job) Run()          {}

func TestFairQueueServesOwnersInTurn(t *testing.T) {
	var q fairQueue
	mk := func(owner, name string) *job { return &job{owner: owner, name: name} }
	for _, j := range []*job{mk("flood", "f1"), mk("flood", "f2"), mk("flood", "f3"), mk("ann", "a1"), mk("bob", "b1"), mk("ann", "a2")} {
		q.push(j)
	}
	var got []string
	for j := q.pop(); j != nil; j = q.pop() {
		got = append(got, j.(*job).name)
	}
	want := []string{"f1", "a1", "b1", "f2", "a2", "f3"}
	if len(got) != len(want) {
		t.Fatalf("served %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("served %v, want %v", got, want)
		}
	}
	if q.len() != 0 {
		t.Errorf("len %d after draining", q.len())
	}
}

func TestFairQueuePlaceIsTheServingOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	owners := []string{"a", "b", "c", "d"}
	for range 200 {
		var q fairQueue
		var jobs []*job
		for i := range 1 + rng.IntN(12) {
			if len(jobs) > 0 && rng.IntN(4) == 0 {
				q.pop()
			}
			jobs = append(jobs, &job{owner: owners[rng.IntN(len(owners))], name: string(rune('A' + i))})
			q.push(jobs[len(jobs)-1])
		}
		places := map[Job]int{}
		for _, o := range q.order {
			for _, j := range q.byOwner[o] {
				places[j] = q.place(j)
			}
		}
		for n := 1; q.len() > 0; n++ {
			j := q.pop()
			if places[j] != n {
				t.Fatalf("job %s served %d-th, its place said %d", j.(*job).name, n, places[j])
			}
		}
	}
}
