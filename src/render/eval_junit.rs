//! JUnit XML of an eval (quick-junit), for CI test reporters: one `<testsuite>` per model, one
//! `<testcase>` per case aggregated over its trials (never one per trial), and for `mf ci` the
//! lint findings and the compare verdicts as suites of their own.
//!
//! **When a case passes.** A trial *passes* when it is scored (reviewed, not an error), its
//! verdict is a selection success (`correct`, `correct-abstention`) and the argument check of
//! its call, when there was one, passed. A case passes when a strict majority of its scored
//! trials pass (a tie fails), the same majority rule as the scorecard's `caseLevel`, with the
//! arguments counted too — so a case whose model picks the right tool with wrong arguments most
//! of the time fails as `wrong_args`, while `caseLevel` (selection only) counts it as won.
//!
//! A failing case is a `<failure>` whose `type` is the commonest way its trials failed:
//! `wrong_tool` (another tool, a phantom name, or extra tools besides the expected one),
//! `wrong_args`, `no_call` (abstained on a must-call case) or `over_trigger` (a call on a
//! must-not-call case); ties go to that order. Its message is `k of n trials passed, 95% CI
//! lo–hi%` (Wilson, `crate::stats::wilson`). A case with no scored trial because every trial
//! errored is an `<error>` (provider trouble, never a wrong answer); when every trial ended in
//! `no-key` or `cancelled` the case was not run and is `<skipped>`, as are unreviewed cases
//! (`reviewed: false` never counts). Error counts of a case that also has answers are in its
//! message and `<system-out>`.
//!
//! Each testcase has `classname` = suite name, `name` = case id, and the extra attributes
//! `file` = suite path and `line` = the case's line when known; its figures are `<properties>`.
//! The model's figures (accuracy with CIs, tokens, cost, latency, run health) are the suite's
//! `<properties>`. `time` is the sum of the trials' recorded latencies, when any were recorded.

use std::collections::BTreeMap;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use crate::providers::ErrorKind;
use crate::report::ci::{CiMode, CiReport};
use crate::report::compare::{CompareReport, MetricComparison, Verdict as CompareVerdict};
use crate::report::metrics::{Rate, Verdict};
use crate::report::scorecard::{CaseInfo, ModelResult, Scorecard, TrialRow};
use crate::stats;

/// How a failing trial (or case) failed, as written in `<failure type="…">`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FailureKind {
    /// Another surface tool, a phantom name, or extra tools besides the expected one.
    WrongTool,
    /// The expected tool with arguments that fail the check.
    WrongArgs,
    /// No call on a must-call case.
    NoCall,
    /// A call on a must-not-call case.
    OverTrigger,
}

impl FailureKind {
    /// The `type` attribute: `wrong_tool`, `wrong_args`, `no_call`, `over_trigger`.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::WrongTool => "wrong_tool",
            FailureKind::WrongArgs => "wrong_args",
            FailureKind::NoCall => "no_call",
            FailureKind::OverTrigger => "over_trigger",
        }
    }

    /// How a scored trial failed; `None` when it passed.
    pub fn of_trial(trial: &TrialRow) -> Option<FailureKind> {
        match trial.verdict {
            Verdict::Correct if trial.args.as_ref().is_some_and(|a| !a.ok) => {
                Some(FailureKind::WrongArgs)
            }
            Verdict::Correct | Verdict::CorrectAbstention | Verdict::Error => None,
            Verdict::WrongTool | Verdict::Phantom | Verdict::UnexpectedAdditionalCalls => {
                Some(FailureKind::WrongTool)
            }
            Verdict::Abstained => Some(FailureKind::NoCall),
            Verdict::OverTriggered => Some(FailureKind::OverTrigger),
        }
    }
}

/// What became of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseStatus {
    /// A strict majority of its scored trials passed.
    Pass,
    /// It has scored trials and no strict majority passed; the commonest failure.
    Fail(FailureKind),
    /// Every trial errored (provider trouble).
    Error,
    /// Not run: every trial ended in `no-key` or `cancelled`, or the case has no trial.
    NotRun,
    /// `reviewed: false`: run, but never counted.
    Unreviewed,
}

