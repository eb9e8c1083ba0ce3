# syntax=docker/dockerfile:1
# mf as a container image (ghcr.io/org/mf): a static musl `mf` on Alpine, with git and CA certificates.
#
#   docker build -t mf .
#   docker run --rm -v "$PWD:/work" mf lint /work
#   docker run --rm -v "$PWD:/work" -e OPENAI_API_KEY mf ci /work --models openai:gpt-4.1-mini
#
# Why Alpine and not distroless/static: `mf ci` and `mf compare --base-ref` run `git` (git archive of
# the base revision, a worktree of the merge base), and distroless has no git. Alpine adds git and
# the CA bundle for a few MB; the mf binary itself is static and needs no libc from the image.
#
# The build stage is scripts/build-musl.sh in Docker form: same toolchain, same musl-gcc, same
# `cargo build --locked --release --target x86_64-unknown-linux-musl`.

ARG RUST_VERSION=1.95.0
ARG ALPINE_VERSION=3.23

FROM rust:${RUST_VERSION}-slim-bookworm AS build

# musl-gcc compiles the C in the tree (tree-sitter grammars, aws-lc-sys under rustls) for musl.
RUN apt-get update \
    && apt-get install -y --no-install-recommends musl-tools=1.2.3-1 \
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

FROM alpine:${ALPINE_VERSION}

ARG MF_VERSION=0.1.0
LABEL org.opencontainers.image.title="mf" \
      org.opencontainers.image.description="CI gate for AI tool surfaces: find every tool definition, lint what will confuse a model, measure which tool real models pick." \
      org.opencontainers.image.source="https://github.com/org/mf-action" \
      org.opencontainers.image.documentation="https://github.com/org/mf-action/blob/main/docs/action.md" \
      org.opencontainers.image.licenses="MIT OR Apache-2.0" \
      org.opencontainers.image.version="${MF_VERSION}"

# git: mf reads base revisions with git. ca-certificates: provider APIs and GitHub over HTTPS.
# Versions come from the pinned Alpine release; Alpine drops superseded package versions from its
# mirrors, so pinning them here would break rebuilds without making them more reproducible.
# uid 1001 is the GitHub-hosted runner's user: the container action can then write the workspace
# and $GITHUB_OUTPUT (container actions cannot choose their user). safe.directory lists the two
# places a repository is mounted (the Actions workspace and the documented /work), for runs whose
# host owner differs.
# hadolint ignore=DL3018
RUN apk add --no-cache git ca-certificates \
    && addgroup -S -g 1001 mf \
    && adduser -S -D -u 1001 -G mf -h /home/mf mf \
    && git config --system --add safe.directory /github/workspace \
    && git config --system --add safe.directory /work

COPY --from=build /usr/local/bin/mf /usr/local/bin/mf

USER 1001:1001
WORKDIR /work

# Smoke test in the final image: the static binary runs here, and so does git.
RUN mf --version && git --version

ENTRYPOINT ["mf"]
CMD ["--help"]
