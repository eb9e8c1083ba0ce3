#!/usr/bin/env bash
# Build the FROM-scratch mf image from the static musl binary and run it, offline, with buildah.
#
#   scripts/image.sh                 build the musl binary (scripts/build-musl.sh), stage the context,
#                                    `buildah bud` container/Dockerfile.release (no base image is
#                                    pulled), check its size (the guard below), and run inside it, with no
#                                    git binary there: `mf --version`, `mf lint` on a fixture, and
#                                    `mf ci` computing a surface diff against a base commit; then
#                                    mf under the image's own sh (the container action's shim needs it)
#   scripts/image.sh --context DIR   only stage DIR/rootfs and DIR/home (the release workflow puts
#                                    DIR/bin/<arch>/mf and DIR/bin/<arch>/sh there itself)
#
# Installs what it needs on Debian/Ubuntu: buildah and ca-certificates (apt), and whatever
# build-musl.sh needs. Uses `--storage-driver vfs` and `buildah run --isolation chroot`, so it
# needs neither a daemon nor overlay mounts nor user namespaces (it runs as root, as CI does).
# Honours CARGO_TARGET_DIR. Prints the image size and each check; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# The size guard: issue 16's target, 20 MB (the image is the static mf plus CA roots and a
# static busybox sh; see CHANGELOG.md for where mf's bytes go). MF_IMAGE_MAX_BYTES overrides it.
MAX_IMAGE_BYTES=${MF_IMAGE_MAX_BYTES:-$((20 * 1000 * 1000))}
UID_MF=1001

stage_context() {
  local dir=$1
  local roots=/etc/ssl/certs/ca-certificates.crt
  if [[ ! -s "$roots" ]]; then
    apt_install ca-certificates
  fi
  rm -rf "${dir:?}/rootfs" "${dir:?}/home"
  mkdir -p "$dir/rootfs/etc/ssl/certs" "$dir/rootfs/tmp" "$dir/home/mf"
  chmod 1777 "$dir/rootfs/tmp"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nmf:x:%s:%s:mf:/home/mf:/sbin/nologin\n' \
    "$UID_MF" "$UID_MF" >"$dir/rootfs/etc/passwd"
  printf 'root:x:0:\nmf:x:%s:\n' "$UID_MF" >"$dir/rootfs/etc/group"
  cp "$roots" "$dir/rootfs/etc/ssl/certs/ca-certificates.crt"
  chmod 0644 "$dir/rootfs/etc/passwd" "$dir/rootfs/etc/group" "$dir/rootfs/etc/ssl/certs/ca-certificates.crt"
}

apt_install() {
  local SUDO=""
  [[ "$(id -u)" == 0 ]] || SUDO=sudo
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends "$@" >/dev/null
}

case "${1:-}" in
  --context)
    stage_context "${2:?--context needs a directory}"
    exit 0
    ;;
  "") ;;
  -h | --help)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "image.sh: unknown argument '$1' (try --help)" >&2
    exit 1
    ;;
esac

[[ "$(uname -m)" == x86_64 ]] || {
  echo "image.sh: builds the linux/amd64 image (this machine is $(uname -m))" >&2
  exit 1
}
command -v buildah >/dev/null || apt_install buildah
command -v git >/dev/null || apt_install git
buildah --version

scripts/build-musl.sh
bin="${CARGO_TARGET_DIR:-target}/x86_64-unknown-linux-musl/release/mf"

