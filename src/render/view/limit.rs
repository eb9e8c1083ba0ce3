//! The size limits of a summary or comment ([`Limit`]) and the sections a limit may cut
//! ([`SECTIONS`], in template order). The view switches sections on and off (`show.*`) and
//! writes the pointer line; the template engine's `fit` measures against the limit.

/// The sections a size limit may cut, in template order; `template::fit` drops them from the end.
pub const SECTIONS: [&str; 7] = [
    "surface",
    "lint",
    "compare",
    "metrics",
    "confusion",
    "tools",
    "details",
];

/// Most lint findings a summary or comment lists in its table.
pub(crate) const TOP_FINDINGS: usize = 10;

/// A size limit: bytes (job summary) or characters (PR comment).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// At most this many bytes of UTF-8.
    Bytes(usize),
    /// At most this many characters.
    Chars(usize),
}

impl Limit {
    pub(crate) fn measure(self, text: &str) -> usize {
        match self {
            Limit::Bytes(_) => text.len(),
            Limit::Chars(_) => text.chars().count(),
        }
    }
    pub(crate) fn max(self) -> usize {
        match self {
            Limit::Bytes(n) | Limit::Chars(n) => n,
        }
    }
    pub(crate) fn describe(self) -> String {
        match self {
            Limit::Bytes(n) if n >= 1024 * 1024 && n % (1024 * 1024) == 0 => {
                format!("{} MiB", n / (1024 * 1024))
            }
            Limit::Bytes(n) => format!("{n} bytes"),
            Limit::Chars(n) => format!("{n} characters"),
        }
    }
}
