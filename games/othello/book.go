package othello

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/gambitbot/gambit/engine"
	rules "github.com/gambitbot/gambit/engine/othello"
)

// The opening book: the positions reasonable play reaches in the first
// plies, each searched deeply by Gambit's own minimax, with its moves
// within a few discs of the best and their scores (built by
// internal/train/othello; docs/ai.md, "Othello's evaluation"). The
// search plays from it before searching.

// bookFile is the embedded book.
//
//go:embed book.bin
var bookFile []byte

// BookMove is a move of a book position: its square (a1 is 0, rows from
// the top) and its score in Units for the side to move.
type BookMove struct {
	Square int
	Score  int
}

// BookPosition is a position of the book: the discs of the side to move
// and of its opponent, the depth its moves were searched to, and its
// moves, best first.
type BookPosition struct {
	Own, Opp uint64
	Depth    int
	Moves    []BookMove
}

// Book is an opening book, its positions stored as one of their eight
// symmetric boards.
type Book struct {
	positions map[[2]uint64]BookPosition
}

// bookVariety is how far below the best a move may score, in Units, to
// be played from the book for variety.
const bookVariety = Unit

// canonical returns the symmetric board of (own, opp) that the book
// stores, the least, and which of symmetric's boards it is.
func canonical(own, opp uint64) (key [2]uint64, sym int) {
	so, sp := symmetric(own), symmetric(opp)
	key = [2]uint64{so[0], sp[0]}
	for s := 1; s < 8; s++ {
		if so[s] < key[0] || so[s] == key[0] && sp[s] < key[1] {
			key, sym = [2]uint64{so[s], sp[s]}, s
		}
	}
	return key, sym
}

// BookKey returns the key the book stores the position under, the same
// for its eight symmetric boards: where the side to move has own and its
// opponent opp.
func BookKey(own, opp uint64) [2]uint64 {
	key, _ := canonical(own, opp)
	return key
}

// squareMaps[s][c] is the square that symmetric board s puts square c
// on; squareMaps[s] inverted takes it back.
var squareMaps = func() (m [8][64]int) {
	for c := range 64 {
		for s, x := range symmetric(1 << c) {
			m[s][c] = bits.TrailingZeros64(x)
		}
	}
	return m
}()

// onBoard returns the square of symmetric board sym that is square c of
// the original board, or with back, the square of the original board
// that is square c of board sym.
func onBoard(sym, c int, back bool) int {
	if !back {
		return squareMaps[sym][c]
	}
	for q, d := range squareMaps[sym] {
		if d == c {
			return q
		}
	}
	return c
}

// EncodeBook encodes positions as a book file: "OTHB" and a version
// byte, the number of positions, then each position's two bitboards,
// depth and moves (square and score), stored on its canonical board.
func EncodeBook(positions []BookPosition) []byte {
	out := append([]byte(nil), bookMagic...)
	out = binary.AppendUvarint(out, uint64(len(positions)))
	for _, p := range positions {
		key, sym := canonical(p.Own, p.Opp)
		out = binary.LittleEndian.AppendUint64(out, key[0])
		out = binary.LittleEndian.AppendUint64(out, key[1])
		out = binary.AppendUvarint(out, uint64(p.Depth))
		out = binary.AppendUvarint(out, uint64(len(p.Moves)))
		for _, m := range p.Moves {
			out = append(out, byte(onBoard(sym, m.Square, false)))
			out = binary.AppendVarint(out, int64(m.Score))
		}
	}
	return out
}

const bookMagic = "OTHB\x01"

// ParseBook decodes a book file; every move must be legal in its
// position.
func ParseBook(data []byte) (*Book, error) {
	if len(data) < len(bookMagic) || string(data[:len(bookMagic)]) != bookMagic {
		return nil, errors.New("othello: book: not a book file of this version")
	}
	data = data[len(bookMagic):]
	uvarint := func() uint64 {
		v, n := binary.Uvarint(data)
		if n <= 0 {
			data = nil
			return 0
		}
		data = data[n:]
		return v
	}
	n := uvarint()
	b := &Book{positions: make(map[[2]uint64]BookPosition, min(n, 1<<16))}
	for i := range n {
		if len(data) < 16 {
			return nil, fmt.Errorf("othello: book: position %d cut short", i)
		}
		p := BookPosition{Own: binary.LittleEndian.Uint64(data), Opp: binary.LittleEndian.Uint64(data[8:])}
		data = data[16:]
		p.Depth = int(uvarint())
		moves := uvarint()
		legal := rules.LegalMoves(p.Own, p.Opp)
		for range moves {
			if len(data) < 2 {
				return nil, fmt.Errorf("othello: book: position %d cut short", i)
			}
			sq := int(data[0])
			data = data[1:]
			score, k := binary.Varint(data)
			if k <= 0 || sq >= 64 || legal>>sq&1 == 0 {
				return nil, fmt.Errorf("othello: book: position %d: move %d is not legal or its score is cut short", i, sq)
			}
			data = data[k:]
			p.Moves = append(p.Moves, BookMove{Square: sq, Score: int(score)})
		}
		if len(p.Moves) == 0 {
			return nil, fmt.Errorf("othello: book: position %d has no moves", i)
		}
		b.positions[[2]uint64{p.Own, p.Opp}] = p
	}
	if len(data) != 0 {
		return nil, fmt.Errorf("othello: book: %d bytes after the positions", len(data))
	}
	return b, nil
}

// Len returns the number of positions in the book.
func (b *Book) Len() int { return len(b.positions) }

// Lookup returns the book's entry for the position where the side to
// move has own and its opponent opp, its moves' squares on this board.
func (b *Book) Lookup(own, opp uint64) (BookPosition, bool) {
	key, sym := canonical(own, opp)
	p, ok := b.positions[key]
	if !ok {
		return BookPosition{}, false
	}
	out := BookPosition{Own: own, Opp: opp, Depth: p.Depth, Moves: make([]BookMove, len(p.Moves))}
	for i, m := range p.Moves {
		out.Moves[i] = BookMove{Square: onBoard(sym, m.Square, true), Score: m.Score}
	}
	return out, true
}

// book is the embedded book, decoded on first use.
var book = sync.OnceValue(func() *Book {
	b, err := ParseBook(bookFile)
	if err != nil {
		panic(err) // the embedded file is part of the build; its test decodes it
	}
	return b
})

// bookMove is games.AI.Book: the book's move in p, the value of p (its
// best move's score) in Units and the depth it was searched to. With seed 0 it is the best move;
// otherwise one of the moves within bookVariety of the best, chosen by
// seed and the position.
func bookMove(p engine.Position, seed uint64) (engine.Move, int, int, bool) {
	q := p.(*rules.Position)
	me := q.SideToMove()
	e, ok := book().Lookup(q.Bitboard(me), q.Bitboard(me.Other()))
	if !ok {
		return engine.NoMove, 0, 0, false
	}
	choice := e.Moves[0]
	if seed != 0 {
		near := 0
		for _, m := range e.Moves {
			if m.Score >= e.Moves[0].Score-bookVariety {
				near++
			}
		}
		choice = e.Moves[mix(seed, e.Own, e.Opp)%uint64(near)]
	}
	return engine.Move(choice.Square), e.Moves[0].Score, e.Depth, true
}

// mix hashes a seed and a position (splitmix64 steps).
func mix(xs ...uint64) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range xs {
		h ^= x
		h ^= h >> 30
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 27
		h *= 0x94d049bb133111eb
		h ^= h >> 31
	}
	return h
}
