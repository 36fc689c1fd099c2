package puzzles

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gambitbot/gambit/engine/slidingtile"
	tilegame "github.com/gambitbot/gambit/games/tiles"
)

// The 7-8 pattern database of the 15-puzzle (idastar-pdb78) is too slow
// to build at every start (minutes of CPU) and large (288 MB), so it is
// built once and kept on disk, in the directory PDBDir names: a header
// that names the patterns, the payload's length and its CRC-32C, then the
// tables' entries. A file whose header or checksum does not match is
// never trusted: it is rebuilt, with a log line.

// pdb78Patterns are idastar-pdb78's patterns: on the 15-puzzle the top two
// rows' 8 tiles and the bottom two rows' 7 (Korf & Felner's 7-8); on the
// 8-puzzle all 8 tiles in one table of 9!/1! entries, which is the exact
// distance, since with one empty cell a tile slides only into the blank.
var pdb78Patterns = map[int][][]int{
	3: {{1, 2, 3, 4, 5, 6, 7, 8}},
	4: {{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15}},
}

// PDB78Bytes is the memory the 15-puzzle's 7-8 tables take once built or
// loaded; pdb78BuildBytes what building them takes at most, the tables
// and the breadth-first search's two bit sets of the 8-tile table's
// placements.
const (
	PDB78Bytes      = (518_918_400 + 57_657_600) / 2
	pdb78BuildBytes = PDB78Bytes + 2*518_918_400/8
)

// pdbMagic starts a database file; its last byte is the format's version.
var pdbMagic = []byte("GMBTPDB\x01")

// errCorrupt is wrapped by loadPacked's error when the file is there but
// not a whole, matching database.
var errCorrupt = errors.New("not a whole pattern database of these patterns")

// pdb78 holds each board side's database once PDB78 has it, each under
// its own lock, so the 8-puzzle's never waits for the 15-puzzle's build.
var pdb78 [slidingtile.MaxSize + 1]struct {
	mu sync.Mutex
	d  *PackedPDB
}

// PDBDir returns the directory of the pattern databases kept on disk:
// $GAMBIT_PDB_DIR if set, else gambit under the user's cache directory
// (os.UserCacheDir, e.g. ~/.cache/gambit).
func PDBDir() (string, error) {
	if dir := os.Getenv("GAMBIT_PDB_DIR"); dir != "" {
		return dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("puzzles: pattern database directory: %w (set GAMBIT_PDB_DIR)", err)
	}
	return filepath.Join(dir, "gambit"), nil
}

// pdb78File is the name of the 15-puzzle's 7-8 database in PDBDir,
// after the game's name: 15puzzle-7-8.pdb.
var pdb78File = tilegame.Fifteen.Name + "-7-8.pdb"

// PDB78File returns where the 15-puzzle's 7-8 database is kept on disk,
// and whether a file is there (whole or not: loading checks).
func PDB78File() (path string, exists bool, err error) {
	dir, err := PDBDir()
	if err != nil {
		return "", false, err
	}
	path = filepath.Join(dir, pdb78File)
	_, err = os.Stat(path)
	return path, err == nil, nil
}

// PDB78Ready reports, without waiting, whether idastar-pdb78's tables for
// the board of the given side are in memory.
func PDB78Ready(size int) bool {
	if !pdb78[size].mu.TryLock() {
		return false
	}
	defer pdb78[size].mu.Unlock()
	return pdb78[size].d != nil
}

// PDB78 returns idastar-pdb78's pattern database for the board of the
// given side, kept for the life of the process once it has it. The
// 15-puzzle's is loaded from PDBDir when a whole file of it is there, if
// the memory budget (Limits.Memory, DefaultMemory if 0) covers its
// PDB78Bytes; else it is built, if the budget covers the build, and
// saved there. A build takes minutes of CPU and holds the lock, so other
// callers wait; the bot offers idastar-pdb78 on the 15-puzzle only once
// the tables are in memory (PDB78Ready), so a player's click never
// builds them.
func PDB78(size int, l Limits) (*PackedPDB, error) {
	patterns, ok := pdb78Patterns[size]
	if !ok {
		return nil, fmt.Errorf("puzzles: no 7-8 pattern database for the %d×%d board", size, size)
	}
	pdb78[size].mu.Lock()
	defer pdb78[size].mu.Unlock()
	if d := pdb78[size].d; d != nil {
		return d, nil
	}
	if size < 4 {
		d, err := NewPackedPDB(size, patterns)
		pdb78[size].d = d
		return d, err
	}
	memory := l.Memory
	if memory == 0 {
		memory = DefaultMemory
	}
	dir, err := PDBDir()
	if err != nil {
		return nil, err
	}
	d, err := cachedPacked(filepath.Join(dir, pdb78File), size, patterns, memory, PDB78Bytes, pdb78BuildBytes, l.Progress)
	pdb78[size].d = d
	return d, err
}

