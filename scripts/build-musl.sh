#!/usr/bin/env bash
# Build the static Linux `mf` that the Docker image and the release tarballs ship (musl, no libc at run time).
#
#   scripts/build-musl.sh                 build, then check the binary is static and runs
#   scripts/build-musl.sh --package DIR   also write DIR/mf-<target>.tar.gz and DIR/mf-<target>.tar.gz.sha256
#
# The target follows the machine: x86_64 → x86_64-unknown-linux-musl, aarch64 → aarch64-unknown-linux-musl
# (release builds run this natively on each architecture; there is no cross-compiler set-up here).
# It installs what it needs: the Rust musl target (rustup) and musl-gcc (Debian/Ubuntu `musl-tools`,
# with sudo only when not root). C code in the tree (tree-sitter grammars, aws-lc-sys under rustls)
# is compiled with musl-gcc through CC_<target>. The build is the Dockerfile's:
# `cargo build --locked --release --target <target> --bin mf`. Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

package_dir=""
case "${1:-}" in
  --package)
    package_dir="${2:?--package needs a directory}"
    ;;
  "") ;;
  -h | --help)
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "build-musl.sh: unknown argument '$1' (try --help)" >&2
    exit 1
    ;;
esac

case "$(uname -m)" in
  x86_64 | amd64) target=x86_64-unknown-linux-musl ;;
  aarch64 | arm64) target=aarch64-unknown-linux-musl ;;
  *)
    echo "build-musl.sh: no musl target for $(uname -m)" >&2
    exit 1
    ;;
esac

as_root() {
  if [[ "$(id -u)" == 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    echo "build-musl.sh: need root (or sudo) to run: $*" >&2
    exit 1
  fi
}

echo "== rust target $target"
if ! rustup target list --installed | grep -qx "$target"; then
  rustup target add "$target"
fi

echo "== musl-gcc"
if ! command -v musl-gcc >/dev/null; then
  command -v apt-get >/dev/null || {
    echo "build-musl.sh: musl-gcc not found and no apt-get: install musl-tools (or musl-gcc) yourself" >&2
    exit 1
  }
  # Wait for another apt/dpkg run instead of failing on its lock.
  as_root apt-get -o DPkg::Lock::Timeout=600 update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends musl-tools
fi
musl-gcc --version | head -n 1 || true

# cc-rs reads CC_<target with underscores>; rustc links musl statically by itself (self-contained crt).
target_env="${target//-/_}"
export "CC_${target_env}=musl-gcc"
export "AR_${target_env}=ar"

echo "== cargo build (target dir: ${CARGO_TARGET_DIR:-target})"
start=$(date +%s)
cargo build --locked --release --target "$target" --bin mf
elapsed=$(($(date +%s) - start))

bin="${CARGO_TARGET_DIR:-target}/$target/release/mf"

echo "== checks"
if command -v file >/dev/null; then
  description="$(file -b "$bin")"
  echo "file: $description"
  if [[ "$description" != *"statically linked"* && "$description" != *"static-pie linked"* ]]; then
    echo "build-musl.sh: $bin is not statically linked" >&2
    exit 1
  fi
fi
# ldd prints "not a dynamic executable" (exit 1) or "statically linked" for a static binary.
ldd_out="$(ldd "$bin" 2>&1 || true)"
echo "ldd: $ldd_out"
if [[ "$ldd_out" != *"not a dynamic executable"* && "$ldd_out" != *"statically linked"* ]]; then
  echo "build-musl.sh: ldd lists shared libraries for $bin" >&2
  exit 1
fi
"$bin" --version

size=$(wc -c <"$bin")
echo "built $bin: $size bytes ($((size / 1024 / 1024)) MiB) in ${elapsed}s"

if [[ -n "$package_dir" ]]; then
  mkdir -p "$package_dir"
  archive="mf-$target.tar.gz"
  tar -C "$(dirname "$bin")" -czf "$package_dir/$archive" mf
  (cd "$package_dir" && sha256sum "$archive" >"$archive.sha256" && cat "$archive.sha256")
  echo "packaged $package_dir/$archive"
fi
