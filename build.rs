//! Build script: the o200k_base vocabulary as three compact tables for `src/surface/o200k.rs`,
//! so that counting tokens needs no parsing and no allocation at start-up.
//!
//! The ordinary (non-special) tokens of tiktoken's o200k_base, taken from `tiktoken-rs` (a build
//! dependency only: nothing of it is linked into mf), sorted by their bytes:
//! - `o200k_bytes.bin`: the tokens' bytes, concatenated in that order;
//! - `o200k_lengths.bin`: `n` token lengths, one byte each (every token is under 256 bytes);
//! - `o200k_ranks.bin`: `n` ranks (the merge priority), 3 bytes little-endian each (all < 2^24),
//!   in the same order.

use std::collections::HashSet;
use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let bpe = tiktoken_rs::o200k_base().expect("tiktoken-rs ships o200k_base");
    let special: HashSet<Vec<u8>> = bpe
        .special_tokens()
        .into_iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    let mut tokens: Vec<(Vec<u8>, u32)> = Vec::new();
    let mut misses = 0;
    let mut rank = 0u32;
    // Ranks are dense up to the first special token; read until a long run of unknown ranks.
    while misses < 1_000 {
        match bpe.decode_bytes(&[rank]) {
            Ok(bytes) if !special.contains(&bytes) => {
                misses = 0;
                tokens.push((bytes, rank));
            }
            _ => misses += 1,
        }
        rank += 1;
    }
    assert_eq!(
        tokens.len(),
        199_998,
        "o200k_base has 199,998 ordinary tokens"
    );
    tokens.sort_unstable();
    for pair in tokens.windows(2) {
        assert!(pair[0].0 < pair[1].0, "token bytes are unique");
    }
    let mut bytes = Vec::new();
    let mut lengths = Vec::with_capacity(tokens.len());
    let mut ranks = Vec::with_capacity(tokens.len() * 3);
    for (token, rank) in &tokens {
        lengths.push(u8::try_from(token.len()).expect("tokens are under 256 bytes"));
        assert!(*rank < 1 << 24, "ranks fit in 3 bytes");
        ranks.extend_from_slice(&rank.to_le_bytes()[..3]);
        bytes.extend_from_slice(token);
    }
    assert!(u32::try_from(bytes.len()).is_ok(), "vocabulary under 4 GiB");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for (name, data) in [
        ("o200k_bytes.bin", &bytes),
        ("o200k_lengths.bin", &lengths),
        ("o200k_ranks.bin", &ranks),
    ] {
        std::fs::write(out.join(name), data).expect("write to OUT_DIR");
    }
}
