//! The metrics part of the eval scorecard: what one model did on one suite (SCHEMA.md §Scorecard).
//!
//! Every rate is a [`Rate`] `{numerator, denominator, value, ci95}`; an unmeasured rate
//! (denominator 0) has `value: null` and `ci95: null`, never 0 or 1. Maps are `BTreeMap`s and
//! lists are sorted, so the same trials always give byte-identical JSON. The figures are
//! computed in `eval::score::metrics`; their definitions are on the fields below.
//!
//! Official figures count reviewed cases only. Cases with `reviewed: false` are reported apart
//! in [`ModelMetrics::unreviewed`] and never enter any other figure except the run-health and
//! spend fields (`trials`, `errors`, `errorRate`, `cached`, `retries`, `latencyMs`, `tokens`,
//! `cost`), which describe every request the run made.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::stats;

/// Column and row label for "no tool": a must-not-call case (row) or a trial with no call (column).
pub const NONE_LABEL: &str = "(none)";
/// Column label for a trial with a call to a name not on the surface, or a nameless call.
pub const PHANTOM_LABEL: &str = "(phantom)";
/// Column label for a trial that called two or more distinct tools.
pub const MULTIPLE_LABEL: &str = "(multiple)";

/// A proportion with its counts and 95% Wilson interval.
///
/// JSON: `{"numerator": 7, "denominator": 10, "value": 0.7, "ci95": [0.3968, 0.8922]}`;
/// `value` and `ci95` are `null` when `denominator` is 0 (unmeasured).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rate {
    /// Trials (or cases) that count as a success for this rate.
    pub numerator: u64,
    /// Trials (or cases) the rate is measured over.
    pub denominator: u64,
    /// `numerator / denominator`; `null` when the denominator is 0.
    pub value: Option<f64>,
    /// 95% Wilson score interval `[lower, upper]` (see `stats::wilson`); `null` when the
    /// denominator is 0.
    pub ci95: Option<[f64; 2]>,
}

impl Rate {
    /// The rate `k / n` with its Wilson interval; unmeasured (`value`/`ci95` `None`) when `n = 0`.
    /// `k > n` is a caller bug: debug builds assert, release builds clamp `k` to `n`.
    pub fn new(k: u64, n: u64) -> Rate {
        debug_assert!(k <= n, "rate numerator {k} exceeds denominator {n}");
        let k = k.min(n);
        Rate {
            numerator: k,
            denominator: n,
            value: (n > 0).then(|| k as f64 / n as f64),
            ci95: stats::wilson(k, n).map(|(lo, hi)| [lo, hi]),
        }
    }

    /// True when the rate was measured (denominator above 0).
    pub fn is_measured(&self) -> bool {
        self.denominator > 0
    }
}

/// The verdict of one trial (BEHAVIOR §3.3). JSON: kebab-case strings.
///
/// The declaration order is the order of the `verdicts` map in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The provider gave no usable answer (refusal, truncation, malformed body, HTTP or
    /// transport failure). Never a wrong answer; excluded from `scored`.
    Error,
    /// Must-call case: every call names the expected tool.
    Correct,
    /// Must-call case: the calls name surface tools, none of them the expected one.
    WrongTool,
    /// Must-call case: a call names a tool that is not on the surface, or has no name.
    Phantom,
    /// Must-call case: no call at all.
    Abstained,
    /// Must-not-call case: no call.
    CorrectAbstention,
    /// Must-not-call case: any call (phantom calls included).
    OverTriggered,
    /// Must-call case: the expected tool is called, and so is at least one other surface tool.
    UnexpectedAdditionalCalls,
}

impl Verdict {
    /// Every verdict in declaration order.
    pub const ALL: [Verdict; 8] = [
        Verdict::Error,
        Verdict::Correct,
        Verdict::WrongTool,
        Verdict::Phantom,
        Verdict::Abstained,
        Verdict::CorrectAbstention,
        Verdict::OverTriggered,
        Verdict::UnexpectedAdditionalCalls,
    ];

