#!/usr/bin/env bash
# scripts/figures/connect4.sh: Connect Four (issue 30 item 4), run by
# scripts/figures/run from the repository's root. Pons' six test sets
# (engine/connect4/testdata; L1_R3 cut to its first 4 positions), strong
# solves, the table emptied before each position, CPU and nodes a position;
# with PONS_DIR naming a checkout of github.com/PascalPons/connect4, his
# solver (built with g++ -O3 around ponsbench.cpp) runs each set right
# after ours, and the line "his ÷ ours" gives the ratio of CPU a position.
# Then the empty board without the opening book (a minute or more; TABLE_MIB
# sets the large table, 64 MiB by default). QUICK=1: L3_R1 and L2_R1 once,
# no empty board. EVICT_MIB=80: after emptying our tables, write 80 MiB of
# other memory (untimed), which flushes the caches as emptying Pons' 80 MB
# table flushes them for his solver. SETS="L1_R2 L1_R3" picks sets,
# POSITIONS=50 solves at most that many of each (L1_R3 at most 4),
# ROUNDS=1 sets the rounds (3), EMPTY=0 skips the empty board.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go test -c -o "$bin/c4solver.test" ./strategies/c4solver
pons=""
if [ -n "${PONS_DIR:-}" ]; then
	g++ --std=c++11 -O3 -DNDEBUG -I"$PONS_DIR" -o "$bin/ponsbench" "$here/ponsbench.cpp" "$PONS_DIR/Solver.cpp"
	pons=$bin/ponsbench
else
	echo "(PONS_DIR not set: our side only)"
fi
sets=${SETS:-L3_R1 L2_R1 L2_R2 L1_R1 L1_R2 L1_R3}
rounds=${ROUNDS:-3}
if [ "${QUICK:-0}" = 1 ]; then
	sets="L3_R1 L2_R1"
	rounds=1
fi
tests=$(pwd)/engine/connect4/testdata
cd strategies/c4solver # the test binary reads the sets relative to it
for round in $(seq "$rounds"); do
	echo "round $round of $rounds, load average $(cut -d" " -f1-3 /proc/loadavg):"
	for set in $sets; do
		ours=$(nice -n "${NICE:-10}" "$bin/c4solver.test" -test.run '^$' -test.bench "Solve\$/$set/strong" -test.benchtime 1x -test.timeout 0 \
			-test.cpu 1 -table-mib "${TABLE_MIB:-64}" -evict-mib "${EVICT_MIB:-0}" -positions "${POSITIONS:-0}" | awk -f "$here/bench.awk")
		echo "$ours"
		[ -n "$pons" ] || continue
		limit=1000
		[ "$set" = L1_R3 ] && limit=4
		if [ "${POSITIONS:-0}" -gt 0 ] && [ "$POSITIONS" -lt "$limit" ]; then limit=$POSITIONS; fi
		his=$(nice -n "${NICE:-10}" "$pons" -n "$limit" <"$tests/Test_$set")
		echo "  $his"
		awk -v o="$ours" -v h="$his" -v s="$set" 'BEGIN {
			split(o, a, " µs CPU"); n = split(a[1], b, " "); ov = b[n]
			split(h, c, " µs CPU"); n = split(c[1], d, " "); hv = d[n]
			printf "  %s his ÷ ours: %.2f\n", s, hv / ov }'
	done
done
if [ "${QUICK:-0}" != 1 ] && [ "${EMPTY:-1}" != 0 ]; then
	echo "the empty board without the book (table ${TABLE_MIB:-64} MiB):"
	nice -n "${NICE:-10}" "$bin/c4solver.test" -test.run '^$' -test.bench 'EmptyBoard' -test.benchtime 1x -test.cpu 1 \
		-test.timeout 0 -table-mib "${TABLE_MIB:-64}" | awk -f "$here/bench.awk"
fi
