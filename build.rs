//! Build script: the o200k_base vocabulary as one compressed table for `src/surface/o200k.rs`,
//! and the link option that packs the binary's relocations.
//!
//! The ordinary (non-special) tokens of tiktoken's o200k_base, taken from `tiktoken-rs` (a build
//! dependency only: nothing of it is linked into mf), sorted by their bytes, are written to
//! `o200k.zlib` as one zlib stream (0.8 MB; 2.2 MB unpacked) of:
//! - each token front-coded against the one before it: the length of the prefix they share (one
//!   byte), the length of the rest (one byte), the rest's bytes (every token is under 256 bytes);
//! - the ranks (merge priorities, all < 2^24), in the same order, as three byte planes: every
//!   rank's low byte, then every middle byte, then every high byte (planes compress better).
//!
//! `o200k_sizes.rs` gives the unpacked sizes: the number of tokens, of token bytes, of bytes in
//! the stream.

use std::collections::HashSet;
use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    pack_relative_relocations();
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
    let mut stream = Vec::new();
    let mut bytes_len = 0usize;
    let mut previous: &[u8] = &[];
    for (token, rank) in &tokens {
        let shared = token
            .iter()
            .zip(previous)
            .take_while(|(a, b)| a == b)
            .count();
        stream.push(u8::try_from(shared).expect("tokens are under 256 bytes"));
        stream.push(u8::try_from(token.len() - shared).expect("tokens are under 256 bytes"));
        stream.extend_from_slice(&token[shared..]);
        assert!(*rank < 1 << 24, "ranks fit in 3 bytes");
        bytes_len += token.len();
        previous = token;
    }
    for plane in 0..3 {
        stream.extend(tokens.iter().map(|(_, rank)| rank.to_le_bytes()[plane]));
    }
    assert!(u32::try_from(bytes_len).is_ok(), "vocabulary under 4 GiB");
    let mut packed = vec![0u8; zlib_rs::compress_bound(stream.len())];
    let (packed, rc) = zlib_rs::compress_slice(
        &mut packed,
        &stream,
        zlib_rs::DeflateConfig::best_compression(),
    );
    assert_eq!(rc, zlib_rs::ReturnCode::Ok, "zlib compression");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("o200k.zlib"), packed).expect("write to OUT_DIR");
    let sizes = format!(
        "/// Tokens in the vocabulary.\nconst TOKENS: usize = {};\n\
         /// Bytes of all tokens together.\nconst TOKEN_BYTES: usize = {bytes_len};\n\
         /// Bytes of the unpacked stream.\nconst STREAM_BYTES: usize = {};\n",
        tokens.len(),
        stream.len()
    );
    std::fs::write(out.join("o200k_sizes.rs"), sizes).expect("write to OUT_DIR");
}

fn pack_relative_relocations() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" {
        println!("cargo::rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
        // The release binary aborts on panic and is stripped: nothing unwinds it, and a
        // backtrace would show no names. The unwinder's lookup table (`.eh_frame_hdr`, about
        // 0.2 MB) goes; the debug binary, which unwinds, keeps it.
        if std::env::var("PROFILE").as_deref() == Ok("release") {
            println!("cargo::rustc-link-arg-bins=-Wl,--no-eh-frame-hdr");
        }
    }
}
