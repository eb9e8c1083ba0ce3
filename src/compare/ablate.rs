//! Leave-one-out (`mf ablate`): the same plan without a tool — within a mount group with
//! `--profile` — and, for each other tool and case, paired before/after counts with the paired
//! exact tests of `mf compare` ([`super::eval::decide`]). Every run is planned and checked
//! against the budgets before any is sent (`eval::batch`); the full plan's trials are those of a
//! plain `mf eval` (or of the group mounted alone), so a cached run is not paid for twice.
//!
//! Pairing: the run without tool T asks the full plan's cases except those expecting T, with
//! each trial's tool order the full plan's order minus T (`eval::leave_out`), so a pair of
//! trials differs only by T's absence. A case *fixes* when it has more good (selection-correct)
//! paired trials without T, *hurts* when fewer.

use std::collections::BTreeMap;
use std::time::Instant;

use super::eval::{decide, verdict_of};
use crate::eval::batch::{self, BatchPlan, BatchRun};
use crate::eval::dry_run::DryRun;
use crate::eval::evaluate::{
    EvalOutcome, Interrupted, LoadedSuite, Observer, evaluate, profile_tools,
};
use crate::eval::plan::BudgetError;
use crate::eval::{EvalConfig, EvalError};
use crate::report::ablate::{
    ABLATE_VERSION, AblateReport, AblateSuite, Ablation, AblationMetric, CaseChange, Stolen,
};
use crate::report::compare::{GateSettings, PairedTest, Pairing};
use crate::report::metrics::{NONE_LABEL, Rate, Verdict as TrialVerdict};
use crate::report::scorecard::{ModelResult, Scorecard, Status, TrialRow};
use crate::stats::{holm, sign_test};
use crate::suite::{Case, Selection};
use crate::surface::Surface;

/// Significance level of the ablation's tests.
pub const ALPHA: f64 = 0.05;

/// Which tools to leave out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `--tool T` (repeatable): each in turn.
    Tools(Vec<String>),
    /// `--all`: every offered tool in turn.
    All,
}

/// The validated settings of `mf ablate`.
#[derive(Debug, Clone, PartialEq)]
pub struct AblateConfig {
    /// The eval settings of every run (models, repeat, seed, budgets, cache); its `profile`,
    /// `mount_groups` and `without` are set here.
    pub eval: EvalConfig,
    /// `--profile`: ablate within this mount group (mounted alone, over its cases).
    pub profile: Option<String>,
    /// The tools to leave out.
    pub target: Target,
}

/// How an ablation ended.
#[derive(Debug)]
pub enum AblateOutcome {
    /// Every run finished.
    Report(Box<AblateReport>),
    /// `--dry-run`: the plan of every run; nothing was sent.
    DryRun(Box<DryRun>),
    /// A trial's prompt is over `--max-context-tokens` (exit 2).
    OverContext(Vec<BudgetError>),
    /// Ctrl-C (finished trials are cached).
    Interrupted(Interrupted),
}

