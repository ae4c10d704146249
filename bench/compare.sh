#!/usr/bin/env bash
# bench/compare.sh: times "skillet list --json" against the I/O floor on
# generated trees of 100, 1,000 and 10,000 skills, in one run on one machine,
# and prints the ratios and peak memory.
#
#   bench/compare.sh [SIZE...]       default: 100 1000 10000
#   RUNS=15 bench/compare.sh         runs per command (default 11; the median is kept)
#   BENCH_OUT=/tmp/b bench/compare.sh  where binaries and trees go (default bench/out)
#
# The floor is (a) a plain Go walker that reads every SKILL.md with no
# parsing (bench/floor) and (b) find ROOT -name SKILL.md -exec cat {} +.
# Everything runs warm: each tree is read once before timing. hyperfine is
# used when installed; otherwise each command is timed in an alternating
# loop and the median wall time is kept. Peak memory is the maximum resident
# set size reported by /usr/bin/time (or GNU time's -f %M).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_OUT:-bench/out}
runs=${RUNS:-11}
sizes=${*:-100 1000 10000}
mkdir -p "$out"
out=$(cd "$out" && pwd)

echo "building skillet and the floor walker..." >&2
go build -o "$out/skillet" ./cmd/skillet
go build -o "$out/floor" ./bench/floor
go build -o "$out/benchtree" ./internal/benchtree

TIME=/usr/bin/time
if ! $TIME -f %M true >/dev/null 2>&1; then
  TIME=""
  echo "note: GNU time not found; peak memory is not reported" >&2
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# one_run CMD...: prints "microseconds maxrss_kb".
one_run() {
  local start end rss=0
  start=$(date +%s%N)
  if [ -n "$TIME" ]; then
    $TIME -f %M -o "$tmp" "$@" >/dev/null 2>&1
    rss=$(tail -n 1 "$tmp")
  else
    "$@" >/dev/null 2>&1
  fi
  end=$(date +%s%N)
  echo "$(( (end - start) / 1000 )) $rss"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-7s %12s %12s %12s %7s %7s %11s %11s %11s\n' \
  skills "floor_ms" "find+cat_ms" "skillet_ms" "ratio" "vs_find" "skillet_MB" "SKILL.md_MB" "floor_MB"
declare -A skillet_ms
for n in $sizes; do
  tree="$out/tree-$n"
  if [ ! -f "$tree/.done" ]; then
    rm -rf "$tree"
    "$out/benchtree" -n "$n" -out "$tree" -seed 1 >&2
    touch "$tree/.done"
  fi
  bytes=$(find "$tree" -name SKILL.md -exec cat {} + | wc -c)
  # Warm the page cache and the binaries.
  "$out/floor" "$tree" >/dev/null
  "$out/skillet" list --json -w "$tree" --no-user -q >/dev/null || true

  sk_cmd=("$out/skillet" list --json -w "$tree" --no-user -q)
  fl_cmd=("$out/floor" "$tree")
  fc_cmd=(sh -c "find '$tree' -name SKILL.md -exec cat {} + >/dev/null")
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --warmup 2 --runs "$runs" --export-csv "$tmp.csv" \
      "${fl_cmd[*]}" "find $tree -name SKILL.md -exec cat {} +" "${sk_cmd[*]}" >/dev/null 2>&1
    fl=$(awk -F, 'NR==2 {printf "%d", $6*1e6}' "$tmp.csv")   # median, seconds -> us
    fc=$(awk -F, 'NR==3 {printf "%d", $6*1e6}' "$tmp.csv")
    sk=$(awk -F, 'NR==4 {printf "%d", $6*1e6}' "$tmp.csv")
    rm -f "$tmp.csv"
    skrss=$(one_run "${sk_cmd[@]}" | cut -d' ' -f2)
    flrss=$(one_run "${fl_cmd[@]}" | cut -d' ' -f2)
  else
    : > "$tmp.fl"; : > "$tmp.fc"; : > "$tmp.sk"; : > "$tmp.skrss"; : > "$tmp.flrss"
    for _ in $(seq "$runs"); do
      read -r t r < <(one_run "${fl_cmd[@]}"); echo "$t" >> "$tmp.fl"; echo "$r" >> "$tmp.flrss"
      read -r t r < <(one_run "${fc_cmd[@]}"); echo "$t" >> "$tmp.fc"
      read -r t r < <(one_run "${sk_cmd[@]}"); echo "$t" >> "$tmp.sk"; echo "$r" >> "$tmp.skrss"
    done
    fl=$(median < "$tmp.fl"); fc=$(median < "$tmp.fc"); sk=$(median < "$tmp.sk")
    skrss=$(median < "$tmp.skrss"); flrss=$(median < "$tmp.flrss")
    rm -f "$tmp.fl" "$tmp.fc" "$tmp.sk" "$tmp.skrss" "$tmp.flrss"
  fi
  skillet_ms[$n]=$sk
  printf '%-7s %12.1f %12.1f %12.1f %7.2f %7.2f %11.1f %11.1f %11.1f\n' "$n" \
    "$(echo "$fl/1000" | bc -l)" "$(echo "$fc/1000" | bc -l)" "$(echo "$sk/1000" | bc -l)" \
    "$(echo "$sk/$fl" | bc -l)" "$(echo "$sk/$fc" | bc -l)" \
    "$(echo "$skrss/1024" | bc -l)" "$(echo "$bytes/1048576" | bc -l)" "$(echo "$flrss/1024" | bc -l)"
done
if [ -n "${skillet_ms[1000]:-}" ] && [ -n "${skillet_ms[10000]:-}" ]; then
  printf 'growth: 10,000 skills take %.1fx the time of 1,000 (linear: 10x; target: within 12x)\n' \
    "$(echo "${skillet_ms[10000]}/${skillet_ms[1000]}" | bc -l)"
fi
echo "ratio = skillet / Go floor walker (target: within 1.5 at 10,000); vs_find = skillet / find+cat" >&2
