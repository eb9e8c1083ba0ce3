//! `mf check` (the install gate) for people: the verdict, each finding with its suggestion, and
//! the installed tools the new ones compete with.

use crate::render::text::plural;
use std::fmt::Write;

use super::style::{Style, label};

/// The install-gate report for people.
pub fn check(report: &crate::report::check::CheckReport, style: Style) -> String {
    let mut out = String::new();
    let verdict = match report.verdict {
        crate::report::check::Verdict::Pass => "pass",
        crate::report::check::Verdict::Warn => "warn",
    };
    let _ = writeln!(
        out,
        "{} {} — {} against {} installed",
        style.bold(&format!("mf check {}:", report.name)),
        verdict,
        plural(report.summary.new_tools, "new tool", "new tools"),
        report.summary.installed_tools
    );
    for f in &report.findings {
        let _ = writeln!(
            out,
            "  {} {}  {}",
            label(style, f.severity),
            f.code,
            f.message
        );
        let _ = writeln!(out, "    {}", style.dim(&format!("→ {}", f.suggestion)));
    }
    if !report.family.is_empty() {
        let _ = writeln!(out, "  competes with: {}", report.family.join(", "));
    }
    out
}