    /// The verdict as written in JSON, e.g. `wrong-tool`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Error => "error",
            Verdict::Correct => "correct",
            Verdict::WrongTool => "wrong-tool",
            Verdict::Phantom => "phantom",
            Verdict::Abstained => "abstained",
            Verdict::CorrectAbstention => "correct-abstention",
            Verdict::OverTriggered => "over-triggered",
            Verdict::UnexpectedAdditionalCalls => "unexpected-additional-calls",
        }
    }

    /// True for the two verdicts that count toward selection accuracy
    /// (`correct`, `correct-abstention`).
    pub fn is_selection_success(self) -> bool {
        matches!(self, Verdict::Correct | Verdict::CorrectAbstention)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The argument check of one call to the expected tool (`eval::args::check_arguments`).
///
/// JSON: `{"ok": false, "problems": ["/limit: \"ten\" is not of type \"integer\""]}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArgCheck {
    /// True when `problems` is empty.
    pub ok: bool,
    /// Why the arguments fail, one sentence each, prefixed by a JSON pointer where one applies.
    pub problems: Vec<String>,
    /// Checks that could not run and did not count against the call (e.g. an input schema the
    /// validator cannot compile). Omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The metrics of one model on one suite. The caller keys it by model label.
///
/// Terms used below: a **trial** is one request; it is **reviewed** when its case has
/// `reviewed: true`; it is **scored** when it is reviewed and its verdict is not `error`.
/// A **must-call** case has `expectedTool: "name"`; a **must-not-call** case has
/// `expectedTool: null`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelMetrics {
    /// Every trial of this model, reviewed or not (run health).
    pub trials: u64,
    /// Trials whose verdict is `error`, reviewed or not (run health).
    pub errors: u64,
    /// `errors / trials` over every trial; the `--max-error-rate` gate reads it.
    pub error_rate: Rate,
    /// Trials served from the cache (no request sent in this run).
    pub cached: u64,
    /// Retries spent over every trial.
    pub retries: u64,
    /// Reviewed trials that are not errors: the denominator of the official figures.
    pub scored: u64,
    /// Distinct reviewed cases with at least one scored trial: how many cases the trial-level
    /// figures actually cover (repeats of a case are not new evidence).
    pub distinct_cases: u64,
    /// `(correct + correct-abstention) / scored`.
    pub selection_accuracy: Rate,
    /// The same success as `selectionAccuracy`, counted per case (see [`CaseLevelRate`]).
    pub case_level: CaseLevelRate,
    /// Correct trials whose arguments pass every check / correct trials. The check covers the
    /// first call (the calls are all to the expected tool) — required properties, no
    /// hallucinated names, JSON types against the input schema, and the case's `expectedArgs`.
    pub argument_accuracy: Rate,
    /// Parallel-call cases (`expectedCalls`) only: trials whose calls match the expected set
    /// exactly — every expected call matched once by a call to its tool whose arguments pass,
    /// in any order, no other call — / scored parallel-call trials. Absent when the run has
    /// no such case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_set_accuracy: Option<Rate>,
    /// Why `argumentAccuracy` is not measured when the model cannot produce arguments (the
    /// offline `lexical` router sends `{}`): its calls are then judged on the tool alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub argument_accuracy_na: Option<String>,
    /// `abstained / scored must-call trials`.
    pub abstention: Rate,
    /// `over-triggered / scored must-not-call trials`.
    pub over_trigger: Rate,
    /// `phantom / scored`.
    pub phantom: Rate,
    /// Scored trials with two or more calls / scored (any case kind, any names).
    pub multi_call: Rate,
    /// Count of each verdict over reviewed trials (errors included); every verdict is present,
    /// zeros included. Sums to `trials − unreviewed.trials`.
    pub verdicts: BTreeMap<Verdict, u64>,
    /// One entry per tool on the surface plus any expected tool missing from it, sorted by name.
    pub per_tool: Vec<ToolMetrics>,
    /// Expected × picked counts over scored trials.
    pub confusion: Confusion,
    /// The non-zero off-diagonal cells of `confusion`, largest count first, then by expected
    /// and picked label.
    pub confusion_pairs: Vec<ConfusionPair>,
    /// Selection accuracy by where the expected tool sat in the trial's tool order.
    pub position: PositionSensitivity,
    /// Latency over trials that sent a request in this run (not cached) and recorded a
    /// latency, reviewed or not; `null` when there is none.
    pub latency_ms: Option<Latency>,
    /// Tokens the provider reported, summed over every answered trial.
    pub tokens: Tokens,
    /// What the answered trials cost; `null` when the model has no price, or when any answered
    /// trial lacks usage (a partial sum would understate the cost). Error trials carry no usage
    /// and are not priced.
    pub cost: Option<Cost>,
    /// Selection accuracy over `reviewed: false` cases, kept apart from every official figure;
    /// `null` when no unreviewed case was run.
    pub unreviewed: Option<Unreviewed>,
}

/// Selection success counted per case: each case counts once, by the strict majority of its
/// scored trials (see `stats::case_level`).
///
/// JSON: `{"cases": 12, "ties": 1, "rate": {numerator, denominator, value, ci95}}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseLevelRate {
    /// Reviewed cases with at least one scored trial (the rate's denominator).
    pub cases: u64,
    /// Cases whose trials split exactly in half; counted as not correct.
    pub ties: u64,
    /// Cases won by a strict majority of their scored trials / `cases`, with the Wilson
    /// interval over cases.
    pub rate: Rate,
}

/// The figures of one tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolMetrics {
    /// The tool name.
    pub tool: String,
    /// False when a case expects this tool but the surface does not have it.
    pub on_surface: bool,
    /// Distinct reviewed cases that expect this tool and have at least one scored trial.
    pub cases: u64,
    /// `correct / scored trials of the cases that expect this tool` (its recall).
    pub accuracy: Rate,
    /// Scored trials, of any case, in which this tool was called at least once.
    pub picked: u64,
    /// Of `picked`: trials whose case expected another tool or no tool.
    pub picked_wrongly: u64,
    /// `correct trials whose arguments pass / correct trials`, over the cases that expect it.
    pub argument_accuracy: Rate,
}

