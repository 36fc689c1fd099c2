package strategies

import (
	"sync"

	"github.com/gambitbot/gambit/engine"
	"github.com/gambitbot/gambit/strategies/internal/ttable"
)

// The generic search keeps its bounds in the search core's table
// (strategies/internal/ttable), borrowed from a pool between searches.

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

// tablePolicy is the generic search's use of the shared table: its "no
// move", an age penalty of 8 plies a search, and a later estimate may
// replace what a solve stored (its solves replace their own entries).
var tablePolicy = ttable.Policy{NoMove: uint16(engine.NoMove), AgePenalty: 8}

// tables are the transposition tables between searches.
var tables = sizedPool[*ttable.Table]{make: func(mib int) *ttable.Table { return ttable.New(mib<<20, tablePolicy) }}

// borrowTable returns a table of mib MiB with its generation advanced, so
// that entries of earlier searches give way first.
func borrowTable(mib int) *ttable.Table {
	t := tables.get(mib)
	t.Age()
	return t
}
