#!/usr/bin/env bash
# Capture the seventh held-out lint-quality set (set g), tests/fixtures/heldout-g/ (its README.md says why it
# exists). The servers, pins and machinery live in scripts/capture-heldout-servers.sh (`--set g`),
# shared with the other sets; installs go under target/heldout-g-servers/.
#
# Usage:   scripts/capture-heldout-g-servers.sh [NAME...]     (no NAME: every server of the set)
# Knobs:   as scripts/capture-heldout-servers.sh (WORK_DIR, SDK_VERSION, PYTHON, CAPTURE_TIMEOUT).
set -euo pipefail
exec "$(dirname "$0")/capture-heldout-servers.sh" --set g "$@"
