# bench/tree.sh: sourced by bench/compare.sh and bench/limits.sh, which set
# out (where bench/benchtree and bench/floor were built, and trees go).

# tree N: the path of a generated tree of N skills (internal/benchtree,
# seed 1, made once), its page cache warmed by one read of every file.
tree() {
  local t="$out/tree-$1"
  if [ ! -f "$t/.done" ]; then
    rm -rf "$t"
    "$out/benchtree" -n "$1" -out "$t" -seed 1 >&2
    mkdir -p "$t/skills"
    touch "$t/.done"
  fi
  "$out/floor" -full "$t" >/dev/null
  echo "$t"
}
