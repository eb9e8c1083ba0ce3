#!/usr/bin/env bash
# Validate mf's SARIF output against the official SARIF 2.1.0 schema, or refresh that schema.
#
#   scripts/validate-sarif.sh                   run the schema test (tests/integration/render_lint.rs)
#   scripts/validate-sarif.sh FILE.sarif        validate one SARIF file (needs python3 + jsonschema)
#   scripts/validate-sarif.sh --refresh-schema  re-fetch the schema from npm and check its hash
set -euo pipefail
cd "$(dirname "$0")/.."

schema=tests/fixtures/render/sarif-schema-2.1.0.json
package=@microsoft/jest-sarif@1.0.0-beta.0
member=package/lib/schemas/sarif-2.1.0-rtm.5.json
sha256=2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8

case "${1:-}" in
  --refresh-schema)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    (cd "$tmp" && npm pack --silent "$package" >/dev/null)
    tar -xzf "$tmp"/*.tgz -C "$tmp" "$member"
    echo "$sha256  $tmp/$member" | sha256sum --check --quiet
    cp "$tmp/$member" "$schema"
    echo "refreshed $schema from $package"
    ;;
  "")
    cargo test --test integration render_lint::sarif_
    ;;
  *)
    python3 - "$schema" "$1" <<'PY'
import json, re, sys
import jsonschema  # pip install jsonschema
schema = json.load(open(sys.argv[1]))
for d in ("run", "toolComponent"):  # see tests/fixtures/render/README.md
    p = schema["definitions"][d]["properties"]["language"]
    p["pattern"] = p["pattern"].replace("{2}]?", "{2}\\]?")
errors = list(jsonschema.Draft4Validator(schema).iter_errors(json.load(open(sys.argv[2]))))
for e in errors:
    print(f"{'/'.join(map(str, e.absolute_path))}: {e.message}")
sys.exit(1 if errors else print(f"{sys.argv[2]}: valid SARIF 2.1.0"))
PY
    ;;
esac
