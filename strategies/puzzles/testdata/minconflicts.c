/*
 * minconflicts.c: strategies/puzzles' min-conflicts (queensrepair.go) in
 * plain C, the same algorithm with the same generator (wyrand) and the
 * same draws, to measure the Go solver against: for the same N and seed
 * both place the same board after the same nodes
 * (TestMinConflictsMatchesC, BenchmarkMinConflictsMillion/c).
 *
 * Usage: minconflicts N SEED REPS [plain|blocked]. It solves N queens REPS
 * times, with the seeds SEED, SEED+1, ..., and prints for each run the
 * nodes (queens placed plus repairs) and an FNV-1a hash of the rows, then
 * the CPU seconds per run. It finds the row of a repair in two plain
 * passes over the rows (pick_plain, the default) or, with "blocked", as
 * queensrepair.go does (pick_blocked): the same draws and rows either way.
 *
 * Build: gcc -O2 -o minconflicts minconflicts.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t state;

static uint64_t next(void) {
	state += 0xa0761d6478bd642full;
	__uint128_t p = (__uint128_t)state * (state ^ 0xe7037ed1a0b428dbull);
	return (uint64_t)(p >> 64) ^ (uint64_t)p;
}

static int64_t intn(int64_t n) {
	return (int64_t)(((__uint128_t)next() * (uint64_t)n) >> 64);
}

static void *check(void *p) {
	if (p == NULL) {
		perror("minconflicts");
		exit(1);
	}
	return p;
}

static void *alloc(size_t count, size_t size) { return check(calloc(count, size)); }


/* pick_plain returns a row of column c (its queen lifted) attacked by the
 * fewest queens, drawn uniformly: one pass counts the rows attacked by the
 * fewest, a second finds the drawn one. */
static int64_t pick_plain(int64_t n, int64_t c, const int32_t *row, const int32_t *d1, const int32_t *d2, int32_t *fewest) {
	int32_t best = 1 << 30;
	int64_t ties = 0;
	for (int64_t q = 0; q < n; q++) {
		int32_t v = row[q] + d1[q + c] + d2[q - c + n];
		if (v < best)
			best = v, ties = 0;
		if (v == best)
			ties++;
	}
	int64_t tie = intn(ties), r;
	*fewest = best;
	for (r = 0;; r++) {
		if (row[r] + d1[r + c] + d2[r - c + n] == best && tie-- == 0)
			return r;
	}
}

/* pick_blocked is pick_plain as queensrepair.go does it (rowScan): the
 * first pass keeps each block of BLOCK rows' fewest and their count, so
 * that the second reads only the block holding the drawn row. Same draws,
 * same row. A block is read four rows at a time, each with its own
 * minimum: gcc -O2's fastest form here (queensrepair.go's, ties counted by
 * the sign of a difference, runs 10-15% slower in C). */
#define BLOCK 2048
static int64_t pick_blocked(int64_t n, int64_t c, const int32_t *row, const int32_t *d1, const int32_t *d2,
			    int32_t *bfew, int32_t *bties, int32_t *fewest) {
	const int32_t *e1 = d1 + c, *e2 = d2 + n - c;
	int64_t nblocks = (n + BLOCK - 1) / BLOCK, ties = 0;
	int32_t best = 1 << 30;
	for (int64_t b = 0; b < nblocks; b++) {
		int64_t lo = b * BLOCK, hi = lo + BLOCK < n ? lo + BLOCK : n, q = lo;
		int32_t b0 = 1 << 30, b1 = 1 << 30, b2 = 1 << 30, b3 = 1 << 30, t0 = 0, t1 = 0, t2 = 0, t3 = 0;
		for (; q + 4 <= hi; q += 4) {
			int32_t v0 = row[q] + e1[q] + e2[q], v1 = row[q + 1] + e1[q + 1] + e2[q + 1];
			int32_t v2 = row[q + 2] + e1[q + 2] + e2[q + 2], v3 = row[q + 3] + e1[q + 3] + e2[q + 3];
			if (v0 < b0)
				b0 = v0, t0 = 0;
			if (v1 < b1)
				b1 = v1, t1 = 0;
			if (v2 < b2)
				b2 = v2, t2 = 0;
			if (v3 < b3)
				b3 = v3, t3 = 0;
			t0 += v0 == b0, t1 += v1 == b1, t2 += v2 == b2, t3 += v3 == b3;
		}
		for (; q < hi; q++) {
			int32_t v = row[q] + e1[q] + e2[q];
			if (v < b0)
				b0 = v, t0 = 0;
			t0 += v == b0;
		}
		int32_t f = b0 < b1 ? b0 : b1, g = b2 < b3 ? b2 : b3;
		f = f < g ? f : g;
		bfew[b] = f;
		bties[b] = (b0 == f ? t0 : 0) + (b1 == f ? t1 : 0) + (b2 == f ? t2 : 0) + (b3 == f ? t3 : 0);
		if (f < best)
			best = f, ties = 0;
		if (f == best)
			ties += bties[b];
	}
	int64_t tie = intn(ties);
	*fewest = best;
	for (int64_t b = 0;; b++) {
		if (bfew[b] != best)
			continue;
		if (tie >= bties[b]) {
			tie -= bties[b];
			continue;
		}
		int64_t lo = b * BLOCK, hi = lo + BLOCK < n ? lo + BLOCK : n;
		for (int64_t q = lo; q < hi; q++) {
			if (row[q] + e1[q] + e2[q] == best && tie-- == 0)
				return q;
		}
	}
}

