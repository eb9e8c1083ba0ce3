#!/usr/bin/env bash
# Capture the held-out lint-quality set m, tests/fixtures/heldout-m/ (its README.md says why it
# exists). The servers, pins and machinery live in scripts/capture-heldout-servers.sh (`--set m`),
# shared with the other sets; installs go under target/heldout-m-servers/.
#
# Usage:   scripts/capture-heldout-m-servers.sh [NAME...]     (no NAME: every server of the set)
# Knobs:   as scripts/capture-heldout-servers.sh (WORK_DIR, SDK_VERSION, PYTHON, CAPTURE_TIMEOUT).
set -euo pipefail
exec "$(dirname "$0")/capture-heldout-servers.sh" --set m "$@"
