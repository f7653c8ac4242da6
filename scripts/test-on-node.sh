#!/usr/bin/env bash
# Runs the test suite on another Node.js major version, taken from the npm registry's `node`
# package (which ships the official build and its headers), against this checkout's node_modules.
# Only the ABI-specific native addon (roaring) is built again, beside the one already there.
#   scripts/test-on-node.sh 24        # after `npm ci`
set -euo pipefail
major=${1:?usage: scripts/test-on-node.sh MAJOR}
cd "$(dirname "$0")/.."
prefix=${MUNINN_NODE_CACHE:-${TMPDIR:-/tmp}/muninn-node}/$major
if [ ! -x "$prefix/node_modules/node/bin/node" ]; then
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "node@$major" >/dev/null
fi
bin=$(dirname "$(readlink -f "$prefix/node_modules/node/bin/node")")
headers=$(dirname "$(find "$prefix/node_modules" -path '*/include/node/node.h' -print -quit)")
headers=${headers%/include/node}
export PATH="$bin:$PATH"
echo "node $(node --version) (npm registry package), headers in $headers"
# Build roaring for this ABI (node-pre-gyp keeps one build per ABI under native/).
log=$(mktemp)
(cd node_modules/roaring && npm_config_nodedir="$headers" node ./node-pre-gyp.js rebuild) >"$log" 2>&1 || {
  cat "$log" >&2
  echo "could not build roaring for node $(node --version)" >&2
  exit 1
}
node -e "require('roaring'); require('lmdb'); require('msgpackr-extract')"
npm test