/// One case of one model, tallied over its trials.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseOutcome {
    /// Case id.
    pub id: String,
    /// The expected tool; `None` = must not call.
    pub expected: Option<String>,
    /// Line of the case in the suite file, when known.
    pub line: Option<u32>,
    /// Trials of the case.
    pub trials: u64,
    /// Trials that are not errors.
    pub scored: u64,
    /// Scored trials that passed (see the module docs).
    pub passed: u64,
    /// Failed scored trials by how they failed.
    pub failures: BTreeMap<FailureKind, u64>,
    /// Error trials by kind (`timeout`, `http`, …).
    pub errors: BTreeMap<String, u64>,
    /// Trials by verdict.
    pub verdicts: BTreeMap<Verdict, u64>,
    /// Sum of recorded latencies (ms) and how many trials recorded one.
    pub latency_ms: (u64, u64),
    /// Input and output tokens the provider reported.
    pub tokens: (u64, u64),
    /// The verdict of the case.
    pub status: CaseStatus,
}

impl CaseOutcome {
    /// `passed / scored` with its Wilson interval.
    pub fn rate(&self) -> Rate {
        Rate::new(self.passed, self.scored)
    }

    /// Error trials in all.
    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    /// `k of n trials passed, 95% CI lo–hi%` (`no scored trial` when none was scored).
    pub fn summary(&self) -> String {
        match stats::wilson(self.passed, self.scored) {
            Some((lo, hi)) => format!(
                "{} of {} trials passed, 95% CI {:.1}–{:.1}%",
                self.passed,
                self.scored,
                lo * 100.0,
                hi * 100.0
            ),
            None => "no scored trial".to_owned(),
        }
    }

    /// `timeout 3, http 2`: the error kinds with their counts.
    pub fn error_text(&self) -> String {
        counts_text(self.errors.iter().map(|(k, n)| (k.as_str(), *n)))
    }

    /// `wrong_tool 3, no_call 1`: how the failed trials failed.
    pub fn failure_text(&self) -> String {
        counts_text(self.failures.iter().map(|(k, n)| (k.as_str(), *n)))
    }
}

