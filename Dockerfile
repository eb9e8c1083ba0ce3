# syntax=docker/dockerfile:1
# mf as a container image (ghcr.io/org/mf), built from source: a static musl `mf` FROM scratch, with
# CA certificates and a non-root user (the same final image as container/Dockerfile.release, which
# copies the release binaries instead of compiling them).
#
#   docker build -t mf .
#   docker run --rm -v "$PWD:/work" mf lint /work
#   docker run --rm -v "$PWD:/work" -e OPENAI_API_KEY mf ci /work --models openai:gpt-4.1-mini
#
# No libc, package manager or git in the final image (`mf ci` and `mf compare --base-ref` read git
# objects in-process with gitoxide; the binary is static), and one static busybox `sh`.
#
# The build stage is scripts/build-musl.sh in Docker form: same toolchain, same musl-gcc, same
# `cargo build --locked --release --target x86_64-unknown-linux-musl`.

ARG RUST_VERSION=1.95.0

FROM rust:${RUST_VERSION}-slim-bookworm AS build

# musl-gcc compiles the C in the tree (tree-sitter grammars, aws-lc-sys under rustls) for musl;
# ca-certificates: the CA bundle the final image copies; busybox-static: its one static `sh`
# (the container action's argument shim, container/action.yml, needs a shell).
RUN apt-get update \
    && apt-get install -y --no-install-recommends musl-tools=1.2.3-1 ca-certificates=20230311+deb12u1 \
       busybox-static=1:1.35.0-4+deb12u1+b1 \
    && rm -rf /var/lib/apt/lists/* \
    && rustup target add x86_64-unknown-linux-musl

ENV CARGO_TERM_COLOR=never \
    CARGO_INCREMENTAL=0 \
    CC_x86_64_unknown_linux_musl=musl-gcc \
    AR_x86_64_unknown_linux_musl=ar

WORKDIR /src

# 1. Dependencies only, in their own layer: rebuilt when Cargo.toml or Cargo.lock change, not on
#    every source edit. Cargo needs every declared target to exist, so stub the crate's own
#    sources (lib, bin and the [[bench]] files named in Cargo.toml).
COPY Cargo.toml Cargo.lock ./
RUN mkdir -p src benches \
    && echo 'fn main() {}' > src/main.rs \
    && touch src/lib.rs \
    && awk '/^\[\[bench\]\]/ { b = 1; next } b && /^name *=/ { gsub(/^name *= *"|"$/, ""); print "fn main() {}" > ("benches/" $0 ".rs"); b = 0 }' Cargo.toml \
    && cargo build --locked --release --target x86_64-unknown-linux-musl --bin mf \
    && rm -rf src benches

# 2. The crate. Touch the roots so cargo rebuilds mf itself rather than trusting the stub's mtimes.
COPY . .
RUN touch src/main.rs src/lib.rs \
    && cargo build --locked --release --target x86_64-unknown-linux-musl --bin mf \
    && cp target/x86_64-unknown-linux-musl/release/mf /usr/local/bin/mf \
    && /usr/local/bin/mf --version

# The files the scratch image needs, staged in the build stage (which has a shell).
RUN mkdir -p /rootfs/etc/ssl/certs /rootfs/tmp /rootfs/bin /home-mf/mf \
    && cp /bin/busybox /rootfs/bin/sh \
    && chmod 1777 /rootfs/tmp \
    && cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/ \
    && printf 'root:x:0:0:root:/root:/sbin/nologin\nmf:x:1001:1001:mf:/home/mf:/sbin/nologin\n' > /rootfs/etc/passwd \
    && printf 'root:x:0:\nmf:x:1001:\n' > /rootfs/etc/group

FROM scratch

ARG MF_VERSION=0.1.0
LABEL org.opencontainers.image.title="mf" \
      org.opencontainers.image.description="CI gate for AI tool surfaces: find every tool definition, lint what will confuse a model, measure which tool real models pick." \
      org.opencontainers.image.source="https://github.com/org/mf-action" \
      org.opencontainers.image.documentation="https://github.com/org/mf-action/blob/main/docs/action.md" \
      org.opencontainers.image.licenses="MIT OR Apache-2.0" \
      org.opencontainers.image.version="${MF_VERSION}"

# uid 1001 is the GitHub-hosted runner's user: the container action can then write the workspace
# and $GITHUB_OUTPUT (container actions cannot choose their user).
COPY --from=build /rootfs/ /
COPY --from=build --chown=1001:1001 /home-mf/ /home/
COPY --from=build /usr/local/bin/mf /usr/local/bin/mf

USER 1001:1001
WORKDIR /work

ENV PATH=/usr/local/bin \
    HOME=/home/mf \
    TMPDIR=/tmp \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt

# Smoke test in the final image: the static binary runs here, under the image's own sh.
RUN mf --version

ENTRYPOINT ["mf"]
CMD ["--help"]
