package bolt

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"go.etcd.io/bbolt"

	"github.com/gambitbot/gambit/storage"
)

// ErrCorruptFile reports a database file whose bbolt pages are damaged — a
// disk fault, flipped bits, a bad copy — so that it cannot be read safely.
// It matches storage.ErrCorrupt too. `gambit db check` reports it; restore
// the last backup.
var ErrCorruptFile error = corruptFileError{}

type corruptFileError struct{}

func (corruptFileError) Error() string { return "the database file is corrupt" }
func (corruptFileError) Unwrap() error { return storage.ErrCorrupt }

// guard runs fn, which reads the database file at path, and turns a crash
// inside bbolt into an error naming the file and matching ErrCorruptFile.
// bbolt trusts its pages: on damaged ones it panics, or follows an offset
// out of the mapped file, a memory fault that SetPanicOnFault turns into a
// panic too (for this goroutine; verifyPages keeps bbolt's own goroutines
// off damaged pages). Every entry point that reads a file which may be
// damaged — Open, Check, Stats — goes through it.
func guard(op, path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("storage: %s %s: %w: reading it failed: %v", op, path, ErrCorruptFile, r)
		}
	}()
	return fn()
}

// bbolt's file format (go.etcd.io/bbolt/internal/common), in the machine's
// byte order. A page is a header — id u64, flags u16, count u16, overflow
// u32 — then count elements of elementSize bytes: a branch element is pos
// u32, ksize u32, child pgid u64; a leaf element flags u32, pos u32, ksize
// u32, vsize u32, where pos counts from the element. A bucket's value is its
// root pgid u64 and sequence u64, followed, when the root is 0, by an
// inline leaf page holding its keys. A meta page's header is followed by
// magic, version, page size and flags (u32 each), the root bucket's value,
// the freelist's pgid, the high-water mark pgid, the txid and an FNV-64a
// checksum of the fields before it (u64 each).
const (
	pageHeaderSize   = 16
	elementSize      = 16
	bucketHeaderSize = 16
	metaRoot         = pageHeaderSize + 16
	metaFreelist     = pageHeaderSize + 32
	metaHighWater    = pageHeaderSize + 40
	metaTxid         = pageHeaderSize + 48
	metaChecksum     = pageHeaderSize + 56
	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	freelistPageFlag = 0x10
	bucketLeafFlag   = 0x01
	noFreelist       = ^uint64(0)
)

var order = binary.NativeEndian

// pageWalker reads the pages of a file with bounds checks of its own, for
// verifyPages.
type pageWalker struct {
	f        io.ReaderAt
	pageSize uint64
	hwm      uint64 // the number of pages in use: every pgid is below it
	seen     map[uint64]bool
	problems []string
	err      error // the first read error
}

func (w *pageWalker) addf(format string, args ...any) {
	w.problems = append(w.problems, "bbolt: "+fmt.Sprintf(format, args...))
}

// read returns n bytes at offset off, recording a read error.
func (w *pageWalker) read(off, n uint64) []byte {
	buf := make([]byte, n)
	if _, err := w.f.ReadAt(buf, int64(off)); err != nil {
		w.err = cmp.Or(w.err, err)
		return nil
	}
	return buf
}

// page reads page id with its overflow pages, checking that it lies below
// the high-water mark, names itself id, has one of the flags in want and is
// reached for the first time.
func (w *pageWalker) page(id uint64, want ...uint16) []byte {
	if id < 2 || id >= w.hwm {
		w.addf("page %d: out of range: the file has %d pages", id, w.hwm)
		return nil
	}
	if w.seen[id] {
		w.addf("page %d: referenced twice", id)
		return nil
	}
	w.seen[id] = true
	hdr := w.read(id*w.pageSize, pageHeaderSize)
	if hdr == nil {
		return nil
	}
	if self := order.Uint64(hdr); self != id {
		w.addf("page %d: its header names page %d", id, self)
		return nil
	}
	flags, overflow := order.Uint16(hdr[8:]), uint64(order.Uint32(hdr[12:]))
	if !slices.Contains(want, flags) {
		w.addf("page %d: unexpected type %#x", id, flags)
		return nil
	}
	if id+overflow >= w.hwm {
		w.addf("page %d: %d overflow pages run past the file's %d pages", id, overflow, w.hwm)
		return nil
	}
	for i := range overflow {
		w.seen[id+1+i] = true
	}
	return w.read(id*w.pageSize, (overflow+1)*w.pageSize)
}

// tree checks the B+tree rooted at page id: every element within its page,
// every child a page of its own.
func (w *pageWalker) tree(id uint64) {
	p := w.page(id, branchPageFlag, leafPageFlag)
	if p != nil {
		w.elements(p, fmt.Sprintf("page %d", id))
	}
}

