package scheduler

// fairQueue holds jobs (AI turns) waiting for a worker and serves their owners —
// the people whose games they are — in turn: each owner's turns in the
// order they came, the owners round robin. One member with many games
// cannot make everyone else wait behind all of them.
type fairQueue struct {
	byOwner map[string][]Job
	order   []string // owners with waiting turns, the next to serve first
	n       int
}

// push adds a job and returns its place: 1 for the next to be served.
func (q *fairQueue) push(j Job) int {
	if q.byOwner == nil {
		q.byOwner = map[string][]Job{}
	}
	if len(q.byOwner[j.Owner()]) == 0 {
		q.order = append(q.order, j.Owner())
	}
	q.byOwner[j.Owner()] = append(q.byOwner[j.Owner()], j)
	q.n++
	return q.place(j)
}

// place returns the place in which j would be served now.
func (q *fairQueue) place(j Job) int {
	left := make(map[string]int, len(q.order))
	for _, o := range q.order {
		left[o] = len(q.byOwner[o])
	}
	mine := 0
	for i, other := range q.byOwner[j.Owner()] {
		if other == j {
			mine = i
		}
	}
	// Every owner ahead in the rotation is served mine+1 times before j,
	// every owner behind it mine times; each at most as often as it has
	// turns waiting.
	place, ahead := 0, true
	for _, o := range q.order {
		if o == j.Owner() {
			ahead = false
			place += mine + 1
			continue
		}
		rounds := mine
		if ahead {
			rounds++
		}
		place += min(rounds, left[o])
	}
	return place
}

// pop removes and returns the next job to serve, or nil.
func (q *fairQueue) pop() Job {
	if len(q.order) == 0 {
		return nil
	}
	owner := q.order[0]
	jobs := q.byOwner[owner]
	j := jobs[0]
	q.byOwner[owner] = jobs[1:]
	q.order = q.order[1:]
	if len(jobs) > 1 {
		q.order = append(q.order, owner)
	} else {
		delete(q.byOwner, owner)
	}
	q.n--
	return j
}

// len returns the number of waiting jobs.
func (q *fairQueue) len() int { return q.n }
