#!/usr/bin/env bash
# bench/reload.sh: what a reload of "skillet serve" costs after one edit,
# as a share of a cold "skillet list --json" of the same tree, and what
# watching costs on a tree past the walk's folder limit.
#
# Part 1: internal/benchtree writes N (10,000) skills into a scratch folder.
# The cold listing's CPU (user+sys of the whole process, --no-cache) is the
# median of 3 runs. Then "skillet serve --http 127.0.0.1:0" serves the tree;
# once it is quiet, EDITS times one SKILL.md gets a line appended, and the
# server's utime+stime (/proc/PID/stat, 10 ms ticks) is read before the edit
# and after the reload it causes ("skills loaded" in the log) has settled.
# It prints each edit's CPU, the median, and the median as a share of the
# cold listing. Then, OUTSIDE times (EDITS by default), a line is appended
# to a Markdown file of a grouping folder (skills/team-00/notes.md, made
# before the server started): a file outside every skill, which discovery
# never reads. The server's CPU is read before the write and once it has
# been quiet for a second after the debounce (no "skills loaded" line
# comes: nothing changes), and printed the same way.
#
# Part 2: a root with WIDE*WIDE (100,000) empty folders below one skill-less
# grouping layer, where the walk stops at its folder limit (2,000), beside
# one skill. It prints the server's inotify watches (/proc/PID/fdinfo) and
# the CPU of SECONDS seconds during which one file is written every second,
# as a share of one core: a file deep in the tree (past the walk), then a
# log file in the root (a folder the walk reads, outside every skill).
#
#   bench/reload.sh                      10,000 skills, 5 edits, 100,000 folders, 20 s
#   N=2000 EDITS=3 bench/reload.sh
#   SKILLET=/path/to/skillet bench/reload.sh   another build (a baseline)
#   PART=1 bench/reload.sh              only the edit; PART=2 only the folders
set -euo pipefail
cd "$(dirname "$0")/.."
n=${N:-10000}
edits=${EDITS:-5}
outside=${OUTSIDE:-$edits}
wide=${WIDE:-317}
seconds=${SECONDS_WRITING:-20}
part=${PART:-12}
scratch=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT
skillet=${SKILLET:-}
if [ -z "$skillet" ]; then
  go build -o "$scratch/skillet" ./cmd/skillet
  skillet=$scratch/skillet
fi
export XDG_CACHE_HOME=$scratch/cache HOME=$scratch/home
mkdir -p "$HOME"
tck=$(getconf CLK_TCK)

cpu() { awk '{print $14+$15}' "/proc/$1/stat"; } # ticks

# quiet PID: wait until the server's CPU stops moving for a second.
quiet() {
  local a b
  a=$(cpu "$1")
  for _ in $(seq 60); do
    sleep 1
    b=$(cpu "$1")
    [ "$a" = "$b" ] && return
    a=$b
  done
  echo "the server did not settle" >&2
}

# serve DIR LOG: starts the server, prints its pid once it has loaded.
serve() {
  "$skillet" serve --http 127.0.0.1:0 --no-user --no-cache -w "$1" --log-level debug 2>"$2" >/dev/null &
  local pid=$!
  for _ in $(seq 600); do
    grep -q "skills loaded" "$2" 2>/dev/null && break
    sleep 0.1
  done
  echo "$pid"
}

median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

if [[ $part == *1* ]]; then
  tree=$scratch/tree
  go run ./internal/benchtree -n "$n" -out "$tree" >&2
  cold=$(for _ in 1 2 3; do
    /usr/bin/time -f '%U %S' "$skillet" list --json --no-user --no-cache -w "$tree" 2>&1 >/dev/null | tail -1 |
      awk '{printf "%.0f\n", ($1+$2)*1000}'
  done | median)
  echo "cold listing: ${cold} ms CPU (median of 3, $n skills)"
  notes=$tree/skills/team-00/notes.md
  mkdir -p "$(dirname "$notes")"
  echo "# Notes beside the skills" >"$notes"
  log=$scratch/serve1.log
  pid=$(serve "$tree" "$log")
  pids+=("$pid")
  quiet "$pid"
  mapfile -t files < <(find "$tree/skills" -name SKILL.md | sort | awk 'NR%997==1')
  costs=()
  for i in $(seq "$edits"); do
    f=${files[$(( (i-1) % ${#files[@]} ))]}
    loads=$(grep -c "skills loaded" "$log" || true)
    before=$(cpu "$pid")
    echo "edited by bench/reload.sh ($i)" >>"$f"
    for _ in $(seq 300); do
      [ "$(grep -c "skills loaded" "$log" || true)" -gt "$loads" ] && break
      sleep 0.05
    done
    quiet "$pid"
    after=$(cpu "$pid")
    ms=$(( (after-before)*1000/tck ))
    costs+=("$ms")
    echo "edit $i ($f): ${ms} ms CPU"
  done
  med=$(printf '%s\n' "${costs[@]}" | median)
  awk -v m="$med" -v c="$cold" 'BEGIN{printf "reload after one edit: median %d ms CPU = %.1f%% of the cold listing\n", m, 100*m/c}'
  costs=()
  for i in $(seq "$outside"); do
    before=$(cpu "$pid")
    echo "written by bench/reload.sh ($i)" >>"$notes"
    sleep 2
    quiet "$pid"
    after=$(cpu "$pid")
    ms=$(( (after-before)*1000/tck ))
    costs+=("$ms")
    echo "outside $i: ${ms} ms CPU"
  done
  if [ "$outside" -gt 0 ]; then
    med=$(printf '%s\n' "${costs[@]}" | median)
    awk -v m="$med" -v c="$cold" 'BEGIN{printf "write outside every skill: median %d ms CPU = %.1f%% of the cold listing\n", m, 100*m/c}'
  fi
  echo "watches: $(grep -c '^inotify' /proc/"$pid"/fdinfo/* 2>/dev/null | awk -F: '{s+=$2} END{print s}')"
  kill "$pid"
fi

if [[ $part == *2* ]]; then
  big=$scratch/big
  mkdir -p "$big/skills/one"
  printf -- '---\nname: one\ndescription: The one skill of a tree of empty folders.\n---\nBody.\n' >"$big/skills/one/SKILL.md"
  (cd "$big/skills" && for i in $(seq -w 1 "$wide"); do
    mkdir -p "g$i"
    (cd "g$i" && seq -w 1 "$wide" | sed 's/^/d/' | xargs mkdir -p)
  done)
  echo "folders: $(find "$big" -type d | wc -l)"
  log=$scratch/serve2.log
  pid=$(serve "$big" "$log")
  pids+=("$pid")
  quiet "$pid"
  echo "watches: $(grep -c '^inotify' /proc/"$pid"/fdinfo/* 2>/dev/null | awk -F: '{s+=$2} END{print s}')"
  far=$big/skills/g$(printf "%0${#wide}d" "$wide")/d$(printf "%0${#wide}d" "$wide")/app.log
  for target in "$far" "$big/skills/app.log"; do
    before=$(cpu "$pid")
    for i in $(seq "$seconds"); do
      echo "line $i" >>"$target"
      sleep 1
    done
    quiet "$pid"
    after=$(cpu "$pid")
    awk -v d=$((after-before)) -v t="$tck" -v s="$seconds" -v f="${target#"$big"/}" \
      'BEGIN{printf "one write a second for %d s to %s: %.1f%% of a core\n", s, f, 100*d/t/s}'
  done
  kill "$pid"
fi
