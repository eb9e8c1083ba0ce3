#!/usr/bin/env bash
# Scan throughput benchmark for `mf scan`.
#
# Generates a deterministic repository-like tree (benches/gen_tree.py: nested .ts/.js/.py/.md/.json
# files of a few KB, ~2% defining MCP tools, a gitignored node_modules/ with a few thousand files,
# a symlink loop, a 50 MB file and a non-UTF-8 file), builds mf in release mode, times
# `mf scan TREE --json --no-write` (and the terminal output mode) over several runs, and prints
# files/s and the median wall time.
#
# Usage:   benches/scan_throughput.sh
# Knobs (environment):
#   FILES=50000        regular files to generate (node_modules included)
#   RUNS=5             timed runs per mode (after WARMUP untimed runs)
#   WARMUP=1           untimed runs first (fills the page cache)
#   MODES="json plain" which modes to time: json = --json, plain = terminal output
#   BIG_MB=50          size of the large file (0 = none)
#   SEED=20250101      generator seed
#   MF_BIN=path        use this mf binary instead of building target/release/mf
#   BENCH_TMPDIR=dir   where to create the temporary tree (default: $TMPDIR or /tmp)
#   KEEP_TREE=1        keep the generated tree (its path is printed) instead of deleting it
#   NO_HYPERFINE=1     time with the built-in loop even if hyperfine is installed
set -euo pipefail

FILES="${FILES:-50000}"
RUNS="${RUNS:-5}"
WARMUP="${WARMUP:-1}"
MODES="${MODES:-json plain}"
BIG_MB="${BIG_MB:-50}"
SEED="${SEED:-20250101}"
KEEP_TREE="${KEEP_TREE:-0}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

die() { echo "scan_throughput: $*" >&2; exit 1; }
for v in FILES RUNS WARMUP BIG_MB SEED; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a non-negative integer, got '${!v}'"
done
(( RUNS >= 1 )) || die "RUNS must be at least 1"
command -v python3 >/dev/null || die "python3 is needed for the tree generator"

