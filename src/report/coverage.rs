//! The coverage report (`mf coverage`, SCHEMA.md §Coverage report).

use serde::{Deserialize, Serialize};

/// Coverage report format version.
pub const COVERAGE_REPORT_VERSION: u32 = 1;

/// Compat guidance: reviewed cases each tool should have.
pub const MIN_CASES_PER_TOOL: usize = 3;
/// Compat guidance: share of reviewed cases that should be must-not-call.
pub const MIN_MUST_NOT_CALL_SHARE: f64 = 0.15;

/// `mf coverage` output.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CoverageReport {
    /// Format version; 1.
    pub version: u32,
    /// Always `"coverage"`.
    pub kind: String,
    /// The suite's name.
    pub suite: String,
    /// Counts and the guidance verdict.
    pub summary: CoverageSummary,
    /// One row per tool on the surface, in surface order.
    pub tools: Vec<ToolCoverage>,
    /// One row per profile, by name.
    pub profiles: Vec<ProfileCoverage>,
    /// Reviewed cases whose `expectedTool` is not on the surface (they can never pass).
    pub unknown_expected_tools: Vec<UnknownExpected>,
}

/// Suite-level coverage.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CoverageSummary {
    /// Tools on the surface.
    pub tools: usize,
    /// Tools with at least [`MIN_CASES_PER_TOOL`] reviewed cases.
    pub tools_covered: usize,
    /// Tools with no reviewed case.
    pub tools_without_cases: usize,
    /// All cases.
    pub cases: usize,
    /// Reviewed cases (the only ones that count).
    pub reviewed_cases: usize,
    /// Reviewed must-not-call cases.
    pub must_not_call: usize,
    /// `mustNotCall / reviewedCases`, `null` when there are no reviewed cases.
    pub must_not_call_share: Option<f64>,
    /// The guidance: every tool ≥ 3 reviewed cases and ≥ 15% must-not-call.
    pub meets_guidance: bool,
}

/// Coverage of one tool.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCoverage {
    /// Tool name.
    pub tool: String,
    /// Reviewed cases expecting it.
    pub reviewed_cases: usize,
    /// Unreviewed cases expecting it (not counted).
    pub unreviewed_cases: usize,
    /// Reviewed cases still needed to reach the minimum.
    pub missing: usize,
}

/// Coverage of one profile.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileCoverage {
    /// Profile name.
    pub profile: String,
    /// Its tools.
    pub tools: usize,
    /// Reviewed cases expecting one of its tools.
    pub reviewed_cases: usize,
    /// Its tools below the minimum.
    pub tools_below_minimum: Vec<String>,
}

/// A case expecting a tool the surface does not have.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnknownExpected {
    /// Case id.
    pub case: String,
    /// The tool it expects.
    pub expected_tool: String,
}
