//! Terminal output of `mf tasks`: the tasks lint report (a header, one block per finding with
//! its severity, code, `file:line`, case, message and `→ fix`, then the counts) and the plan
//! `mf tasks generate` would send.

use std::fmt::Write;

use super::style::{Style, label, paint};
use crate::generate::GeneratePlan;
use crate::render::text::plural;
use crate::report::tasks_lint::TasksLintReport;
use crate::util::untrusted::inline;

/// A tasks lint report for people.
pub fn tasks_lint(report: &TasksLintReport, style: Style) -> String {
    let mut out = String::new();
    let s = &report.summary;
    let _ = writeln!(
        out,
        "{} {} against {} ({} cases, {} reviewed, {} tools)",
        paint(style, "1", "mf tasks lint:"),
        inline(&report.suite),
        inline(&report.surface),
        s.cases,
        s.reviewed,
        s.tools
    );
    for f in &report.findings {
        let at = match f.line {
            Some(l) => format!("{}:{l}", inline(&f.file)),
            None => inline(&f.file).into_owned(),
        };
        let subject = match (&f.case, &f.tool) {
            (Some(c), _) => format!("case {:?}", inline(c)),
            (None, Some(t)) => format!("tool {}", inline(t)),
            _ => "the suite".to_owned(),
        };
        let _ = writeln!(
            out,
            "\n{}  {}  {}  {subject}",
            label(style, f.severity),
            f.code,
            paint(style, "2", &at)
        );
        let _ = writeln!(out, "       {}", inline(&f.message));
        if !f.suggestion.is_empty() {
            let _ = writeln!(out, "       → {}", f.suggestion);
        }
    }
    let counts = format!(
        "{}, {}, {}",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos")
    );
    let _ = writeln!(
        out,
        "\n{}",
        if report.findings.is_empty() {
            paint(style, "1;32", "no findings")
        } else {
            paint(style, "1", &counts)
        }
    );
    out
}

/// What `mf tasks generate` would send: the model, every request with its token lower bound
/// and message, and what refuses the plan.
pub fn generate_plan(plan: &GeneratePlan, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} request{} to {} ({}), at least {} input tokens in all",
        paint(style, "1", "mf tasks generate (dry run):"),
        plan.requests.len(),
        if plan.requests.len() == 1 { "" } else { "s" },
        inline(&plan.model),
        inline(&plan.endpoint),
        plan.input_tokens
    );
    for (i, r) in plan.requests.iter().enumerate() {
        let _ = writeln!(
            out,
            "\n{} {} ({} tokens)",
            paint(style, "1", &format!("#{}", i + 1)),
            inline(&r.about),
            r.input_tokens
        );
        for line in r.message.lines() {
            let _ = writeln!(out, "    {}", inline(line));
        }
    }
    if plan.refusals.is_empty() {
        let _ = writeln!(out, "\nnothing was sent (--dry-run)");
    } else {
        let _ = writeln!(
            out,
            "\n{} nothing was sent:",
            paint(style, "1;31", "the plan cannot run;")
        );
        for r in &plan.refusals {
            let _ = writeln!(out, "  - {r}");
        }
    }
    out
}
