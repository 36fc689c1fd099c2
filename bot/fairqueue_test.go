package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/gambitbot/gambit/storage"
)

func TestFairQueueServesOwnersInTurn(t *testing.T) {
	var q fairQueue
	job := func(owner, game string) *aiJob { return &aiJob{owner: owner, game: storage.GameID(game)} }
	for _, j := range []*aiJob{job("flood", "f1"), job("flood", "f2"), job("flood", "f3"), job("ann", "a1"), job("bob", "b1"), job("ann", "a2")} {
		q.push(j)
	}
	var got []string
	for j := q.pop(); j != nil; j = q.pop() {
		got = append(got, string(j.game))
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
		var jobs []*aiJob
		for i := range 1 + rng.IntN(12) {
			if len(jobs) > 0 && rng.IntN(4) == 0 {
				q.pop()
			}
			jobs = append(jobs, &aiJob{owner: owners[rng.IntN(len(owners))], game: storage.GameID(string(rune('A' + i)))})
			q.push(jobs[len(jobs)-1])
		}
		places := map[*aiJob]int{}
		for _, o := range q.order {
			for _, j := range q.byOwner[o] {
				places[j] = q.place(j)
			}
		}
		for n := 1; q.len() > 0; n++ {
			j := q.pop()
			if places[j] != n {
				t.Fatalf("job %s served %d-th, its place said %d", j.game, n, places[j])
			}
		}
	}
}
