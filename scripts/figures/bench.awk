# bench.awk: a Go benchmark line as "name  CPU  nodes  [memory]", the
# metrics the figures of issue 30 report (cpu-ns/op or cpu-µs/pos or
# cpu-s/op, nodes/op or nodes/pos, B/op); other lines pass unchanged.
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
	cpu = ""; nodes = ""; mem = ""
	for (i = 3; i < NF; i++) {
		if ($(i+1) == "cpu-ns/op") cpu = sprintf("%.3f s CPU", $i / 1e9)
		if ($(i+1) == "cpu-µs/pos") cpu = sprintf("%.1f µs CPU a position", $i)
		if ($(i+1) == "cpu-s/op") cpu = sprintf("%.1f s CPU", $i)
		if ($(i+1) == "nodes/op") nodes = sprintf("%d nodes", $i)
		if ($(i+1) == "nodes/pos") nodes = sprintf("%.0f nodes a position", $i)
		if ($(i+1) == "B/op") mem = sprintf(", %.0f MB allocated", $i / 1e6)
	}
	printf "%-36s %s, %s%s\n", name, cpu, nodes, mem
	next
}
/^(goos|goarch|pkg|cpu): / || /^PASS$/ || /^ok / { next }
{ print }
