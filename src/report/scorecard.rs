//! The eval scorecard (`mf eval --format json`, SCHEMA.md "Scorecard"): what was asked, of which
//! models, with which settings, every trial, the metrics, the gates and the verdict.

use serde::{Deserialize, Serialize};

use super::metrics::{ArgCheck, ModelMetrics, Rate, Verdict};
use super::trial::{Call, TrialError, Usage};
use crate::suite::models::Price;

/// Scorecard format version.
pub const SCORECARD_VERSION: u32 = 1;

/// The scorecard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scorecard {
    /// Format version (1).
    pub version: u32,
    /// Always `"scorecard"`.
    pub kind: String,
    /// `pass`, `fail` (a quality gate failed) or `unhealthy` (the run cannot be trusted).
    pub status: Status,
    /// The suite and surface that were evaluated.
    pub suite: SuiteInfo,
    /// What reproduces the run.
    pub reproducibility: Reproducibility,
    /// One entry per model, in `--models` order.
    pub models: Vec<ModelResult>,
    /// Every gate that was asked for, per model.
    pub gates: Vec<Gate>,
    /// Wall-clock figures: the only fields that differ between identical runs.
    pub timing: Timing,
    /// Mount-group scoring (`--profile all|NAME`): each group mounted alone vs within all tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profiles: Option<super::mount::MountScores>,
    /// Present on a part written by `mf eval --shard K/N`: which shard of which plan it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
    /// Present on a scorecard `mf merge --allow-partial` joined from an incomplete set of parts:
    /// what is missing. Its metrics cover only the trials it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<PartialInfo>,
}

/// Which shard of which plan a part holds (SCHEMA.md "Shards and merge").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShardInfo {
    /// `sha256:` of the plan: every field that decides the trials, their requests and their
    /// scoring (suite, reproducibility, model settings, gate thresholds); timing and trial
    /// results are not part of it.
    pub plan: String,
    /// 1-based shard number K.
    pub index: u32,
    /// Shard count N.
    pub count: u32,
    /// The assignment rule (`mf-shard-v1`).
    pub assignment: String,
    /// Every trial this shard holds, in plan order.
    pub trials: Vec<TrialKey>,
}

/// One trial of a plan.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialKey {
    /// Model label.
    pub model: String,
    /// Case id.
    pub case: String,
    /// 0-based repeat index.
    pub trial: u32,
}

/// What a partial merge lacks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartialInfo {
    /// The plan fingerprint of the parts.
    pub plan: String,
    /// Shard count N.
    pub count: u32,
    /// Shards that were merged (1-based).
    pub shards: Vec<u32>,
    /// Shards that were not (1-based).
    pub missing: Vec<u32>,
    /// Trials of the missing shards.
    pub missing_trials: u64,
}

/// Overall verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every gate passed and the run is healthy.
    Pass,
    /// A quality gate failed (exit 2).
    Fail,
    /// Too many errors or too little scored (exit 5).
    Unhealthy,
}

/// The suite and surface.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SuiteInfo {
    /// Suite name.
    pub name: String,
    /// Suite file as given.
    pub path: String,
    /// Where the tools came from.
    pub surface: String,
    /// Surface fingerprint (`sha256:…`, as in the scan report).
    pub fingerprint: String,
    /// Tool names in surface order (the order permutations index into).
    pub tools: Vec<String>,
    /// Tokens of the tools as sent (o200k_base).
    pub tool_tokens: u64,
    /// The selected cases.
    pub cases: Vec<CaseInfo>,
    /// Cases in the suite before selection.
    pub cases_in_suite: usize,
    /// The selection that was applied.
    pub selection: Selection,
    /// Profile whose tools were offered, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// The implementation `--execute` ran (runtime, engine, entry and its hash); absent without
    /// `--execute`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<super::exec::ExecutionInfo>,
    /// With `profile`: its definition (member names as the suite lists them, sorted); runs
    /// whose definitions differ are not comparable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_tools: Option<Vec<String>>,
    /// Tools left out of the plan (`mf ablate`); each trial kept the full plan's order of the
    /// rest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub without: Vec<String>,
}

/// How cases were selected.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Selection {
    /// `--cases`.
    pub cases: Vec<String>,
    /// `--only`.
    pub only: Vec<String>,
    /// `--skip`.
    pub skip: Vec<String>,
}

/// One selected case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseInfo {
    /// Case id.
    pub id: String,
    /// `sha256:` of the input text (compare pairs trials by id + input hash + trial index).
    pub input_hash: String,
    /// The expected tool; `null` = must not call. A parallel-call case writes its call set's
    /// label here (`get_weather ×2`, `area + perimeter`), so readers that know only
    /// `expectedTool` still see a must-call case.
    pub expected_tool: Option<String>,
    /// A parallel-call case's expected tools, one per call, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_calls: Option<Vec<String>>,
    /// The case's own tool set (names, in suite order), when it has one; absent = the run's
    /// tools (`suite.tools`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    /// Counts in official figures.
    pub reviewed: bool,
    /// Tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Line of the case in the suite file, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The case this one is a variant of (`mf tasks mutate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutated_from: Option<String>,
    /// Which variant (`casing`, `typos`, …), with `mutatedFrom`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutation: Option<String>,
    /// Prompt tokens lower bound for one trial (tools + input, o200k_base).
    pub prompt_tokens: u64,
}

