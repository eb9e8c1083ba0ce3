#!/usr/bin/env bash
# Capture the `tools/list` of real, third-party MCP servers for the lint-quality corpus.
#
# Each server below is pinned to an exact version. The script installs it into
# target/real-servers/ (npm: its own `--prefix`; PyPI: its own venv), starts it over stdio with a
# throwaway HOME and dummy credentials where the server insists on some, lists its tools with the
# official TypeScript MCP SDK (scripts/capture-tools.mjs, all pages, exactly as served) and writes
#   tests/fixtures/real/<name>.tools.json      {"tools": [...]}
#   tests/fixtures/real/SOURCES.md             name, registry, version, how started, date captured
# No server is given a real account, so only servers that list their tools without a network call
# at startup can be captured here.
#
# Idempotent: installs are skipped when the pinned version is already there, and a server whose
# captured listing is unchanged keeps the capture date it had in SOURCES.md.
#
# Usage:   scripts/capture-real-servers.sh [NAME...]     (no NAME: every server)
# Knobs:   WORK_DIR=target/real-servers   SDK_VERSION=1.32.2   PYTHON=python3 (3.11+)
#          CAPTURE_TIMEOUT=120 (seconds per server)
# Needs:   node >= 18, npm, python3 with venv; reaches only the npm registry and PyPI.
#
# The servers of the issue's test set (MCP reference servers other than everything/filesystem/
# memory, GitHub, GitLab, Slack, Google Maps, Puppeteer, Playwright, Notion) are deliberately NOT
# here: the corpus must be servers nobody tuned the lint rules on.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
WORK_DIR="${WORK_DIR:-$ROOT/target/real-servers}"
SDK_VERSION="${SDK_VERSION:-1.32.2}"
PYTHON="${PYTHON:-python3}"
CAPTURE_TIMEOUT="${CAPTURE_TIMEOUT:-120}"
OUT_DIR="$ROOT/tests/fixtures/real"

# name | registry | package | version | command (a bin of the package) and arguments | environment
# `{data}` in arguments or environment is replaced by the server's scratch directory.
# Tried and left out (2026-12-01): mcp-server-kubernetes 4.1.7, @heroku/mcp-server 1.2.8 and
# @azure-devops/mcp 2.10.0 exit before listing without a cluster / CLI / login; @supabase/
# mcp-server-supabase 0.13.0 calls its API while listing; chroma-mcp 0.2.6 fails to import with the
# pydantic it resolves; mcp-server-docker needs Python 3.12; @neondatabase/mcp-server-neon 0.6.5 has
# a git dependency npm cannot fetch here; mcp-atlassian 0.23.1 (98 tools) is past the corpus's size
# range and zotero-mcp 0.3.1 (3 tools) below it.
SERVERS=(
  "desktop-commander|npm|@wonderwhy-er/desktop-commander|0.2.52|desktop-commander|PUPPETEER_SKIP_DOWNLOAD=1"
  "firecrawl|npm|firecrawl-mcp|3.26.0|firecrawl-mcp|FIRECRAWL_API_KEY=fc-dummy"
  "antv-chart|npm|@antv/mcp-server-chart|0.9.10|mcp-server-chart|"
  "mongodb|npm|mongodb-mcp-server|3.0.4|mongodb-mcp-server|MDB_MCP_TELEMETRY=disabled"
  "circleci|npm|@circleci/mcp-server-circleci|0.20.0|mcp-server-circleci|CIRCLECI_TOKEN=dummy"
  "browsermcp|npm|@browsermcp/mcp|0.1.3|mcp-server-browsermcp|"
  "airtable|npm|airtable-mcp-server|1.14.0|airtable-mcp-server|AIRTABLE_API_KEY=patDUMMY.dummy"
  "hubspot|npm|@hubspot/mcp-server|0.4.0|mcp-hubspot|PRIVATE_APP_ACCESS_TOKEN=dummy"
  "excel|pypi|excel-mcp-server|2.2.2|excel-mcp-server stdio|EXCEL_FILES_PATH={data}"
  "word|pypi|office-word-mcp-server|1.1.11|word_mcp_server|"
  "obsidian|pypi|mcp-obsidian|0.2.3|mcp-obsidian|OBSIDIAN_API_KEY=dummy"
  "arxiv|pypi|arxiv-mcp-server|0.8.2|arxiv-mcp-server --storage-path {data}|"
  "aws-documentation|pypi|awslabs-aws-documentation-mcp-server|1.2.3|awslabs.aws-documentation-mcp-server|FASTMCP_LOG_LEVEL=ERROR"
)

