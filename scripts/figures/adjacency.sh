#!/usr/bin/env bash
# scripts/figures/adjacency.sh: Adjacency (issue 30 items 3 and 6), run by
# scripts/figures/run from the repository's root, or alone. From the start
# of a 28-round game: the depth the search completes in 1 s of wall time on
# 1 and 2 threads with the CPU time it got and its nodes a second; the
# nodes to each depth on one thread and the depth a node budget reaches
# (both exact: they repeat on any machine), with the CPU time. Prints the
# machine's load before and after, since the 1 s figures depend on it.
# QUICK=1: one run of each, depth 12 and 14 only. NICE sets the niceness
# (default 10).
set -eu
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go test -c -o "$bin/adjsearch.test" ./strategies/adjsearch
load() { uptime | sed 's/.*load average/load average/'; }
# bench runs benchmarks and prints each line's name and metrics as
# "name: value unit, …".
bench() {
	nice -n "${NICE:-10}" "$bin/adjsearch.test" -test.run '^$' -test.cpu 2 "$@" | awk '
	/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
		out = ""
		for (i = 3; i < NF; i += 2) {
			v = $i; u = $(i+1)
			if (u == "ns/op") continue
			if (u == "cpu-ns/op") { v = sprintf("%.3f", v / 1e9); u = "s CPU/op" }
			else if (u == "nodes/s") { v = sprintf("%.2f", v / 1e6); u = "M nodes/s" }
			else if (u == "nodes/cpu-s") { v = sprintf("%.2f", v / 1e6); u = "M nodes/CPU s" }
			else if (u == "nodes/op") { v = sprintf("%d", v); u = "nodes" }
			out = out (out == "" ? "" : ", ") v " " u
		}
		printf "%-32s %s\n", name ":", out
	}'
}
echo "load: $(load)"
if [ "${QUICK:-0}" = 1 ]; then
	bench -test.bench 'OpeningDepth' -test.benchtime 1x
	bench -test.bench 'OpeningNodes/(depth=1[24]|nodes=1000000)$' -test.benchtime 1x
else
	echo "depth in 1 s from the opening (wall clock; 3 searches, min and median):"
	bench -test.bench 'OpeningDepth' -test.benchtime 3x
	echo "nodes to depth, one thread (exact), and depth within a node budget:"
	bench -test.bench 'OpeningNodes' -test.benchtime 1x
fi
echo "load: $(load)"
