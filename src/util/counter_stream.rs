//! A deterministic byte stream from SHA-256 in counter mode: `block_i = SHA-256(key ‖ i as u64
//! LE)`, read as little-endian u64 words. The same key gives the same words on every machine
//! and every run. The tool order of eval (`mf-perm-v1`) and the variants of `mf tasks mutate`
//! (`mf-mutate-v1`) draw from it, each with its own key (SCHEMA.md names both derivations).

use sha2::{Digest, Sha256};

/// The stream.
#[derive(Debug, Clone)]
pub struct CounterStream {
    key: [u8; 32],
    counter: u64,
    block: [u8; 32],
    used: usize,
}

impl CounterStream {
    /// The stream of `key` (itself a SHA-256 over the caller's domain tag and inputs).
    pub fn new(key: [u8; 32]) -> CounterStream {
        CounterStream {
            key,
            counter: 0,
            block: [0; 32],
            used: 32,
        }
    }

    /// The next word.
    pub fn next_u64(&mut self) -> u64 {
        if self.used == 32 {
            let mut h = Sha256::new();
            h.update(self.key);
            h.update(self.counter.to_le_bytes());
            self.block = h.finalize().into();
            self.counter += 1;
            self.used = 0;
        }
        let mut word = [0u8; 8];
        word.copy_from_slice(&self.block[self.used..self.used + 8]);
        self.used += 8;
        u64::from_le_bytes(word)
    }

    /// Uniform in `0..bound` (bound ≥ 1; 0 is treated as 1), by rejection: the next word `w`
    /// below `2^64 - (2^64 mod bound)` gives `w mod bound`.
    pub fn below(&mut self, bound: u64) -> u64 {
        let bound = bound.max(1);
        let zone = u64::MAX - (u64::MAX % bound + 1) % bound;
        loop {
            let w = self.next_u64();
            if w <= zone {
                return w % bound;
            }
        }
    }

    /// True with probability `per_mille / 1000`.
    pub fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }
}