// elements checks the elements of page p (a page's bytes, or an inline
// page within a bucket value) and descends into its children and buckets.
func (w *pageWalker) elements(p []byte, where string) {
	flags, count := order.Uint16(p[8:]), uint64(order.Uint16(p[10:]))
	if flags == branchPageFlag && count == 0 {
		w.addf("%s: an empty branch page", where)
		return
	}
	if pageHeaderSize+count*elementSize > uint64(len(p)) {
		w.addf("%s: %d elements overflow the page", where, count)
		return
	}
	for i := range count {
		at := pageHeaderSize + i*elementSize
		e := p[at : at+elementSize]
		if flags == branchPageFlag {
			pos, ksize := uint64(order.Uint32(e)), uint64(order.Uint32(e[4:]))
			if at+pos+ksize > uint64(len(p)) {
				w.addf("%s: element %d: key outside the page", where, i)
				return
			}
			w.tree(order.Uint64(e[8:]))
			continue
		}
		pos, ksize, vsize := uint64(order.Uint32(e[4:])), uint64(order.Uint32(e[8:])), uint64(order.Uint32(e[12:]))
		if at+pos+ksize+vsize > uint64(len(p)) {
			w.addf("%s: element %d: key or value outside the page", where, i)
			return
		}
		if order.Uint32(e)&bucketLeafFlag != 0 {
			w.bucket(p[at+pos+ksize:at+pos+ksize+vsize], fmt.Sprintf("%s element %d", where, i))
		}
	}
}

// bucket checks a bucket, given the value that holds it.
func (w *pageWalker) bucket(v []byte, where string) {
	if len(v) < bucketHeaderSize {
		w.addf("%s: a bucket value of %d bytes", where, len(v))
		return
	}
	if root := order.Uint64(v); root != 0 {
		w.tree(root)
		return
	}
	inline := v[bucketHeaderSize:]
	if len(inline) < pageHeaderSize || order.Uint16(inline[8:]) != leafPageFlag {
		w.addf("%s: a malformed inline bucket", where)
		return
	}
	w.elements(inline, where+" (inline bucket)")
}

// freelist checks that the freelist page's ids lie within it and returns
// them.
func (w *pageWalker) freelist(id uint64) []uint64 {
	p := w.page(id, freelistPageFlag)
	if p == nil {
		return nil
	}
	first, count := uint64(0), uint64(order.Uint16(p[10:]))
	if count == 0xFFFF { // the real count is the first element
		first, count = 1, order.Uint64(p[pageHeaderSize:])
	}
	if count > (uint64(len(p))-pageHeaderSize)/8-first {
		w.addf("page %d: %d free page ids overflow the freelist page", id, count)
		return nil
	}
	ids := make([]uint64, count)
	for i := range ids {
		ids[i] = order.Uint64(p[pageHeaderSize+8*(first+uint64(i)):])
	}
	return ids
}

// verifyPages checks, with bounds-checked reads of its own, the structure of
// the pages that tx sees in the file at path — every page in range and
// reached once, every element within its page, no page both free and in
// use — and returns one line per problem. bbolt reads its pages through
// unchecked pointers, so a damaged file makes it read outside the file,
// crash the process with a memory fault or loop forever; the fault cannot
// be recovered inside the goroutine behind tx.Check. Call this before
// anything walks the file.
func verifyPages(tx *bbolt.Tx, path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	w := &pageWalker{f: f, pageSize: uint64(tx.DB().Info().PageSize), seen: map[uint64]bool{}}
	txid := uint64(tx.ID())
	if tx.Writable() {
		txid-- // a write transaction carries the next id
	}
	var meta []byte
	for i := range uint64(2) {
		m := w.read(i*w.pageSize, metaChecksum+8)
		if m != nil && order.Uint64(m[metaTxid:]) == txid {
			meta = m
		}
	}
	if w.err != nil {
		return nil, w.err
	}
	h := fnv.New64a()
	if meta != nil {
		h.Write(meta[pageHeaderSize:metaChecksum])
	}
	if meta == nil || h.Sum64() != order.Uint64(meta[metaChecksum:]) {
		return []string{fmt.Sprintf("bbolt: no valid meta page for transaction %d", txid)}, nil
	}
	root, freelist := order.Uint64(meta[metaRoot:]), order.Uint64(meta[metaFreelist:])
	w.hwm = order.Uint64(meta[metaHighWater:])
	if size := uint64(fi.Size()); w.hwm > size/w.pageSize {
		return []string{fmt.Sprintf("bbolt: the file is %d bytes, too short for its %d pages of %d bytes", size, w.hwm, w.pageSize)}, nil
	}
	var free []uint64
	if freelist != noFreelist {
		free = w.freelist(freelist)
	}
	w.tree(root)
	// A page both free and in use would be overwritten by the next write.
	for _, id := range free {
		if id < 2 || id >= w.hwm || w.seen[id] {
			w.addf("page %d: listed as free but in use or out of range", id)
		}
	}
	return w.problems, w.err
}

// errCorruptPages is the error of verifyPages' problems for an operation that
// stops at them: ErrCorruptFile with the first few problems.
func errCorruptPages(op, path string, problems []string) error {
	const shown = 3
	msg := strings.Join(problems[:min(len(problems), shown)], "; ")
	if len(problems) > shown {
		msg += fmt.Sprintf(" and %d more", len(problems)-shown)
	}
	return fmt.Errorf("storage: %s %s: %w: %s", op, path, ErrCorruptFile, msg)
}
