#!/usr/bin/env bash
# Capture the third held-out lint-quality set, tests/fixtures/heldout-c/ (its README.md says why it
# exists). The servers, pins and machinery live in scripts/capture-heldout-servers.sh (`--set c`),
# shared with the other sets; installs go under target/heldout-c-servers/.
#
# Usage:   scripts/capture-heldout-c-servers.sh [NAME...]     (no NAME: every server of the set)
# Knobs:   as scripts/capture-heldout-servers.sh (WORK_DIR, SDK_VERSION, PYTHON, CAPTURE_TIMEOUT).
set -euo pipefail
exec "$(dirname "$0")/capture-heldout-servers.sh" --set c "$@"
