#!/usr/bin/env bash
# Capture the held-out lint-quality set k, tests/fixtures/heldout-k/ (its README.md says why it
# exists). The servers, pins and machinery live in scripts/capture-heldout-servers.sh (`--set k`),
# shared with the other sets; installs go under target/heldout-k-servers/.
#
# Usage:   scripts/capture-heldout-k-servers.sh [NAME...]     (no NAME: every server of the set)
# Knobs:   as scripts/capture-heldout-servers.sh (WORK_DIR, SDK_VERSION, PYTHON, CAPTURE_TIMEOUT).
set -euo pipefail
exec "$(dirname "$0")/capture-heldout-servers.sh" --set k "$@"
