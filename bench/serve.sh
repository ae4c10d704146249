#!/usr/bin/env bash
# bench/serve.sh: CPU per request of "skillet serve --http" against a static
# server of the same bytes, on loopback.
# Serves every published skill of the corpus (stateless streamable HTTP,
# watching on, as deployed) and records, with bench/serveload -record, a pool
# of requests (one skills/list, a resources/read of every served file, a
# tools/call of the load tool on every skill, one initialize, each with a
# fixed id) and
# skillet's answer to each. bench/servestatic then serves those answers,
# looked up by request body, with no JSON work. For each set of methods in
# OPSETS, serveload runs ROUNDS rounds, each a load phase of DURATION on
# skillet and then one on the static server (A B A B ...), the same CLIENTS
# concurrent keep-alive clients sending the same requests, and checks that
# every answer is the recorded bytes. Per phase it reads each server's
# utime+stime from /proc/PID/stat before and after (10 ms ticks) and divides
# by the requests answered; it prints each phase, then per server the
# median (min-max) CPU per request and req/s, p50/p99 latency per method,
# the ratio skillet/static round by round, and skillet's peak memory
# (VmHWM). The load generator runs on the same cores and its own CPU is
# not counted; on a shared machine say what else ran.
#
#   bench/serve.sh                                 4 sets, 5 rounds of 3s, 32 clients
#   ROUNDS=7 DURATION=5s CLIENTS=64 bench/serve.sh
#   OPSETS="skills/list resources/read" bench/serve.sh
#   OPSETS=initialize bench/serve.sh              the initialize of a stateless 2025-11-25 client
#   SKILLET=/path/to/skillet bench/serve.sh        another build (a baseline)
#   SKILLET_CORPUS=/path/to/corpus bench/serve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_OUT:-bench/out}
clients=${CLIENTS:-32}
duration=${DURATION:-3s}
rounds=${ROUNDS:-5}
opsets=${OPSETS:-skills/list resources/read tools/call skills/list,resources/read,tools/call}
corpus=${SKILLET_CORPUS:-../shared/corpus}
if [ ! -d "$corpus" ]; then
  echo "corpus not found at $corpus: set SKILLET_CORPUS" >&2
  exit 1
fi
corpus=$(cd "$corpus" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

echo "building skillet, serveload and servestatic..." >&2
skillet=${SKILLET:-}
if [ -z "$skillet" ]; then
  go build -o "$out/skillet" ./cmd/skillet
  skillet=$out/skillet
fi
go build -o "$out/serveload" ./bench/serveload
go build -o "$out/servestatic" ./bench/servestatic

# The corpus folders that hold skills, hidden ones included, as
# internal/testcorpus lists them, so all 462 published SKILL.md are reached.
roots=()
for rel in anthropics-skills/skills openai-skills/skills/.system openai-skills/skills/.curated \
  openai-skills/skills/.experimental obra-superpowers/skills vercel-agent-skills/skills \
  github-awesome-copilot/skills github-awesome-copilot/.github/skills; do
  roots+=(--root "$corpus/$rel")
done
ws=$(mktemp -d)
log="$out/serve.log"
slog="$out/servestatic.log"
pool="$out/serve.pool"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$ws"
}
trap cleanup EXIT

# waiturl LOG: the url= a server printed in LOG once it listens.
waiturl() {
  local u=""
  for _ in $(seq 1 200); do
    u=$(sed -n 's/.*url=\(http:[^ ]*\).*/\1/p' "$1" | head -n 1)
    [ -n "$u" ] && break
    sleep 0.05
  done
  if [ -z "$u" ]; then
    echo "a server did not start:" >&2
    cat "$1" >&2
    exit 1
  fi
  echo "$u"
}

"$skillet" serve --no-user -w "$ws" "${roots[@]}" --http 127.0.0.1:0 2>"$log" &
pid=$!
pids+=("$pid")
url=$(waiturl "$log")
grep 'skills loaded' "$log" | head -n 1 >&2
"$out/serveload" -url "$url" -record "$pool" >&2

"$out/servestatic" -pool "$pool" 2>"$slog" &
spid=$!
pids+=("$spid")
surl=$(waiturl "$slog")

echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M) UTC"
echo "skillet: $skillet ($("$skillet" version 2>/dev/null | head -n 1 || true))"
status=0
for ops in $opsets; do
  echo
  echo "## $ops"
  "$out/serveload" -url "$url" -pid "$pid" -static-url "$surl" -static-pid "$spid" -pool "$pool" \
    -ops "$ops" -clients "$clients" -duration "$duration" -rounds "$rounds" || status=$?
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if grep -q 'level=ERROR' "$log"; then
  echo "server log has errors:" >&2
  grep 'level=ERROR' "$log" | head >&2
  status=1
fi
exit $status
