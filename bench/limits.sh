#!/usr/bin/env bash
# bench/limits.sh: the rows of docs/performance.md "Closer to the limit",
# each one interleaved batch that runs a BEFORE and an AFTER binary of
# skillet side by side (A B A B ...) with the row's floor, so the two
# figures of a row come from the same minutes of the same machine.
#
#   bench/limits.sh                         BEFORE = 470bf13 (4 December, when the rows were set)
#   BEFORE=REV bench/limits.sh              another revision (built from a git worktree)
#   ROWS="list lint" bench/limits.sh        only some rows (list warm first lint compat serve startup index)
#   BENCH_OUT=/tmp/b bench/limits.sh        where binaries and trees go (default bench/out)
#
# Both binaries are built with CGO_ENABLED=0, as the README installs skillet.
# The trees are internal/benchtree's (seed 1), made once, read once before
# timing. Rows and their floors:
#
#   list     list --json at 10,000 and 100,000 skills; floor -full, floor
#   warm     show, prompt, search at 100,000 with an index written (each
#            binary its own cache folder, filled by abrun's untimed run)
#   first    show at 100,000 with no index (each run starts an empty cache)
#   lint     lint --json at 10,000; floor -full, floor
#   compat   lint --json and lint --json --compat on ../shared/corpus and
#            ../shared/corpus-community
#   serve    bench/serve.sh, OPSETS=initialize then the default sets, each
#            binary twice (B A B A), each round against the static server
#   startup  a Go program that only writes "[]", version, list of an empty folder
#   index    how many index files one tree gets from -w T, -w /abs/T, -w . in T
#            (and from 0fba115^, which keyed them by -w as typed)
#
# RUNS (default 9), RUNS_BIG (100,000 rows, default 5), RUNS_FIRST (3),
# RUNS_START (41) set the runs per command; SERVE_ROUNDS (3) and
# SERVE_DURATION (2s) bench/serve.sh's rounds and their length.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${BENCH_OUT:-bench/out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rows=${ROWS:-list warm first lint compat serve startup index}
before=${BEFORE:-470bf13}
runs=${RUNS:-9}
runs_big=${RUNS_BIG:-5}
runs_first=${RUNS_FIRST:-3}
runs_start=${RUNS_START:-41}
serve_rounds=${SERVE_ROUNDS:-3}
serve_duration=${SERVE_DURATION:-2s}

echo "building after (this tree), before ($before), the floor walker and the runner..." >&2
CGO_ENABLED=0 go build -o "$out/after" ./cmd/skillet
src=$(mktemp -d)
# The scratch worktrees go whatever happens (a build that fails included).
trap 'git worktree remove --force "$src/before" 2>/dev/null || true; git worktree remove --force "$src/typed" 2>/dev/null || true; rm -rf "$src"' EXIT
git worktree add -q --detach "$src/before" "$before"
(cd "$src/before" && CGO_ENABLED=0 go build -o "$out/before" ./cmd/skillet)
git worktree remove --force "$src/before"
go build -o "$out/floor" ./bench/floor
go build -o "$out/abrun" ./bench/abrun
go build -o "$out/benchtree" ./internal/benchtree
A=$out/after
B=$out/before

# shellcheck source=bench/tree.sh
. bench/tree.sh

load() { echo "# $1: load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%S) UTC"; }

