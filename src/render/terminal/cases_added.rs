//! `mf case add` for people: which case went where, or (dry run) the case that would.

use std::fmt::Write;

use super::style::Style;
use crate::report::cases_added::CasesAdded;

/// One line per added case, then (dry run) the cases as JSON.
pub fn cases_added(report: &CasesAdded, style: Style) -> String {
    let mut out = String::new();
    for added in &report.cases {
        let c = &added.case;
        let at = added.line.map(|l| format!(":{l}")).unwrap_or_default();
        let expected = match c.expected_tool.clone().flatten() {
            Some(t) => format!("expects {t}"),
            None => "expects no tool call".to_owned(),
        };
        let mark = format!(
            "source {}, {}",
            c.source.as_deref().unwrap_or("none"),
            if c.reviewed { "reviewed" } else { "unreviewed" }
        );
        let verb = if report.written { "added" } else { "would add" };
        let _ = writeln!(
            out,
            "{} case {:?} to {}{at}: {expected} ({mark}; checked against {} tools)",
            style.bold(verb),
            c.id,
            report.file,
            report.checked_against_tools
        );
    }
    if !report.written {
        let cases: Vec<_> = report.cases.iter().map(|a| &a.case).collect();
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&cases).unwrap_or_default()
        );
        let _ = writeln!(out, "dry run: nothing was written");
    }
    out
}