/// What reproduces the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reproducibility {
    /// mf version.
    pub mf_version: String,
    /// Tool-order algorithm (`mf-perm-v1`).
    pub permutation: String,
    /// Seed of the tool order.
    pub seed: u64,
    /// Trials per case and model.
    pub repeat: u32,
    /// Tokenizer of every token count mf computes.
    pub tokenizer: String,
    /// Trial cache format.
    pub cache_version: String,
}

/// One model's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelResult {
    /// The `--models` entry.
    pub label: String,
    /// Provider id (`openai`, `anthropic`, `ollama`, `lexical`, …).
    pub provider: String,
    /// Wire format (`openai`, `openai-chat`, `anthropic`, `offline`).
    pub wire: String,
    /// Provider model id.
    pub model: String,
    /// Base URL without userinfo or query (`offline` for in-process models).
    pub endpoint: String,
    /// SHA-256 over what shapes every request besides the trial itself (wire, endpoint, header
    /// names, temperature, output cap); no secrets.
    pub request_fingerprint: String,
    /// Temperature sent; `null` = provider default.
    pub temperature: Option<f64>,
    /// Output token cap sent.
    pub max_output_tokens: u32,
    /// Price per million tokens, when configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
    /// Run health.
    pub health: Health,
    /// The metrics (official figures count reviewed cases only).
    pub metrics: ModelMetrics,
    /// Original vs mutated pass rates, when the run had variants (`mutatedFrom`) of its
    /// reviewed cases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robustness: Option<Robustness>,
    /// One row per trial, in plan order (case, then trial index).
    pub trials: Vec<TrialRow>,
    /// With `--execute`: the execution metric and each case's executions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<super::exec::ModelExecution>,
}

/// How the model did on the variants of cases (`mf tasks mutate`) against the cases themselves.
/// A trial passes by the case-level rule's trial test (`eval::cases`): scored, a selection
/// success, arguments ok. Only reviewed originals with at least one variant in the run count,
/// and only their variants.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Robustness {
    /// Passing trials of the originals.
    pub original: Rate,
    /// Passing trials of their variants.
    pub mutated: Rate,
    /// `mutated.value - original.value`; `null` when either is unmeasured. Negative: the
    /// wording changes hurt.
    pub delta: Option<f64>,
    /// Per mutation kind: the variants' pass rate and their originals'.
    pub by_kind: Vec<KindRobustness>,
    /// Variants that fail (a majority of their scored trials) while their original passes.
    pub broken: Vec<BrokenVariant>,
}

/// One mutation kind's share of [`Robustness`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KindRobustness {
    /// The kind (`casing`, `punctuation`, `filler`, `typos`, `word-order`, `distractor`).
    pub mutation: String,
    /// Passing trials of the originals of this kind's variants.
    pub original: Rate,
    /// Passing trials of this kind's variants.
    pub mutated: Rate,
}

/// A variant that broke a passing case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrokenVariant {
    /// The original case id.
    pub case: String,
    /// The variant's id.
    pub variant: String,
    /// Its kind.
    pub mutation: String,
}

/// Whether the run itself can be trusted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    /// False when errors are over `--max-error-rate` or scored trials under `--min-scored`.
    pub healthy: bool,
    /// Why not, one sentence each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// Requests sent in this run (retries included).
    pub requests: u64,
    /// Errors by kind (`timeout`, `http`, `refusal`, …).
    pub errors_by_kind: std::collections::BTreeMap<String, u64>,
}

/// One trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialRow {
    /// Case id.
    pub case: String,
    /// 0-based repeat index.
    pub trial: u32,
    /// Tool names in the order sent.
    pub order: Vec<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// Every call the model made, in order.
    pub calls: Vec<Call>,
    /// The argument check of the call to the expected tool, when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<ArgCheck>,
    /// The model's text, cut to 500 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Why the trial has no answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<TrialError>,
    /// Latency of the answering request (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<u64>,
    /// Usage reported by the provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Retries spent on this trial.
    pub retries: u32,
    /// Served from the cache.
    pub cached: bool,
    /// With `--execute`: the run of the picked tool and its expectations (never cached).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<super::exec::TrialExecution>,
}

/// One gate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Gate {
    /// `min-accuracy`, `max-over-trigger`, `max-error-rate`, `min-scored`.
    pub name: String,
    /// Model label.
    pub model: String,
    /// The threshold.
    pub threshold: f64,
    /// The measured value; `null` = unmeasured, which fails.
    pub value: Option<f64>,
    /// Whether it passed.
    pub passed: bool,
    /// `quality` gates fail with exit 2, `health` gates with exit 5.
    pub kind: GateKind,
}

/// What failing a gate means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GateKind {
    /// Exit 2.
    Quality,
    /// Exit 5.
    Health,
}

/// Wall-clock figures (redact these when comparing runs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Timing {
    /// The whole command in milliseconds (loading, tokenizing, running, scoring).
    pub wall_ms: u64,
    /// The runner alone: from the first trial sent to the last answer, in milliseconds.
    pub run_ms: u64,
    /// On a merged scorecard: each part's own timing, by shard (the parts ran in parallel, so
    /// `wallMs` and `runMs` above are the largest of them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<PartTiming>,
}

/// One part's timing in a merged scorecard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartTiming {
    /// 1-based shard number.
    pub shard: u32,
    /// The part's `timing.wallMs`.
    pub wall_ms: u64,
    /// The part's `timing.runMs`.
    pub run_ms: u64,
}
