//! Base vs head scorecards: are they comparable, which trials pair up, and what does each
//! metric's paired test say.
//!
//! Pairing. Cases pair by id when both runs asked the same input (`inputHash`) and both count
//! it as reviewed; trials pair by (case id, trial index) when neither is an error. Every metric
//! is an indicator per trial ("was this trial good?"), compared two ways:
//! - **trial-level**: each paired trial is a pair; improved = bad in base and good in head,
//!   regressed = the reverse. Answers "did behaviour change on these trials?" — but trials of
//!   one case are only as independent as the provider's sampling: when a provider flips a whole
//!   case between runs, all its trials move together and this test over-counts.
//! - **case-level**: each paired case is a pair, compared by its share of good paired trials in
//!   base vs head. Answers "would it show on cases like these?"; robust to whole-case flips.
//!
//! - **calibrated** (with the A/A run, `--calibration`): per case, is head the uniquely worst of
//!   base, base again and head? Exact under exchangeability of the three runs, whatever the
//!   drift (`stats::calibrated_test`, SCHEMA.md "Calibration").
//!
//! The first two use the exact two-sided sign test (ties dropped). A verdict is taken from the
//! gate's pairing (`case` by default, `calibrated` with an A/A run; SCHEMA.md has the simulation
//! behind that choice), see [`verdict_of`]: `unchanged` only when every paired trial tied;
//! regressed or improved when p (Holm-adjusted within the tools and pairs families) ≤ α;
//! `insufficient-data` when no split could reach α; `no-significant-change` otherwise; and
//! `likely-regressed` when the gate cannot decide but the trial-level test says regressed.
//! Every metric also carries its effect: the paired difference with a case-clustered 95%
//! interval (`stats::paired_difference`).

use std::collections::{BTreeMap, BTreeSet};

use crate::eval::cases::failure_of;
use crate::eval::power::power_plan;
use crate::eval::score::picked_label;
use crate::providers::Reply;
use crate::report::compare::{
    CalibratedPaired, Calibration, CasePairing, Effect, EvalComparison, GateSettings,
    MetricComparison, ModelComparison, PairedTest, Pairing, Verdict,
};
use crate::report::metrics::{NONE_LABEL, Rate, Verdict as TrialVerdict};
use crate::report::scorecard::{CaseInfo, ModelResult, Scorecard, Status, TrialRow};
use crate::stats::{
    calibrated_min_fall, calibrated_test, holm, min_pairs_for_significance, paired_difference,
    pairs_needed, sign_test,
};

/// Metrics gated by `--fail-on-regression` unless `--gate-metrics` says otherwise.
pub const DEFAULT_GATED: &[&str] = &["selection-accuracy", "argument-accuracy", "over-trigger"];

/// Every metric name a gate may list.
pub const METRICS: &[&str] = &[
    "selection-accuracy",
    "argument-accuracy",
    "over-trigger",
    "multi-call",
    "call-set-accuracy",
    "tool-accuracy",
    "confusion-pair",
];

/// Every reason the two scorecards cannot be compared; empty = comparable.
pub fn comparability(base: &Scorecard, head: &Scorecard) -> Vec<String> {
    let mut reasons = Vec::new();
    for (side, card) in [("base", base), ("head", head)] {
        if let Some(s) = &card.shard {
            reasons.push(format!(
                "{side} is one part (shard {}/{}) of a sharded eval: join the parts with `mf merge` first",
                s.index, s.count
            ));
        }
    }
    let (b, h) = (&base.reproducibility, &head.reproducibility);
    let mut differ = |what: &str, x: String, y: String| {
        if x != y {
            reasons.push(format!("{what} differs: base {x}, head {y}"));
        }
    };
    differ("seed", b.seed.to_string(), h.seed.to_string());
    differ("repeat", b.repeat.to_string(), h.repeat.to_string());
    differ(
        "tool-order permutation",
        b.permutation.clone(),
        h.permutation.clone(),
    );
    differ("tokenizer", b.tokenizer.clone(), h.tokenizer.clone());
    // `--execute` runs: the same implementation under the same engine, or not comparable.
    let execution = |c: &Scorecard| {
        c.suite.execution.as_ref().map_or_else(
            || "none (no --execute)".to_owned(),
            |x| {
                format!(
                    "{} {} under {}, entry {} {}",
                    x.runtime, x.inputs, x.engine, x.entry, x.hash
                )
            },
        )
    };
    differ("execution", execution(base), execution(head));
    reasons.extend(super::profiles::profile_reasons(base, head));
    for m in &base.models {
        let Some(o) = head.models.iter().find(|o| o.label == m.label) else {
            continue;
        };
        let mut differ = |what: &str, x: String, y: String| {
            if x != y {
                reasons.push(format!("{}: {what} differs: base {x}, head {y}", m.label));
            }
        };
        differ("provider", m.provider.clone(), o.provider.clone());
        differ("model", m.model.clone(), o.model.clone());
        differ("endpoint", m.endpoint.clone(), o.endpoint.clone());
        differ(
            "request fingerprint",
            m.request_fingerprint.clone(),
            o.request_fingerprint.clone(),
        );
        differ(
            "temperature",
            format!("{:?}", m.temperature),
            format!("{:?}", o.temperature),
        );
    }
    if !base
        .models
        .iter()
        .any(|m| head.models.iter().any(|o| o.label == m.label))
    {
        reasons.push("no model is in both scorecards (models are matched by label)".into());
    }
    for (side, card) in [("base", base), ("head", head)] {
        if card.status == Status::Unhealthy {
            let why: Vec<String> = card
                .models
                .iter()
                .flat_map(|m| {
                    m.health
                        .problems
                        .iter()
                        .map(move |p| format!("{}: {p}", m.label))
                })
                .collect();
            reasons.push(format!(
                "the {side} run is unhealthy{}",
                if why.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", why.join("; "))
                }
            ));
        }
    }
    reasons
}

