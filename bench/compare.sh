#!/usr/bin/env bash
# bench/compare.sh: times skillet commands against the I/O floor on generated
# trees, in interleaved batches on one machine, and prints wall time, CPU time
# (user+sys) and peak RSS with their ratios to the floor.
#
#   bench/compare.sh [SIZE...]         default: 0 100 1000 10000
#   RUNS=21 bench/compare.sh           runs per command (default 11)
#   LINT_RUNS=9 bench/compare.sh       runs of the lint row (default 5)
#   PINNED=1000 bench/compare.sh       size of the taskset -c 0 row (default 10000; 0 = none)
#   BENCH_OUT=/tmp/b bench/compare.sh  where binaries and trees go (default bench/out)
#
# Every row is one bench/abrun batch: the commands run A B C A B C ..., so
# drift on a shared machine hits all of them alike, and each ratio is taken
# run by run (skillet_i / floor_i) before its median and min–max are printed.
# The floors (bench/floor) are sequential Go walkers that read every SKILL.md
# in full without parsing: "floor" prunes at skill folders (the fair floor for
# discovery: skillet never lists a skill's own files either), "floor -full"
# walks every folder as find + cat would. The ratio column is to the pruning
# floor. Everything runs warm: each tree is read once before timing.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_OUT:-bench/out}
runs=${RUNS:-11}
pinned=${PINNED:-10000}
sizes=${*:-0 100 1000 10000}
mkdir -p "$out"
out=$(cd "$out" && pwd)

echo "building skillet, the floor walker and the runner..." >&2
# skillet as the README installs it: a static binary, no dynamic loader.
CGO_ENABLED=0 go build -o "$out/skillet" ./cmd/skillet
go build -o "$out/floor" ./bench/floor
go build -o "$out/abrun" ./bench/abrun
go build -o "$out/benchtree" ./internal/benchtree

# shellcheck source=bench/tree.sh
. bench/tree.sh

echo "# $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime), $(go env GOVERSION), runs=$runs"
header=true
row() { # row LABEL CMD ARGS ::: CMD ARGS ...
  local label=$1
  shift
  "$out/abrun" -runs "$runs" -label "$label" -header=$header -- "$@"
  header=false
}

# list --json against both floors, at every size.
for n in $sizes; do
  t=$(tree "$n")
  row "list/$n" "$out/floor" "$t" ::: "$out/floor" -full "$t" ::: \
    "$out/skillet" list --json -w "$t" --no-user -q
done

# The same pinned to one core: parallel reading cannot hide CPU cost.
if [ "$pinned" != 0 ] && command -v taskset >/dev/null 2>&1; then
  t=$(tree "$pinned")
  taskset -c 0 "$out/abrun" -runs "$runs" -label "list/$pinned/pinned" -header=$header -- \
    "$out/floor" "$t" ::: "$out/floor" -full "$t" ::: "$out/skillet" list --json -w "$t" --no-user -q
  header=false
fi

# One-skill commands at the largest size, with the pruning floor first so
# the ratio column means the same. The persistent index lives in a cache
# folder of the benchmark's own; abrun's untimed warm-up run writes it, so
# the timed runs are "second runs". The --no-cache rows are what a first
# run (or a changed tree) costs.
n=${sizes##* }
t=$(tree "$n")
name=$(sed -n 's/^name: *//p' "$(find "$t/skills" -name SKILL.md | sort | head -1)" | head -1)
export XDG_CACHE_HOME="$out/cache"
row "show/$n" "$out/floor" "$t" ::: "$out/skillet" show "$name" -w "$t" --no-user -q ::: \
  "$out/skillet" show "$name" -w "$t" --no-user -q --no-cache
row "prompt/$n" "$out/floor" "$t" ::: "$out/skillet" prompt -w "$t" --no-user -q ::: \
  "$out/skillet" prompt -w "$t" --no-user -q --no-cache
row "search/$n" "$out/floor" "$t" ::: "$out/skillet" search release notes -w "$t" --no-user -q ::: \
  "$out/skillet" search release notes -w "$t" --no-user -q --no-cache
row "tool-schema/$n" "$out/floor" "$t" ::: "$out/skillet" tool-schema -w "$t" --no-user -q ::: \
  "$out/skillet" tool-schema -w "$t" --no-user -q --no-cache
# lint --json checks every skill of the tree (the generated trees hold broken
# references, so it exits 1; abrun still counts the runs). LINT_RUNS (default
# 5) keeps this row short: one run is about a second of CPU at 10,000 skills.
all_runs=$runs runs=${LINT_RUNS:-5}
row "lint/$n" "$out/floor" "$t" ::: "$out/skillet" lint --json -w "$t" --no-user -q
runs=$all_runs
# serve's per-request cost is measured by the mcpserver benchmarks
# (go test ./mcpserver -run '^$' -bench 'HTTPReadResource|HTTPStatic'
# -benchmem) and by bench/serve.sh; see docs/performance.md#serving.

echo "ratio = command / pruning floor, run by run: median (min–max); cpu = user+sys; rss = peak resident set" >&2
