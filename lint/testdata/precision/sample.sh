#!/bin/sh
# sample.sh SKILLET CORPUS_DIR [N] [SEED]: lint every collection of CORPUS_DIR
# (one --root per COLLECTION/skills, an empty workspace, no user roots), print
# the findings per code, then N (default 20) findings per code drawn at random
# with a fixed seed (SEED, default 23), for judging by hand
# (docs/lint.md#precision). Needs jq and GNU shuf.
set -eu
bin=$1 corpus=$2 n=${3:-20} seed=${4:-23}
ws=$(mktemp -d)
trap 'rm -rf "$ws"' EXIT
set --
for d in "$corpus"/*/skills; do set -- "$@" --root "$d"; done
"$bin" lint --json --no-user -w "$ws" "$@" > "$ws/report.json" 2>/dev/null || true
jq -r '.files[].issues[]? | .code' "$ws/report.json" | sort | uniq -c | sort -rn
for code in $(jq -r '.files[].issues[]? | .code' "$ws/report.json" | sort -u); do
  echo "== $code"
  jq -r --arg c "$code" '.files[] | .path as $p | .issues[]? | select(.code == $c) | "\($p):\(.line): \(.message)"' "$ws/report.json" |
    sort | shuf -n "$n" --random-source=<(yes "$seed")
done
