#!/usr/bin/env bash
# Regenerate the real `tools/list` fixtures of the reference MCP servers.
#
# Installs @modelcontextprotocol/sdk and the servers with npm into target/capture-fixtures/
# (never into the repository), starts each server over stdio with the SDK's Client, follows
# pagination, and writes `{"tools":[...]}` exactly as served (pretty-printed, key order kept) to
# tests/fixtures/servers/{filesystem,memory,everything}.tools.json.
#
# Usage:   scripts/capture-fixtures.sh
# Knobs (environment):
#   SDK_VERSION=latest          version of @modelcontextprotocol/sdk
#   SERVERS_VERSION=latest      version of the three server packages
#   WORK_DIR=target/capture-fixtures
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
SDK_VERSION="${SDK_VERSION:-latest}"
SERVERS_VERSION="${SERVERS_VERSION:-latest}"
WORK_DIR="${WORK_DIR:-$ROOT/target/capture-fixtures}"
OUT_DIR="$ROOT/tests/fixtures/servers"

mkdir -p "$WORK_DIR" "$OUT_DIR"
cd "$WORK_DIR"
[ -f package.json ] || echo '{"private":true,"type":"module"}' > package.json
npm install --no-audit --no-fund --loglevel=error \
  "@modelcontextprotocol/sdk@$SDK_VERSION" \
  "@modelcontextprotocol/server-filesystem@$SERVERS_VERSION" \
  "@modelcontextprotocol/server-memory@$SERVERS_VERSION" \
  "@modelcontextprotocol/server-everything@$SERVERS_VERSION"

cp "$ROOT/scripts/capture-tools.mjs" "$WORK_DIR/capture-tools.mjs"
# The filesystem server needs an allowed directory; an empty one keeps the listing machine-free.
ALLOWED="$WORK_DIR/allowed"
mkdir -p "$ALLOWED"
BIN="$WORK_DIR/node_modules/.bin"

node capture-tools.mjs "$OUT_DIR/filesystem.tools.json" "$BIN/mcp-server-filesystem" "$ALLOWED"
# server-memory writes its graph next to itself unless told otherwise; keep it in the work dir.
MEMORY_FILE_PATH="$WORK_DIR/memory.jsonl" \
  node capture-tools.mjs "$OUT_DIR/memory.tools.json" "$BIN/mcp-server-memory"
node capture-tools.mjs "$OUT_DIR/everything.tools.json" "$BIN/mcp-server-everything" stdio

for f in filesystem memory everything; do
  n=$(node -e "console.log(JSON.parse(require('fs').readFileSync(process.argv[1])).tools.length)" "$OUT_DIR/$f.tools.json")
  v=$(node -e "console.log(require('./node_modules/@modelcontextprotocol/server-$f/package.json').version)")
  echo "$f: $n tools (server-$f $v)"
done