/// Which cases pair up: same id, same input, reviewed on both sides.
pub fn pair_cases<'a>(
    base: &'a Scorecard,
    head: &'a Scorecard,
) -> (Vec<&'a CaseInfo>, CasePairing) {
    let head_by_id: BTreeMap<&str, &CaseInfo> = head
        .suite
        .cases
        .iter()
        .map(|c| (c.id.as_str(), c))
        .collect();
    let base_ids: BTreeSet<&str> = base.suite.cases.iter().map(|c| c.id.as_str()).collect();
    let mut pairing = CasePairing::default();
    let mut paired = Vec::new();
    for c in &base.suite.cases {
        match head_by_id.get(c.id.as_str()) {
            None => pairing.only_in_base.push(c.id.clone()),
            Some(h) if h.input_hash != c.input_hash => pairing.input_changed.push(c.id.clone()),
            Some(h) if c.reviewed && h.reviewed => paired.push(*h),
            Some(_) => {}
        }
    }
    pairing.only_in_head = head
        .suite
        .cases
        .iter()
        .filter(|c| !base_ids.contains(c.id.as_str()))
        .map(|c| c.id.clone())
        .collect();
    pairing.paired = paired.len() as u64;
    (paired, pairing)
}

/// A trial's indicator for one metric, or `None` when the trial does not count for it.
type Indicator<'a> = Box<dyn Fn(&TrialRow, &Side) -> Option<bool> + 'a>;

/// One metric as a per-trial indicator.
struct Metric<'a> {
    name: &'static str,
    subject: Option<String>,
    higher_is_better: bool,
    /// Which cases the metric reads.
    applies: Box<dyn Fn(&CaseInfo) -> bool + 'a>,
    /// The indicator (the metric's own sense: "correct", "over-triggered", …) of a trial, or
    /// `None` when this trial does not count for the metric.
    value: Indicator<'a>,
}

/// Per-side context for indicators.
struct Side<'a> {
    tools: BTreeSet<&'a str>,
}

impl Side<'_> {
    fn picked(&self, row: &TrialRow) -> String {
        picked_label(
            &self.tools,
            &Reply {
                calls: row.calls.clone(),
                ..Reply::default()
            },
        )
    }
}

/// Paired observations of one metric.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Observations {
    /// Per paired case: (case id, per paired trial (base indicator, head indicator)).
    pub cases: Vec<(String, Vec<(bool, bool)>)>,
}

/// The paired tests and a verdict for per-case indicator pairs, oriented so that `true` = good.
/// This is the decision rule the simulation exercises (tests/compare_simulation.rs).
/// `Pairing::Calibrated` without an A/A run decides as `Pairing::Case`.
pub fn decide(
    cases: &[Vec<(bool, bool)>],
    pairing: Pairing,
    alpha: f64,
) -> (PairedTest, PairedTest, Verdict) {
    let (trial, case) = tests_of(cases);
    let verdict = verdict_of(&trial, &case, None, pairing, alpha);
    (trial, case, verdict)
}

/// [`decide`] with the A/A run: `triples` holds, per case measured in base, base again and head,
/// the good-trial counts `(base, again, head)` over the trials all three measured. The verdict
/// is the calibrated test's (see `stats::calibrated_test`).
pub fn decide_calibrated(
    cases: &[Vec<(bool, bool)>],
    triples: &[(u64, u64, u64)],
    alpha: f64,
) -> (PairedTest, PairedTest, CalibratedPaired, Verdict) {
    let (trial, case) = tests_of(cases);
    let calibrated = calibrated_of(triples);
    let verdict = verdict_of(&trial, &case, Some(&calibrated), Pairing::Calibrated, alpha);
    (trial, case, calibrated, verdict)
}

fn calibrated_of(triples: &[(u64, u64, u64)]) -> CalibratedPaired {
    let t = calibrated_test(triples);
    CalibratedPaired {
        cases: t.cases,
        aa_flipped: t.aa_flipped,
        informative_worse: t.informative_worse,
        worse: t.worse,
        informative_better: t.informative_better,
        better: t.better,
        p_worse: t.p_worse,
        p_better: t.p_better,
        p: t.p,
        p_adjusted: t.p,
    }
}

