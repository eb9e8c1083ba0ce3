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
//! Both use the exact two-sided sign test (ties dropped). A verdict is taken from the gate's
//! pairing (`case` by default, see SCHEMA.md for the simulation behind that choice): regressed or
//! improved when p (Holm-adjusted within the tools and pairs families) ≤ α; `insufficient-data`
//! when 1–5 pairs are discordant (no split of ≤ 5 can reach p ≤ 0.05) or fewer than 6 pairs
//! exist at all; `unchanged` otherwise (including "every pair tied" over ≥ 6 pairs).

use std::collections::{BTreeMap, BTreeSet};

use crate::eval::score::picked_label;
use crate::providers::Reply;
use crate::report::compare::{
    CasePairing, EvalComparison, GateSettings, MetricComparison, ModelComparison, PairedTest,
    Pairing, Verdict,
};
use crate::report::metrics::{NONE_LABEL, Rate, Verdict as TrialVerdict};
use crate::report::scorecard::{CaseInfo, ModelResult, Scorecard, Status, TrialRow};
use crate::stats::{holm, min_pairs_for_significance, pairs_needed, sign_test};

/// Metrics gated by `--fail-on-regression` unless `--gate-metrics` says otherwise.
pub const DEFAULT_GATED: &[&str] = &["selection-accuracy", "argument-accuracy", "over-trigger"];

/// Every metric name a gate may list.
pub const METRICS: &[&str] = &[
    "selection-accuracy",
    "argument-accuracy",
    "over-trigger",
    "multi-call",
    "tool-accuracy",
    "confusion-pair",
];

/// Every reason the two scorecards cannot be compared; empty = comparable.
pub fn comparability(base: &Scorecard, head: &Scorecard) -> Vec<String> {
    let mut reasons = Vec::new();
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
pub fn decide(
    cases: &[Vec<(bool, bool)>],
    pairing: Pairing,
    alpha: f64,
) -> (PairedTest, PairedTest, Verdict) {
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
    let trial = test(ti, tr, tt);
    let case = test(ci, cr, ct);
    let verdict = verdict_of(&trial, &case, pairing, alpha);
    (trial, case, verdict)
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

fn single(t: &PairedTest, alpha: f64) -> Verdict {
    let min = min_pairs_for_significance(alpha);
    let discordant = t.improved + t.regressed;
    if t.pairs < min || (discordant > 0 && discordant < min) {
        Verdict::InsufficientData
    } else if t.p_adjusted <= alpha && t.regressed > t.improved {
        Verdict::Regressed
    } else if t.p_adjusted <= alpha && t.improved > t.regressed {
        Verdict::Improved
    } else {
        Verdict::Unchanged
    }
}

/// The verdict of a pair of tests under `pairing`.
pub fn verdict_of(trial: &PairedTest, case: &PairedTest, pairing: Pairing, alpha: f64) -> Verdict {
    match pairing {
        Pairing::Trial => single(trial, alpha),
        Pairing::Case => single(case, alpha),
        Pairing::Both => match (single(trial, alpha), single(case, alpha)) {
            (a, b) if a == b => a,
            (_, Verdict::InsufficientData) => Verdict::InsufficientData,
            _ => Verdict::Unchanged,
        },
    }
}

/// Compare one metric over the paired cases.
fn observe(
    metric: &Metric<'_>,
    cases: &[&CaseInfo],
    base: &RowIndex<'_>,
    head: &RowIndex<'_>,
) -> (Observations, Rate, Rate) {
    let mut obs = Observations::default();
    let (mut bn, mut hn, mut n) = (0u64, 0u64, 0u64);
    for case in cases.iter().filter(|c| (metric.applies)(c)) {
        let mut trials = Vec::new();
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
        }
        if !trials.is_empty() {
            obs.cases.push((case.id.clone(), trials));
        }
    }
    (obs, Rate::new(bn, n), Rate::new(hn, n))
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
    pairing: Pairing,
    alpha: f64,
) -> ModelComparison {
    let bi = RowIndex::new(base.0, base.1);
    let hi = RowIndex::new(head.0, head.1);
    let run = |m: &Metric<'_>| compare_metric(m, cases, &bi, &hi, pairing, alpha);
    let metrics: Vec<MetricComparison> = suite_metrics().iter().map(run).collect();

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
    ModelComparison {
        model: model.to_owned(),
        metrics,
        tools,
        pairs,
    }
}

fn compare_metric(
    m: &Metric<'_>,
    cases: &[&CaseInfo],
    base: &RowIndex<'_>,
    head: &RowIndex<'_>,
    pairing: Pairing,
    alpha: f64,
) -> MetricComparison {
    let (obs, before, after) = observe(m, cases, base, head);
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
    let (trial, case, verdict) = decide(&oriented, pairing, alpha);
    let delta = match (before.value, after.value) {
        (Some(b), Some(a)) => Some(a - b),
        _ => None,
    };
    let mut out = MetricComparison {
        metric: m.name.to_owned(),
        subject: m.subject.clone(),
        higher_is_better: m.higher_is_better,
        before,
        after,
        delta,
        trial,
        case,
        verdict,
        notes: Vec::new(),
    };
    out.notes = notes(&out, &obs, &oriented, pairing, alpha);
    out
}

/// Holm-adjust a family (trial and case p-values separately) and re-take the verdicts.
fn adjust(family: &mut [MetricComparison], pairing: Pairing, alpha: f64) {
    let trial = holm(&family.iter().map(|m| m.trial.p).collect::<Vec<_>>());
    let case = holm(&family.iter().map(|m| m.case.p).collect::<Vec<_>>());
    for (i, m) in family.iter_mut().enumerate() {
        m.trial.p_adjusted = trial[i];
        m.case.p_adjusted = case[i];
        m.verdict = verdict_of(&m.trial, &m.case, pairing, alpha);
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
    if trial_says_regressed {
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
    if m.verdict == Verdict::InsufficientData {
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
        } else {
            notes.push(format!(
                "{} of {} paired {unit} changed, split evenly: more data would not decide it",
                t.improved + t.regressed,
                t.pairs
            ));
        }
    }
    notes
}

/// Compare two comparable scorecards.
pub fn compare(base: &Scorecard, head: &Scorecard, gate: GateSettings) -> EvalComparison {
    let (cases, pairing) = pair_cases(base, head);
    let mut models = Vec::new();
    for m in &base.models {
        if let Some(o) = head.models.iter().find(|o| o.label == m.label) {
            models.push(compare_model(
                &m.label,
                (m, base),
                (o, head),
                &cases,
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
    EvalComparison {
        cases: pairing,
        models_only_in_base: labels(base, head),
        models_only_in_head: labels(head, base),
        models,
        gate,
    }
}

/// The overall verdict over the gated metrics: regressed > improved > insufficient data >
/// unchanged. A metric with no paired trial at all (over-trigger in a suite without
/// must-not-call cases) measures nothing and stays out.
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
        Verdict::Improved,
        Verdict::InsufficientData,
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
        assert_eq!(
            decide(&tiny, Pairing::Case, 0.05).2,
            Verdict::InsufficientData
        );
        // 15 trial pairs regressed, all from 3 cases: trial-level says regressed, case-level
        // cannot (3 cases).
        let (trial, case, v) = decide(&tiny, Pairing::Trial, 0.05);
        assert_eq!(v, Verdict::Regressed);
        assert_eq!((trial.regressed, case.regressed), (15, 3));
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