echo "# $(nproc) cores, $(go env GOVERSION); before = $before ($B), after = $(git rev-parse --short HEAD) ($A)"
for row in $rows; do
  case $row in
  list)
    for n in 10000 100000; do
      t=$(tree "$n")
      r=$runs
      [ "$n" = 100000 ] && r=$runs_big
      load "list/$n"
      "$out/abrun" -runs "$r" -label "list/$n" -- "$out/floor" -full "$t" ::: "$out/floor" "$t" ::: \
        "$B" list --json -w "$t" --no-user -q ::: "$A" list --json -w "$t" --no-user -q
    done
    ;;
  warm)
    t=$(tree 100000)
    name=$(sed -n 's/^name: *//p' "$(find "$t/skills" -name SKILL.md | sort | head -1)" | head -1)
    rm -rf "$out/cache-before" "$out/cache-after"
    for cmd in "show $name" "prompt" "search release notes"; do
      load "warm $cmd"
      # shellcheck disable=SC2086 # cmd is words on purpose
      "$out/abrun" -runs "$runs_big" -label "warm/${cmd%% *}" -- \
        env XDG_CACHE_HOME="$out/cache-before" "$B" $cmd -w "$t" --no-user -q ::: \
        env XDG_CACHE_HOME="$out/cache-after" "$A" $cmd -w "$t" --no-user -q
    done
    ;;
  first)
    t=$(tree 100000)
    name=$(sed -n 's/^name: *//p' "$(find "$t/skills" -name SKILL.md | sort | head -1)" | head -1)
    load "first show"
    "$out/abrun" -runs "$runs_first" -label first/show -- "$out/floor" -full "$t" ::: \
      sh -c "rm -rf '$out/c1b'; XDG_CACHE_HOME='$out/c1b' exec '$B' show '$name' -w '$t' --no-user -q" ::: \
      sh -c "rm -rf '$out/c1a'; XDG_CACHE_HOME='$out/c1a' exec '$A' show '$name' -w '$t' --no-user -q"
    ;;
  lint)
    t=$(tree 10000)
    load "lint/10000"
    "$out/abrun" -runs 5 -label lint/10000 -- "$out/floor" -full "$t" ::: "$out/floor" "$t" ::: \
      "$B" lint --json -w "$t" --no-user -q ::: "$A" lint --json -w "$t" --no-user -q
    ;;
  compat)
    c1=$root/../shared/corpus
    c2=$root/../shared/corpus-community
    if [ ! -d "$c1" ] || [ ! -d "$c2" ]; then
      echo "# compat: skipped, the corpus folders are not beside the project" >&2
      continue
    fi
    load "compat"
    "$out/abrun" -runs "$runs" -label compat -- "$B" lint --json --no-user -q "$c1" "$c2" ::: \
      "$B" lint --json --compat --no-user -q "$c1" "$c2" ::: "$A" lint --json --no-user -q "$c1" "$c2" ::: \
      "$A" lint --json --compat --no-user -q "$c1" "$c2"
    ;;
  serve)
    for bin in "$B" "$A" "$B" "$A"; do
      load "serve $(basename "$bin")"
      for ops in initialize default; do
        if [ "$ops" = initialize ]; then
          set -- env OPSETS=initialize CLIENTS=16
        else
          set -- env
        fi
        if ! "$@" ROUNDS="$serve_rounds" DURATION="$serve_duration" SKILLET="$bin" BENCH_OUT="$out" \
          bash bench/serve.sh >"$out/serve-row.txt" 2>"$out/serve-row.err"; then
          echo "# serve $ops: bench/serve.sh failed, its errors in $out/serve-row.err"
        fi
        grep -E '^(## |skillet: CPU|static: CPU|CPU per request)' "$out/serve-row.txt" || true
      done
    done
    ;;
  startup)
    mkdir -p "$out/hello" "$out/empty/skills"
    printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("[]\\n") }\n' >"$out/hello/main.go"
    (cd "$out/hello" && GO111MODULE=off CGO_ENABLED=0 go build -o "$out/hello-bin" main.go)
    load "startup"
    "$out/abrun" -runs "$runs_start" -label startup -- "$out/hello-bin" ::: "$B" version ::: "$A" version ::: \
      "$B" list --json -w "$out/empty" --no-user -q ::: "$A" list --json -w "$out/empty" --no-user -q
    ;;
  index)
    # The index was keyed by -w as typed until 0fba115, before BEFORE's
    # default: the row builds its parent as well.
    git worktree add -q --detach "$src/typed" 0fba115^
    (cd "$src/typed" && CGO_ENABLED=0 go build -o "$out/typed" ./cmd/skillet)
    git worktree remove --force "$src/typed"
    t=$(tree 1000)
    name=$(sed -n 's/^name: *//p' "$(find "$t/skills" -name SKILL.md | sort | head -1)" | head -1)
    for bin in "$out/typed" "$B" "$A"; do
      c=$(mktemp -d)
      (cd "$out" && XDG_CACHE_HOME=$c "$bin" show "$name" -w "tree-1000" --no-user -q >/dev/null)
      XDG_CACHE_HOME=$c "$bin" show "$name" -w "$t" --no-user -q >/dev/null
      (cd "$t" && XDG_CACHE_HOME=$c "$bin" show "$name" -w . --no-user -q >/dev/null)
      echo "index/$(basename "$bin"): -w tree-1000, -w $t, -w . wrote $(find "$c" -type f | wc -l) files"
      rm -rf "$c"
    done
    ;;
  *)
    echo "unknown row $row" >&2
    exit 2
    ;;
  esac
done
load "end"