// cachedPacked loads the database of the patterns from path, if the
// memory budget covers its bytes; else, when the file is missing or not
// whole (with a log line), builds it, if the budget covers the build's
// bytes, and saves it there.
func cachedPacked(path string, size int, patterns [][]int, memory, need, buildBytes uint64, progress func(done, total int)) (*PackedPDB, error) {
	if memory < need {
		return nil, &MemoryError{Budget: memory}
	}
	d, err := loadPacked(path, size, patterns)
	switch {
	case err == nil:
		return d, nil
	case errors.Is(err, errCorrupt):
		slog.Warn("puzzles: pattern database file is damaged; rebuilding it", "err", err)
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	if memory < buildBytes {
		return nil, &MemoryError{Budget: memory}
	}
	if d, err = buildPacked(size, patterns, progress); err != nil {
		return nil, err
	}
	if err := savePacked(path, d); err != nil {
		slog.Warn("puzzles: pattern database built but not saved", "err", err)
	}
	return d, nil
}

// packedHeader returns the start of d's file: the magic, the side, the
// patterns (count, then each one's length and tiles) and the payload's
// length in bytes (8 bytes); the payload's CRC-32C (4 bytes) follows it.
func packedHeader(d *PackedPDB) []byte {
	h := append([]byte(nil), pdbMagic...)
	h = append(h, byte(d.size), byte(len(d.patterns)))
	for _, tiles := range d.patterns {
		h = append(h, byte(len(tiles)))
		for _, t := range tiles {
			h = append(h, byte(t))
		}
	}
	return binary.LittleEndian.AppendUint64(h, uint64(d.Bytes()))
}

// chunkWords is how many entries' words the file is read and written by.
const chunkWords = 1 << 18

// eachChunk calls f on the tables' words, little-endian, a chunk at a
// time, in file order.
func eachChunk(d *PackedPDB, f func(words []uint32, buf []byte) error) error {
	buf := make([]byte, 4*chunkWords)
	for _, t := range d.tables {
		for lo := 0; lo < len(t.words); lo += chunkWords {
			words := t.words[lo:min(lo+chunkWords, len(t.words))]
			if err := f(words, buf[:4*len(words)]); err != nil {
				return err
			}
		}
	}
	return nil
}

// encodeWords writes words into buf, little-endian.
func encodeWords(words []uint32, buf []byte) {
	for i, w := range words {
		binary.LittleEndian.PutUint32(buf[4*i:], w)
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// savePacked writes d to path (through a temporary file renamed into
// place, so a reader never sees half a file), creating the directory.
func savePacked(path string, d *PackedPDB) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("puzzles: save pattern database: %w", err)
	}
	sum := uint32(0)
	_ = eachChunk(d, func(words []uint32, buf []byte) error {
		encodeWords(words, buf)
		sum = crc32.Update(sum, castagnoli, buf)
		return nil
	})
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("puzzles: save pattern database: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("puzzles: save pattern database %s: %w", path, err)
		}
	}()
	if _, err = f.Write(binary.LittleEndian.AppendUint32(packedHeader(d), sum)); err != nil {
		return err
	}
	if err = eachChunk(d, func(words []uint32, buf []byte) error {
		encodeWords(words, buf)
		_, err := f.Write(buf)
		return err
	}); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// loadPacked reads the database of the given patterns from path. Its
// error wraps os.ErrNotExist when there is no file, errCorrupt when the
// file is not a whole database of these patterns (another version or
// pattern, truncated, or failing its checksum).
func loadPacked(path string, size int, patterns [][]int) (*PackedPDB, error) {
	start := time.Now()
	d, err := newPackedPDB(size, patterns)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("puzzles: load pattern database: %w", err)
	}
	defer f.Close()
	want := packedHeader(d)
	head := make([]byte, len(want)+4)
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head[:len(want)], want) {
		return nil, fmt.Errorf("puzzles: load pattern database %s: %w: header", path, errCorrupt)
	}
	if info, err := f.Stat(); err != nil || info.Size() != int64(len(head)+d.Bytes()) {
		return nil, fmt.Errorf("puzzles: load pattern database %s: %w: length", path, errCorrupt)
	}
	for _, t := range d.tables {
		t.words = make([]uint32, (t.entries+7)/8)
	}
	sum := uint32(0)
	if err := eachChunk(d, func(words []uint32, buf []byte) error {
		if _, err := io.ReadFull(f, buf); err != nil {
			return err
		}
		sum = crc32.Update(sum, castagnoli, buf)
		for i := range words {
			words[i] = binary.LittleEndian.Uint32(buf[4*i:])
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("puzzles: load pattern database %s: %w: %v", path, errCorrupt, err)
	}
	if sum != binary.LittleEndian.Uint32(head[len(want):]) {
		return nil, fmt.Errorf("puzzles: load pattern database %s: %w: checksum", path, errCorrupt)
	}
	d.Loaded, d.Built = true, time.Since(start)
	return d, nil
}