work="$(mktemp -d "${BENCH_TMPDIR:-${TMPDIR:-/tmp}}/mf-scan-bench.XXXXXX")"
cleanup() {
  if [[ "$KEEP_TREE" == 1 ]]; then
    echo "scan_throughput: kept tree at $work/tree" >&2
  else
    # rm does not follow symlinks, so the a/loop -> .. link is removed, not traversed.
    rm -rf -- "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tree="$work/tree"

# --- 1. build -------------------------------------------------------------------------------
if [[ -n "${MF_BIN:-}" ]]; then
  mf="$MF_BIN"
else
  echo "scan_throughput: cargo build --release" >&2
  (cd "$repo" && cargo build --release --quiet --bin mf) || die "cargo build --release failed"
  mf="$repo/target/release/mf"
fi
[[ -x "$mf" ]] || die "no mf binary at $mf"

# --- 2. generate ----------------------------------------------------------------------------
echo "scan_throughput: generating $FILES files under $tree" >&2
gen_start=$(date +%s.%N)
gen_out="$(python3 "$here/gen_tree.py" "$tree" --files "$FILES" --big-mb "$BIG_MB" --seed "$SEED")"
gen_end=$(date +%s.%N)
echo "scan_throughput: generated in $(awk -v a="$gen_start" -v b="$gen_end" 'BEGIN{printf "%.1f", b-a}')s: $gen_out" >&2

# The walker honours .gitignore only inside a git repository (as `git` itself does), so make the
# tree one. Nothing is committed; only .git/ is created.
if command -v git >/dev/null; then
  git -C "$tree" init -q 2>/dev/null || echo "scan_throughput: warning: git init failed; .gitignore may not apply" >&2
fi

# Files the scan should walk: every regular file outside the gitignored node_modules/ and .git/.
# `find` does not follow symlinks, so the loop is not entered.
walked=$(find "$tree" \( -path "$tree/node_modules" -o -path "$tree/.git" \) -prune -o -type f -print | wc -l)
walked=${walked//[[:space:]]/}
total=$(find "$tree" -path "$tree/.git" -prune -o -type f -print | wc -l)
total=${total//[[:space:]]/}
# Bytes the scan reads: walked files up to the 16 MiB per-file cap (the big file is skipped by size).
bytes=$(find "$tree" \( -path "$tree/node_modules" -o -path "$tree/.git" \) -prune -o -type f -size -16777217c -printf '%s\n' |
  awk '{s += $1} END {printf "%d", s}')

# --- 3. sanity run ----------------------------------------------------------------------------
# One run outside the timing: it must succeed, and it must not take forever on the loop.
args_for() { if [[ "$1" == json ]]; then echo "--json --no-write"; else echo "--no-write"; fi; }
set +e
timeout 600 "$mf" scan "$tree" --json --no-write >"$work/scan.json" 2>"$work/scan.err"
rc=$?
set -e
if (( rc != 0 )); then
  echo "scan_throughput: 'mf scan $tree --json --no-write' exited $rc; stderr:" >&2
  head -n 40 "$work/scan.err" >&2
  exit 1
fi
found=$(python3 - "$work/scan.json" <<'PY'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except Exception as e:  # the CLI may still be in flux; the timing is what matters here
    print(f"? (unreadable JSON: {e.__class__.__name__})")
    sys.exit(0)
def count(*path):
    node = doc
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return len(node) if isinstance(node, list) else None
tools = next((n for n in (count("report", "tools"), count("draft", "tools"), count("tools")) if n is not None), "?")
skills = next((n for n in (count("report", "skills"), count("skills")) if n is not None), "?")
print(f"{tools} tools, {skills} skills")
PY
)
[[ -e "$tree/mf.scan.json" || -e "$tree/mf.suite.json" ]] && die "--no-write was given but mf wrote into the tree"
expected=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("%d tools, %d skills" % (d["tools"], d["skill_files"]))' "$gen_out")
if [[ "$found" == "$expected" ]]; then
  echo "scan_throughput: sanity run ok: found $found, as generated" >&2
else
  echo "scan_throughput: warning: found $found, generated $expected (outside node_modules/)" >&2
fi

# --- 4. time ----------------------------------------------------------------------------------
median_of() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.6f\n", (a[NR/2]+a[NR/2+1])/2 }'; }

time_mode() { # mode -> prints "median min max" in seconds
  local mode="$1" extra
  extra=$(args_for "$mode")
  if command -v hyperfine >/dev/null && [[ "${NO_HYPERFINE:-0}" != 1 ]]; then
    # shellcheck disable=SC2086
    hyperfine --style basic --warmup "$WARMUP" --runs "$RUNS" -N \
      --export-json "$work/hf-$mode.json" "$mf scan $tree $extra" >&2
    python3 - "$work/hf-$mode.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f'{r["median"]:.6f} {r["min"]:.6f} {r["max"]:.6f}')
PY
  else
    local i t0 t1
    for ((i = 0; i < WARMUP; i++)); do
      # shellcheck disable=SC2086
      "$mf" scan "$tree" $extra >/dev/null 2>&1 || true
    done
    : >"$work/times-$mode"
    for ((i = 1; i <= RUNS; i++)); do
      t0=$(date +%s.%N)
      # shellcheck disable=SC2086
      "$mf" scan "$tree" $extra >/dev/null 2>"$work/run.err" || { cat "$work/run.err" >&2; die "run $i ($mode) failed"; }
      t1=$(date +%s.%N)
      awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.6f\n", b-a}' | tee -a "$work/times-$mode" |
        awk -v i="$i" -v m="$mode" '{printf "  %s run %d: %.3fs\n", m, i, $1}' >&2
    done
    local med min max
    med=$(median_of <"$work/times-$mode")
    min=$(sort -g "$work/times-$mode" | head -n1)
    max=$(sort -g "$work/times-$mode" | tail -n1)
    echo "$med $min $max"
  fi
}

timer=$(command -v hyperfine >/dev/null && [[ "${NO_HYPERFINE:-0}" != 1 ]] && echo hyperfine || echo "bash loop")
summary=()
for mode in $MODES; do
  [[ "$mode" == json || "$mode" == plain ]] || die "unknown mode '$mode' (json, plain)"
  echo "scan_throughput: timing mode=$mode ($RUNS runs, $WARMUP warmup, $timer)" >&2
  times=$(time_mode "$mode") || die "timing mode=$mode failed"
  read -r med min max <<<"$times"
  [[ -n "${max:-}" ]] || die "timing mode=$mode produced no result"
  fps=$(awk -v n="$walked" -v t="$med" 'BEGIN{ if (t > 0) printf "%.0f", n/t; else print "inf" }')
  mbps=$(awk -v b="$bytes" -v t="$med" 'BEGIN{ if (t > 0) printf "%.1f", b/1048576/t; else print "inf" }')
  summary+=("$(printf 'scan_throughput: mode=%-5s files=%s walked=%s median=%.3fs min=%.3fs max=%.3fs files/s=%s MiB/s=%s runs=%s cores=%s' \
    "$mode" "$total" "$walked" "$med" "$min" "$max" "$fps" "$mbps" "$RUNS" "$(nproc 2>/dev/null || echo ?)")")
done

echo
echo "tree: $total files ($walked walked outside node_modules/, $((total - walked)) gitignored), $((bytes / 1048576)) MiB read; found: $found (generated: $expected)"
printf '%s\n' "${summary[@]}"