/// The trial-level and case-level sign tests of oriented per-case pairs.
fn tests_of(cases: &[Vec<(bool, bool)>]) -> (PairedTest, PairedTest) {
    let (mut ti, mut tr, mut tt) = (0u64, 0u64, 0u64);
    let (mut ci, mut cr, mut ct) = (0u64, 0u64, 0u64);
    for trials in cases {
        if trials.is_empty() {
            continue;
        }
        let (mut b, mut h) = (0u64, 0u64);
        for &(x, y) in trials {
            b += u64::from(x);
            h += u64::from(y);
            match (x, y) {
                (false, true) => ti += 1,
                (true, false) => tr += 1,
                _ => tt += 1,
            }
        }
        // Same number of paired trials on both sides: compare counts, not rates.
        match h.cmp(&b) {
            std::cmp::Ordering::Greater => ci += 1,
            std::cmp::Ordering::Less => cr += 1,
            std::cmp::Ordering::Equal => ct += 1,
        }
    }
    (test(ti, tr, tt), test(ci, cr, ct))
}

fn test(improved: u64, regressed: u64, tied: u64) -> PairedTest {
    let s = sign_test(improved, regressed);
    PairedTest {
        pairs: improved + regressed + tied,
        improved,
        regressed,
        tied,
        p: s.p,
        mid_p: s.mid_p,
        p_adjusted: s.p,
    }
}

/// One sign test's verdict: significant → its direction; fewer than `min` pairs, or 1 to
/// `min − 1` discordant → insufficient data (no split could reach α); else no significant
/// change.
fn single(t: &PairedTest, alpha: f64) -> Verdict {
    let min = min_pairs_for_significance(alpha);
    let discordant = t.improved + t.regressed;
    if t.p_adjusted <= alpha && t.regressed > t.improved {
        Verdict::Regressed
    } else if t.p_adjusted <= alpha && t.improved > t.regressed {
        Verdict::Improved
    } else if t.pairs < min || (discordant > 0 && discordant < min) {
        Verdict::InsufficientData
    } else {
        Verdict::NoSignificantChange
    }
}

/// The calibrated test's verdict: significant → its direction; fewer cases in all three runs
/// than the calibrated test could ever decide on → insufficient data; else no significant
/// change.
fn calibrated_single(c: &CalibratedPaired, alpha: f64) -> Verdict {
    if c.p_adjusted <= alpha && c.p_worse < c.p_better {
        Verdict::Regressed
    } else if c.p_adjusted <= alpha && c.p_better < c.p_worse {
        Verdict::Improved
    } else if calibrated_min_fall(0, alpha).is_none_or(|k| c.cases < k) {
        Verdict::InsufficientData
    } else {
        Verdict::NoSignificantChange
    }
}

/// The verdict of the tests under `pairing`.
///
/// 1. Every paired trial tied → `unchanged` (whatever the number of cases: identical runs read
///    as identical).
/// 2. The gate's test (`trial`, `case`, `calibrated`; `both` needs the two sign tests to agree,
///    else insufficient data when either is, else no significant change).
/// 3. When that is not significant (no significant change or insufficient data) but the
///    trial-level test says regressed (`pAdjusted ≤ α`) and more cases fell than rose →
///    `likely-regressed`: the trials moved, and the cases are too few, or the drift unmeasured,
///    to rule out a provider that redraws whole cases.
pub fn verdict_of(
    trial: &PairedTest,
    case: &PairedTest,
    calibrated: Option<&CalibratedPaired>,
    pairing: Pairing,
    alpha: f64,
) -> Verdict {
    if trial.pairs > 0 && trial.improved + trial.regressed == 0 {
        return Verdict::Unchanged;
    }
    let gate = match (pairing, calibrated) {
        (Pairing::Trial, _) => single(trial, alpha),
        (Pairing::Case, _) | (Pairing::Calibrated, None) => single(case, alpha),
        (Pairing::Calibrated, Some(c)) => calibrated_single(c, alpha),
        (Pairing::Both, _) => match (single(trial, alpha), single(case, alpha)) {
            (a, b) if a == b => a,
            (Verdict::InsufficientData, _) | (_, Verdict::InsufficientData) => {
                Verdict::InsufficientData
            }
            _ => Verdict::NoSignificantChange,
        },
    };
    let undecided = matches!(
        gate,
        Verdict::NoSignificantChange | Verdict::InsufficientData
    );
    let trial_regressed = trial.p_adjusted <= alpha && trial.regressed > trial.improved;
    if pairing != Pairing::Trial && undecided && trial_regressed && case.regressed > case.improved {
        Verdict::LikelyRegressed
    } else {
        gate
    }
}

