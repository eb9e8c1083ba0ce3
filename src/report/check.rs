//! The install-gate report (`mf check`, SCHEMA.md §Check report).

use serde::{Deserialize, Serialize};

use super::lint::Finding;

/// Check report format version.
pub const CHECK_REPORT_VERSION: u32 = 1;

/// The install gate's verdict: it warns, it never fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Nothing the new capability would confuse.
    Pass,
    /// Review the findings before installing.
    Warn,
}

/// `mf check` output.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    /// Format version; 1.
    pub version: u32,
    /// Always `"check"`.
    pub kind: String,
    /// The new capability's `name`.
    pub name: String,
    /// pass | warn.
    pub verdict: Verdict,
    /// The new capability's tools.
    pub tools: Vec<String>,
    /// Installed tools the new ones compete with: the connected set of confusable pairs that
    /// contains a new tool, new tools excluded, sorted.
    pub family: Vec<String>,
    /// Findings about the new capability against the installed ones.
    pub findings: Vec<Finding>,
    /// Counts.
    pub summary: CheckSummary,
}

/// Counts of a check.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckSummary {
    /// Tools in the manifest.
    pub new_tools: usize,
    /// Installed tools compared against.
    pub installed_tools: usize,
    /// Findings at warn.
    pub warnings: usize,
    /// Findings at info.
    pub infos: usize,
}
