#!/usr/bin/env bash
# Capture the tuned lint-quality corpus, tests/fixtures/real/ (its README.md says what it is for):
# real, third-party MCP servers' `tools/list`, each from a pinned version. The servers, pins and
# machinery live in scripts/capture-heldout-servers.sh (`--set real`), shared with the held-out
# sets; installs go under target/real-servers/. One edit is made after capture: desktop-commander's
# start_process description gets MOUNT/HOSTNAME placeholders for the capturing machine's mounts and
# host name.
#
# Usage:   scripts/capture-real-servers.sh [NAME...]     (no NAME: every server)
# Knobs:   as scripts/capture-heldout-servers.sh (WORK_DIR, SDK_VERSION, PYTHON, CAPTURE_TIMEOUT).
set -euo pipefail
exec "$(dirname "$0")/capture-heldout-servers.sh" --set real "$@"