/// Compare one metric over the paired cases: the base/head pairs, the rates, and (with the A/A
/// run) per case the good-trial counts `(base, again, head)` over the trials all three measured,
/// oriented so that a higher count is better.
fn observe(
    metric: &Metric<'_>,
    cases: &[&CaseInfo],
    base: &RowIndex<'_>,
    head: &RowIndex<'_>,
    again: Option<&Again<'_>>,
) -> (Observations, Rate, Rate, Vec<(u64, u64, u64)>) {
    let mut obs = Observations::default();
    let mut triples = Vec::new();
    let (mut bn, mut hn, mut n) = (0u64, 0u64, 0u64);
    let good = |v: bool| u64::from(v == metric.higher_is_better);
    for case in cases.iter().filter(|c| (metric.applies)(c)) {
        let mut trials = Vec::new();
        let mut triple: Option<(u64, u64, u64)> = again
            .filter(|a| a.cases.contains(case.id.as_str()))
            .map(|_| (0, 0, 0));
        let mut measured = 0u64;
        for (trial, b_row) in base.trials(&case.id) {
            let Some(h_row) = head.row(&case.id, trial) else {
                continue;
            };
            if b_row.verdict == TrialVerdict::Error || h_row.verdict == TrialVerdict::Error {
                continue;
            }
            let (b, h) = (
                (metric.value)(b_row, &base.side),
                (metric.value)(h_row, &head.side),
            );
            // A pair counts only when the trial counts on both sides (argument accuracy needs a
            // correct call in base and in head).
            let (Some(b), Some(h)) = (b, h) else {
                continue;
            };
            let pair = (b, h);
            n += 1;
            bn += u64::from(pair.0);
            hn += u64::from(pair.1);
            trials.push(pair);
            if let (Some(t), Some(a)) = (triple.as_mut(), again)
                && let Some(a_row) = a.index.row(&case.id, trial)
                && a_row.verdict != TrialVerdict::Error
                && let Some(x) = (metric.value)(a_row, &a.index.side)
            {
                t.0 += good(b);
                t.1 += good(x);
                t.2 += good(h);
                measured += 1;
            }
        }
        if let Some(t) = triple
            && measured > 0
        {
            triples.push(t);
        }
        if !trials.is_empty() {
            obs.cases.push((case.id.clone(), trials));
        }
    }
    (obs, Rate::new(bn, n), Rate::new(hn, n), triples)
}

/// The A/A run of one model: its rows, and the cases it measured with base's input.
struct Again<'a> {
    index: RowIndex<'a>,
    cases: BTreeSet<&'a str>,
}

/// Trial rows of one model, by case and trial index.
struct RowIndex<'a> {
    rows: BTreeMap<(&'a str, u32), &'a TrialRow>,
    side: Side<'a>,
}

impl<'a> RowIndex<'a> {
    fn new(model: &'a ModelResult, card: &'a Scorecard) -> RowIndex<'a> {
        RowIndex {
            rows: model
                .trials
                .iter()
                .map(|r| ((r.case.as_str(), r.trial), r))
                .collect(),
            side: Side {
                tools: card.suite.tools.iter().map(String::as_str).collect(),
            },
        }
    }

    fn trials<'s>(&'s self, case: &'s str) -> impl Iterator<Item = (u32, &'a TrialRow)> + 's {
        self.rows
            .range((case, 0)..=(case, u32::MAX))
            .map(|(&(_, t), &r)| (t, r))
    }

    fn row(&self, case: &str, trial: u32) -> Option<&'a TrialRow> {
        self.rows.get(&(case, trial)).copied()
    }
}

fn is_correct(v: TrialVerdict) -> bool {
    matches!(v, TrialVerdict::Correct | TrialVerdict::CorrectAbstention)
}

fn suite_metrics<'a>() -> Vec<Metric<'a>> {
    vec![
        Metric {
            name: "selection-accuracy",
            subject: None,
            higher_is_better: true,
            applies: Box::new(|_| true),
            value: Box::new(|r, _| Some(is_correct(r.verdict))),
        },
        Metric {
            name: "argument-accuracy",
            subject: None,
            higher_is_better: true,
            applies: Box::new(|c| c.expected_tool.is_some()),
            value: Box::new(|r, _| {
                (r.verdict == TrialVerdict::Correct).then(|| r.args.as_ref().is_some_and(|a| a.ok))
            }),
        },
        Metric {
            name: "over-trigger",
            subject: None,
            higher_is_better: false,
            applies: Box::new(|c| c.expected_tool.is_none()),
            value: Box::new(|r, _| Some(r.verdict == TrialVerdict::OverTriggered)),
        },
        Metric {
            name: "multi-call",
            subject: None,
            higher_is_better: false,
            applies: Box::new(|_| true),
            value: Box::new(|r, _| Some(r.calls.len() >= 2)),
        },
    ]
}

