//! Token counts with OpenAI's `o200k_base` encoding, identical to tiktoken's `encode_ordinary`
//! (checked against `tiktoken-rs` on a real corpus in `tests/integration/tokens_o200k.rs`),
//! without tiktoken's start-up cost: the vocabulary is one zlib stream the build script
//! (`build.rs`) writes and the binary embeds (0.8 MB: the tokens sorted by their bytes, each
//! front-coded against the one before, then their ranks). The first count inflates it (with
//! zlib-rs, which gitoxide links anyway) into the sorted token bytes, their offsets and ranks
//! (2.2 MB of memory), searched by binary search, and builds the splitter regex; a command that
//! counts nothing pays nothing.
//!
//! # How a text is counted
//! 1. It is split into pieces by o200k's pre-tokenizer pattern. tiktoken's pattern has one
//!    look-ahead alternative, `\s+(?!\S)`, which the `regex` crate cannot express; the pattern
//!    here ends in a plain `\s+` instead, and a whitespace run it matches that stops before a
//!    non-space (not at the end of the text) gives its last character back when it is longer than
//!    one character — exactly what the backtracking `\s+(?!\S)` then `\s+` would have matched.
//! 2. A piece that is a token counts one. Any other piece is merged byte-pair-wise: start from
//!    single bytes, repeatedly merge the adjacent pair whose joined bytes form the lowest-ranked
//!    token (the leftmost on a tie), until no pair is a token; it counts the parts left.

use std::cmp::Ordering;
use std::sync::LazyLock;

use regex::Regex;

include!(concat!(env!("OUT_DIR"), "/o200k_sizes.rs"));

/// The vocabulary as `build.rs` packed it.
static PACKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k.zlib"));

/// The vocabulary unpacked: tokens in byte order.
struct Vocabulary {
    /// Token bytes, concatenated in byte order of the tokens.
    bytes: Vec<u8>,
    /// `n + 1` start offsets of the tokens in `bytes` (the last is its length).
    offsets: Vec<u32>,
    /// The ranks of the tokens, as three byte planes (low bytes, middle bytes, high bytes).
    rank_planes: Vec<u8>,
}

static VOCABULARY: LazyLock<Vocabulary> = LazyLock::new(unpack);

/// Inflate [`PACKED`] and undo the front-coding (see `build.rs` for the layout).
fn unpack() -> Vocabulary {
    let mut stream = vec![0u8; STREAM_BYTES];
    let (inflated, rc) =
        zlib_rs::decompress_slice(&mut stream, PACKED, zlib_rs::InflateConfig::default());
    // The stream is this build's own output, checked by the tests: not user data.
    assert!(
        rc == zlib_rs::ReturnCode::Ok && inflated.len() == STREAM_BYTES,
        "the embedded o200k table is corrupt ({rc:?})"
    );
    let mut bytes = Vec::with_capacity(TOKEN_BYTES);
    let mut offsets = Vec::with_capacity(TOKENS + 1);
    let mut at = 0;
    let mut previous = 0;
    offsets.push(0);
    for _ in 0..TOKENS {
        let shared = usize::from(stream[at]);
        let rest = usize::from(stream[at + 1]);
        let start = bytes.len();
        bytes.extend_from_within(previous..previous + shared);
        bytes.extend_from_slice(&stream[at + 2..at + 2 + rest]);
        at += 2 + rest;
        previous = start;
        offsets.push(u32::try_from(bytes.len()).unwrap_or(u32::MAX));
    }
    stream.drain(..at);
    Vocabulary {
        bytes,
        offsets,
        rank_planes: stream,
    }
}

/// o200k's pre-tokenizer, with the look-ahead alternative folded into the final `\s+` (see the
/// module docs); the `(\s+)` group marks that alternative.
const PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"|\s*[\r\n]+",
    r"|(\s+)",
);

static SPLITTER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(PATTERN).unwrap_or_else(|e| unreachable!("fixed pattern: {e}")));

/// Unpack the vocabulary and build the splitter on another thread, once, so that a caller that
/// will count tokens after other work (the lint: its regexes, meta-schema, pairs) finds them
/// ready instead of waiting ~10 ms at its first count. Counting never depends on it: a count
/// that comes first builds what it needs itself (the `LazyLock`s wait for each other).
pub fn prefetch() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        // No thread (resource limits): the first count builds them instead.
        let _ = std::thread::Builder::new().name("o200k".into()).spawn(|| {
            LazyLock::force(&VOCABULARY);
            LazyLock::force(&SPLITTER);
        });
    });
}

/// Number of ordinary tokens in the vocabulary.
pub fn vocabulary_len() -> usize {
    TOKENS
}

