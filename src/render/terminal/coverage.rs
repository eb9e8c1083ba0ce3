//! `mf coverage` for people: how much of the surface the suite's cases reach.

use std::fmt::Write;

use super::style::Style;
use crate::render::text::percent;

/// The coverage report for people.
pub fn coverage(report: &crate::report::coverage::CoverageReport, style: Style) -> String {
    let mut out = String::new();
    let s = &report.summary;
    let share = percent(s.must_not_call_share);
    let _ = writeln!(
        out,
        "{} {}/{} tools have ≥3 reviewed cases; {} reviewed cases ({} must-not-call = {share}, guidance ≥15%) — {}",
        style.bold(&format!("mf coverage {}:", report.suite)),
        s.tools_covered,
        s.tools,
        s.reviewed_cases,
        s.must_not_call,
        if s.meets_guidance {
            "meets guidance"
        } else {
            "below guidance"
        }
    );
    for t in &report.tools {
        let mark = if t.missing == 0 { "ok  " } else { "need" };
        let extra = if t.missing > 0 {
            format!("  (+{} needed)", t.missing)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  {mark} {:<32} {} reviewed{}{extra}",
            t.tool,
            t.reviewed_cases,
            if t.unreviewed_cases > 0 {
                format!(", {} unreviewed", t.unreviewed_cases)
            } else {
                String::new()
            }
        );
    }
    for p in &report.profiles {
        let _ = writeln!(
            out,
            "  profile {}: {} tools, {} reviewed cases, below minimum: {}",
            p.profile,
            p.tools,
            p.reviewed_cases,
            if p.tools_below_minimum.is_empty() {
                "none".into()
            } else {
                p.tools_below_minimum.join(", ")
            }
        );
    }
    for u in &report.unknown_expected_tools {
        let _ = writeln!(
            out,
            "  case {} expects `{}`, which is not on the surface",
            u.case, u.expected_tool
        );
    }
    out
}