/// Compare every metric of one model. `gated` names the metrics `--fail-on-regression` reads.
fn compare_model(
    model: &str,
    base: (&ModelResult, &Scorecard),
    head: (&ModelResult, &Scorecard),
    cases: &[&CaseInfo],
    again: Option<&Again<'_>>,
    pairing: Pairing,
    alpha: f64,
) -> ModelComparison {
    let bi = RowIndex::new(base.0, base.1);
    let hi = RowIndex::new(head.0, head.1);
    let run = |m: &Metric<'_>| compare_metric(m, cases, (&bi, &hi, again), pairing, alpha);
    let mut metrics: Vec<MetricComparison> = suite_metrics().iter().map(run).collect();
    if cases.iter().any(|c| c.expected_calls.is_some()) {
        // Parallel-call cases: the exact call set (tools and arguments), as mf eval's
        // callSetAccuracy counts it.
        metrics.push(run(&Metric {
            name: "call-set-accuracy",
            subject: None,
            higher_is_better: true,
            applies: Box::new(|c| c.expected_calls.is_some()),
            value: Box::new(|r, _| {
                Some(r.verdict == TrialVerdict::Correct && r.args.as_ref().is_none_or(|a| a.ok))
            }),
        }));
    }

    let expected: BTreeSet<String> = cases
        .iter()
        .filter_map(|c| c.expected_tool.clone())
        .collect();
    let mut tools: Vec<MetricComparison> = expected
        .iter()
        .map(|tool| {
            let t = tool.clone();
            run(&Metric {
                name: "tool-accuracy",
                subject: Some(tool.clone()),
                higher_is_better: true,
                applies: Box::new(move |c| c.expected_tool.as_deref() == Some(t.as_str())),
                value: Box::new(|r, _| Some(r.verdict == TrialVerdict::Correct)),
            })
        })
        .collect();
    adjust(&mut tools, pairing, alpha);

    let cells = |m: &ModelResult| -> BTreeSet<(String, String)> {
        m.metrics
            .confusion_pairs
            .iter()
            .map(|p| (p.expected.clone(), p.picked.clone()))
            .collect()
    };
    let (before, after) = (cells(base.0), cells(head.0));
    let changed: Vec<(String, String)> = before.symmetric_difference(&after).cloned().collect();
    let mut pairs: Vec<MetricComparison> = changed
        .into_iter()
        .map(|(expected, picked)| {
            let e = expected.clone();
            let p = picked.clone();
            run(&Metric {
                name: "confusion-pair",
                subject: Some(format!("{expected} → {picked}")),
                higher_is_better: false,
                applies: Box::new(move |c| {
                    c.expected_tool.as_deref().unwrap_or(NONE_LABEL) == e.as_str()
                }),
                value: Box::new(move |r, side| Some(side.picked(r) == p)),
            })
        })
        .collect();
    adjust(&mut pairs, pairing, alpha);

    // Variants are unreviewed, so `cases` (reviewed on both sides) has none: pair them here, by
    // the same rule (same id, same input).
    let base_inputs: BTreeMap<&str, &str> = base
        .1
        .suite
        .cases
        .iter()
        .map(|c| (c.id.as_str(), c.input_hash.as_str()))
        .collect();
    let variants: Vec<&CaseInfo> = head
        .1
        .suite
        .cases
        .iter()
        .filter(|c| c.mutated_from.is_some())
        .filter(|c| base_inputs.get(c.id.as_str()) == Some(&c.input_hash.as_str()))
        .collect();
    let robustness = (!variants.is_empty()).then(|| {
        compare_metric(
            &Metric {
                name: "robustness",
                subject: None,
                higher_is_better: true,
                applies: Box::new(|_| true),
                value: Box::new(|r, _| Some(failure_of(r).is_none())),
            },
            &variants,
            (&bi, &hi, again),
            pairing,
            alpha,
        )
    });
    ModelComparison {
        model: model.to_owned(),
        metrics,
        tools,
        pairs,
        robustness,
    }
}