impl Vocabulary {
    fn token(&self, i: usize) -> &[u8] {
        &self.bytes[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    fn rank_at(&self, i: usize) -> u32 {
        let p = &self.rank_planes;
        u32::from_le_bytes([p[i], p[TOKENS + i], p[2 * TOKENS + i], 0])
    }

    fn rank(&self, bytes: &[u8]) -> Option<u32> {
        let (mut lo, mut hi) = (0, TOKENS);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.token(mid).cmp(bytes) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => return Some(self.rank_at(mid)),
            }
        }
        None
    }
}

/// The rank of `bytes` when it is a token.
pub fn rank(bytes: &[u8]) -> Option<u32> {
    VOCABULARY.rank(bytes)
}

/// The pre-tokenizer's pieces of `text`, in order (they cover the text).
pub fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let caps = SPLITTER.captures_at(text, at)?;
        let whole = caps.get(0)?;
        let mut end = whole.end();
        // `\s+(?!\S)`: a run stopping before a non-space keeps its last character for the
        // next piece, unless it is a single character (then plain `\s+` matched it).
        if caps.get(1).is_some() && end < text.len() {
            let run = whole.as_str();
            if let Some((last, _)) = run.char_indices().next_back()
                && last > 0
            {
                end = whole.start() + last;
            }
        }
        at = end;
        Some(&text[whole.start()..end])
    })
}

/// Tokens in one piece: 1 when it is a token, else the parts left by byte-pair merging.
fn piece_tokens(piece: &[u8]) -> usize {
    let vocabulary = &*VOCABULARY;
    let rank = |bytes: &[u8]| vocabulary.rank(bytes);
    if piece.len() <= 1 || rank(piece).is_some() {
        return piece.len().min(1);
    }
    // `starts[i]` is where part `i` begins; `ranks[i]` the rank of parts `i` and `i + 1` joined.
    let mut starts: Vec<usize> = (0..=piece.len()).collect();
    let joined = |starts: &[usize], i: usize| -> u32 {
        if i + 2 < starts.len() {
            rank(&piece[starts[i]..starts[i + 2]]).unwrap_or(u32::MAX)
        } else {
            u32::MAX
        }
    };
    let mut ranks: Vec<u32> = (0..piece.len()).map(|i| joined(&starts, i)).collect();
    while let Some((i, _)) = ranks
        .iter()
        .enumerate()
        .filter(|(_, r)| **r != u32::MAX)
        .min_by_key(|(i, r)| (**r, *i))
    {
        starts.remove(i + 1);
        ranks.remove(i + 1);
        ranks[i] = joined(&starts, i);
        if i > 0 {
            ranks[i - 1] = joined(&starts, i - 1);
        }
    }
    starts.len() - 1
}

/// Tokens in `text` (tiktoken's `encode_ordinary(text).len()`).
pub fn count(text: &str) -> usize {
    pieces(text).map(|p| piece_tokens(p.as_bytes())).sum()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_table_is_the_whole_vocabulary_in_order() {
        let v = &*VOCABULARY;
        assert_eq!(vocabulary_len(), 199_998);
        assert_eq!(v.rank_planes.len(), 3 * vocabulary_len());
        assert_eq!(v.offsets.len(), vocabulary_len() + 1);
        assert_eq!(v.offsets[vocabulary_len()] as usize, v.bytes.len());
        assert_eq!(v.bytes.len(), TOKEN_BYTES);
        for i in 1..vocabulary_len() {
            assert!(v.token(i - 1) < v.token(i), "sorted at {i}");
        }
        // Ranks are the dense 0..n (no special token among them).
        let mut ranks: Vec<u32> = (0..vocabulary_len()).map(|i| v.rank_at(i)).collect();
        ranks.sort_unstable();
        assert!(ranks.iter().enumerate().all(|(i, r)| *r as usize == i));
        // The 256 single bytes are tokens (byte-level BPE), so every piece can be counted.
        for b in 0..=255u8 {
            assert!(rank(&[b]).is_some(), "byte {b}");
        }
        // Each token's rank is tiktoken's for its bytes (front-coding and planes read back).
        let bpe = tiktoken_rs::o200k_base().unwrap();
        for i in (0..vocabulary_len()).step_by(97) {
            assert_eq!(
                bpe.decode_bytes(&[v.rank_at(i)]).unwrap(),
                v.token(i),
                "token {i}"
            );
        }
    }

    #[test]
    fn pieces_cover_the_text_and_whitespace_runs_give_back_one_character() {
        let text = "Hello   world\n\n  x  \t";
        let parts: Vec<&str> = pieces(text).collect();
        assert_eq!(parts.concat(), text);
        assert_eq!(parts, ["Hello", "  ", " world", "\n\n", " ", " x", "  \t"]);
    }
}
