#!/usr/bin/env bash
# Capture the `tools/list` of real, third-party MCP servers for the HELD-OUT lint-quality set.
#
# Same machinery as scripts/capture-real-servers.sh (pinned exact versions, npm `--prefix` / one venv
# per PyPI package, `--ignore-scripts`, a throwaway HOME, dummy credentials, the official TypeScript
# MCP SDK client scripts/capture-tools.mjs), but a different list of servers and a different output:
#   tests/fixtures/heldout/<name>.tools.json   {"tools": [...]}
#   tests/fixtures/heldout/SOURCES.md          name, registry, version, how started, date captured
# The held-out set exists to measure the pair scorer on servers nobody tuned it on: none of these is
# in tests/fixtures/real/ (the tuned corpus) nor in issue 13's test set (every MCP reference server,
# GitHub, GitLab, Slack, Google Maps, Puppeteer, Playwright, Notion, or a fork of one). Keep it so,
# and do not tune the scorer on these snapshots (tests/fixtures/heldout/README.md).
#
# Idempotent: installs are skipped when the pinned version is already there, and a server whose
# captured listing is unchanged keeps the capture date it had in SOURCES.md.
#
# Usage:   scripts/capture-heldout-servers.sh [NAME...]     (no NAME: every server)
# Knobs:   WORK_DIR=target/heldout-servers   SDK_VERSION=1.32.2   PYTHON=python3 (3.11+)
#          CAPTURE_TIMEOUT=120 (seconds per server)
# Needs:   node >= 18, npm, python3 with venv; reaches only the npm registry and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
WORK_DIR="${WORK_DIR:-$ROOT/target/heldout-servers}"
SDK_VERSION="${SDK_VERSION:-1.32.2}"
PYTHON="${PYTHON:-python3}"
CAPTURE_TIMEOUT="${CAPTURE_TIMEOUT:-120}"
OUT_DIR="$ROOT/tests/fixtures/heldout"