fn compare_metric(
    m: &Metric<'_>,
    cases: &[&CaseInfo],
    (base, head, again): (&RowIndex<'_>, &RowIndex<'_>, Option<&Again<'_>>),
    pairing: Pairing,
    alpha: f64,
) -> MetricComparison {
    let (obs, before, after, triples) = observe(m, cases, base, head, again);
    // Orient so that `true` = good for the tests.
    let oriented: Vec<Vec<(bool, bool)>> = obs
        .cases
        .iter()
        .map(|(_, t)| {
            t.iter()
                .map(|&(b, h)| if m.higher_is_better { (b, h) } else { (!b, !h) })
                .collect()
        })
        .collect();
    let (trial, case) = tests_of(&oriented);
    // With an A/A run the calibrated test is always reported; it decides under `calibrated`.
    let calibrated = again.map(|_| calibrated_of(&triples));
    let verdict = verdict_of(&trial, &case, calibrated.as_ref(), pairing, alpha);
    let delta = match (before.value, after.value) {
        (Some(b), Some(a)) => Some(a - b),
        _ => None,
    };
    let differences: Vec<Vec<f64>> = obs
        .cases
        .iter()
        .map(|(_, t)| {
            t.iter()
                .map(|&(b, h)| f64::from(u8::from(h)) - f64::from(u8::from(b)))
                .collect()
        })
        .collect();
    // Every case moved by exactly the same amount (e.g. 2 of 2 cases fell in all trials): the
    // spread between cases is zero, and an interval of zero width would claim a certainty two
    // cases cannot give. No interval then, unless nothing moved at all.
    let effect = paired_difference(&differences)
        .filter(|d| d.standard_error > 0.0 || d.mean == 0.0)
        .map(|d| Effect {
            difference: d.mean,
            // A difference of proportions lies in [−1, 1]; the t interval can overshoot it.
            ci95: [d.ci95.0.max(-1.0), d.ci95.1.min(1.0)],
            standard_error: d.standard_error,
            cases: d.cases,
            trials: d.trials,
        });
    let mut out = MetricComparison {
        metric: m.name.to_owned(),
        subject: m.subject.clone(),
        higher_is_better: m.higher_is_better,
        before,
        after,
        delta,
        effect,
        trial,
        case,
        calibrated,
        verdict,
        notes: Vec::new(),
    };
    out.notes = notes(&out, &obs, &oriented, pairing, alpha);
    out
}

/// Holm-adjust a family (trial, case and calibrated p-values separately) and re-take the
/// verdicts.
fn adjust(family: &mut [MetricComparison], pairing: Pairing, alpha: f64) {
    let trial = holm(&family.iter().map(|m| m.trial.p).collect::<Vec<_>>());
    let case = holm(&family.iter().map(|m| m.case.p).collect::<Vec<_>>());
    let calibrated = holm(
        &family
            .iter()
            .map(|m| m.calibrated.as_ref().map_or(1.0, |c| c.p))
            .collect::<Vec<_>>(),
    );
    for (i, m) in family.iter_mut().enumerate() {
        m.trial.p_adjusted = trial[i];
        m.case.p_adjusted = case[i];
        if let Some(c) = m.calibrated.as_mut() {
            c.p_adjusted = calibrated[i];
        }
        m.verdict = verdict_of(&m.trial, &m.case, m.calibrated.as_ref(), pairing, alpha);
    }
}

fn notes(
    m: &MetricComparison,
    obs: &Observations,
    oriented: &[Vec<(bool, bool)>],
    pairing: Pairing,
    alpha: f64,
) -> Vec<String> {
    let mut notes = Vec::new();
    let min = min_pairs_for_significance(alpha);
    // A trial-level regression carried by a few cases whose trials all flipped together.
    let trial_says_regressed = m.trial.p <= alpha && m.trial.regressed > m.trial.improved;
    if trial_says_regressed && m.verdict != Verdict::LikelyRegressed {
        let flipped: Vec<&str> = obs
            .cases
            .iter()
            .zip(oriented)
            .filter(|(_, t)| t.iter().any(|&(b, h)| b && !h))
            .filter(|(_, t)| t.iter().all(|&(b, h)| b && !h))
            .map(|((id, _), _)| id.as_str())
            .collect();
        let regressing_cases = oriented
            .iter()
            .filter(|t| t.iter().any(|&(b, h)| b && !h))
            .count();
        if !flipped.is_empty() && flipped.len() == regressing_cases && flipped.len() < min as usize
        {
            notes.push(format!(
                "the trial-level regression rests on {} case(s) whose trials all flipped together ({}): \
                 a provider that flips whole cases between runs looks like this; the case-level \
                 test (p = {:.3}) is the one to trust",
                flipped.len(),
                flipped.join(", "),
                m.case.p
            ));
        }
    }
    if m.verdict == Verdict::LikelyRegressed {
        let c = &m.case;
        let why = match &m.calibrated {
            Some(cal) => format!(
                "the calibrated test cannot rule out the drift base showed against itself \
                 ({} of {} cases differed between base and base again; head was the worst \
                 run on {} of {} cases with a unique worst run, p = {})",
                cal.aa_flipped,
                cal.cases,
                cal.worse,
                cal.informative_worse,
                p_short(cal.p_adjusted)
            ),
            None => format!(
                "{} cases cannot rule out provider drift (the case-level test gives p = {}; \
                 it needs at least {min} cases to fall with none rising); run with \
                 --calibration BASE2 (base evaluated again, fresh requests) or add cases",
                c.pairs,
                p_short(c.p_adjusted)
            ),
        };
        notes.push(format!(
            "likely regressed: {} of {} cases fell ({} rose) and {} of {} trials ({} rose, p = {}), but {why}",
            c.regressed,
            c.pairs,
            c.improved,
            m.trial.regressed,
            m.trial.pairs,
            m.trial.improved,
            p_short(m.trial.p_adjusted)
        ));
    }
    let undecided = matches!(
        m.verdict,
        Verdict::InsufficientData | Verdict::NoSignificantChange | Verdict::LikelyRegressed
    );
    if undecided {
        if let Some(cal) = m
            .calibrated
            .as_ref()
            .filter(|_| pairing == Pairing::Calibrated)
        {
            if let Some(k) = calibrated_min_fall(cal.aa_flipped, alpha) {
                notes.push(format!(
                    "with the drift base showed against itself ({} of {} cases), the calibrated \
                     test needs about {k} cases to fall in head to call a regression",
                    cal.aa_flipped, cal.cases
                ));
            }
        } else {
            let t = match pairing {
                Pairing::Trial => &m.trial,
                _ => &m.case,
            };
            let unit = if pairing == Pairing::Trial {
                "trials"
            } else {
                "cases"
            };
            if t.pairs < min {
                notes.push(format!(
                    "only {} paired {unit} (at least {min} are needed before any change could be significant)",
                    t.pairs
                ));
            } else if let Some(more) = pairs_needed(t.improved, t.regressed, alpha) {
                notes.push(format!(
                    "{} of {} paired {unit} changed; about {more} more changed {unit} at this split would be needed to reach p ≤ {alpha}",
                    t.improved + t.regressed,
                    t.pairs
                ));
            } else if t.improved + t.regressed > 0 {
                notes.push(format!(
                    "{} of {} paired {unit} changed, split evenly: more data would not decide it",
                    t.improved + t.regressed,
                    t.pairs
                ));
            }
        }
    }
    notes
}

/// A p-value for a note: 3 significant digits.
fn p_short(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.4}")
    } else {
        format!("{p:.1e}")
    }
}