/// Run the ablation: plan every run, check the budgets on the totals, run the full plan, then
/// each tool left out; compare.
pub fn ablate(
    config: &AblateConfig,
    started: Instant,
    suite: &LoadedSuite,
    surface: Surface,
    surface_label: &str,
    observer: &mut dyn Observer,
) -> Result<AblateOutcome, EvalError> {
    let offered: Vec<String> = profile_tools(
        surface.tools.clone(),
        &suite.suite,
        config.profile.as_deref(),
    )?
    .into_iter()
    .map(|t| t.name)
    .collect();
    let targets: Vec<String> = match &config.target {
        Target::All => offered.clone(),
        Target::Tools(names) => {
            let unknown: Vec<&str> = names
                .iter()
                .filter(|n| !offered.contains(n))
                .map(String::as_str)
                .collect();
            if !unknown.is_empty() {
                let within = config
                    .profile
                    .as_ref()
                    .map_or_else(|| "the surface".to_owned(), |p| format!("profile {p:?}"));
                return Err(EvalError::Plan(format!(
                    "--tool {}: not a tool of {within} (tools: {})",
                    unknown.join(", "),
                    offered.join(", ")
                )));
            }
            offered
                .iter()
                .filter(|t| names.contains(t))
                .cloned()
                .collect()
        }
    };
    let selected: Vec<&Case> = crate::suite::select(&suite.suite, &config.eval.selection)
        .map_err(|e| EvalError::Plan(format!("{}: {e}", suite.display)))?;
    let members = config
        .profile
        .as_ref()
        .and_then(|p| suite.suite.profiles.get(p));
    let full_cases: Vec<&Case> = selected
        .into_iter()
        .filter(|c| match (&c.expected_tool, members) {
            (_, None) | (Some(None), _) => true,
            (Some(Some(t)), Some(m)) => m.contains(t),
            (None, Some(_)) => false,
        })
        .collect();
    if let (Some(p), true) = (&config.profile, full_cases.is_empty()) {
        return Err(EvalError::Plan(format!(
            "no selected case belongs to profile {p:?}: none expects one of its tools or no tool"
        )));
    }
    let ids = |cases: &[&Case]| Selection {
        ids: cases.iter().map(|c| c.id.clone()).collect(),
        only: Vec::new(),
        skip: Vec::new(),
    };
    let base = EvalConfig {
        profile: config.profile.clone(),
        mount_groups: None,
        without: Vec::new(),
        selection: if config.profile.is_some() {
            ids(&full_cases)
        } else {
            config.eval.selection.clone()
        },
        ..config.eval.clone()
    };
    let mut runs = vec![BatchRun {
        label: match &config.profile {
            Some(p) => format!("with group {p:?} mounted alone"),
            None => "with every tool".into(),
        },
        config: base.clone(),
    }];
    // Per target: its run's index in `runs`, or why it has none, and the cases expecting it.
    let mut plans: Vec<(String, Option<usize>, Vec<String>)> = Vec::new();
    for t in &targets {
        let kept: Vec<&Case> = full_cases
            .iter()
            .copied()
            .filter(|c| c.expected_tool.as_ref().and_then(Option::as_deref) != Some(t.as_str()))
            .collect();
        let expecting: Vec<String> = full_cases
            .iter()
            .filter(|c| c.expected_tool.as_ref().and_then(Option::as_deref) == Some(t.as_str()))
            .map(|c| c.id.clone())
            .collect();
        if kept.is_empty() || offered.len() < 2 {
            plans.push((t.clone(), None, expecting));
            continue;
        }
        plans.push((t.clone(), Some(runs.len()), expecting));
        runs.push(BatchRun {
            label: format!("without {t}"),
            config: EvalConfig {
                without: vec![t.clone()],
                selection: ids(&kept),
                ..base.clone()
            },
        });
    }
    match batch::plan(
        &runs,
        &config.eval,
        config.eval.dry_run,
        suite,
        &surface,
        surface_label,
    )? {
        BatchPlan::Go => {}
        BatchPlan::DryRun(p) => return Ok(AblateOutcome::DryRun(p)),
        BatchPlan::OverContext(r) => return Ok(AblateOutcome::OverContext(r)),
    }
    let mut cards: Vec<Scorecard> = Vec::with_capacity(runs.len());
    for run in &runs {
        if !cards.is_empty() {
            observer.note(&format!("note: running the plan {}", run.label));
        }
        match evaluate(
            &run.config,
            started,
            suite,
            surface.clone(),
            surface_label,
            observer,
        )? {
            EvalOutcome::Card(c) => cards.push(*c),
            EvalOutcome::Interrupted(i) => return Ok(AblateOutcome::Interrupted(i)),
            EvalOutcome::OverContext(r) => return Ok(AblateOutcome::OverContext(r)),
            EvalOutcome::DryRun(p) => return Ok(AblateOutcome::DryRun(p)),
        }
    }
    let full = &cards[0];
    let mut ablations = Vec::new();
    for (tool, run, expecting) in &plans {
        for m in &full.models {
            let after = run.and_then(|i| cards[i].models.iter().find(|x| x.label == m.label));
            ablations.push(match after {
                Some(a) => ablation(tool, full, m, a, expecting),
                None => Ablation {
                    tool: tool.clone(),
                    model: m.label.clone(),
                    summary: format!(
                        "`{tool}` was not left out: {}",
                        if offered.len() < 2 {
                            "it is the only tool offered"
                        } else {
                            "every case expects it"
                        }
                    ),
                    fixes: Vec::new(),
                    hurts: Vec::new(),
                    stolen: stolen(tool, full, m),
                    left_out: expecting.clone(),
                    selection: metric(None, &[]),
                    tools: Vec::new(),
                    cases: Vec::new(),
                    healthy: true,
                    problems: vec!["no run without it".into()],
                },
            });
        }
    }
    let unhealthy = cards.iter().any(|c| c.status == Status::Unhealthy);
    Ok(AblateOutcome::Report(Box::new(AblateReport {
        version: ABLATE_VERSION,
        kind: "ablate".into(),
        status: if unhealthy {
            Status::Unhealthy
        } else {
            Status::Pass
        },
        suite: AblateSuite {
            name: full.suite.name.clone(),
            path: full.suite.path.clone(),
            surface: full.suite.surface.clone(),
            profile: config.profile.clone(),
            tools: full.suite.tools.clone(),
            cases: full.suite.cases.iter().map(|c| c.id.clone()).collect(),
            fingerprint: full.suite.fingerprint.clone(),
        },
        reproducibility: full.reproducibility.clone(),
        gate: GateSettings {
            pairing: Pairing::Case,
            alpha: ALPHA,
            metrics: vec!["selection-accuracy".into()],
        },
        ablations,
    })))
}