# name | registry | package | version | command (a bin of the package) and arguments | environment
# `{data}` in arguments or environment is replaced by the server's scratch directory.
# Tried and left out (2026-12-01): @stripe/mcp 0.3.3 (its tools come from the API key's
# permissions, read from Stripe's API) and @upstash/mcp-server 0.3.0 (calls its API at start) list
# nothing without an account; caldav-mcp 0.10.0 exits without a CalDAV server; @tacticlaunch/
# mcp-linear 1.4.3 (198 tools) is far past this set's size range; docker-mcp-server 2.2.9 needs
# Python 3.14; the PyPI kubernetes-mcp-server 0.0.69 downloads its binary at start (the npm
# package, used here, ships it).
SERVERS=(
  "asana|npm|@roychri/mcp-server-asana|1.8.0|mcp-server-asana|ASANA_ACCESS_TOKEN=dummy"
  "sentry|npm|@sentry/mcp-server|0.39.0|sentry-mcp --access-token=dummy|"
  "google-calendar|npm|@cocal/google-calendar-mcp|2.6.3|google-calendar-mcp|GOOGLE_OAUTH_CREDENTIALS={data}/gcp-oauth.keys.json"
  "trello|npm|@delorenj/mcp-server-trello|1.8.1|mcp-server-trello|TRELLO_API_KEY=dummy TRELLO_TOKEN=dummy"
  "contentful|npm|@ivotoby/contentful-management-mcp-server|1.21.0|mcp-server-contentful|CONTENTFUL_MANAGEMENT_ACCESS_TOKEN=dummy"
  "gmail|npm|@gongrzhe/server-gmail-autoauth-mcp|1.1.11|gmail-mcp|"
  "jira|npm|@aaronsb/jira-cloud-mcp|0.11.3|jira-cloud-mcp|JIRA_API_TOKEN=dummy JIRA_EMAIL=dummy@example.com JIRA_HOST=https://example.atlassian.net"
  "elasticsearch|pypi|elasticsearch-mcp-server|2.1.6|elasticsearch-mcp-server|ELASTICSEARCH_HOSTS=https://localhost:9200 ELASTICSEARCH_USERNAME=elastic ELASTICSEARCH_PASSWORD=dummy"
  "email|pypi|mcp-email-server|1.13.3|mcp-email-server stdio|"
  "kubernetes|npm|kubernetes-mcp-server|0.0.67|kubernetes-mcp-server --kubeconfig {data}/kubeconfig|"
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
  nice -n 19 npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund --save-exact --loglevel=error "$2@$3" \
    && echo "$2@$3" > "$stamp"
}
install_pypi() { # dir package version
  local dir="$1" stamp="$1/.installed"
  [[ "$(cat "$stamp" 2>/dev/null)" == "$2==$3" ]] && return 0
  [[ -x "$dir/bin/python" ]] || "$PYTHON" -m venv "$dir"
  nice -n 19 "$dir/bin/pip" install --quiet --disable-pip-version-check "$2==$3" && echo "$2==$3" > "$stamp"
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
  if [[ "$name" == kubernetes ]]; then
    # A kubeconfig naming a cluster on a closed loopback port: the server reads it to start and
    # lists its tools without reaching the cluster.
    printf '%s\n' 'apiVersion: v1' 'kind: Config' 'clusters: [{name: dummy, cluster: {server: "https://127.0.0.1:1"}}]' \
      'users: [{name: dummy, user: {token: dummy}}]' 'contexts: [{name: dummy, context: {cluster: dummy, user: dummy}}]' \
      'current-context: dummy' > "$data/kubeconfig"
  fi
  if [[ "$name" == google-calendar || "$name" == gmail ]]; then
    # A dummy OAuth client file (where each server looks for it): the server starts
    # unauthenticated and lists its tools.
    keys='{"installed":{"client_id":"dummy.apps.googleusercontent.com","client_secret":"dummy","redirect_uris":["http://localhost"]}}'
    echo "$keys" > "$data/gcp-oauth.keys.json"
    mkdir -p "$home/.gmail-mcp" && echo "$keys" > "$home/.gmail-mcp/gcp-oauth.keys.json"
  fi
  cmdline="${cmdline//\{data\}/$data}"; envs="${envs//\{data\}/$data}"
  read -r -a argv <<< "$cmdline"
  read -r -a envv <<< "$envs"
  tmp="$WORK_DIR/$name.tools.json.tmp"
  echo "capturing $name ($pkg@$version)"
  if ! (cd "$data" && env -i PATH="$bindir:/usr/local/bin:/usr/bin:/bin" HOME="$home" LANG=C.UTF-8 ${envv[@]+"${envv[@]}"} \
        timeout "$CAPTURE_TIMEOUT" node "$WORK_DIR/client/capture-tools.mjs" "$tmp" "$bindir/${argv[0]}" "${argv[@]:1}") \
        > "$WORK_DIR/$name.capture.log" 2>&1; then
    failed+=("$name (start/list: see $WORK_DIR/$name.capture.log)"); rm -f "$tmp"; continue
  fi
  date_captured="$(date -u +%Y-%m-%d)"
  if [[ -f "$out" ]] && cmp -s "$tmp" "$out"; then
    prev="$(old_date "$name")"; [[ -n "$prev" ]] && date_captured="$prev"
  fi
  mv "$tmp" "$out"
  n="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).tools.length)' "$out")"
  shown_env="${envs//$WORK_DIR/target/heldout-servers}"; shown_cmd="${cmdline//$WORK_DIR/target/heldout-servers}"
  echo "| $name | $registry | \`$pkg\` | $version | $n | \`${shown_env:+$shown_env }${shown_cmd}\` | $date_captured |" >> "$ROWS.new"
  echo "  $name: $n tools"
done

{
  echo "# Sources of the held-out server snapshots"
  echo
  echo "Written by \`scripts/capture-heldout-servers.sh\`; do not edit by hand. Each snapshot is the server's"
  echo "\`tools/list\` (every page) exactly as served over stdio to the official TypeScript MCP SDK client"
  echo "(@modelcontextprotocol/sdk $SDK_VERSION), with a throwaway HOME and only the environment shown."
  echo "Credentials shown are dummies: no server was given an account, and no edit is made after capture."
  echo
  echo "| name | registry | package | version | tools | started as (env, then command) | captured (UTC) |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  sort -t'|' -k2,2 "$ROWS.new"
} > "$SOURCES"
rm -f "$ROWS.new"

if [[ ${#failed[@]} -gt 0 ]]; then
  printf 'not captured: %s\n' "${failed[@]}" >&2
fi
