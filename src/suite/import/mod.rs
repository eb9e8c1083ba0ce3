//! Suites from other benchmarks' files: `mf tasks import FORMAT DATA [--answers FILE]`.
//!
//! Each importer reads the benchmark's own files (text in, so the command decides how files are
//! read) and returns a [`Suite`] plus every conversion it made, so a reader can see what changed
//! between the benchmark and the suite. Formats: [`bfcl`] (the Berkeley Function Calling
//! Leaderboard).

pub mod bfcl;
mod bfcl_answers;
mod bfcl_schema;

use super::Suite;

/// A suite read from a benchmark, with what the conversion did.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The suite.
    pub suite: Suite,
    /// Every conversion, in item order.
    pub conversions: Vec<Conversion>,
    /// Items that could not be imported, one sentence each (`id: why`).
    pub skipped: Vec<String>,
}

/// One change the importer made to the benchmark's data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    /// The benchmark item (`simple_python_3`).
    pub item: String,
    /// Where in the item: a JSON pointer into the function (`math.hypot/parameters/properties/x/type`)
    /// or the answer.
    pub at: String,
    /// The kind of change, stable for counting (`type float → number`).
    pub kind: String,
    /// What it was and became, when the kind does not say it all.
    pub detail: Option<String>,
}

impl Imported {
    /// Conversions counted by kind, most frequent first (ties by kind).
    pub fn counts(&self) -> Vec<(String, usize)> {
        let mut counts = std::collections::BTreeMap::<&str, usize>::new();
        for c in &self.conversions {
            *counts.entry(c.kind.as_str()).or_default() += 1;
        }
        let mut out: Vec<(String, usize)> =
            counts.into_iter().map(|(k, n)| (k.to_owned(), n)).collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out
    }
}

/// Why a benchmark file could not be imported. Names the file and the line.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A line (or the document) is not the JSON the format expects.
    #[error("{file}:{line}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong and what to do.
        message: String,
    },
    /// Nothing could be imported.
    #[error("{file}: no item could be imported{}", if .skipped.is_empty() { String::new() } else { format!(":\n  {}", .skipped.join("\n  ")) })]
    Empty {
        /// The data file.
        file: String,
        /// Why each item was skipped.
        skipped: Vec<String>,
    },
}
