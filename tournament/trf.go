package tournament

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// FIDE's tournament report file, TRF-16 (FIDE's Data Exchange Format),
// with the TRF(x) lines the pairing programs read (JaVaFo's XXR, the
// number of rounds, and XXC, the first colour) and TRF-2026's 142 and 152
// for the same. Lines are fixed columns; a player's line is
//
//	001 NNNN sTTT Name............................. RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP RRRR  oooo c r  oooo c r ...
//
// with a round every 10 columns from column 92: the opponent's pairing
// number (0000 for none), the colour (w, b, or - unplayed) and the
// result (1 = 0 won, drawn, lost; + - forfeit won, lost; U the
// pairing-allocated bye; F H Z a full-, half-, zero-point bye asked
// for). W, D and L (unrated games) read as 1, = and 0. Any line may end
// in LF, CRLF or CR alone (bbpPairings writes CR). Lines this package
// does not use are skipped; those that would change the pairings and it
// does not support (other point systems, accelerations, forbidden pairs,
// teams) are refused.

// ErrTRF: the file is not a TRF this package reads.
var ErrTRF = errors.New("malformed TRF")

// DecodeTRF reads a Swiss tournament from a TRF. Players' rounds beyond
// their line's end are NotPaired, up to the last round in which someone
// was paired (Played).
func DecodeTRF(r io.Reader) (*Swiss, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("tournament: read TRF: %w", err)
	}
	s := &Swiss{}
	players := map[int]Player{}
	maxID, rounds := 0, 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	sc.Split(splitLines)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		bad := func(what string) error {
			return fmt.Errorf("tournament: TRF line %d: %s: %w", lineNo, what, ErrTRF)
		}
		if len(line) < 3 {
			return nil, bad("no line code")
		}
		code, rest := line[:3], ""
		if len(line) > 3 {
			rest = line[3:]
		}
		switch code {
		case "012":
			s.Name = strings.TrimSpace(rest)
		case "XXR", "142":
			n, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil || n < 1 {
				return nil, bad("number of rounds " + strconv.Quote(strings.TrimSpace(rest)))
			}
			s.Rounds = n
		case "XXC":
			for _, f := range strings.Fields(rest) {
				switch f {
				case "rank":
					return nil, bad("pairing by rank (XXC rank) is not supported")
				case "white1":
					s.FirstColor = White
				case "black1":
					s.FirstColor = Black
				}
			}
		case "152":
			switch strings.TrimSpace(rest) {
			case "W":
				s.FirstColor = White
			case "B":
				s.FirstColor = Black
			default:
				return nil, bad("first colour " + strconv.Quote(strings.TrimSpace(rest)))
			}
		case "162", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU":
			return nil, bad("a point system other than 1, ½, 0 is not supported")
		case "XXA", "250":
			return nil, bad("accelerated pairings are not supported")
		case "XXP", "260":
			return nil, bad("forbidden pairs are not supported")
		case "240":
			return nil, bad("byes announced in a 240 line are not supported (write them in the players' lines)")
		case "013", "310":
			return nil, bad("team tournaments are not supported")
		case "001":
			id, p, err := decodePlayer(line)
			if err != nil {
				return nil, bad(err.Error())
			}
			if _, dup := players[id]; dup {
				return nil, bad(fmt.Sprintf("pairing number %d twice", id))
			}
			players[id] = p
			maxID = max(maxID, id)
			rounds = max(rounds, len(p.Results))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tournament: read TRF: %w", err)
	}
	if len(players) != maxID {
		return nil, fmt.Errorf("tournament: TRF: pairing numbers are not 1 to %d: %w", len(players), ErrTRF)
	}
	for id := 1; id <= maxID; id++ {
		s.Players = append(s.Players, players[id])
	}
	// Pad to the rounds paired only: an entry beyond them (an absence or
	// a bye asked for the round to pair) makes its player alone sit out.
	for i, played := 0, s.Played(); i < len(s.Players); i++ {
		for len(s.Players[i].Results) < played {
			s.Players[i].Results = append(s.Players[i].Results, Entry{})
		}
	}
	if s.Rounds == 0 {
		s.Rounds = rounds
	}
	if s.FirstColor == NoColor {
		s.FirstColor = s.inferFirstColor()
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("tournament: TRF: %w", err)
	}
	if s.Rounds < s.Played() {
		return nil, fmt.Errorf("tournament: TRF: %d rounds paired of %d planned: %w", s.Played(), s.Rounds, ErrTRF)
	}
	return s, nil
}

