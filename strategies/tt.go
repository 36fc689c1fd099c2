package strategies

import (
	"sync"
	"sync/atomic"

	"github.com/gambitbot/gambit/engine"
)

// bound says what a stored score is: a lower bound (the search failed
// high), an upper bound (it failed low) or the exact value.
type bound uint8

const (
	boundNone  bound = 0
	boundUpper bound = 1
	boundLower bound = 2
	boundExact bound = 3
)

// ttEntry is one slot of the transposition table: the position's hash
// XORed with data, and data. Both words are read and written atomically,
// and a slot whose words were torn by two threads writing at once fails
// the XOR check and reads as empty, so threads share the table without
// locks (the "lockless hashing" of Hyatt and Mann).
type ttEntry struct {
	check atomic.Uint64 // hash ^ data
	data  atomic.Uint64
}

// ttBucket is four slots: one 64-byte cache line.
type ttBucket [4]ttEntry

// data layout, low to high bits: move 16, score 16 (signed), depth 8,
// bound 2, solved 1, generation 5.
const (
	ttScoreShift = 16
	ttDepthShift = 32
	ttBoundShift = 40
	ttSolvedBit  = 1 << 42
	ttGenShift   = 43
	ttGenMask    = 31
)

// ttHit is what a probe found.
type ttHit struct {
	move  engine.Move
	score int
	depth int
	bound bound
	// solved reports that the score was searched to the end of the game
	// without reductions: exact play may rely on it.
	solved bool
}

// ttable is a fixed-size transposition table shared by a search's
// threads. Scores are stored as bounds or exact values as they were found,
// never a bound as an exact value. Replacement prefers to keep deep entries
// of the current search: a new entry replaces, in order, the slot with the
// same position, or the one whose depth minus a penalty for each search
// generation it is old is least.
type ttable struct {
	buckets []ttBucket
	mask    uint64
	gen     uint64 // current generation, 0–31
}

// newTable returns a table of about mib MiB (at least one bucket, a power
// of two of them).
func newTable(mib int) *ttable {
	n := uint64(1)
	for n*2*64 <= uint64(mib)<<20 {
		n *= 2
	}
	return &ttable{buckets: make([]ttBucket, n), mask: n - 1}
}

// sizedPool keeps large per-search structures between searches, by size
// in MiB: making 64 MiB for every move would cost more than the structure
// saves, and what earlier searches stored — the previous move of the same
// game, usually — remains true. Unlike a sync.Pool it survives garbage
// collections, which large searches cause often; it keeps at most
// maxIdle structures of each size.
type sizedPool[T any] struct {
	mu   sync.Mutex
	idle map[int][]T
	make func(mib int) T
}

const maxIdle = 2

// get returns a T of mib MiB, from an earlier search if one is free.
func (p *sizedPool[T]) get(mib int) T {
	p.mu.Lock()
	if free := p.idle[mib]; len(free) > 0 {
		x := free[len(free)-1]
		p.idle[mib] = free[:len(free)-1]
		p.mu.Unlock()
		return x
	}
	p.mu.Unlock()
	return p.make(mib)
}

// put gives x, of mib MiB, back for later searches.
func (p *sizedPool[T]) put(mib int, x T) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.idle == nil {
		p.idle = make(map[int][]T)
	}
	if len(p.idle[mib]) < maxIdle {
		p.idle[mib] = append(p.idle[mib], x)
	}
}

// drop forgets every idle structure.
func (p *sizedPool[T]) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.idle)
}

// tables are the transposition tables between searches.
var tables = sizedPool[*ttable]{make: newTable}

// borrowTable returns a table of mib MiB with its generation advanced, so
// that entries of earlier searches give way first.
func borrowTable(mib int) *ttable {
	t := tables.get(mib)
	t.gen = (t.gen + 1) & ttGenMask
	return t
}

// clear empties the table.
func (t *ttable) clear() { clear(t.buckets) }

func (t *ttable) probe(hash uint64) (ttHit, bool) {
	b := &t.buckets[hash&t.mask]
	for i := range b {
		data := b[i].data.Load()
		if b[i].check.Load()^data == hash && data != 0 {
			return ttHit{
				move:   engine.Move(data),
				score:  int(int16(data >> ttScoreShift)),
				depth:  int(uint8(data >> ttDepthShift)),
				bound:  bound(data>>ttBoundShift) & 3,
				solved: data&ttSolvedBit != 0,
			}, true
		}
	}
	return ttHit{}, false
}

func (t *ttable) store(hash uint64, move engine.Move, score, depth int, b bound, solved bool) {
	if depth < 0 {
		depth = 0
	}
	bucket := &t.buckets[hash&t.mask]
	victim, worst := 0, int(^uint(0)>>1)
	for i := range bucket {
		data := bucket[i].data.Load()
		if data == 0 || bucket[i].check.Load()^data == hash {
			if data != 0 && move == engine.NoMove {
				move = engine.Move(data) // keep the known best move
			}
			victim = i
			break
		}
		age := int((t.gen - data>>ttGenShift) & ttGenMask)
		if prio := int(uint8(data>>ttDepthShift)) - 8*age; prio < worst {
			victim, worst = i, prio
		}
	}
	data := uint64(move) | uint64(uint16(int16(score)))<<ttScoreShift |
		uint64(uint8(depth))<<ttDepthShift | uint64(b)<<ttBoundShift | t.gen<<ttGenShift
	if solved {
		data |= ttSolvedBit
	}
	bucket[victim].data.Store(data)
	bucket[victim].check.Store(hash ^ data)
}
