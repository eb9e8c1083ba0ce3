//! What `mf case add --json` and `add_cases` of `mf mcp` return (SCHEMA.md §Cases added).

use serde::{Deserialize, Serialize};

use crate::suite::Case;

/// Format version of [`CasesAdded`].
pub const CASES_ADDED_VERSION: u32 = 1;

/// Cases appended to a suite (or, for a dry run, the cases that would be).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CasesAdded {
    /// Format version; 1.
    pub version: u32,
    /// Always `"cases-added"`.
    pub kind: String,
    /// The suite file, as named.
    pub file: String,
    /// False for a dry run: nothing was written.
    pub written: bool,
    /// How many tools of the suite's surface the cases were checked against.
    pub checked_against_tools: usize,
    /// The cases as written (the field names of `mf.suite.json`, whatever the file's shape).
    pub cases: Vec<AddedCase>,
}

/// One added case and where it is.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AddedCase {
    /// 1-based line where the case starts in the new text.
    pub line: Option<u32>,
    /// The case.
    #[serde(flatten)]
    pub case: Case,
}