// splitLines splits at LF, CRLF or a lone CR.
func splitLines(data []byte, atEOF bool) (int, []byte, error) {
	for i, c := range data {
		switch c {
		case '\n':
			return i + 1, data[:i], nil
		case '\r':
			if i+1 < len(data) {
				if data[i+1] == '\n' {
					return i + 2, data[:i], nil
				}
				return i + 1, data[:i], nil
			}
			if atEOF {
				return i + 1, data[:i], nil
			}
			return 0, nil, nil // a CR at the buffer's end: wait for the next byte
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

func column(line string, from, to int) string {
	if from >= len(line) {
		return ""
	}
	return line[from:min(to, len(line))]
}

func decodePlayer(line string) (int, Player, error) {
	var p Player
	id, err := strconv.Atoi(strings.TrimSpace(column(line, 4, 8)))
	if err != nil || id < 1 {
		return 0, p, fmt.Errorf("pairing number %q", column(line, 4, 8))
	}
	p.Name = strings.TrimSpace(column(line, 14, 47))
	if r := strings.TrimSpace(column(line, 48, 52)); r != "" {
		if p.Rating, err = strconv.Atoi(r); err != nil {
			return 0, p, fmt.Errorf("rating %q", r)
		}
	}
	for start := 91; start < len(line); start += 10 {
		cell := column(line, start, start+8)
		for len(cell) < 8 {
			cell += " "
		}
		e, err := decodeEntry(cell, id)
		if err != nil {
			return 0, p, fmt.Errorf("round %d %q: %w", len(p.Results)+1, cell, err)
		}
		p.Results = append(p.Results, e)
	}
	for len(p.Results) > 0 && p.Results[len(p.Results)-1] == (Entry{}) {
		p.Results = p.Results[:len(p.Results)-1]
	}
	return id, p, nil
}

var resultCodes = map[byte]Result{
	'1': Win, 'W': Win, '=': Draw, 'D': Draw, '0': Loss, 'L': Loss,
	'+': ForfeitWin, '-': ForfeitLoss, 'U': PairingBye,
	'F': FullBye, 'H': HalfBye, 'Z': ZeroBye,
}

func decodeEntry(cell string, self int) (Entry, error) {
	var e Entry
	if strings.TrimSpace(cell) == "" {
		return e, nil
	}
	if o := strings.TrimSpace(cell[0:4]); o != "" {
		n, err := strconv.Atoi(o)
		if err != nil || n < 0 || n == self {
			return e, errors.New("opponent")
		}
		e.Opponent = n
	}
	switch cell[5] {
	case 'w':
		e.Color = White
	case 'b':
		e.Color = Black
	case '-', ' ':
	default:
		return e, errors.New("colour")
	}
	r, ok := resultCodes[cell[7]]
	if !ok {
		return e, errors.New("result")
	}
	e.Result = r
	switch {
	case r.played() && (e.Opponent == 0 || e.Color == NoColor):
		return e, errors.New("a game needs an opponent and a colour")
	case r == ForfeitLoss && e.Opponent == 0:
		// "0000 - -": absent without a pairing, as some programs write.
		e.Result = ZeroBye
	case (r == PairingBye || r == FullBye || r == HalfBye || r == ZeroBye) && e.Opponent != 0:
		return e, errors.New("a bye with an opponent")
	}
	return e, nil
}

var resultChars = map[Result]byte{
	Win: '1', Draw: '=', Loss: '0', ForfeitWin: '+', ForfeitLoss: '-',
	PairingBye: 'U', FullBye: 'F', HalfBye: 'H', ZeroBye: 'Z',
}

// EncodeTRF writes the tournament as a TRF-16 file with the XXR and XXC
// lines of TRF(x), LF line ends: FIDE's tools and the pairing programs
// (bbpPairings, JaVaFo) read it. The rank column ranks by score, then
// pairing number.
func EncodeTRF(w io.Writer, s *Swiss) error {
	var b strings.Builder
	if s.Name != "" {
		fmt.Fprintf(&b, "012 %s\n", s.Name)
	}
	if s.Rounds > 0 {
		fmt.Fprintf(&b, "XXR %d\n", s.Rounds)
	}
	switch s.FirstColor {
	case White:
		b.WriteString("XXC white1\n")
	case Black:
		b.WriteString("XXC black1\n")
	}
	rounds := 0
	for _, p := range s.Players {
		rounds = max(rounds, len(p.Results))
	}
	order := make([]int, len(s.Players))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		return s.Players[order[i]].HalfPoints(rounds) > s.Players[order[j]].HalfPoints(rounds)
	})
	rank := make([]int, len(s.Players))
	for r, i := range order {
		rank[i] = r + 1
	}
	for i, p := range s.Players {
		if len(p.Name) > 33 || strings.ContainsAny(p.Name, "\r\n") {
			return fmt.Errorf("tournament: TRF: player %d's name %q does not fit the 33 columns of a line: %w", i+1, p.Name, ErrTRF)
		}
		if p.Rating < 0 || p.Rating > 9999 {
			return fmt.Errorf("tournament: TRF: player %d's rating %d: %w", i+1, p.Rating, ErrTRF)
		}
		rating := ""
		if p.Rating > 0 {
			rating = strconv.Itoa(p.Rating)
		}
		hp := p.HalfPoints(len(p.Results))
		line := fmt.Sprintf("001 %4d %-4s %-33s %4s %-3s %11s %-10s %2d.%d %4d", i+1, "", p.Name, rating, "", "", "", hp/2, 5*(hp%2), rank[i])
		for _, e := range p.Results {
			line += "  " + encodeEntry(e)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("tournament: write TRF: %w", err)
	}
	return nil
}

func encodeEntry(e Entry) string {
	if e == (Entry{}) {
		return "        "
	}
	c := "-"
	switch e.Color {
	case White:
		c = "w"
	case Black:
		c = "b"
	}
	return fmt.Sprintf("%04d %s %c", e.Opponent, c, resultChars[e.Result])
}
