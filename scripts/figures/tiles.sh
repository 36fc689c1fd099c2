#!/bin/sh
# Sliding-tile figures: CPU seconds (user + system) and nodes for Korf's
# 100 15-puzzle instances with idastar-pdb78 and idastar-pdb, and for 200
# random 8-puzzle states, with the commit, the machine and its load before
# and after. Nodes do not depend on the machine; CPU time does, less than
# the wall clock on a shared machine.
#
# Usage: scripts/figures/tiles.sh [anchor-dir]
#
# anchor-dir, if given, is a checkout of github.com/MichaelKim/15puzzle
# built with `g++ -std=c++17 -O3 -Iinclude src/*.cpp -o bin/puzzle`; its
# 6-6-3 solver (reflection and walking distance) then runs on the same 100
# instances after ours, in each of the $ROUNDS rounds (1 unless set).
#
# The first run of idastar-pdb78 builds its 7-8 tables (minutes of CPU,
# 390 MB) into $GAMBIT_PDB_DIR, or gambit under the user's cache
# directory; later runs load them (288 MB). KORF100=N solves the first N
# instances only.
set -eu
cd "$(dirname "$0")/../.."
anchor=${1:-}
rounds=${ROUNDS:-1}
count=${KORF100:-100}

commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- . || commit="$commit (with uncommitted changes)"
echo "commit $commit; $(go version | cut -d' ' -f3); $(nproc) CPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "load before: $(uptime | sed 's/.*load average/load average/')"

# korf runs TestKorf100 with one solver and prints its totals.
korf() {
	GAMBIT_KORF100=$count GAMBIT_KORF100_SOLVER=$1 nice -n 10 \
		go test -timeout 0 -count=1 -run 'TestKorf100$' -v ./strategies/puzzles |
		grep -E '^(pattern database|idastar|--- FAIL)' || true
}

# anchor runs the reference solver on the same instances and prints its
# CPU seconds and the sum of its nodes.
anchor() {
	dir=$(mktemp -d)
	# Our testdata is in Korf's convention; the reference's goal has the
	# blank last, as ours: half a turn (cell i → 15 − i, tile t → 16 − t).
	awk -v n="$count" 'BEGIN { print "4 4", n } !/^#/ && NF >= 18 && k++ < n {
		for (i = 0; i < 16; i++) { t = $(i + 3); c[15 - i] = t == 0 ? 0 : 16 - t }
		s = ""; for (i = 0; i < 16; i++) s = s c[i] " "; print s }' \
		strategies/puzzles/testdata/korf100.txt >"$dir/boards"
	(cd "$anchor" && /usr/bin/time -f '%U %S' -o "$dir/time" nice -n 10 \
		./bin/puzzle -d databases/663-reg -b "$dir/boards" >"$dir/out")
	awk -v n="$count" '/^Nodes expanded:/ { nodes += $3 } /^Solution:/ { solved++ }
		END { printf "MichaelKim/15puzzle 6-6-3, Korf'"'"'s first %d: %d nodes, %d solved, ", n, nodes, solved }' "$dir/out"
	awk '{ printf "%.2f s of CPU (tables loaded or built included)\n", $1 + $2 }' "$dir/time"
	rm -r "$dir"
}

for round in $(seq "$rounds"); do
	[ "$rounds" -gt 1 ] && echo "round $round"
	korf idastar-pdb78
	korf idastar-pdb
	[ -n "$anchor" ] && anchor
done
nice -n 10 go test -count=1 -run '^$' -bench 'EightPuzzle$' -benchtime 20x ./strategies/puzzles |
	awk '/^Benchmark/ { printf "8-puzzle, 200 random states, %s: %.2f ms of CPU, %s nodes\n", $1, $5 / 1e6, $7 }'
echo "load after: $(uptime | sed 's/.*load average/load average/')"
