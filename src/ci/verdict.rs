//! The status of a `mf ci` run and its reasons, worst first: unhealthy evals, then failed
//! gates (head eval errors, lint `--fail-on`, significant regressions, quality gates, refusals).

use super::CiConfig;
use super::eval::EvalPart;
use crate::render::text::{effect_text, p_text, percent};
use crate::report::ci::{CiMode, CiReport, CiStatus, FindingScope, LintGate};
use crate::report::compare::{MetricComparison, Pairing, Verdict};
use crate::report::lint::LintReport;
use crate::report::scorecard::{GateKind, Status};

/// The test that decided a metric's verdict, in words: `p = 0.0312` (case level),
/// `trial-level p = …`, or `calibrated test: head worst on 8 of 8 (A/A flipped 0 of 8), p = …`.
fn deciding_test(metric: &MetricComparison, pairing: Pairing) -> String {
    match (pairing, &metric.calibrated) {
        (Pairing::Calibrated, Some(k)) => format!(
            "calibrated test: head worst on {} of {} (A/A flipped {} of {}), p = {}",
            k.worse,
            k.informative_worse,
            k.aa_flipped,
            k.cases,
            p_text(k.p_adjusted)
        ),
        (Pairing::Trial, _) => format!("trial-level p = {}", p_text(metric.trial.p_adjusted)),
        (Pairing::Both, _) => format!(
            "p = {}",
            p_text(metric.case.p_adjusted.max(metric.trial.p_adjusted))
        ),
        _ => format!("p = {}", p_text(metric.case.p_adjusted)),
    }
}

/// The status and its reasons, worst first.
pub fn verdict(
    config: &CiConfig,
    lint_report: &LintReport,
    lint_gate: &LintGate,
    eval: &EvalPart,
) -> (CiStatus, Vec<String>) {
    let mut unhealthy = Vec::new();
    for (side, card) in [("head", &eval.head), ("base", &eval.base)] {
        let Some(card) = card else { continue };
        if card.status != Status::Unhealthy {
            continue;
        }
        let problems: Vec<String> = card
            .models
            .iter()
            .flat_map(|m| {
                m.health
                    .problems
                    .iter()
                    .map(move |p| format!("{}: {p}", m.label))
            })
            .collect();
        unhealthy.push(format!(
            "the {side} eval is unhealthy: {}",
            if problems.is_empty() {
                "a health gate failed".to_owned()
            } else {
                problems.join("; ")
            }
        ));
    }
    let mut failed = Vec::new();
    if let Some(e) = &eval.error {
        failed.push(e.clone());
    }
    if let Some(level) = config.fail_on {
        let at_level =
            |f: &&crate::report::lint::Finding| crate::analyze::lint::fails(f, Some(level));
        let n = lint_report
            .findings
            .iter()
            .filter(at_level)
            .filter(|f| lint_gate.counts(f))
            .count();
        let before = lint_report
            .findings
            .iter()
            .filter(at_level)
            .filter(|f| !lint_gate.counts(f))
            .count();
        if n > 0 {
            let plural = if n == 1 { "" } else { "s" };
            let what = match lint_gate.scope {
                FindingScope::New => format!("{n} new finding{plural}"),
                FindingScope::All => format!("{n} finding{plural}"),
            };
            let already = if before > 0 {
                format!(
                    "; {before} more {} already at the base",
                    if before == 1 { "was" } else { "were" }
                )
            } else {
                String::new()
            };
            failed.push(format!(
                "lint: {what} at {} or worse (--fail-on {}{already})",
                level.as_str(),
                level.as_str()
            ));
        }
    }
    if config.fail_on_regression
        && let Some(cmp) = &eval.compare
        && cmp.verdict == Some(Verdict::Regressed)
        && let Some(e) = &cmp.eval
    {
        for m in &e.models {
            for metric in m
                .metrics
                .iter()
                .chain(&m.tools)
                .chain(&m.pairs)
                .filter(|x| x.verdict == Verdict::Regressed && e.gate.metrics.contains(&x.metric))
            {
                let what = match &metric.subject {
                    Some(s) => format!("{} of {s}", metric.metric),
                    None => metric.metric.clone(),
                };
                let effect = metric
                    .effect
                    .as_ref()
                    .map_or_else(String::new, |e| format!("{}; ", effect_text(e)));
                failed.push(format!(
                    "regression: {what} for {}: {} → {} ({effect}{}, --fail-on-regression)",
                    m.model,
                    percent(metric.before.value),
                    percent(metric.after.value),
                    deciding_test(metric, e.gate.pairing),
                ));
            }
        }
    }
    if let Some(card) = &eval.head {
        for g in card
            .gates
            .iter()
            .filter(|g| !g.passed && g.kind == GateKind::Quality)
        {
            failed.push(format!(
                "{}: {} is {} (--{} {})",
                g.model,
                g.name,
                g.value
                    .map_or_else(|| "unmeasured".to_owned(), |v| format!("{v:.4}")),
                g.name,
                g.threshold
            ));
        }
    }
    failed.extend(eval.failures.iter().cloned());
    let status = if !unhealthy.is_empty() {
        CiStatus::Unhealthy
    } else if !failed.is_empty() {
        CiStatus::Fail
    } else {
        CiStatus::Pass
    };
    unhealthy.extend(failed);
    (status, unhealthy)
}

/// The one-line status (and its reasons) `mf ci` prints on stderr in Actions.
pub fn status_line(ci: &CiReport) -> String {
    let status = match ci.status {
        CiStatus::Pass => "pass",
        CiStatus::Fail => "fail",
        CiStatus::Unhealthy => "unhealthy",
    };
    let mode = match (&ci.mode, &ci.free_reason) {
        (CiMode::Free, Some(why)) => {
            format!("free checks only — {}", crate::util::untrusted::inline(why))
        }
        (CiMode::Free, None) => "free checks only".to_owned(),
        (CiMode::Full, _) => "free checks, eval and compare".to_owned(),
    };
    let mut line = format!("mf ci: {status} ({mode})");
    for r in &ci.reasons {
        line.push_str(&format!("\n  - {}", crate::util::untrusted::inline(r)));
    }
    line
}