fn counts_text<'a>(items: impl Iterator<Item = (&'a str, u64)>) -> String {
    items
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The JSON name of an error kind (`no-key`, `timeout`, …).
pub(crate) fn error_kind_name(kind: ErrorKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{kind:?}").to_lowercase())
}

/// Every selected case of `model`, in suite order, tallied over its trials. Tallying is
/// counting, not statistics: the rule that decides a case is in the module docs.
pub fn case_outcomes(model: &ModelResult, cases: &[CaseInfo]) -> Vec<CaseOutcome> {
    let mut by_case: BTreeMap<&str, Vec<&TrialRow>> = BTreeMap::new();
    for t in &model.trials {
        by_case.entry(t.case.as_str()).or_default().push(t);
    }
    cases
        .iter()
        .map(|case| {
            let trials = by_case.remove(case.id.as_str()).unwrap_or_default();
            outcome(case, &trials)
        })
        .collect()
}

fn outcome(case: &CaseInfo, trials: &[&TrialRow]) -> CaseOutcome {
    let mut o = CaseOutcome {
        id: case.id.clone(),
        expected: case.expected_tool.clone(),
        line: case.line,
        trials: trials.len() as u64,
        scored: 0,
        passed: 0,
        failures: BTreeMap::new(),
        errors: BTreeMap::new(),
        verdicts: BTreeMap::new(),
        latency_ms: (0, 0),
        tokens: (0, 0),
        status: CaseStatus::NotRun,
    };
    let mut not_run = 0;
    for t in trials {
        *o.verdicts.entry(t.verdict).or_default() += 1;
        if let Some(ms) = t.latency_ms {
            o.latency_ms.0 += ms;
            o.latency_ms.1 += 1;
        }
        if let Some(u) = &t.usage {
            o.tokens.0 += u.input_tokens;
            o.tokens.1 += u.output_tokens;
        }
        if t.verdict == Verdict::Error {
            let kind = t.error.as_ref().map(|e| e.kind);
            if matches!(kind, Some(ErrorKind::NoKey | ErrorKind::Cancelled)) {
                not_run += 1;
            }
            let name = kind.map_or_else(|| "unknown".to_owned(), error_kind_name);
            *o.errors.entry(name).or_default() += 1;
            continue;
        }
        o.scored += 1;
        match FailureKind::of_trial(t) {
            None => o.passed += 1,
            Some(k) => *o.failures.entry(k).or_default() += 1,
        }
    }
    o.status = if !case.reviewed {
        CaseStatus::Unreviewed
    } else if o.trials == 0 || (o.scored == 0 && not_run == o.trials) {
        CaseStatus::NotRun
    } else if o.scored == 0 {
        CaseStatus::Error
    } else if 2 * o.passed > o.scored {
        CaseStatus::Pass
    } else {
        // The commonest failure; ties go to the declaration order. There is at least one
        // failure here, since passed ≤ scored / 2 and scored > 0.
        let worst = o
            .failures
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .map_or(FailureKind::WrongTool, |(k, _)| *k);
        CaseStatus::Fail(worst)
    };
    o
}

/// One line per trial for a failure body: `trial 1: wrong-tool → search_orders`.
fn trial_lines(model: &ModelResult, case: &str) -> String {
    let mut out = Vec::new();
    for t in model.trials.iter().filter(|t| t.case == case) {
        let calls: Vec<String> = t
            .calls
            .iter()
            .map(|c| c.name.clone().unwrap_or_else(|| "(nameless call)".into()))
            .collect();
        let mut line = format!("trial {}: {}", t.trial, t.verdict);
        if !calls.is_empty() {
            line.push_str(" → ");
            line.push_str(&calls.join(", "));
        }
        if let Some(args) = t.args.as_ref().filter(|a| !a.ok) {
            line.push_str(" — arguments: ");
            line.push_str(&args.problems.join("; "));
        }
        if let Some(e) = &t.error {
            line.push_str(&format!(" — {}: {}", error_kind_name(e.kind), e.message));
        }
        out.push(line);
    }
    out.join("\n")
}

fn rate_value(r: &Rate) -> String {
    r.value
        .map_or_else(|| "null".to_owned(), |v| format!("{v:.4}"))
}

fn ci_value(r: &Rate) -> String {
    r.ci95
        .map_or_else(|| "null".to_owned(), |[lo, hi]| format!("{lo:.4}–{hi:.4}"))
}

fn case_test(card: &Scorecard, model: &ModelResult, o: &CaseOutcome) -> TestCase {
    let message = if o.error_count() > 0 {
        format!(
            "{}; {} of {} trials errored ({})",
            o.summary(),
            o.error_count(),
            o.trials,
            o.error_text()
        )
    } else {
        o.summary()
    };
    let status = match o.status {
        CaseStatus::Pass => TestCaseStatus::success(),
        CaseStatus::Fail(kind) => {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            s.set_type(kind.as_str())
                .set_message(message.as_str())
                .set_description(format!(
                    "{message}\nfailed trials: {}\n{}",
                    o.failure_text(),
                    trial_lines(model, &o.id)
                ));
            s
        }
        CaseStatus::Error => {
            let worst = o
                .errors
                .iter()
                .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
                .map_or("error", |(k, _)| k.as_str());
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
            s.set_type(worst)
                .set_message(format!(
                    "all {} trials errored ({}): provider trouble, no answer to score",
                    o.trials,
                    o.error_text()
                ))
                .set_description(trial_lines(model, &o.id));
            s
        }
        CaseStatus::NotRun => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(if o.trials == 0 {
                "not run".to_owned()
            } else {
                format!("not run ({})", o.error_text())
            });
            s
        }
        CaseStatus::Unreviewed => {
            let mut s = TestCaseStatus::skipped();
            s.set_message(format!(
                "reviewed: false, not counted in official figures ({})",
                o.summary()
            ));
            s
        }
    };
    let mut test = TestCase::new(o.id.as_str(), status);
    test.set_classname(card.suite.name.as_str());
    test.extra
        .insert("file".into(), card.suite.path.as_str().into());
    if let Some(line) = o.line {
        test.extra.insert("line".into(), line.to_string().into());
    }
    if o.latency_ms.1 > 0 {
        test.set_time(Duration::from_millis(o.latency_ms.0));
    }
    if o.status == CaseStatus::Pass && o.error_count() > 0 {
        test.set_system_out(message.as_str());
    }
    let rate = o.rate();
    test.add_properties([
        Property::new(
            "expectedTool",
            o.expected.as_deref().unwrap_or("(none: must not call)"),
        ),
        Property::new("trials", o.trials.to_string()),
        Property::new("scored", o.scored.to_string()),
        Property::new("passed", o.passed.to_string()),
        Property::new("errors", o.error_count().to_string()),
        Property::new("passRate", rate_value(&rate)),
        Property::new("passRate.ci95", ci_value(&rate)),
    ]);
    if o.tokens != (0, 0) {
        test.add_properties([
            Property::new("tokens.input", o.tokens.0.to_string()),
            Property::new("tokens.output", o.tokens.1.to_string()),
        ]);
    }
    test
}

