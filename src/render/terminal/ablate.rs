//! `mf ablate` for people: per left-out tool and model the one-line finding, what the tool was
//! taking, the suite-wide and per-tool figures before → after with the exact tests.

use std::fmt::Write;

use super::style::Style;
use crate::render::text::{p_text, plural};
use crate::report::ablate::{AblateReport, AblationMetric};
use crate::report::compare::Verdict;
use crate::report::scorecard::Status;

/// What a verdict means when "head" is the plan without the tool.
pub fn ablation_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Improved => "better without it",
        Verdict::Regressed => "worse without it",
        Verdict::LikelyRegressed => "likely worse without it",
        Verdict::Unchanged => "unchanged",
        Verdict::InsufficientData => "insufficient data",
        Verdict::NoSignificantChange => "no significant change",
    }
}

/// `60.0% → 100.0% (5/10 → 10/10) · cases 2↑ 0↓ 1= p = 0.5000 · insufficient data`.
pub fn metric_line(m: &AblationMetric) -> String {
    let pct = |v: Option<f64>| v.map_or("n/a".to_owned(), |v| format!("{:.1}%", v * 100.0));
    format!(
        "{} → {} ({}/{} → {}/{} trials) · cases {}↑ {}↓ {}= p = {} · {}",
        pct(m.before.value),
        pct(m.after.value),
        m.before.numerator,
        m.before.denominator,
        m.after.numerator,
        m.after.denominator,
        m.case.improved,
        m.case.regressed,
        m.case.tied,
        p_text(m.case.p_adjusted),
        ablation_word(m.verdict)
    )
}

/// Render the report.
pub fn ablate(report: &AblateReport, style: Style) -> String {
    let mut s = String::new();
    let s_ = &report.suite;
    let within = match &s_.profile {
        Some(p) => format!("within group {p}"),
        None => "within every tool".to_owned(),
    };
    let _ = writeln!(
        s,
        "{} · ablate {within} · {} · {} × {} · seed {} · {}",
        style.bold(&s_.name),
        plural(s_.tools.len(), "tool", "tools"),
        plural(s_.cases.len(), "case", "cases"),
        plural(report.reproducibility.repeat as usize, "repeat", "repeats"),
        report.reproducibility.seed,
        report.reproducibility.permutation
    );
    for a in &report.ablations {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "{} {}",
            style.bold(&a.summary),
            style.dim(&format!("({})", a.model))
        );
        if !a.stolen.is_empty() {
            let taken: Vec<String> = a
                .stolen
                .iter()
                .map(|t| format!("{} ({} of {} trials)", t.case, t.trials, t.of))
                .collect();
            let _ = writeln!(s, "  it was taking     {}", taken.join(", "));
        }
        if a.selection.before.denominator > 0 {
            let _ = writeln!(
                s,
                "  selection         {} ({})",
                metric_line(&a.selection),
                plural(a.cases.len(), "case", "cases")
            );
        }
        for t in a
            .tools
            .iter()
            .filter(|t| t.trial.improved + t.trial.regressed > 0)
        {
            let _ = writeln!(
                s,
                "  {:<17} {}",
                t.subject.as_deref().unwrap_or_default(),
                metric_line(t)
            );
        }
        if !a.left_out.is_empty() {
            let _ = writeln!(
                s,
                "  not asked         {} (expect `{}`)",
                a.left_out.join(", "),
                a.tool
            );
        }
        for p in &a.problems {
            let _ = writeln!(s, "  {}", style.yellow(&format!("note: {p}")));
        }
        if !a.healthy {
            let _ = writeln!(
                s,
                "  {}",
                style.yellow("unhealthy: the run without it cannot be trusted")
            );
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "per case: a single case's {} trials cannot reach p ≤ {} alone; the suite-wide and per-tool lines carry the tests (case-level sign test, Holm across tools)",
        report.reproducibility.repeat, report.gate.alpha
    );
    if report.status == Status::Unhealthy {
        let _ = writeln!(
            s,
            "status: {}",
            style.bold("UNHEALTHY: a run cannot be trusted")
        );
    }
    s
}
