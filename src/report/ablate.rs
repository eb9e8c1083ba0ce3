//! The ablation report (`mf ablate --format json`, SCHEMA.md "Ablation"): leave-one-out runs —
//! the same plan without a tool — and, per other tool and case, paired before/after counts
//! with the paired exact tests `mf compare` uses.

use serde::{Deserialize, Serialize};

use super::compare::{GateSettings, PairedTest, Verdict};
use super::metrics::Rate;
use super::scorecard::Reproducibility;

/// Ablation report format version.
pub const ABLATE_VERSION: u32 = 1;

/// The report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AblateReport {
    /// Format version (1).
    pub version: u32,
    /// Always `"ablate"`.
    pub kind: String,
    /// `pass`, or `unhealthy` when a run broke a health gate (exit 5).
    pub status: super::scorecard::Status,
    /// The suite, the tools of the full plan and the cases it asked.
    pub suite: AblateSuite,
    /// What reproduces the runs (shared by every run).
    pub reproducibility: Reproducibility,
    /// The test settings (`pairing: case`, α 0.05).
    pub gate: GateSettings,
    /// One entry per ablated tool and model: tools in surface order, then models in `--models`
    /// order.
    pub ablations: Vec<Ablation>,
}

/// The full plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AblateSuite {
    /// Suite name.
    pub name: String,
    /// Suite file as given.
    pub path: String,
    /// Where the tools came from.
    pub surface: String,
    /// `--profile`: the mount group the ablation ran within.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The tools of the full plan, in surface order.
    pub tools: Vec<String>,
    /// The cases of the full plan (the group's cases with `--profile`).
    pub cases: Vec<String>,
    /// Surface fingerprint of the full plan's tools.
    pub fingerprint: String,
}

/// One tool left out, for one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ablation {
    /// The tool left out.
    pub tool: String,
    /// The model label.
    pub model: String,
    /// One line for people: `removing \`read_graph\` fixes c9 (over-trigger 5→0 of 5); hurts
    /// nothing`.
    pub summary: String,
    /// Cases whose good trials rose without the tool.
    pub fixes: Vec<String>,
    /// Cases whose good trials fell without the tool.
    pub hurts: Vec<String>,
    /// Cases where the full plan called the tool when another answer was expected (with the
    /// number of such trials): what the tool was taking from the others.
    pub stolen: Vec<Stolen>,
    /// Cases expecting the tool: not asked without it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
    /// Selection accuracy over the compared cases, before (full plan) and after (without).
    pub selection: AblationMetric,
    /// Per expected tool of the compared cases (`(none)` = the must-not-call cases): one
    /// family, Holm-adjusted.
    pub tools: Vec<AblationMetric>,
    /// Every compared case, in suite order.
    pub cases: Vec<CaseChange>,
    /// False when the run without the tool broke a health gate.
    pub healthy: bool,
    /// Why not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// A case the tool was taking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stolen {
    /// Case id.
    pub case: String,
    /// Trials of the full plan that called the tool.
    pub trials: u64,
    /// Of how many scored trials.
    pub of: u64,
}

/// One metric before and after, paired by (case, trial index).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AblationMetric {
    /// `null` for the suite-wide figure; the expected tool (or `(none)`) per tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// Over the paired trials, with the tool.
    pub before: Rate,
    /// Over the paired trials, without it.
    pub after: Rate,
    /// `after − before`.
    pub delta: Option<f64>,
    /// Trial-level sign test (improved = good only without the tool).
    pub trial: PairedTest,
    /// Case-level sign test.
    pub case: PairedTest,
    /// The verdict under the gate (case-level), as `mf compare` takes it.
    pub verdict: Verdict,
}

/// One case before and after.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseChange {
    /// Case id.
    pub case: String,
    /// The expected tool; `null` = must not call.
    pub expected_tool: Option<String>,
    /// Trials paired (scored on both sides).
    pub trials: u64,
    /// Good trials with the tool.
    pub before: u64,
    /// Good trials without it.
    pub after: u64,
    /// The commonest failure with the tool (`over-trigger`, `wrong-tool`, `no-call`,
    /// `phantom`, `extra-calls`), when any trial failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_before: Option<String>,
    /// The commonest failure without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_after: Option<String>,
    /// `fixed` (more good trials without the tool), `hurt` (fewer) or `same`.
    pub change: String,
    /// The exact sign test over this case's paired trials (with 5 repeats no single case can
    /// reach p ≤ 0.05: read the suite-wide and per-tool tests for significance).
    pub test: PairedTest,
}