fn model_suite(card: &Scorecard, model: &ModelResult) -> TestSuite {
    let mut suite = TestSuite::new(format!("mf eval: {}", model.label));
    let m = &model.metrics;
    let rate = |name: &str, r: &Rate| {
        [
            Property::new(name, super::eval_terminal::rate(r)),
            Property::new(format!("{name}.value"), rate_value(r)),
            Property::new(format!("{name}.ci95"), ci_value(r)),
        ]
    };
    suite.add_properties([
        Property::new("suite", card.suite.name.as_str()),
        Property::new("suitePath", card.suite.path.as_str()),
        Property::new("fingerprint", card.suite.fingerprint.as_str()),
        Property::new("model", model.label.as_str()),
        Property::new("provider", model.provider.as_str()),
        Property::new("endpoint", model.endpoint.as_str()),
        Property::new("status", format!("{:?}", card.status).to_lowercase()),
        Property::new("seed", card.reproducibility.seed.to_string()),
        Property::new("repeat", card.reproducibility.repeat.to_string()),
        Property::new(
            "passRule",
            "a case passes when a strict majority of its scored trials pick the expected tool (or no tool) with passing arguments",
        ),
    ]);
    suite.add_properties(rate("selectionAccuracy", &m.selection_accuracy));
    suite.add_properties(rate("caseLevel", &m.case_level.rate));
    suite.add_properties(rate("argumentAccuracy", &m.argument_accuracy));
    suite.add_properties(rate("overTrigger", &m.over_trigger));
    suite.add_properties(rate("errorRate", &m.error_rate));
    suite.add_properties([
        Property::new("scored", m.scored.to_string()),
        Property::new("distinctCases", m.distinct_cases.to_string()),
        Property::new("retries", m.retries.to_string()),
        Property::new("tokens.input", m.tokens.input.to_string()),
        Property::new("tokens.output", m.tokens.output.to_string()),
    ]);
    if let Some(c) = &m.cost {
        suite.add_property(Property::new(
            "cost",
            format!("{:.6} {}", c.amount, c.currency),
        ));
    }
    if let Some(l) = &m.latency_ms {
        suite.add_properties([
            Property::new("latencyMs.p50", l.p50.to_string()),
            Property::new("latencyMs.p95", l.p95.to_string()),
        ]);
    }
    for p in &model.health.problems {
        suite.add_property(Property::new("unhealthy", p.as_str()));
    }
    let outcomes = case_outcomes(model, &card.suite.cases);
    let total_ms: u64 = outcomes.iter().map(|o| o.latency_ms.0).sum();
    if outcomes.iter().any(|o| o.latency_ms.1 > 0) {
        suite.set_time(Duration::from_millis(total_ms));
    }
    suite.add_test_cases(outcomes.iter().map(|o| case_test(card, model, o)));
    suite
}

