#!/usr/bin/env bash
# The Berkeley Function Calling Leaderboard's package (bfcl-eval, Apache-2.0) from PyPI, pinned by
# version and hash, into target/bfcl (a venv). The conformance test
# (tests/integration/bfcl_conformance.rs) reads its data and runs its own AST checker
# (bfcl_eval/eval_checker/ast_eval/ast_checker.py) through scripts/bfcl_conformance.py.
#
# Installed without its dependencies: the checker imports only the standard library, the
# package's constants and `filelock` (through bfcl_eval.utils), so that one is added, pinned.
# The rest (model SDKs, torch, faiss, …) serve model inference, which the test does not do.
set -euo pipefail
cd "$(dirname "$0")/.."

BFCL_VERSION=2026.3.23
BFCL_SHA256=3bb6dfa5f0c68ad403c9ec50b00db2bb3b4cc9b38ab1ff33f48fe30d853d3a0a
FILELOCK_VERSION=3.20.0
FILELOCK_SHA256=339b4732ffda5cd79b13f4e2711a31b0365ce445d95d243bb996273d072546a2

dest=target/bfcl
if [ -x "$dest/bin/python" ] &&
  "$dest/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('bfcl_eval') != '$BFCL_VERSION')" 2>/dev/null; then
  echo "bfcl-eval $BFCL_VERSION already in $dest"
  exit 0
fi
rm -rf "$dest"
python3 -m venv "$dest"
cat >"$dest/requirements.txt" <<REQ
bfcl-eval==$BFCL_VERSION --hash=sha256:$BFCL_SHA256
filelock==$FILELOCK_VERSION --hash=sha256:$FILELOCK_SHA256
REQ
"$dest/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes \
  -r "$dest/requirements.txt"
echo "installed bfcl-eval $BFCL_VERSION into $dest"
