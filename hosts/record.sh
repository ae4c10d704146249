#!/usr/bin/env bash
# Installs the pinned agents of hosts/package.json (from the npm registry,
# into a cache folder outside the repository, once per version of that
# file) and runs the recorder on them. Arguments go to the recorder:
#   bash hosts/record.sh                 compare the agents with the recordings
#   bash hosts/record.sh --record        rewrite the recordings
#   bash hosts/record.sh --host codex --workspace walkup-git
# See hosts/README.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
hash=$(sha256sum "$here/package.json" | cut -c1-12)
dir=${SKILLET_HOSTS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/skillet/hosts-$hash}
if [ ! -f "$dir/.installed" ]; then
	mkdir -p "$dir"
	cp "$here/package.json" "$dir/package.json"
	echo "installing the agents of hosts/package.json into $dir" >&2
	# The node package (Node 22) comes first on PATH for the install scripts
	# and the agents: the system node may be too old for some of them.
	(cd "$dir" && npm install --no-audit --no-fund --no-package-lock --loglevel=error)
	cp "$here/package.json" "$dir/.installed"
fi
export SKILLET_HOSTS_BIN="$dir/node_modules/.bin"
cd "$repo"
exec go run ./hosts/record "$@"
