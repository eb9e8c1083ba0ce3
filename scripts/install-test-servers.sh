#!/usr/bin/env bash
# Install the pinned reference MCP servers the live-client tests run against into
# target/test-servers/ (project-local, idempotent: a no-op when the pinned versions are present).
# Usage: scripts/install-test-servers.sh   (needs node >= 18 and npm)
set -euo pipefail
cd "$(dirname "$0")/.."

DIR="target/test-servers"
PINNED=(
  "@modelcontextprotocol/server-everything@2026.8.31"
  "@modelcontextprotocol/server-filesystem@2026.8.31"
  "@modelcontextprotocol/server-memory@2026.8.31"
)
STAMP="$DIR/.installed"
WANT="$(printf '%s\n' "${PINNED[@]}")"

if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$WANT" && -d "$DIR/node_modules/@modelcontextprotocol" ]]; then
  echo "test servers already installed in $DIR"
  exit 0
fi

command -v npm >/dev/null || { echo "npm not found: install Node.js >= 18" >&2; exit 1; }
mkdir -p "$DIR"
[[ -f "$DIR/package.json" ]] || echo '{"name":"mf-test-servers","private":true}' > "$DIR/package.json"
npm install --prefix "$DIR" --no-audit --no-fund --save-exact --loglevel=error "${PINNED[@]}"
printf '%s' "$WANT" > "$STAMP"
echo "installed test servers in $DIR"
