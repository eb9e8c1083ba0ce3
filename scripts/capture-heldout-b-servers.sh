#!/usr/bin/env bash
# Capture the second held-out lint-quality set, tests/fixtures/heldout-b/ (its README.md says why it
# exists). The servers, pins and machinery live in scripts/capture-heldout-servers.sh (`--set b`),
# shared with the first set; installs go under target/heldout-b-servers/.
#
# Usage:   scripts/capture-heldout-b-servers.sh [NAME...]     (no NAME: every server of the set)
# Knobs:   as scripts/capture-heldout-servers.sh (WORK_DIR, SDK_VERSION, PYTHON, CAPTURE_TIMEOUT).
set -euo pipefail
exec "$(dirname "$0")/capture-heldout-servers.sh" --set b "$@"
