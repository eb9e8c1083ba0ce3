#!/usr/bin/env bash
# Wall time from start to complete listing for server-filesystem over stdio, median of 5 runs.
# Measured end to end through `mf scan --probe` on a one-config repository (the scan itself is
# a few files; nearly all the time is node starting the server and the MCP handshake).
# Usage: benches/live_startup.sh   (runs scripts/install-test-servers.sh and a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-test-servers.sh >/dev/null
cargo build --release --quiet
MF="$PWD/target/release/mf"
ENTRY="$PWD/target/test-servers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
REPO="$(mktemp -d)"
trap 'rm -rf "$REPO"' EXIT
printf '{"mcpServers":{"fs":{"command":"node","args":["%s","%s"]}}}\n' "$ENTRY" "$REPO" > "$REPO/.mcp.json"
times=()
for _ in 1 2 3 4 5; do
  start=$(date +%s%N)
  "$MF" scan --json --no-write --probe "$REPO" > "$REPO/out.json" 2>/dev/null
  end=$(date +%s%N)
  grep -q '"ok": true' "$REPO/out.json" || { echo "probe failed" >&2; exit 1; }
  times+=($(( (end - start) / 1000000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "server-filesystem stdio start→listing: median ${sorted[2]} ms (runs: ${times[*]} ms)"
