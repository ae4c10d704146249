#!/usr/bin/env bash
# Records the verdicts of the Agent Skills reference validator, skills-ref
# (the Python library of the specification's repository), for the parity
# test of package skillsref: testdata/reference/{corpus,generated}.jsonl.
#
#   internal/skillsref/testdata/record.sh [CORPUS]
#   internal/skillsref/testdata/record.sh --npm OUT [CORPUS]
#
# The second form records the npm package skills-ref (0.1.5, pinned) into
# the folder OUT instead, to compare it with the recordings; it is not what
# the parity test uses. CORPUS defaults to $SKILLET_CORPUS, else ../shared/corpus beside the
# module root; without one only the generated cases are recorded.
#
# The reference is installed, pinned, into a cache folder outside the
# repository ($SKILLS_REF_DIR, default ~/.cache/skillet/skills-ref-<commit>):
#   - skills-ref itself from a checkout of the specification's repository
#     (github.com/agentskills/agentskills) at commit $SKILLS_REF_COMMIT, given
#     as $SKILLS_REF_SRC (the checkout, a bare clone, or its skills-ref
#     folder); its six source files are checked against pinned SHA-256 sums.
#     (The package index copy, skills-ref 0.1.1, is not reachable from every
#     machine; the checkout is.)
#   - its dependencies strictyaml and click: strictyaml 1.7.3 and click 8 from
#     the Python package index when it is reachable, else the distribution's
#     python3-strictyaml (1.6.1) and python3-click through apt-get. strictyaml
#     1.6.1 and 1.7.3 differ only in code the reference does not reach
#     (validators of typed schemas), so the verdicts are the same.
#
# The npm package of the same name is a third-party port (js-yaml instead of
# strictyaml, other messages); it is not what this records. See docs/lint.md.
set -euo pipefail

SKILLS_REF_COMMIT=69ef37e9424c0a7ea9dd2293b559e43ec8176379
# The sha256 of its source files at that commit are in reference/SHA256SUMS.

npm_out=
if [ "${1:-}" = --npm ]; then npm_out=${2:?--npm needs an output folder}; shift 2; fi
here=$(cd "$(dirname "$0")" && pwd)
module=$(cd "$here/../../.." && pwd)
corpus=${1:-${SKILLET_CORPUS:-}}
if [ -z "$corpus" ] && [ -d "$module/../shared/corpus" ]; then corpus=$(cd "$module/../shared/corpus" && pwd); fi

if [ -n "$npm_out" ]; then
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/skillet/skills-ref-npm-0.1.5
  mkdir -p "$cache" "$npm_out"
  if [ ! -f "$cache/node_modules/skills-ref/dist/cli.js" ]; then
    echo '{"private": true, "dependencies": {"skills-ref": "0.1.5"}}' >"$cache/package.json"
    (cd "$cache" && npm install --no-audit --no-fund --no-package-lock --loglevel=error)
  fi
  args=(--cases "$here/generated.txtar" --out "$npm_out")
  [ -n "$corpus" ] && args+=(--corpus "$corpus")
  exec python3 "$here/record.py" "${args[@]}" -- node "$cache/node_modules/skills-ref/dist/cli.js"
fi

cache=${SKILLS_REF_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/skillet/skills-ref-${SKILLS_REF_COMMIT:0:12}}
mkdir -p "$cache"

# 1. The source, checked against the pinned sums.
if [ ! -f "$cache/src/skills_ref/validator.py" ]; then
  src=${SKILLS_REF_SRC:?set SKILLS_REF_SRC to a checkout (or bare clone) of github.com/agentskills/agentskills}
  mkdir -p "$cache/src/skills_ref"
  if git -C "$src" rev-parse --git-dir >/dev/null 2>&1 && git -C "$src" cat-file -e "$SKILLS_REF_COMMIT" 2>/dev/null; then
    for f in __init__ cli errors models parser prompt validator; do
      git -C "$src" show "$SKILLS_REF_COMMIT:skills-ref/src/skills_ref/$f.py" >"$cache/src/skills_ref/$f.py"
    done
  else
    [ -d "$src/skills-ref" ] && src=$src/skills-ref
    cp "$src"/src/skills_ref/*.py "$cache/src/skills_ref/"
  fi
fi
(cd "$cache/src/skills_ref" && sha256sum -c --quiet <<<"$(sed -n '/\S/p' "$here/reference/SHA256SUMS")") || {
  echo "record.sh: the skills-ref sources in $cache/src differ from commit $SKILLS_REF_COMMIT" >&2; exit 1; }

# 2. Python 3.11+ with strictyaml and click.
py=$cache/venv/bin/python
if [ ! -x "$py" ]; then
  if python3 -m venv "$cache/venv" 2>/dev/null &&
     "$cache/venv/bin/pip" install --quiet --disable-pip-version-check --timeout 10 --retries 0 'strictyaml==1.7.3' 'click>=8,<9' 2>/dev/null; then
    :
  else
    rm -rf "$cache/venv"
    if ! python3 -c 'import strictyaml, click' 2>/dev/null || [ ! -x /usr/bin/python3 ]; then
      apt-get install -y -qq python3-strictyaml python3-click >/dev/null
    fi
    py=/usr/bin/python3
  fi
fi
[ -x "$py" ] || py=/usr/bin/python3
"$py" -c 'import strictyaml, click, sys; assert sys.version_info >= (3, 11)'
echo "skills-ref at ${SKILLS_REF_COMMIT:0:12}, $("$py" --version), strictyaml $("$py" -c 'import importlib.metadata as m; print(m.version("strictyaml"))')" >&2

ref=("$py" -c 'import sys; sys.argv[0] = "skills-ref"; from skills_ref.cli import main; main()')
export PYTHONPATH=$cache/src
mkdir -p "$here/reference"
args=(--cases "$here/generated.txtar" --out "$here/reference")
[ -n "$corpus" ] && args+=(--corpus "$corpus")
"$py" "$here/record.py" "${args[@]}" -- "${ref[@]}"