/// Scored rows of a model by (case, trial).
fn scored(m: &ModelResult) -> BTreeMap<(&str, u32), &TrialRow> {
    m.trials
        .iter()
        .filter(|t| t.verdict != TrialVerdict::Error)
        .map(|t| ((t.case.as_str(), t.trial), t))
        .collect()
}

fn good(t: &TrialRow) -> bool {
    matches!(
        t.verdict,
        TrialVerdict::Correct | TrialVerdict::CorrectAbstention
    )
}

/// The failure word of a trial, `None` when it is good.
fn failure(t: &TrialRow) -> Option<&'static str> {
    Some(match t.verdict {
        TrialVerdict::Correct | TrialVerdict::CorrectAbstention | TrialVerdict::Error => {
            return None;
        }
        TrialVerdict::OverTriggered => "over-trigger",
        TrialVerdict::WrongTool => "wrong-tool",
        TrialVerdict::Abstained => "no-call",
        TrialVerdict::Phantom => "phantom",
        TrialVerdict::UnexpectedAdditionalCalls => "extra-calls",
    })
}

/// The commonest failure of `rows` (ties to the first word alphabetically).
fn commonest(rows: &[&TrialRow]) -> Option<String> {
    let mut n: BTreeMap<&str, u64> = BTreeMap::new();
    for r in rows {
        if let Some(f) = failure(r) {
            *n.entry(f).or_default() += 1;
        }
    }
    n.iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(k, _)| (*k).to_owned())
}

/// Cases where the full plan called `tool` although another answer was expected.
fn stolen(tool: &str, full: &Scorecard, m: &ModelResult) -> Vec<Stolen> {
    let mut out: Vec<Stolen> = Vec::new();
    for c in &full.suite.cases {
        if !c.reviewed || c.expected_tool.as_deref() == Some(tool) {
            continue;
        }
        let rows: Vec<&TrialRow> = m
            .trials
            .iter()
            .filter(|t| t.case == c.id && t.verdict != TrialVerdict::Error)
            .collect();
        let k = rows
            .iter()
            .filter(|t| {
                t.calls
                    .iter()
                    .any(|call| call.name.as_deref() == Some(tool))
            })
            .count() as u64;
        if k > 0 {
            out.push(Stolen {
                case: c.id.clone(),
                trials: k,
                of: rows.len() as u64,
            });
        }
    }
    out
}

fn paired(p: &crate::stats::SignTest, tied: u64) -> PairedTest {
    PairedTest {
        pairs: p.improved + p.regressed + tied,
        improved: p.improved,
        regressed: p.regressed,
        tied,
        p: p.p,
        mid_p: p.mid_p,
        p_adjusted: p.p,
    }
}