/* solve places n queens from seed; rows gets each column's row. */
static uint64_t solve(int64_t n, uint64_t seed, int32_t *rows, int blocked) {
	state = seed == 0 ? 1 : seed;
	int32_t *row = alloc(n, 4), *d1 = alloc(2 * n, 4), *d2 = alloc(2 * n, 4);
	int32_t *free_rows = alloc(n, 4);
	uint64_t nodes = 0;
	for (int64_t i = 0; i < n; i++)
		free_rows[i] = (int32_t)i;
	for (int64_t i = n - 1; i > 0; i--) {
		int64_t j = intn(i + 1);
		int32_t t = free_rows[i];
		free_rows[i] = free_rows[j];
		free_rows[j] = t;
	}
	int64_t nfree = n;
	for (int64_t c = 0; c < n; c++) {
		nodes++;
		int64_t pick = intn(nfree);
		for (int try = 0; try < 32 && d1[free_rows[pick] + c] + d2[free_rows[pick] - c + n] != 0; try++)
			pick = intn(nfree);
		int64_t r = free_rows[pick];
		rows[c] = (int32_t)r;
		free_rows[pick] = free_rows[--nfree];
		row[r]++, d1[r + c]++, d2[r - c + n]++;
	}
	int32_t *bfew = alloc((n + BLOCK - 1) / BLOCK, 4), *bties = alloc((n + BLOCK - 1) / BLOCK, 4);
	int64_t len = 0, cap = 16;
	int32_t *attacked = alloc(cap, 4);
	for (int64_t c = 0; c < n; c++) {
		int64_t r = rows[c];
		if (row[r] + d1[r + c] + d2[r - c + n] > 3) {
			if (len == cap) {
				cap *= 2;
				attacked = check(realloc(attacked, cap * 4));
			}
			attacked[len++] = (int32_t)c;
		}
	}
	while (len > 0) {
		int64_t i = intn(len);
		int64_t c = attacked[i], r = rows[c];
		row[r]--, d1[r + c]--, d2[r - c + n]--;
		if (row[r] + d1[r + c] + d2[r - c + n] == 0) {
			row[r]++, d1[r + c]++, d2[r - c + n]++;
			attacked[i] = attacked[--len];
			continue;
		}
		nodes++;
		int32_t best;
		r = blocked ? pick_blocked(n, c, row, d1, d2, bfew, bties, &best) : pick_plain(n, c, row, d1, d2, &best);
		rows[c] = (int32_t)r;
		row[r]++, d1[r + c]++, d2[r - c + n]++;
		for (int64_t c2 = 0, found = 0; found < best; c2++) {
			int64_t r2 = rows[c2];
			if (c2 != c && (r2 == r || r2 - c2 == r - c || r2 + c2 == r + c)) {
				if (len == cap) {
					cap *= 2;
					attacked = check(realloc(attacked, cap * 4));
				}
				attacked[len++] = (int32_t)c2;
				found++;
			}
		}
	}
	free(row), free(d1), free(d2), free(free_rows), free(attacked), free(bfew), free(bties);
	return nodes;
}

int main(int argc, char **argv) {
	int blocked = argc == 5 && strcmp(argv[4], "blocked") == 0;
	if (argc != 4 && !(argc == 5 && (blocked || strcmp(argv[4], "plain") == 0))) {
		fprintf(stderr, "usage: minconflicts N SEED REPS [plain|blocked]\n");
		return 2;
	}
	int64_t n = atoll(argv[1]), reps = atoll(argv[3]);
	uint64_t seed = strtoull(argv[2], NULL, 10);
	if (n < 4 || reps < 1) {
		fprintf(stderr, "minconflicts: want N >= 4 and REPS >= 1\n");
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (int64_t k = 0; k < reps; k++) {
		int32_t *rows = alloc(n, 4);
		uint64_t nodes = solve(n, seed + k, rows, blocked);
		uint64_t h = 14695981039346656037ull;
		for (int64_t c = 0; c < n; c++) {
			h ^= (uint64_t)(uint32_t)rows[c];
			h *= 1099511628211ull;
		}
		printf("%llu %016llx\n", (unsigned long long)nodes, (unsigned long long)h);
		free(rows);
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	printf("%.3f s a run\n", ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9) / reps);
	return 0;
}
