package engine

// Perft counts the leaves of the game tree below p to the given depth:
// every line of play of depth moves, or fewer where the game ends first (a
// finished position counts as one leaf, and so does p itself at depth 0).
// If leaf is not nil it is called at every leaf with the position there;
// it must not keep or change the position.
//
// Perft leaves p as it found it. It is the standard check of move
// generation: its counts are compared with independently computed ones.
func Perft(p Position, depth int, leaf func(Position)) uint64 {
	if depth < 0 {
		depth = 0
	}
	bufs := make([]Move, (depth+1)*MaxMoves)
	return perft(p, depth, leaf, bufs)
}

func perft(p Position, depth int, leaf func(Position), bufs []Move) uint64 {
	if depth == 0 || p.Terminal() {
		if leaf != nil {
			leaf(p)
		}
		return 1
	}
	moves := p.Moves(bufs[:0:MaxMoves])
	if depth == 1 && leaf == nil {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		p.Play(m)
		n += perft(p, depth-1, leaf, bufs[MaxMoves:])
		p.Undo()
	}
	return n
}
