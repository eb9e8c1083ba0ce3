//! Terminal output of `mf lint`: findings grouped by subject (tool, pair, skill or the surface),
//! each with its severity label, code, `file:line`, message and `→ suggestion`, then one summary
//! line. Colour only when [`Style::color`] says so; without it the text is plain and stable.

use crate::util::untrusted::inline;
use std::fmt::Write;

use super::style::{Style, label, paint};
use crate::render::text::{location, scope_phrase, subject, summary_phrase};
use crate::report::lint::{Finding, LintReport};

/// Write `text` with every line after the first indented by `indent` spaces.
fn write_indented(out: &mut String, indent: usize, prefix: &str, text: &str) {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let _ = writeln!(out, "{:indent$}{prefix}{first}", "");
    let pad = " ".repeat(prefix.chars().count());
    for line in lines {
        let _ = writeln!(out, "{:indent$}{pad}{line}", "");
    }
}

/// A lint report for people. Groups keep the report's order: the first group is the subject of
/// the first (worst) finding, and findings inside a group keep their order too.
pub fn lint(report: &LintReport, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", paint(style, "1", "mf lint:"), report.target);

    let mut groups: Vec<(String, Vec<&Finding>)> = Vec::new();
    for finding in &report.findings {
        let key = subject(finding);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(finding),
            None => groups.push((key, vec![finding])),
        }
    }

    for (key, members) in &groups {
        let _ = writeln!(out, "\n{}", paint(style, "1", &inline(key)));
        for finding in members {
            let mut head = format!("{}  {}", label(style, finding.severity), finding.code);
            if let Some(param) = &finding.param {
                let _ = write!(head, " ({})", inline(param));
            }
            if let Some(at) = location(finding) {
                let _ = write!(head, "  {}", paint(style, "2", &at));
            }
            let _ = writeln!(out, "  {head}");
            write_indented(&mut out, 9, "", &finding.message);
            if !finding.suggestion.is_empty() {
                write_indented(&mut out, 9, "→ ", &finding.suggestion);
            }
        }
    }

    let _ = writeln!(out);
    if report.findings.is_empty() {
        let mut line = format!(
            "{} {}",
            paint(style, "1;32", "no findings"),
            scope_phrase(&report.summary)
        );
        if report.summary.suppressed > 0 {
            let _ = write!(line, " ({} suppressed)", report.summary.suppressed);
        }
        let _ = writeln!(out, "{line}");
    } else {
        let _ = writeln!(
            out,
            "{}",
            paint(style, "1", &summary_phrase(&report.summary))
        );
    }
    out
}
