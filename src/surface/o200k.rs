//! Token counts with OpenAI's `o200k_base` encoding, identical to tiktoken's `encode_ordinary`
//! (checked against `tiktoken-rs` on a real corpus in `tests/integration/tokens_o200k.rs`),
//! without tiktoken's start-up cost: the vocabulary is three compact tables the build script
//! (`build.rs`) writes and the binary embeds (2.2 MB: the sorted token bytes, one length byte
//! and a 3-byte rank per token), searched in place by binary search. Nothing is parsed or decoded;
//! the first count sums the lengths into offsets (200,000 additions, under a millisecond) and
//! builds the splitter regex, and a command that counts nothing pays nothing.
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

/// Token bytes, concatenated in byte order of the tokens.
static BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_bytes.bin"));
/// The length of each token, one byte each.
static LENGTHS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_lengths.bin"));
/// The rank of each token, 3 bytes little-endian each.
static RANKS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_ranks.bin"));
/// `n + 1` start offsets of the tokens in [`BYTES`] (the last is its length).
static OFFSETS: LazyLock<Vec<u32>> = LazyLock::new(|| {
    let mut offsets = Vec::with_capacity(LENGTHS.len() + 1);
    let mut at = 0u32;
    offsets.push(at);
    for &len in LENGTHS {
        at += u32::from(len);
        offsets.push(at);
    }
    offsets
});

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

/// Number of ordinary tokens in the vocabulary.
pub fn vocabulary_len() -> usize {
    LENGTHS.len()
}

fn rank_at(i: usize) -> u32 {
    let b = &RANKS[i * 3..i * 3 + 3];
    u32::from_le_bytes([b[0], b[1], b[2], 0])
}

fn token(offsets: &[u32], i: usize) -> &'static [u8] {
    &BYTES[offsets[i] as usize..offsets[i + 1] as usize]
}

/// The rank of `bytes` when it is a token.
pub fn rank(bytes: &[u8]) -> Option<u32> {
    let offsets = OFFSETS.as_slice();
    let (mut lo, mut hi) = (0, vocabulary_len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match token(offsets, mid).cmp(bytes) {
            Ordering::Less => lo = mid + 1,
            Ordering::Greater => hi = mid,
            Ordering::Equal => return Some(rank_at(mid)),
        }
    }
    None
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
    use super::*;

    #[test]
    fn the_table_is_the_whole_vocabulary_in_order() {
        assert_eq!(vocabulary_len(), 199_998);
        assert_eq!(RANKS.len(), 3 * vocabulary_len());
        assert_eq!(OFFSETS[vocabulary_len()] as usize, BYTES.len());
        for i in 1..vocabulary_len() {
            assert!(token(&OFFSETS, i - 1) < token(&OFFSETS, i), "sorted at {i}");
        }
        // Ranks are the dense 0..n (no special token among them).
        let mut ranks: Vec<u32> = (0..vocabulary_len()).map(rank_at).collect();
        ranks.sort_unstable();
        assert!(ranks.iter().enumerate().all(|(i, r)| *r as usize == i));
        // The 256 single bytes are tokens (byte-level BPE), so every piece can be counted.
        for b in 0..=255u8 {
            assert!(rank(&[b]).is_some(), "byte {b}");
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
