package render

import (
	"fmt"
	"sync"

	"github.com/gambitbot/gambit/games"
)

// MemoizePictures makes the board pictures drawn from now on kept, the
// latest n of them, by the board and its look's picture style, and a
// board drawn again given the bytes kept. A picture is a pure function
// of the two (package picture reads nothing else of the look), so every
// message carries the same bytes as without it.
//
// It is for test binaries, whose games draw the same boards again and
// again — every game's first board, the same openings — while drawing
// and encoding one costs milliseconds of CPU, tens of them under the
// race detector: three pictures in four of bot's tests are drawn again,
// within the latest 256. A server keeps drawing every picture. Call it
// before anything draws (from TestMain); restore puts back drawing every
// picture.
func MemoizePictures(n int) (restore func()) {
	draw := drawPNG
	kept := &recent[drawn]{size: n}
	drawPNG = func(look games.Look, board games.Board) ([]byte, error) {
		r := kept.get(fmt.Sprintf("%#v|%#v", look.Picture, board), func() drawn {
			data, err := draw(look, board)
			return drawn{data, err}
		})
		return r.data, r.err
	}
	return func() { drawPNG = draw }
}

// drawn is what drawPNG returned.
type drawn struct {
	data []byte
	err  error
}

// recent remembers the latest results of a pure, costly function by its
// argument's key: enough for the boards drawn again, little enough that
// thousands of boards hold no memory.
type recent[V any] struct {
	size int // how many results it keeps

	mu   sync.Mutex
	keys []string
	vals map[string]V
}

// get returns the result for key, calling f for one not kept, without
// holding the others up: two calls for the same key at once may both
// call f.
func (r *recent[V]) get(key string, f func() V) V {
	r.mu.Lock()
	v, ok := r.vals[key]
	r.mu.Unlock()
	if ok {
		return v
	}
	v = f()
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.vals[key]; ok {
		return v
	}
	if r.vals == nil {
		r.vals = map[string]V{}
	}
	if len(r.keys) == r.size {
		delete(r.vals, r.keys[0])
		r.keys = r.keys[1:]
	}
	r.keys = append(r.keys, key)
	r.vals[key] = v
	return v
}