/// The confusion matrix: `counts[row][column]` = scored trials whose case expects `rows[row]`
/// and whose calls fall in `columns[column]`.
///
/// Rows: the expected tools of scored trials, sorted, then `"(none)"` when any must-not-call
/// case was scored. Columns: every surface tool, sorted, then `"(none)"` (no call),
/// `"(phantom)"` (a call to a name not on the surface, or nameless), `"(multiple)"` (calls to
/// two or more distinct tools). Repeated calls to one tool fall in that tool's column.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Confusion {
    /// Row labels.
    pub rows: Vec<String>,
    /// Column labels.
    pub columns: Vec<String>,
    /// One row of counts per row label, one count per column label.
    pub counts: Vec<Vec<u64>>,
}

/// One off-diagonal cell of the confusion matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfusionPair {
    /// The row label: the expected tool, or `"(none)"`.
    pub expected: String,
    /// The column label: the tool called, `"(none)"`, `"(phantom)"` or `"(multiple)"`.
    pub picked: String,
    /// Scored trials in the cell.
    pub count: u64,
}

/// Selection accuracy of scored must-call trials by the 0-based index of the expected tool in
/// the trial's tool order. Trials whose order does not contain the expected tool are left out.
///
/// `first` = index 0; `last` = index `len − 1` when `len > 1` (a one-tool order counts as
/// first only); `middle` = everything between.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionSensitivity {
    /// The expected tool was sent first.
    pub first: Rate,
    /// The expected tool was neither first nor last.
    pub middle: Rate,
    /// The expected tool was sent last.
    pub last: Rate,
    /// One rate per index, `byIndex[i]` for position `i`; as long as the longest order seen.
    pub by_index: Vec<Rate>,
}

/// Nearest-rank latency percentiles in milliseconds (see `stats::percentile`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Latency {
    /// Median.
    pub p50: u64,
    /// 95th percentile.
    pub p95: u64,
    /// Trials measured.
    pub n: u64,
}

/// Token usage summed over answered trials that reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tokens {
    /// Input (prompt) tokens.
    pub input: u64,
    /// Output (completion) tokens.
    pub output: u64,
    /// Answered trials that reported usage.
    pub trials_with_usage: u64,
}

/// A cost: `Σ input × price.input / 10⁶ + Σ output × price.output / 10⁶`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cost {
    /// The amount.
    pub amount: f64,
    /// ISO currency code from the model's price, e.g. `USD`.
    pub currency: String,
}

/// Figures over `reviewed: false` cases. Never part of an official figure or gate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Unreviewed {
    /// Distinct unreviewed cases with at least one trial.
    pub cases: u64,
    /// Their trials.
    pub trials: u64,
    /// Of those, errors.
    pub errors: u64,
    /// Of those, not errors.
    pub scored: u64,
    /// `(correct + correct-abstention) / scored`, over unreviewed cases.
    pub selection_accuracy: Rate,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unmeasured_rate_is_null_not_zero() {
        let rate = Rate::new(0, 0);
        assert!(!rate.is_measured());
        let json = serde_json::to_value(rate).expect("serializes");
        assert_eq!(
            json,
            serde_json::json!({"numerator": 0, "denominator": 0, "value": null, "ci95": null})
        );
    }

    #[test]
    fn measured_rate_has_value_and_wilson_interval() {
        let rate = Rate::new(7, 10);
        assert_eq!(rate.value, Some(0.7));
        let [lo, hi] = rate.ci95.expect("measured");
        assert!((lo - 0.39677814746114537).abs() < 1e-9);
        assert!((hi - 0.8922087325936989).abs() < 1e-9);
    }

    #[test]
    fn verdicts_serialize_kebab_case_and_as_map_keys() {
        let names: Vec<String> = Verdict::ALL
            .iter()
            .map(|v| serde_json::to_value(v).expect("serializes").to_string())
            .collect();
        assert_eq!(
            names,
            [
                "\"error\"",
                "\"correct\"",
                "\"wrong-tool\"",
                "\"phantom\"",
                "\"abstained\"",
                "\"correct-abstention\"",
                "\"over-triggered\"",
                "\"unexpected-additional-calls\""
            ]
        );
        for v in Verdict::ALL {
            assert_eq!(serde_json::to_value(v).expect("serializes"), v.as_str());
        }
        let map: BTreeMap<Verdict, u64> = Verdict::ALL.iter().map(|&v| (v, 1)).collect();
        let json = serde_json::to_string(&map).expect("serializes");
        assert!(json.starts_with("{\"error\":1,\"correct\":1,\"wrong-tool\":1"));
    }

    #[test]
    fn arg_check_omits_empty_notes() {
        let check = ArgCheck {
            ok: true,
            problems: vec![],
            notes: vec![],
        };
        assert_eq!(
            serde_json::to_value(&check).expect("serializes"),
            serde_json::json!({"ok": true, "problems": []})
        );
    }
}