fn to_xml(report: &Report) -> String {
    // quick-junit fails only when its writer fails; this one writes to memory. Should it ever
    // fail, the document says so instead of being silently empty.
    report.to_string().unwrap_or_else(|e| {
        format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- mf: JUnit output failed: {e} -->\n<testsuites/>\n")
    })
}

/// A scorecard as JUnit XML: one testsuite per model, one testcase per case.
pub fn junit(card: &Scorecard) -> String {
    let mut report = Report::new("mf eval");
    for model in &card.models {
        report.add_test_suite(model_suite(card, model));
    }
    to_xml(&report)
}

fn metric_case(model: &str, c: &MetricComparison) -> TestCase {
    let name = match &c.subject {
        Some(s) => format!("{} {s}", c.metric),
        None => c.metric.clone(),
    };
    let text = format!(
        "{} → {}; cases {}↑ {}↓ {}= (p = {:.4}); trials {}↑ {}↓ {}= (p = {:.4})",
        super::eval_terminal::rate(&c.before),
        super::eval_terminal::rate(&c.after),
        c.case.improved,
        c.case.regressed,
        c.case.tied,
        c.case.p_adjusted,
        c.trial.improved,
        c.trial.regressed,
        c.trial.tied,
        c.trial.p_adjusted
    );
    let mut case = if c.verdict == CompareVerdict::Regressed {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status
            .set_type("regressed")
            .set_message(text.as_str())
            .set_description(c.notes.join("\n"));
        TestCase::new(name, status)
    } else {
        let mut case = TestCase::new(name, TestCaseStatus::success());
        let verdict = serde_json::to_value(c.verdict)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        case.set_system_out(format!("{verdict}: {text}"));
        case
    };
    case.set_classname(model);
    case
}

fn compare_suite(report: &CompareReport) -> Option<TestSuite> {
    let eval = report.eval.as_ref()?;
    let mut suite = TestSuite::new("mf compare");
    suite.add_properties([
        Property::new("base", report.base.source.as_str()),
        Property::new("head", report.head.source.as_str()),
        Property::new("pairedCases", eval.cases.paired.to_string()),
        Property::new("alpha", eval.gate.alpha.to_string()),
        Property::new("gatedMetrics", eval.gate.metrics.join(",")),
    ]);
    for m in &eval.models {
        for c in m.metrics.iter().chain(&m.tools).chain(&m.pairs) {
            suite.add_test_case(metric_case(&m.model, c));
        }
    }
    Some(suite)
}

/// A compare document as JUnit XML: one testsuite `mf compare`, one testcase per compared
/// metric (suite-wide, per tool, per confusion pair), failing when it regressed.
pub fn compare(report: &CompareReport) -> String {
    let mut junit = Report::new("mf compare");
    if let Some(suite) = compare_suite(report) {
        junit.add_test_suite(suite);
    }
    to_xml(&junit)
}