/// One metric from per-case (before, after) good flags.
fn metric(subject: Option<String>, cases: &[Vec<(bool, bool)>]) -> AblationMetric {
    let (trial, case, verdict) = decide(cases, Pairing::Case, ALPHA);
    let n: u64 = cases.iter().map(|c| c.len() as u64).sum();
    let b: u64 = cases.iter().flatten().filter(|p| p.0).count() as u64;
    let a: u64 = cases.iter().flatten().filter(|p| p.1).count() as u64;
    let (before, after) = (Rate::new(b, n), Rate::new(a, n));
    AblationMetric {
        subject,
        delta: match (before.value, after.value) {
            (Some(x), Some(y)) => Some(y - x),
            _ => None,
        },
        before,
        after,
        trial,
        case,
        verdict,
    }
}

/// The ablation of `tool` for model `m`: full plan `full` (its model `m`) against `after`.
fn ablation(
    tool: &str,
    full: &Scorecard,
    m: &ModelResult,
    after: &ModelResult,
    expecting: &[String],
) -> Ablation {
    let (b, a) = (scored(m), scored(after));
    let mut cases = Vec::new();
    let mut pairs_by_expected: BTreeMap<String, Vec<Vec<(bool, bool)>>> = BTreeMap::new();
    let mut all_pairs = Vec::new();
    for c in full.suite.cases.iter().filter(|c| c.reviewed) {
        if expecting.contains(&c.id) {
            continue;
        }
        let mut pairs = Vec::new();
        let (mut rb, mut ra) = (Vec::new(), Vec::new());
        for (&(id, trial), row) in b.range((c.id.as_str(), 0)..=(c.id.as_str(), u32::MAX)) {
            if let Some(other) = a.get(&(id, trial)) {
                pairs.push((good(row), good(other)));
                rb.push(*row);
                ra.push(*other);
            }
        }
        if pairs.is_empty() {
            continue;
        }
        let kb = pairs.iter().filter(|p| p.0).count() as u64;
        let ka = pairs.iter().filter(|p| p.1).count() as u64;
        let up = pairs.iter().filter(|p| !p.0 && p.1).count() as u64;
        let down = pairs.iter().filter(|p| p.0 && !p.1).count() as u64;
        let s = sign_test(up, down);
        cases.push(CaseChange {
            case: c.id.clone(),
            expected_tool: c.expected_tool.clone(),
            trials: pairs.len() as u64,
            before: kb,
            after: ka,
            failure_before: commonest(&rb),
            failure_after: commonest(&ra),
            change: match ka.cmp(&kb) {
                std::cmp::Ordering::Greater => "fixed",
                std::cmp::Ordering::Less => "hurt",
                std::cmp::Ordering::Equal => "same",
            }
            .into(),
            test: paired(&s, pairs.len() as u64 - up - down),
        });
        pairs_by_expected
            .entry(
                c.expected_tool
                    .clone()
                    .unwrap_or_else(|| NONE_LABEL.to_owned()),
            )
            .or_default()
            .push(pairs.clone());
        all_pairs.push(pairs);
    }
    let mut tools: Vec<AblationMetric> = pairs_by_expected
        .into_iter()
        .map(|(subject, cases)| metric(Some(subject), &cases))
        .collect();
    let adjusted_trial = holm(&tools.iter().map(|t| t.trial.p).collect::<Vec<_>>());
    let adjusted_case = holm(&tools.iter().map(|t| t.case.p).collect::<Vec<_>>());
    for (i, t) in tools.iter_mut().enumerate() {
        t.trial.p_adjusted = adjusted_trial[i];
        t.case.p_adjusted = adjusted_case[i];
        t.verdict = verdict_of(&t.trial, &t.case, None, Pairing::Case, ALPHA);
    }
    let fixes: Vec<String> = cases
        .iter()
        .filter(|c| c.change == "fixed")
        .map(|c| c.case.clone())
        .collect();
    let hurts: Vec<String> = cases
        .iter()
        .filter(|c| c.change == "hurt")
        .map(|c| c.case.clone())
        .collect();
    Ablation {
        tool: tool.to_owned(),
        model: m.label.clone(),
        summary: summary(tool, &cases),
        fixes,
        hurts,
        stolen: stolen(tool, full, m),
        left_out: expecting.to_vec(),
        selection: metric(None, &all_pairs),
        tools,
        cases,
        healthy: after.health.healthy,
        problems: after.health.problems.clone(),
    }
}

