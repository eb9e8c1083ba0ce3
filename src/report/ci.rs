//! The `mf ci` document (SCHEMA.md "CI report"): one run of the gate on a pull request or a
//! push — what ran, what it found, the verdict, and where every rendering was written.
//! Renderers (summary, PR comment, HTML, JUnit, badge) read this; `mf report` re-renders it.

use serde::{Deserialize, Serialize};

use super::compare::{CompareReport, SurfaceDiff};
use super::lint::LintReport;
use super::scorecard::Scorecard;

/// CI document version.
pub const CI_VERSION: u32 = 1;

/// The CI document.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CiReport {
    /// Format version (1).
    pub version: u32,
    /// Always `"ci"`.
    pub kind: String,
    /// The headline: `pass`, `fail` (a gate failed) or `unhealthy` (the eval cannot be trusted).
    pub status: CiStatus,
    /// One sentence per reason the status is not `pass`, worst first.
    pub reasons: Vec<String>,
    /// What triggered the run.
    pub event: CiEvent,
    /// `full` (free checks + eval + compare) or `free` (no key, a fork PR, or no suite).
    pub mode: CiMode,
    /// Why the run is free-only, when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_reason: Option<String>,
    /// What the run skipped or could not do, and why (no base revision, a shallow clone, the
    /// suite absent at the base, the PR comment skipped, …). Informational: never a gate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Lint of the head surface.
    pub lint: LintReport,
    /// The lint severity that fails the run (`--fail-on`); `null` = never; absent = `error`
    /// (the default of `--fail-on`).
    #[serde(default = "fail_on_error")]
    pub lint_fail_on: Option<super::lint::Severity>,
    /// Which lint findings the gate counted: in a pull request, by default only those the pull
    /// request introduced (absent at the merge base).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lint_gate: Option<LintGate>,
    /// Surface diff base → head (when a base revision was available).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<SurfaceDiff>,
    /// The head eval (full mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<Scorecard>,
    /// The base eval (full mode, pull requests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<Scorecard>,
    /// Whether the base eval came from the base cache (keyed by base commit + settings).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub base_reused: bool,
    /// Base evaluated again with fresh requests (the A/A run of `--calibrate`), when there was
    /// one; the compare then uses the calibrated gate (additive in v1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<Scorecard>,
    /// Whether the A/A scorecard came from the base cache (additive in v1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub calibration_reused: bool,
    /// Base vs head (full mode, pull requests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<CompareReport>,
    /// (`--live`) Each declared server's committed snapshot against what it serves now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshots: Option<super::snapshot::SnapshotReport>,
    /// Files written by this run (paths as given).
    #[serde(default)]
    pub files: Files,
}

fn fail_on_error() -> Option<super::lint::Severity> {
    Some(super::lint::Severity::Error)
}

/// Which lint findings `--fail-on` judged, and how many were already on the base.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LintGate {
    /// `new`: findings absent at the merge base; `all`: every finding (`--gate-findings all`,
    /// or no base to compare with).
    pub scope: FindingScope,
    /// The merge base the findings were compared with; `None` without a base.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// Head findings absent at the base (every finding when there is no base).
    pub new: usize,
    /// Head findings already at the base (same code, subject and parameter).
    pub preexisting: usize,
    /// The identities (`code|subject|param`) of the pre-existing findings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preexisting_keys: Vec<String>,
}

/// Which findings a gate counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FindingScope {
    /// Only findings the change introduced.
    New,
    /// Every finding.
    All,
}

impl LintGate {
    /// Whether `finding` counts for the gate (and is annotated).
    pub fn counts(&self, finding: &super::lint::Finding) -> bool {
        self.scope == FindingScope::All || !self.preexisting_keys.contains(&finding.baseline_key())
    }
}

/// The headline status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CiStatus {
    /// Every gate passed.
    Pass,
    /// A gate failed (exit 2).
    Fail,
    /// The eval run was unhealthy (exit 5).
    Unhealthy,
}

/// Full or free-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CiMode {
    /// Free checks, eval and compare.
    Full,
    /// Free checks only.
    Free,
}

/// The triggering event, from `GITHUB_*` (all optional: `mf ci` also runs outside Actions).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CiEvent {
    /// `GITHUB_EVENT_NAME` (`pull_request`, `push`, `workflow_run`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `owner/repo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository: Option<String>,
    /// Pull request number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pull_request: Option<u64>,
    /// Base commit (the merge base for pull requests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_sha: Option<String>,
    /// Head commit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_sha: Option<String>,
    /// The PR comes from a fork (no secrets, read-only token).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fork: bool,
    /// Link to this workflow run, for "full report" pointers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_url: Option<String>,
}

/// Files a run wrote.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Files {
    /// This document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub json: Option<String>,
    /// JUnit XML.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub junit: Option<String>,
    /// SARIF.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sarif: Option<String>,
    /// HTML report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// Badge (shields endpoint JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<String>,
}