/// Compare two comparable scorecards.
pub fn compare(base: &Scorecard, head: &Scorecard, gate: GateSettings) -> EvalComparison {
    compare_calibrated(base, head, None, gate)
}

/// Compare two comparable scorecards, with the A/A run `calibration` (`(source, base again)`,
/// comparable with base, see [`calibration_reasons`]) when there is one. With it, every metric
/// carries the calibrated test and the gate's pairing should be `calibrated`.
pub fn compare_calibrated(
    base: &Scorecard,
    head: &Scorecard,
    calibration: Option<(&str, &Scorecard)>,
    gate: GateSettings,
) -> EvalComparison {
    let (cases, pairing) = pair_cases(base, head);
    let again_cases: BTreeSet<&str> = calibration
        .map(|(_, again)| {
            let by_id: BTreeMap<&str, &CaseInfo> = again
                .suite
                .cases
                .iter()
                .map(|c| (c.id.as_str(), c))
                .collect();
            base.suite
                .cases
                .iter()
                .filter(|c| {
                    by_id
                        .get(c.id.as_str())
                        .is_some_and(|a| a.input_hash == c.input_hash && a.reviewed)
                })
                .map(|c| c.id.as_str())
                .collect()
        })
        .unwrap_or_default();
    let mut models = Vec::new();
    for m in &base.models {
        if let Some(o) = head.models.iter().find(|o| o.label == m.label) {
            let again = calibration.and_then(|(_, card)| {
                card.models
                    .iter()
                    .find(|a| a.label == m.label)
                    .map(|a| Again {
                        index: RowIndex::new(a, card),
                        cases: again_cases.clone(),
                    })
            });
            models.push(compare_model(
                &m.label,
                (m, base),
                (o, head),
                &cases,
                again.as_ref(),
                gate.pairing,
                gate.alpha,
            ));
        }
    }
    let labels = |c: &Scorecard, other: &Scorecard| -> Vec<String> {
        c.models
            .iter()
            .filter(|m| !other.models.iter().any(|o| o.label == m.label))
            .map(|m| m.label.clone())
            .collect()
    };
    let calibration = calibration.map(|(source, _)| Calibration {
        source: source.to_owned(),
        paired: cases
            .iter()
            .filter(|c| again_cases.contains(c.id.as_str()))
            .count() as u64,
    });
    let aa_flipped = calibration.as_ref().map(|_| {
        models
            .iter()
            .flat_map(|m| &m.metrics)
            .filter(|c| c.metric == "selection-accuracy")
            .filter_map(|c| c.calibrated.as_ref().map(|x| x.aa_flipped))
            .max()
            .unwrap_or(0)
    });
    let power = power_plan(
        pairing.paired,
        u64::from(base.reproducibility.repeat),
        gate.pairing,
        gate.alpha,
        aa_flipped,
    );
    EvalComparison {
        cases: pairing,
        models_only_in_base: labels(base, head),
        models_only_in_head: labels(head, base),
        models,
        gate,
        calibration,
        power: Some(power),
        profiles: super::profiles::compare_groups(base, head),
    }
}

/// Why `again` cannot serve as the A/A run of `base`: every [`comparability`] reason, and any
/// trial served from the trial cache (a cached trial is base's own answer again, not a fresh
/// draw, and would make drift look smaller than it is). Empty = usable.
pub fn calibration_reasons(base: &Scorecard, again: &Scorecard) -> Vec<String> {
    let mut reasons = comparability(base, again);
    let cached: usize = again
        .models
        .iter()
        .map(|m| m.trials.iter().filter(|t| t.cached).count())
        .sum();
    if cached > 0 {
        reasons.push(format!(
            "the calibration run served {cached} trial(s) from the trial cache; re-run base \
             with the cache off so every request is fresh"
        ));
    }
    reasons
}