/// `removing \`T\` fixes c9 (over-trigger 5→0 of 5); hurts nothing`.
fn summary(tool: &str, cases: &[CaseChange]) -> String {
    let describe = |c: &CaseChange, worse: Option<&String>| {
        let word = worse.map_or("failed", String::as_str);
        format!(
            "{} ({word} {}→{} of {})",
            c.case,
            c.trials - c.before,
            c.trials - c.after,
            c.trials
        )
    };
    let fixed: Vec<String> = cases
        .iter()
        .filter(|c| c.change == "fixed")
        .map(|c| describe(c, c.failure_before.as_ref()))
        .collect();
    let hurt: Vec<String> = cases
        .iter()
        .filter(|c| c.change == "hurt")
        .map(|c| describe(c, c.failure_after.as_ref()))
        .collect();
    let list = |v: &[String]| {
        if v.is_empty() {
            "nothing".to_owned()
        } else {
            v.join(", ")
        }
    };
    format!(
        "removing `{tool}` fixes {}; hurts {}",
        list(&fixed),
        list(&hurt)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(
        case: &str,
        trials: u64,
        before: u64,
        after: u64,
        fb: Option<&str>,
        fa: Option<&str>,
    ) -> CaseChange {
        CaseChange {
            case: case.into(),
            expected_tool: None,
            trials,
            before,
            after,
            failure_before: fb.map(str::to_owned),
            failure_after: fa.map(str::to_owned),
            change: match after.cmp(&before) {
                std::cmp::Ordering::Greater => "fixed",
                std::cmp::Ordering::Less => "hurt",
                std::cmp::Ordering::Equal => "same",
            }
            .into(),
            test: PairedTest {
                pairs: trials,
                improved: 0,
                regressed: 0,
                tied: trials,
                p: 1.0,
                mid_p: 1.0,
                p_adjusted: 1.0,
            },
        }
    }

    #[test]
    fn the_summary_names_fixed_and_hurt_cases_by_failed_trials() {
        let cases = [
            change("c9", 5, 0, 5, Some("over-trigger"), None),
            change("c2", 5, 5, 5, None, None),
            change("c4", 5, 2, 4, Some("wrong-tool"), Some("no-call")),
            change("c7", 3, 3, 0, None, Some("no-call")),
        ];
        assert_eq!(
            summary("read_graph", &cases),
            "removing `read_graph` fixes c9 (over-trigger 5→0 of 5), c4 (wrong-tool 3→1 of 5); \
             hurts c7 (no-call 0→3 of 3)"
        );
        assert_eq!(
            summary("x", &cases[1..2]),
            "removing `x` fixes nothing; hurts nothing"
        );
    }

    #[test]
    fn the_commonest_failure_breaks_ties_by_name() {
        let row = |v: TrialVerdict| TrialRow {
            case: "c".into(),
            trial: 0,
            order: Vec::new(),
            verdict: v,
            calls: Vec::new(),
            args: None,
            text: None,
            error: None,
            latency_ms: None,
            usage: None,
            retries: 0,
            cached: false,
            execution: None,
        };
        let rows = [
            row(TrialVerdict::WrongTool),
            row(TrialVerdict::Abstained),
            row(TrialVerdict::Correct),
        ];
        let refs: Vec<&TrialRow> = rows.iter().collect();
        assert_eq!(commonest(&refs).as_deref(), Some("no-call"));
        let ok = [row(TrialVerdict::Correct), row(TrialVerdict::Error)];
        let refs: Vec<&TrialRow> = ok.iter().collect();
        assert_eq!(commonest(&refs), None);
    }
}
