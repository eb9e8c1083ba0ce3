#!/usr/bin/env bash
# Install the official MCP Python SDK (pinned, from PyPI) into a venv under target/, for the
# `mf mcp` acceptance test (tests/integration/mcp_server.rs drives tests/mcp_client/client.py
# with this venv's python). Idempotent: a second run with the same pin does nothing.
#
#   scripts/install-mcp-sdk.sh            install when missing
#   scripts/install-mcp-sdk.sh --python   print the venv's python (for MF_MCP_PYTHON)
#
# Needs python3 (≥ 3.10) with the venv module. Honours MF_MCP_VENV (default target/mcp-sdk/venv).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${MF_MCP_VENV:-target/mcp-sdk/venv}"
[[ "$VENV" == /* ]] || VENV="$PWD/$VENV"
PIN="mcp==2.3.0"
STAMP="$VENV/.mf-mcp-installed"

if [[ "${1:-}" == "--python" ]]; then
  echo "$VENV/bin/python"
  exit 0
fi

if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$PIN" && -x "$VENV/bin/python" ]]; then
  exit 0
fi
command -v python3 >/dev/null || {
  echo "install-mcp-sdk.sh: python3 not found" >&2
  exit 1
}
echo "== installing $PIN into $VENV"
python3 -m venv "$VENV" || {
  echo "install-mcp-sdk.sh: python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)" >&2
  exit 1
}
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "$PIN"
printf '%s' "$PIN" >"$STAMP"