work="$(mktemp -d)"
B=(buildah --storage-driver vfs)
tag="localhost/mf:image-test-$$"
ctr=""
cleanup() {
  [[ -z "$ctr" ]] || "${B[@]}" rm "$ctr" >/dev/null 2>&1 || true
  "${B[@]}" rmi -f "$tag" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== context"
mkdir -p "$work/context/bin/amd64"
cp "$bin" "$work/context/bin/amd64/mf"
# The container action's shim needs a POSIX sh: busybox-static's, statically linked.
[[ -x /bin/busybox ]] || apt_install busybox-static
cp /bin/busybox "$work/context/bin/amd64/sh"
stage_context "$work/context"
cp container/Dockerfile.release.dockerignore "$work/context/.dockerignore"

echo "== buildah bud (FROM scratch: nothing pulled)"
start=$(date +%s)
"${B[@]}" bud --quiet --pull=never --isolation chroot --build-arg TARGETARCH=amd64 \
  -f container/Dockerfile.release -t "$tag" "$work/context" >/dev/null
echo "built $tag in $(($(date +%s) - start))s"

ctr="$("${B[@]}" from --pull=never "$tag")"
mnt="$("${B[@]}" mount "$ctr")"
size=$(du -sb "$mnt" | cut -f1)
files=$(find "$mnt" -type f | wc -l)
echo "image: $size bytes ($((size / 1000 / 1000)) MB uncompressed, $files files; binary $(wc -c <"$bin") bytes)"
[[ ! -e "$mnt/usr/bin/git" && ! -e "$mnt/usr/local/bin/git" && ! -e "$mnt/bin/git" ]] || {
  echo "image.sh: the image has git" >&2
  exit 1
}
"${B[@]}" umount "$ctr" >/dev/null
if ((size > MAX_IMAGE_BYTES)); then
  echo "image.sh: image is $size bytes, over the $MAX_IMAGE_BYTES-byte budget" >&2
  exit 1
fi

run() {
  "${B[@]}" run --isolation chroot "$@"
}

echo "== mf --version (in the image)"
run "$ctr" -- mf --version

echo "== mf lint (in the image)"
fixture="$PWD/tests/fixtures/real/excel.tools.json"
set +e
run -v "$fixture:/work/tools.json:ro" "$ctr" -- mf lint --format json tools.json >"$work/lint.json"
code=$?
set -e
[[ $code == 0 || $code == 2 ]] || {
  echo "image.sh: mf lint exited $code" >&2
  exit 1
}
python3 - "$work/lint.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
tools = doc["summary"]["tools"] if "summary" in doc else doc["tools"]
print(f"lint: {tools} tools, {len(doc['findings'])} findings")
assert tools > 0
PY

echo "== mf ci against a base commit (in the image, no git binary there)"
repo="$work/repo"
mkdir -p "$repo"
g() { git -C "$repo" -c user.name=t -c user.email=t@t -c commit.gpgsign=false -c init.defaultBranch=main "$@"; }
g init -q
cat >"$repo/tools.json" <<'JSON'
{"tools": [
  {"name": "get_invoice", "description": "Fetch one invoice by its id, with its lines and payment status.",
   "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}}
]}
JSON
g add -A && g commit -qm base
base="$(g rev-parse HEAD)"
python3 - "$repo/tools.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["tools"].append({"name": "void_invoice",
    "description": "Cancel one unpaid invoice by its id; paid invoices cannot be voided.",
    "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}})
json.dump(doc, open(sys.argv[1], "w"), indent=2)
PY
g commit -qam head
chmod -R a+rwX "$repo"
set +e
run -v "$repo:/work" --env RUNNER_TEMP=/tmp "$ctr" -- \
  mf ci . --base-ref "$base" --comment off --summary off --json-out /work/ci.json
code=$?
set -e
[[ $code == 0 ]] || {
  echo "image.sh: mf ci exited $code" >&2
  exit 1
}
python3 - "$repo/ci.json" "$base" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
added = [t["name"] for t in doc["surface"]["added"]]
print(f"ci: status {doc['status']}, base {sys.argv[2][:12]}, added {added}")
assert added == ["void_invoice"], added
PY
echo "== the image's sh (the container action's shim runs under it)"
# shellcheck disable=SC2016 # expanded by the image's sh, not here
run --env GITHUB_OUTPUT=/tmp/out "$ctr" -- /bin/sh -c 'set -eu; mf --version >/dev/null; echo "exit-code=$?" >>"$GITHUB_OUTPUT"; cat "$GITHUB_OUTPUT"'
echo "image OK: $size bytes"
