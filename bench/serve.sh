#!/usr/bin/env bash
# bench/serve.sh: load benchmark of "skillet serve --http" on loopback.
# Serves every published skill of the corpus (stateless streamable HTTP,
# watching on, as deployed), then runs bench/serveload: concurrent clients
# calling skills/list, resources/read and the load tool for DURATION, and
# prints requests per second, p50/p99 latency, failures and the server's
# peak memory (VmHWM from /proc, and GNU time's maximum resident set size
# when /usr/bin/time is there).
#
#   bench/serve.sh                       32 clients for 30s
#   CLIENTS=64 DURATION=60s bench/serve.sh
#   OPS=skills/list,resources/read bench/serve.sh   without the tool
#   SKILLET_CORPUS=/path/to/corpus bench/serve.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_OUT:-bench/out}
clients=${CLIENTS:-32}
duration=${DURATION:-30s}
ops=${OPS:-skills/list,resources/read,tools/call}
corpus=${SKILLET_CORPUS:-../shared/corpus}
if [ ! -d "$corpus" ]; then
  echo "corpus not found at $corpus: set SKILLET_CORPUS" >&2
  exit 1
fi
corpus=$(cd "$corpus" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

echo "building skillet and serveload..." >&2
go build -o "$out/skillet" ./cmd/skillet
go build -o "$out/serveload" ./bench/serveload

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
timelog="$out/serve.time"
trap 'rm -rf "$ws"' EXIT

run=("$out/skillet" serve --no-user -w "$ws" "${roots[@]}" --http 127.0.0.1:0)
if /usr/bin/time -v true >/dev/null 2>&1; then
  /usr/bin/time -v -o "$timelog" "${run[@]}" 2>"$log" &
else
  rm -f "$timelog"
  "${run[@]}" 2>"$log" &
fi
wrapper=$!
url=""
for _ in $(seq 1 200); do
  url=$(sed -n 's/.*url=\(http:[^ ]*\).*/\1/p' "$log" | head -n 1)
  [ -n "$url" ] && break
  sleep 0.05
done
if [ -z "$url" ]; then
  echo "the server did not start:" >&2
  cat "$log" >&2
  exit 1
fi
# The server's own pid: the wrapper's child when GNU time runs it.
pid=$(pgrep -P "$wrapper" -f "skillet serve" || echo "$wrapper")
grep 'skills loaded' "$log" | head -n 1 >&2
echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3)" >&2

status=0
"$out/serveload" -url "$url" -clients "$clients" -duration "$duration" -ops "$ops" -pid "$pid" || status=$?
kill -INT "$pid"
wait "$wrapper" || true
if [ -f "$timelog" ]; then
  echo "server (GNU time): $(grep -E 'Maximum resident set size' "$timelog" | sed 's/^[[:space:]]*//')"
fi
if grep -q 'level=ERROR' "$log"; then
  echo "server log has errors:" >&2
  grep 'level=ERROR' "$log" | head >&2
  status=1
fi
exit $status
