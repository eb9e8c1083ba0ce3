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
    /// Every paired trial tied: base and head behaved identically on this metric.
    Unchanged,
    /// Too few discordant pairs for any result to reach significance.
    InsufficientData,
    /// Some pairs moved, enough to have detected a change, and the gate's test found none
    /// significant.
    NoSignificantChange,
    /// The gate's test could not decide, but the trial-level test says regressed and more cases
    /// fell than rose: likely a regression the suite is too small (or the drift unmeasured) to
    /// rule out as provider drift. `--fail-on-regression` does not fail on it.
    LikelyRegressed,
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
    /// The A/A run given with `--calibration`, when one was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<Calibration>,
    /// What this suite can reveal under the gate in use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<PowerPlan>,
    /// Mount-group scores of either run, group by group (a group defined differently is not
    /// comparable).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profiles: Vec<GroupComparison>,
}

/// The A/A run: base evaluated again with identical settings and fresh requests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Calibration {
    /// The path as given.
    pub source: String,
    /// Cases paired in all three runs (base, base again, head).
    pub paired: u64,
}

/// The smallest regression a suite can reveal under a gate, and how many cases a target drop
/// needs (stable provider: every case answers alike run after run; drift lowers the power).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerPlan {
    /// Cases in the suite (paired cases in a compare).
    pub cases: u64,
    /// Repeats per case.
    pub repeats: u64,
    /// The gate the figures are for.
    pub pairing: Pairing,
    /// Cases that must fall, with none rising, before the gate can call a regression; `null`
    /// when the gate does not count cases (`trial`).
    pub min_fall: Option<u64>,
    /// With calibration: the cases that differed between base and base again (the drift the
    /// figures assume).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aa_flipped: Option<u64>,
    /// With calibration: cases that must fall for the calibrated gate given that drift; without:
    /// the same on a stable provider (no A/A flips), what calibration could buy.
    pub calibrated_min_fall: Option<u64>,
    /// Power at target drops, and the cases each needs for 80% power.
    pub targets: Vec<PowerTarget>,
}

/// One target drop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PowerTarget {
    /// The true drop, as a proportion (0.15 = 15 points).
    pub drop: f64,
    /// The chance this suite's gate calls it (`null` when the gate does not count cases).
    pub power: Option<f64>,
    /// Cases the gate needs for 80% power at this drop.
    pub cases_for_80: Option<u64>,
    /// Cases the calibrated gate needs for 80% power at this drop (with the measured drift,
    /// or none).
    pub calibrated_cases_for_80: Option<u64>,
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
    /// The calibrated test over base, base again (the A/A run, `--calibration`) and head.
    Calibrated,
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
    /// The pass rate of the variants (`mf tasks mutate`) both runs have with the same id and
    /// input, paired like the other metrics; metric `robustness`, never gated. Absent when the
    /// runs share no variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robustness: Option<MetricComparison>,
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
    /// The paired difference over the paired trials with its case-clustered 95% interval;
    /// absent with fewer than 2 paired cases, or when every case moved by the same amount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
    /// The trial-level paired test.
    pub trial: PairedTest,
    /// The case-level paired test.
    pub case: PairedTest,
    /// The calibrated test (with `--calibration`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibrated: Option<CalibratedPaired>,
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

/// A paired difference `after − before` (mean over paired trials of head − base, in the
/// metric's own sense) with its 95% interval, standard errors clustered by case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Effect {
    /// The mean paired difference (−0.6 = −60 points).
    pub difference: f64,
    /// 95% interval `difference ± t(0.975, cases − 1)·standardError`.
    pub ci95: [f64; 2],
    /// Case-clustered standard error (CR1).
    pub standard_error: f64,
    /// Cases (clusters).
    pub cases: u64,
    /// Paired trials.
    pub trials: u64,
}

/// The calibrated test of one metric: head as the uniquely worst (best) of base, base again
/// and head, against `Binomial(m, ⅓)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalibratedPaired {
    /// Cases measured in all three runs.
    pub cases: u64,
    /// Cases where base and base again differ.
    pub aa_flipped: u64,
    /// Cases with a unique lowest run.
    pub informative_worse: u64,
    /// Cases where head is the unique lowest run.
    pub worse: u64,
    /// Cases with a unique highest run.
    pub informative_better: u64,
    /// Cases where head is the unique highest run.
    pub better: u64,
    /// `P[Binomial(informativeWorse, ⅓) ≥ worse]`.
    pub p_worse: f64,
    /// `P[Binomial(informativeBetter, ⅓) ≥ better]`.
    pub p_better: f64,
    /// `min(1, 2·min(pWorse, pBetter))`.
    pub p: f64,
    /// `p` after Holm adjustment within its family.
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

/// One group of one model in `mf compare` (`eval.profiles[]`): base and head side by side, or
/// why they cannot be compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupComparison {
    /// The group.
    pub profile: String,
    /// The model label.
    pub model: String,
    /// False when the group's definition differs between the runs, or it was scored on one side
    /// only: its figures measure different things.
    pub comparable: bool,
    /// Why not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// Base's figures, when base scored the group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<GroupFigures>,
    /// Head's figures, when head scored the group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<GroupFigures>,
}

/// A group's figures on one side of a compare.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupFigures {
    /// Mounted alone.
    pub mounted: Rate,
    /// Within all tools.
    pub all_in_one: Rate,
    /// `mounted − allInOne`.
    pub delta: Option<f64>,
    /// Cases right only when mounted alone.
    pub lifted: Vec<String>,
    /// Cases wrong only when mounted alone.
    pub jammed: Vec<String>,
}
