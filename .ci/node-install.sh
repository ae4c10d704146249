#!/usr/bin/env bash
# Installs the npm packages the Node tests drive (internal/cli/node_test.go,
# clients_test.go) into the cache folders the tests look in, so that CI
# runs them; each install is skipped when its folder is current, and a
# failed install (no registry) only means those tests skip.
set -u
cache="${XDG_CACHE_HOME:-$HOME/.cache}/skillet"
command -v npm >/dev/null || { echo "node-install: npm not found; the Node tests will skip"; exit 0; }
for spec in "internal/cli/testdata/node/package.json node-clients-" "internal/cli/testdata/node/agents/package.json node-agents-"; do
  set -- $spec
  pkg=$1 prefix=$2
  hash=$(sha256sum "$pkg" | cut -c1-12)
  dir="$cache/$prefix$hash"
  if [ -f "$dir/.installed" ] && cmp -s "$pkg" "$dir/.installed"; then
    echo "node-install: $dir is current"; continue
  fi
  mkdir -p "$dir" && cp "$pkg" "$dir/package.json"
  if (cd "$dir" && timeout 600 npm install --no-audit --no-fund --no-package-lock --loglevel=error); then
    cp "$pkg" "$dir/.installed"; echo "node-install: installed $pkg into $dir"
  else
    echo "node-install: npm install of $pkg failed; its tests will skip"
  fi
done
exit 0