want() { # is server $1 selected on the command line?
  [[ ${#SELECTED[@]} -eq 0 ]] && return 0
  local s; for s in "${SELECTED[@]}"; do [[ "$s" == "$1" ]] && return 0; done; return 1
}
SELECTED=("$@")

mkdir -p "$WORK_DIR/client" "$OUT_DIR"
# The MCP client: the official TypeScript SDK, pinned.
if [[ "$(cat "$WORK_DIR/client/.installed" 2>/dev/null)" != "$SDK_VERSION" ]]; then
  (cd "$WORK_DIR/client" && { [[ -f package.json ]] || echo '{"private":true,"type":"module"}' > package.json; } \
    && npm install --no-audit --no-fund --save-exact --loglevel=error "@modelcontextprotocol/sdk@$SDK_VERSION")
  echo "$SDK_VERSION" > "$WORK_DIR/client/.installed"
fi
cp "$ROOT/scripts/capture-tools.mjs" "$WORK_DIR/client/capture-tools.mjs"

install_npm() { # dir package version
  local dir="$1" stamp="$1/.installed"
  [[ "$(cat "$stamp" 2>/dev/null)" == "$2@$3" ]] && return 0
  mkdir -p "$dir"
  [[ -f "$dir/package.json" ]] || echo '{"private":true}' > "$dir/package.json"
  # --ignore-scripts: no install step may download a browser or compile a native addon; every
  # server here lists its tools without them.
  npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund --save-exact --loglevel=error "$2@$3"
  echo "$2@$3" > "$stamp"
}
install_pypi() { # dir package version
  local dir="$1" stamp="$1/.installed"
  [[ "$(cat "$stamp" 2>/dev/null)" == "$2==$3" ]] && return 0
  [[ -x "$dir/bin/python" ]] || "$PYTHON" -m venv "$dir"
  "$dir/bin/pip" install --quiet --disable-pip-version-check "$2==$3"
  echo "$2==$3" > "$stamp"
}

SOURCES="$OUT_DIR/SOURCES.md"
old_date() { # the capture date SOURCES.md has for server $1, if any
  [[ -f "$SOURCES" ]] || return 0
  awk -F'|' -v n="$1" '{ gsub(/^ +| +$/, "", $2) } $2 == n { gsub(/^ +| +$/, "", $8); print $8 }' "$SOURCES"
}

ROWS="$WORK_DIR/sources.rows"
: > "$ROWS.new"
failed=()
for row in "${SERVERS[@]}"; do
  IFS='|' read -r name registry pkg version cmdline envs <<< "$row"
  out="$OUT_DIR/$name.tools.json"
  if ! want "$name"; then
    # keep the SOURCES.md row of a server not recaptured this time
    grep -F "| $name |" "$SOURCES" 2>/dev/null >> "$ROWS.new" || true
    continue
  fi
  data="$WORK_DIR/data/$name"; home="$WORK_DIR/home/$name"
  mkdir -p "$data" "$home"
    if [[ "$registry" == npm ]]; then
    dir="$WORK_DIR/npm/$name"; install_npm "$dir" "$pkg" "$version" || { failed+=("$name (install)"); continue; }
    bindir="$dir/node_modules/.bin"
  else
    dir="$WORK_DIR/venv/$pkg"; install_pypi "$dir" "$pkg" "$version" || { failed+=("$name (install)"); continue; }
    bindir="$dir/bin"
  fi
  cmdline="${cmdline//\{data\}/$data}"; envs="${envs//\{data\}/$data}"
  read -r -a argv <<< "$cmdline"
  read -r -a envv <<< "$envs"
  tmp="$WORK_DIR/$name.tools.json.tmp"
  echo "capturing $name ($pkg@$version)"
  if ! (cd "$data" && env -i PATH="$bindir:/usr/local/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 ${envv[@]+"${envv[@]}"} \
        timeout "$CAPTURE_TIMEOUT" node "$WORK_DIR/client/capture-tools.mjs" "$tmp" "$bindir/${argv[0]}" ${argv[@]:1}) \
        > "$WORK_DIR/$name.capture.log" 2>&1; then
    failed+=("$name (start/list: see $WORK_DIR/$name.capture.log)"); rm -f "$tmp"; continue
  fi
  if [[ "$name" == desktop-commander ]]; then
    # Desktop Commander writes what it detects about the capturing machine (container mounts, host
    # name) into start_process's description. Those lines describe this machine, not the server:
    # replace them with fixed placeholders so the snapshot is the same wherever it is captured.
    node -e '
      const fs = require("fs"); const f = process.argv[1]; const host = require("os").hostname();
      let text = fs.readFileSync(f, "utf8");
      const re = /- (\/[^\s"]+) \((?:read-write|read-only)\) - (?:Mounted|Host) folder: ([^\\"]+)/g;
      const mounts = [...new Set([...text.matchAll(re)].map(m => m[1]))].sort((a, b) => b.length - a.length);
      mounts.forEach((m, i) => { text = text.split(m).join("/mnt/MOUNT" + (i + 1)); });
      text = text.replace(/(folder: )[^\\"]+/g, "$1MOUNT").split("Container: " + host).join("Container: HOSTNAME");
      fs.writeFileSync(f, text);' "$tmp"
  fi
  date_captured="$(date -u +%Y-%m-%d)"
  if [[ -f "$out" ]] && cmp -s "$tmp" "$out"; then
    prev="$(old_date "$name")"; [[ -n "$prev" ]] && date_captured="$prev"
  fi
  mv "$tmp" "$out"
  n="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).tools.length)' "$out")"
  shown_env="${envs//$WORK_DIR/target/real-servers}"; shown_cmd="${cmdline//$WORK_DIR/target/real-servers}"
  echo "| $name | $registry | \`$pkg\` | $version | $n | \`${shown_env:+$shown_env }${shown_cmd}\` | $date_captured |" >> "$ROWS.new"
  echo "  $name: $n tools"
done

{
  echo "# Sources of the real-server snapshots"
  echo
  echo "Written by \`scripts/capture-real-servers.sh\`; do not edit by hand. Each snapshot is the server's"
  echo "\`tools/list\` (every page) exactly as served over stdio to the official TypeScript MCP SDK client"
  echo "(@modelcontextprotocol/sdk $SDK_VERSION), with a throwaway HOME and only the environment shown."
  echo "Credentials shown are dummies: no server was given an account. One edit is made after capture:"
  echo "desktop-commander's start_process description embeds what the server detects about the capturing"
  echo "machine (container mount list, host name); those lines are replaced by MOUNT/HOSTNAME placeholders."
  echo
  echo "| name | registry | package | version | tools | started as (env, then command) | captured (UTC) |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  sort -t'|' -k2,2 "$ROWS.new"
} > "$SOURCES"
rm -f "$ROWS.new"

if [[ ${#failed[@]} -gt 0 ]]; then
  printf 'not captured: %s\n' "${failed[@]}" >&2
fi