/// The overall verdict over the gated metrics: regressed > likely regressed > improved >
/// insufficient data > no significant change > unchanged. A metric with no paired trial at all
/// (over-trigger in a suite without must-not-call cases) measures nothing and stays out.
pub fn overall(eval: &EvalComparison) -> Verdict {
    let gated: Vec<Verdict> = eval
        .models
        .iter()
        .flat_map(|m| m.metrics.iter().chain(&m.tools).chain(&m.pairs))
        .filter(|c| eval.gate.metrics.iter().any(|g| g == &c.metric))
        .filter(|c| c.trial.pairs > 0)
        .map(|c| c.verdict)
        .collect();
    for v in [
        Verdict::Regressed,
        Verdict::LikelyRegressed,
        Verdict::Improved,
        Verdict::InsufficientData,
        Verdict::NoSignificantChange,
    ] {
        if gated.contains(&v) {
            return v;
        }
    }
    Verdict::Unchanged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cases(spec: &[(usize, usize, usize)]) -> Vec<Vec<(bool, bool)>> {
        // (trials, base good, head good) per case, good ones first.
        spec.iter()
            .map(|&(n, b, h)| (0..n).map(|i| (i < b, i < h)).collect())
            .collect()
    }

    #[test]
    fn identical_runs_are_unchanged_and_tiny_ones_insufficient() {
        let same = cases(&[(5, 3, 3); 10]);
        for p in [Pairing::Trial, Pairing::Case, Pairing::Both] {
            assert_eq!(decide(&same, p, 0.05).2, Verdict::Unchanged);
        }
        let tiny = cases(&[(5, 5, 0); 3]);
        // 3 cases fell in all 15 trials: the case-level test cannot decide, the trial-level
        // one can — likely regressed, not a gate failure.
        assert_eq!(
            decide(&tiny, Pairing::Case, 0.05).2,
            Verdict::LikelyRegressed
        );
        let mixed = cases(&[(5, 5, 0), (5, 0, 5), (5, 3, 3)]);
        assert_eq!(
            decide(&mixed, Pairing::Case, 0.05).2,
            Verdict::InsufficientData
        );
        // Identical runs with 2 cases (over-trigger with 2 must-not-call cases) read unchanged.
        let two = cases(&[(5, 0, 0), (5, 5, 5)]);
        for p in [
            Pairing::Trial,
            Pairing::Case,
            Pairing::Both,
            Pairing::Calibrated,
        ] {
            assert_eq!(decide(&two, p, 0.05).2, Verdict::Unchanged);
        }
        // 15 trial pairs regressed, all from 3 cases: trial-level says regressed, case-level
        // cannot (3 cases).
        let (trial, case, v) = decide(&tiny, Pairing::Trial, 0.05);
        assert_eq!(v, Verdict::Regressed);
        assert_eq!((trial.regressed, case.regressed), (15, 3));
    }

    #[test]
    fn seven_of_ten_broken_is_likely_regressed_and_calibration_decides() {
        // 10 cases × 5: 7 fell from 4/5 to 0/5, 1 rose, 2 unchanged.
        let mut spec = vec![(5, 4, 0); 7];
        spec.push((5, 0, 5));
        spec.extend([(5, 5, 5), (5, 0, 0)]);
        let pairs = cases(&spec);
        let (trial, case, v) = decide(&pairs, Pairing::Case, 0.05);
        assert_eq!((case.regressed, case.improved), (7, 1));
        assert!(case.p > 0.05 && trial.p < 1e-3);
        assert_eq!(v, Verdict::LikelyRegressed);
        // A stable A/A run (base again = base).
        let triples: Vec<(u64, u64, u64)> = spec
            .iter()
            .map(|&(_, b, h)| (b as u64, b as u64, h as u64))
            .collect();
        let (_, _, cal, v) = decide_calibrated(&pairs, &triples, 0.05);
        assert_eq!((cal.worse, cal.informative_worse), (7, 7));
        assert_eq!(v, Verdict::Regressed);
        // An A/A run that already shows head's outcome on every case: drift explains it all.
        let noisy: Vec<(u64, u64, u64)> = spec
            .iter()
            .map(|&(_, b, h)| (b as u64, h as u64, h as u64))
            .collect();
        let (_, _, _, v) = decide_calibrated(&pairs, &noisy, 0.05);
        assert_ne!(v, Verdict::Regressed);
        // Some pairs moved both ways, nothing significant anywhere: no significant change.
        let even = cases(&[
            (5, 5, 0),
            (5, 0, 5),
            (5, 5, 0),
            (5, 0, 5),
            (5, 5, 0),
            (5, 0, 5),
        ]);
        assert_eq!(
            decide(&even, Pairing::Case, 0.05).2,
            Verdict::NoSignificantChange
        );
    }

    #[test]
    fn a_broad_drop_regresses_at_case_level_and_direction_matters() {
        let mut spec = vec![(5, 5, 3); 8];
        spec.extend([(5, 4, 4); 4]);
        let (_, case, v) = decide(&cases(&spec), Pairing::Case, 0.05);
        assert_eq!((case.regressed, case.improved, case.tied), (8, 0, 4));
        assert_eq!(v, Verdict::Regressed);
        let up: Vec<(usize, usize, usize)> = spec.iter().map(|&(n, b, h)| (n, h, b)).collect();
        assert_eq!(
            decide(&cases(&up), Pairing::Case, 0.05).2,
            Verdict::Improved
        );
        assert_eq!(
            decide(&cases(&spec), Pairing::Both, 0.05).2,
            Verdict::Regressed
        );
    }
}
