//! The compare document (`mf compare --format json`, SCHEMA.md "Compare report"): base vs head
//! scorecards with paired statistics per metric, and the free surface diff.

use serde::{Deserialize, Serialize};

use super::metrics::Rate;

/// Compare format version.
pub const COMPARE_VERSION: u32 = 1;

/// The compare document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompareReport {
    /// Format version (1).
    pub version: u32,
    /// Always `"compare"`.
    pub kind: String,
    /// The overall verdict of the gated metrics: `regressed` when any gated comparison
    /// regressed, else `improved` when any improved, else `insufficient-data` when any could not
    /// decide, else `unchanged`. Absent when only surfaces were compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// What was compared.
    pub base: Side,
    /// What was compared.
    pub head: Side,
    /// The eval comparison, when both sides are scorecards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<EvalComparison>,
    /// The surface diff, when both sides have surfaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<SurfaceDiff>,
}

/// One side of the comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    /// The path, URL or `REF:path` as given.
    pub source: String,
    /// `scorecard` or `surface`.
    pub kind: String,
    /// Surface fingerprint (`sha256:…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
}

/// A comparison verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Worse, and the gate's test says so (p ≤ α after any adjustment).
    Regressed,
    /// Better, and the gate's test says so.
    Improved,
    /// Enough discordant pairs to detect a change, and none was significant.
    Unchanged,
    /// Too few discordant pairs for any result to reach significance.
    InsufficientData,
}

/// The eval part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalComparison {
    /// The gate: which pairing decides, the significance level, the gated metrics.
    pub gate: GateSettings,
    /// Case pairing: how many cases were paired, and which were left out and why.
    pub cases: CasePairing,
    /// One entry per model present in both scorecards (by label).
    pub models: Vec<ModelComparison>,
    /// Models present on one side only (left out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models_only_in_base: Vec<String>,
    /// Models present on one side only (left out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models_only_in_head: Vec<String>,
}

/// Gate settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GateSettings {
    /// Which test decides a verdict: `case` (default), `trial`, or `both`.
    pub pairing: Pairing,
    /// Significance level (0.05).
    pub alpha: f64,
    /// Metrics whose regression fails `--fail-on-regression`.
    pub metrics: Vec<String>,
}

/// Which paired test decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pairing {
    /// Per-case outcomes (robust when a provider flips whole cases between runs).
    Case,
    /// Per-trial outcomes (case id + input hash + trial index).
    Trial,
    /// Both must be significant in the same direction.
    Both,
}

/// How cases were paired.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CasePairing {
    /// Cases in both runs with the same input.
    pub paired: u64,
    /// Case ids only in base.
    pub only_in_base: Vec<String>,
    /// Case ids only in head.
    pub only_in_head: Vec<String>,
    /// Case ids in both whose input changed (not paired).
    pub input_changed: Vec<String>,
}

/// One model's comparisons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelComparison {
    /// The model label.
    pub model: String,
    /// Suite-wide metrics: selection accuracy, argument accuracy, over-trigger, multi-call.
    pub metrics: Vec<MetricComparison>,
    /// Selection accuracy per expected tool (Holm-adjusted as one family).
    pub tools: Vec<MetricComparison>,
    /// Confusion pairs new or resolved between the runs (Holm-adjusted as one family).
    pub pairs: Vec<MetricComparison>,
}

/// One metric, base vs head.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricComparison {
    /// `selection-accuracy`, `argument-accuracy`, `over-trigger`, `multi-call`, `tool-accuracy`,
    /// `confusion-pair`.
    pub metric: String,
    /// The tool (`tool-accuracy`) or `expected → picked` (`confusion-pair`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// `true` when a higher value is better.
    pub higher_is_better: bool,
    /// Over the paired trials of base.
    pub before: Rate,
    /// Over the paired trials of head.
    pub after: Rate,
    /// `after − before`; `null` when either is unmeasured.
    pub delta: Option<f64>,
    /// The trial-level paired test.
    pub trial: PairedTest,
    /// The case-level paired test.
    pub case: PairedTest,
    /// The verdict by the gate's pairing.
    pub verdict: Verdict,
    /// Why a verdict deserves a second look, or how much more data would decide it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A paired sign test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PairedTest {
    /// Pairs compared (ties included).
    pub pairs: u64,
    /// Pairs better in head.
    pub improved: u64,
    /// Pairs worse in head.
    pub regressed: u64,
    /// Pairs equal.
    pub tied: u64,
    /// Exact two-sided sign test p-value over `improved + regressed` (1 when there are none).
    pub p: f64,
    /// The mid-p value.
    pub mid_p: f64,
    /// `p` after Holm adjustment within its family (tools, pairs); equal to `p` for suite-wide
    /// metrics.
    pub p_adjusted: f64,
}

/// The free surface diff.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct SurfaceDiff {
    /// Tool names only in head.
    pub added: Vec<ToolChange>,
    /// Tool names only in base.
    pub removed: Vec<ToolChange>,
    /// Tools in both whose description changed.
    pub redescribed: Vec<ToolChange>,
    /// Tools in both whose input schema changed.
    pub reschemed: Vec<ToolChange>,
    /// Tool tokens: base, head, delta (o200k_base).
    pub tokens: TokenDelta,
    /// Lint findings in head that base does not have (by code + subject + param).
    pub new_findings: Vec<crate::report::lint::Finding>,
    /// Lint findings in base that head no longer has.
    pub resolved_findings: u64,
    /// Pairs confusable in head (score ≥ threshold) that were not in base.
    pub newly_confusable: Vec<ConfusablePair>,
}

/// A changed tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolChange {
    /// The tool name.
    pub name: String,
    /// Tokens in base (absent when added).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_before: Option<u64>,
    /// Tokens in head (absent when removed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_after: Option<u64>,
    /// Where head defines it (`file:line`), or base for a removed tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// Old and new description, for re-described tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<[Option<String>; 2]>,
    /// JSON pointers of schema nodes that changed, for re-schemed tools.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schema_changes: Vec<String>,
}

/// Token totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenDelta {
    /// Base total.
    pub before: u64,
    /// Head total.
    pub after: u64,
    /// `after − before`.
    pub delta: i64,
}

/// A pair that became confusable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfusablePair {
    /// One tool.
    pub a: String,
    /// The other.
    pub b: String,
    /// Similarity score in head.
    pub score: f64,
    /// Score in base; `null` when either tool is new.
    pub before: Option<f64>,
}
