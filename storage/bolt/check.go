package bolt

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"go.etcd.io/bbolt"
)

// Check verifies the database: the structure of its pages (verifyPages),
// bbolt's own page-level consistency check, the schema version, and
// Gambit's invariants — every record decodes and validates, and every index
// (open games, history, solved puzzles, AI turns, deadlines, rank keys)
// holds exactly the entries its records call for. It returns one line per
// problem found, none for a healthy database; the error is for failing to run the check at all,
// or for a file too damaged to read (matching ErrCorruptFile).
//
// On a store opened read-write, Check holds the write lock while it runs
// (bbolt's check is unsafe beside a writer otherwise), so writes wait.
func (s *Store) Check(ctx context.Context) (problems []string, err error) {
	err = guard("check", s.path, func() error {
		problems, err = s.check(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return problems, nil
}

func (s *Store) check(ctx context.Context) ([]string, error) {
	var problems []string
	run := func(tx *bbolt.Tx) (err error) {
		// bbolt's check walks the pages in a goroutine of its own, where a
		// memory fault cannot be recovered: it runs only on sound pages.
		if problems, err = verifyPages(tx, s.path); err != nil || len(problems) > 0 {
			return err
		}
		problems = checkTx(ctx, tx)
		return ctx.Err()
	}
	var err error
	if s.db.IsReadOnly() {
		err = s.view(ctx, run)
	} else if err = ctx.Err(); err == nil {
		var tx *bbolt.Tx
		if tx, err = s.db.Begin(true); err == nil {
			// The check writes nothing; rolling back cannot lose data.
			// Deferred, so that a panic releases the write lock too.
			defer func() { _ = tx.Rollback() }()
			err = run(tx)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("storage: check %s: %w", s.path, err)
	}
	return problems, nil
}

// checker accumulates problems and the index keys the records call for.
type checker struct {
	problems []string
	// want maps an index bucket path to the keys it must hold.
	want map[string]map[string]bool
}

func (c *checker) addf(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func (c *checker) expect(bucket string, key []byte) {
	if c.want[bucket] == nil {
		c.want[bucket] = map[string]bool{}
	}
	c.want[bucket][string(key)] = true
}

// compare reports the differences between bucket b's keys and the expected
// ones; b may be nil when it does not exist.
func (c *checker) compare(name string, b *bbolt.Bucket) {
	want := c.want[name]
	if b != nil {
		_ = b.ForEach(func(k, v []byte) error {
			if want[string(k)] {
				delete(want, string(k))
			} else {
				c.addf("index %s: stray entry %q", name, k)
			}
			return nil
		})
	}
	missing := make([]string, 0, len(want))
	for k := range want {
		missing = append(missing, k)
	}
	slices.Sort(missing)
	for _, k := range missing {
		c.addf("index %s: missing entry %q", name, k)
	}
}

func checkTx(ctx context.Context, tx *bbolt.Tx) []string {
	c := &checker{want: map[string]map[string]bool{}}
	for err := range tx.Check() {
		c.addf("bbolt: %v", err)
	}
	if v, err := readSchema(tx); err != nil {
		c.addf("%v", err)
	} else if v != uint64(len(migrations)) {
		c.addf("schema version %d, want %d", v, len(migrations))
	}
	_ = tx.ForEach(func(name []byte, _ *bbolt.Bucket) error {
		if !slices.ContainsFunc(allBuckets, func(b []byte) bool { return string(b) == string(name) }) {
			c.addf("unknown bucket %q", name)
		}
		return nil
	})
	for _, b := range allBuckets {
		if tx.Bucket(b) == nil {
			c.addf("missing bucket %q", b)
		}
	}
	if len(c.problems) > 0 || ctx.Err() != nil {
		return c.problems
	}

	_ = tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
		g, err := decodeGame(k, v)
		if err != nil {
			c.addf("%v", err)
			return ctx.Err()
		}
		for _, e := range gameIndex(g) {
			c.expect(string(e.bucket), e.key)
		}
		return ctx.Err()
	})
	for _, b := range [][]byte{bucketOpen, bucketHistory, bucketAI, bucketDeadline, bucketSolved} {
		c.compare(string(b), tx.Bucket(b))
	}

	ladders, err := ratedLadders(tx)
	if err != nil {
		c.addf("%v", err)
	}
	unseen := map[string]bool{} // ladders whose rank bucket is still to compare
	for _, l := range ladders {
		unseen[l.String()] = true
		ratings, _ := ladderBucket(tx, bucketRatings, l, false)
		_ = ratings.ForEach(func(k, v []byte) error {
			r, err := decodeRating(l.String(), k, v)
			if err != nil {
				c.addf("%v", err)
			} else if !r.Provisional() {
				c.expect(string(bucketRank)+"/"+l.String(), rankKey(r))
			}
			return ctx.Err()
		})
	}
	_ = tx.Bucket(bucketRank).ForEachBucket(func(name []byte) error {
		if !unseen[string(name)] {
			c.addf("rank index %q has no ratings bucket", name)
			return nil
		}
		delete(unseen, string(name))
		c.compare(string(bucketRank)+"/"+string(name), tx.Bucket(bucketRank).Bucket(name))
		return nil
	})
	for _, name := range slices.Sorted(maps.Keys(unseen)) {
		c.compare(string(bucketRank)+"/"+name, nil)
	}
	for _, root := range [][]byte{bucketRatings, bucketRank} {
		_ = tx.Bucket(root).ForEach(func(k, v []byte) error {
			if v != nil {
				c.addf("bucket %s: unexpected value at %q", root, k)
			}
			return nil
		})
	}

	_ = tx.Bucket(bucketGuilds).ForEach(func(k, v []byte) error {
		if _, err := decodeGuildSettings(k, v); err != nil {
			c.addf("%v", err)
		}
		return ctx.Err()
	})
	_ = tx.Bucket(bucketUsers).ForEach(func(k, v []byte) error {
		if _, err := decodeUserSettings(k, v); err != nil {
			c.addf("%v", err)
		}
		return ctx.Err()
	})
	checkDaily(tx, c)
	checkReviews(tx, c.addf)
	checkInteractions(tx, c.addf)
	checkSecrets(tx, c)
	checkTournaments(tx, c)
	return c.problems
}