/// A CI run as JUnit XML: the lint findings (`mf lint`, failing at `error`), the head
/// scorecard's suites, and the compare verdicts. A free-only run has a `mf eval` suite with
/// one skipped testcase saying why nothing was measured.
pub fn ci(ci: &CiReport) -> String {
    let mut report = Report::new("mf ci");
    report.add_test_suite(super::junit::lint_suite(&ci.lint, ci.lint_fail_on));
    match &ci.head {
        Some(card) => {
            for model in &card.models {
                report.add_test_suite(model_suite(card, model));
            }
        }
        None => {
            let mut suite = TestSuite::new("mf eval");
            let mut status = TestCaseStatus::skipped();
            let why = match (ci.mode, &ci.free_reason) {
                (CiMode::Free, Some(r)) => format!("free checks only: {r}"),
                (CiMode::Free, None) => "free checks only: no model was called".to_owned(),
                (CiMode::Full, _) => "no eval ran".to_owned(),
            };
            status.set_message(why);
            let mut case = TestCase::new("eval", status);
            case.set_classname("mf ci");
            suite.add_test_case(case);
            report.add_test_suite(suite);
        }
    }
    if let Some(suite) = ci.compare.as_ref().and_then(compare_suite) {
        report.add_test_suite(suite);
    }
    to_xml(&report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::TrialError;
    use crate::report::metrics::ArgCheck;

    fn case(reviewed: bool) -> CaseInfo {
        CaseInfo {
            id: "c".into(),
            input_hash: "sha256:0".into(),
            expected_tool: Some("t".into()),
            reviewed,
            tags: vec![],
            line: Some(3),
            prompt_tokens: 1,
        }
    }

    fn trial(verdict: Verdict, args_ok: Option<bool>, error: Option<ErrorKind>) -> TrialRow {
        TrialRow {
            case: "c".into(),
            trial: 0,
            order: vec![],
            verdict,
            calls: vec![],
            args: args_ok.map(|ok| ArgCheck {
                ok,
                problems: vec![],
                notes: vec![],
            }),
            text: None,
            error: error.map(|k| TrialError::new(k, "x")),
            latency_ms: None,
            usage: None,
            retries: 0,
            cached: false,
        }
    }

    fn status(reviewed: bool, trials: &[TrialRow]) -> CaseStatus {
        let refs: Vec<&TrialRow> = trials.iter().collect();
        outcome(&case(reviewed), &refs).status
    }

    #[test]
    fn a_tie_fails_and_a_strict_majority_passes() {
        let ok = trial(Verdict::Correct, Some(true), None);
        let wrong = trial(Verdict::WrongTool, None, None);
        assert_eq!(
            status(
                true,
                &[ok.clone(), ok.clone(), wrong.clone(), wrong.clone()]
            ),
            CaseStatus::Fail(FailureKind::WrongTool)
        );
        assert_eq!(
            status(true, &[ok.clone(), ok.clone(), wrong]),
            CaseStatus::Pass
        );
    }

    #[test]
    fn wrong_arguments_fail_a_correct_pick_and_errors_do_not_count() {
        let bad_args = trial(Verdict::Correct, Some(false), None);
        let timeout = trial(Verdict::Error, None, Some(ErrorKind::Timeout));
        let ok = trial(Verdict::Correct, Some(true), None);
        assert_eq!(
            status(true, &[bad_args.clone(), bad_args, ok.clone()]),
            CaseStatus::Fail(FailureKind::WrongArgs)
        );
        // One answer, passing; the errors are reported but are not wrong answers.
        assert_eq!(
            status(true, &[timeout.clone(), timeout.clone(), ok]),
            CaseStatus::Pass
        );
        assert_eq!(status(true, &[timeout.clone(), timeout]), CaseStatus::Error);
    }

    #[test]
    fn failure_ties_go_to_the_declared_order_and_unrun_cases_are_skipped() {
        let abstained = trial(Verdict::Abstained, None, None);
        let phantom = trial(Verdict::Phantom, None, None);
        assert_eq!(
            status(true, &[abstained.clone(), phantom]),
            CaseStatus::Fail(FailureKind::WrongTool)
        );
        let no_key = trial(Verdict::Error, None, Some(ErrorKind::NoKey));
        assert_eq!(status(true, &[no_key.clone(), no_key]), CaseStatus::NotRun);
        assert_eq!(status(true, &[]), CaseStatus::NotRun);
        assert_eq!(status(false, &[abstained]), CaseStatus::Unreviewed);
    }
}
