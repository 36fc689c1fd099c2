#!/usr/bin/env bash
# scripts/figures/queens.sh: N-Queens (issue 30 item 2), run by
# scripts/figures/run from the repository's root. Min-conflicts on 10^6
# queens, Go and testdata/minconflicts.c (the same algorithm and draws in
# plain C, gcc -O2: c finds a repair's row in two plain passes, c-blocked
# block by block as the Go solver does) interleaved, CPU a solve; the swap
# repair on 10^6 and 10^7 queens, CPU and memory a solve. QUICK=1: one
# solve of each at 10^6.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go test -c -o "$bin/puzzles.test" ./strategies/puzzles
cd strategies/puzzles # the C port is built from testdata
bench() { nice -n "${NICE:-10}" "$bin/puzzles.test" -test.run '^$' -test.cpu 1 -test.benchmem "$@" | awk -f "$here/bench.awk"; }
if [ "${QUICK:-0}" = 1 ]; then
	bench -test.bench 'MinConflictsMillion|SwapRepair/1000000$' -test.benchtime 1x
	exit 0
fi
echo "min-conflicts, 10^6 queens, seeds 1-2, Go and the two C ports interleaved (4 rounds):"
for _ in 1 2 3 4; do
	bench -test.bench 'MinConflictsMillion/go' -test.benchtime 2x
	bench -test.bench 'MinConflictsMillion/c$' -test.benchtime 2x
	bench -test.bench 'MinConflictsMillion/c-blocked' -test.benchtime 2x
done
echo "swap-repair, seeds 1-3 (3 rounds):"
for _ in 1 2 3; do
	bench -test.bench 'SwapRepair' -test.benchtime 3x
done
