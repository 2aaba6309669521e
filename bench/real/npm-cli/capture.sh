#!/usr/bin/env bash
# npm 11.19.1 (a Node.js CLI; the npm that ships with this Node, at
# /usr/lib/node_modules/npm: its published package, sources as they run)
# failing the ways users meet: a missing script, a broken package.json, a
# package that does not exist on the registry, a bad version range, ci
# without a lockfile, an unknown command, a bad config key, publish
# without auth, a missing file: dependency, an unreachable registry.
# stderr verbatim; the temp dir is normalised to /tmp/npmx and the log
# file names (timestamps) to a fixed name.
set -uo pipefail
[ "$(npm --version)" = 11.19.1 ] || { echo "need npm 11.19.1" >&2; exit 1; }
T=$(mktemp -d /tmp/npmx.XXXX); trap 'rm -rf "$T"' EXIT
export npm_config_cache="$T/cache" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
mkdir -p "$T/p"; cd "$T/p"
echo '{"name":"x","version":"1.0.0","scripts":{"test":"exit 3"}}' > package.json
{
  npm run nosuch
  npm test
  echo '{"name": "x",' > package.json
  npm install
  echo '{"name":"x","version":"1.0.0"}' > package.json
  npm install nosuch-pkg-errdex-zz9 --no-save
  npm install 'left-pad@>=99' --no-save
  npm ci
  npm frobnicate
  npm config set nosuchkey=1
  npm publish --registry http://127.0.0.1:9/
  npm install file:/nonexistent/dir --no-save
  npm install left-pad --registry http://127.0.0.1:9/ --fetch-retries=0 --no-save
  npm version bogus
} 2>&1 | sed -E "s|$T|/tmp/npmx|g; s|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9_]+Z-debug-0.log|2026-12-02T00_00_00_000Z-debug-0.log|g"
