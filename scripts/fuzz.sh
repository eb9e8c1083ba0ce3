#!/usr/bin/env bash
# Run every cargo-fuzz target (fuzz/fuzz_targets) for SECONDS each (default 600), one after
# another, at the lowest CPU priority with one job and one worker, then minimize each corpus
# into fuzz/corpus/<target> (cargo fuzz cmin). Needs a nightly toolchain and cargo-fuzz
# (see fuzz/README.md). Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Environment: MF_FUZZ_TARGET_DIR (default fuzz/target), MF_FUZZ_MAX_LEN (default 16384).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(load_surface skill_front_matter suite_yaml code_ts code_py mcp_config)
fi
target_dir="${MF_FUZZ_TARGET_DIR:-$PWD/fuzz/target}"
max_len="${MF_FUZZ_MAX_LEN:-16384}"
[ -f fuzz/Cargo.lock ] || cp Cargo.lock fuzz/Cargo.lock
fuzz() { nice -n 19 cargo +nightly fuzz "$@"; }
status=0
for t in "${targets[@]}"; do
  echo "== $t: ${secs}s"
  fuzz run --target-dir "$target_dir" "$t" -- \
    -max_total_time="$secs" -max_len="$max_len" -jobs=1 -workers=1 -timeout=10 -rss_limit_mb=2048 || true
  # In -jobs mode the exit status says little: what counts is an artifact.
  if compgen -G "fuzz/artifacts/$t/*" >/dev/null; then
    echo "== $t: FOUND $(find "fuzz/artifacts/$t" -type f -printf '%f ')(see fuzz/artifacts/$t/)"
    status=1
    continue
  fi
  fuzz cmin --target-dir "$target_dir" "$t" -- -max_len="$max_len" -rss_limit_mb=2048
done
exit $status
