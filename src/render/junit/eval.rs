//! JUnit XML of an eval (quick-junit), for CI test reporters: one `<testsuite>` per model, one
//! `<testcase>` per case aggregated over its trials (never one per trial), and for `mf ci` the
//! lint findings and the compare verdicts as suites of their own.
//!
//! Which cases pass, and how a failing one failed, is decided by the eval engine
//! (`eval::cases`, where the rule is documented); this renderer asks it for the
//! outcomes of each model and lays them out: a passing case is a success, a failing one a
//! `<failure>` whose `type` is the case's failure kind and whose message is `k of n trials
//! passed, 95% CI lo–hi%`; an all-error case is an `<error>`, a case not run or unreviewed is
//! `<skipped>`. Error counts of a case that also has answers are in its message and
//! `<system-out>`.
//!
//! Each testcase has `classname` = suite name, `name` = case id, and the extra attributes
//! `file` = suite path and `line` = the case's line when known; its figures are `<properties>`.
//! The model's figures (accuracy with CIs, tokens, cost, latency, run health) are the suite's
//! `<properties>`. `time` is the sum of the trials' recorded latencies, when any were recorded.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use crate::eval::cases::case_outcomes;
use crate::render::text::rate;
use crate::report::cases::{CaseOutcome, CaseStatus};
use crate::report::ci::{CiMode, CiReport};
use crate::report::compare::{CompareReport, MetricComparison, Verdict as CompareVerdict};
use crate::report::metrics::Rate;
use crate::report::scorecard::{ModelResult, Scorecard};
use crate::report::trial::error_kind_name;

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
        if let Some(x) = t.execution.as_ref().filter(|x| !x.passed) {
            line.push_str(&format!(
                " — execution failed ({}): {}; output: {}",
                x.status.as_str(),
                x.failed.join("; "),
                x.output
            ));
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
            let worst = o.commonest_error.as_deref().unwrap_or("error");
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
    let rate = &o.pass_rate;
    test.add_properties([
        Property::new(
            "expectedTool",
            o.expected.as_deref().unwrap_or("(none: must not call)"),
        ),
        Property::new("trials", o.trials.to_string()),
        Property::new("scored", o.scored.to_string()),
        Property::new("passed", o.passed.to_string()),
        Property::new("errors", o.error_count().to_string()),
        Property::new("passRate", rate_value(rate)),
        Property::new("passRate.ci95", ci_value(rate)),
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
            Property::new(name, rate(r)),
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
    let mut outcomes = case_outcomes(model, &card.suite.cases);
    // A shard part lists the cases it ran: the rest belong to other shards, and reporting
    // them as skipped here would count every case N−1 times as skipped across the matrix.
    if let Some(shard) = &card.shard {
        suite.add_property(Property::new(
            "shard",
            format!("{}/{}", shard.index, shard.count),
        ));
        let mine: std::collections::BTreeSet<&str> = shard
            .trials
            .iter()
            .filter(|t| t.model == model.label)
            .map(|t| t.case.as_str())
            .collect();
        outcomes.retain(|o| mine.contains(o.id.as_str()));
    }
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
    super::xml_safe(report.to_string().unwrap_or_else(|e| {
        format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- mf: JUnit output failed: {e} -->\n<testsuites/>\n")
    }))
}

/// A scorecard as JUnit XML: one testsuite per model, one testcase per case.
pub fn junit(card: &Scorecard) -> String {
    let mut report = Report::new("mf eval");
    for model in &card.models {
        report.add_test_suite(model_suite(card, model));
    }
    to_xml(&report)
}

/// A compared metric as a testcase, failing when it regressed and `fails` (robustness never
/// fails: it is not gated).
fn case_of(model: &str, c: &MetricComparison, fails: bool) -> TestCase {
    let name = match &c.subject {
        Some(s) => format!("{} {s}", c.metric),
        None => c.metric.clone(),
    };
    let text = format!(
        "{} → {}; cases {}↑ {}↓ {}= (p = {:.4}); trials {}↑ {}↓ {}= (p = {:.4})",
        rate(&c.before),
        rate(&c.after),
        c.case.improved,
        c.case.regressed,
        c.case.tied,
        c.case.p_adjusted,
        c.trial.improved,
        c.trial.regressed,
        c.trial.tied,
        c.trial.p_adjusted
    );
    let mut case = if c.verdict == CompareVerdict::Regressed && fails {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status
            .set_type("regressed")
            .set_message(text.as_str())
            .set_description(c.notes.join("\n"));
        TestCase::new(name, status)
    } else {
        let mut case = TestCase::new(name, TestCaseStatus::success());
        let mut verdict = serde_json::to_value(c.verdict)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        if !fails && c.verdict == CompareVerdict::Regressed {
            verdict.push_str(" (not gated)");
        }
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
            suite.add_test_case(case_of(&m.model, c, true));
        }
        // Never gated: a robustness drop is reported, not failed.
        if let Some(c) = &m.robustness {
            suite.add_test_case(case_of(&m.model, c, false));
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
    report.add_test_suite(super::lint::lint_suite(&ci.lint, ci.lint_fail_on));
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
