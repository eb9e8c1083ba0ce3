//! Terminal output of `mf lint`: findings grouped by subject (tool, pair, skill or the surface),
//! each with its severity label, code, `file:line`, message and `→ suggestion`, then one summary
//! line. Colour only when [`Style::color`] says so; without it the text is plain and stable.

use std::fmt::Write;

use crate::render::terminal::Style;
use crate::report::lint::{Finding, LintReport, LintSummary, Severity};

/// What a finding is about, as people read it: `tool`, `a ↔ b` for a pair, `skill NAME`, or
/// `surface`. Shared by the lint renderers so every format names a subject the same way.
pub fn subject(finding: &Finding) -> String {
    match (&finding.pair, &finding.tool, &finding.skill) {
        (Some([a, b]), _, _) => format!("{a} ↔ {b}"),
        (None, Some(tool), _) => tool.clone(),
        (None, None, Some(skill)) => format!("skill {skill}"),
        _ => "surface".to_owned(),
    }
}

/// Where a finding's subject is defined: `file:line`, `file`, or `None` when unknown.
pub fn location(finding: &Finding) -> Option<String> {
    match (&finding.file, finding.line) {
        (Some(file), Some(line)) => Some(format!("{file}:{line}")),
        (Some(file), None) => Some(file.clone()),
        _ => None,
    }
}

/// `1 error`, `3 errors`: a count with its noun in the right number.
pub fn plural(count: usize, singular: &str, plural: &str) -> String {
    if count == 1 {
        format!("{count} {singular}")
    } else {
        format!("{count} {plural}")
    }
}

/// The counts of a lint run in one phrase: `3 errors, 4 warnings, 3 infos (1 suppressed) on 12
/// tools and 2 skills`. Taken from the report's summary, never recounted.
pub fn summary_phrase(summary: &LintSummary) -> String {
    let mut s = format!(
        "{}, {}, {}",
        plural(summary.errors, "error", "errors"),
        plural(summary.warnings, "warning", "warnings"),
        plural(summary.infos, "info", "infos"),
    );
    if summary.suppressed > 0 {
        let _ = write!(s, " ({} suppressed)", summary.suppressed);
    }
    let _ = write!(s, " {}", scope_phrase(summary));
    s
}

/// What was linted: `on 12 tools`, or `on 12 tools and 2 skills`.
pub fn scope_phrase(summary: &LintSummary) -> String {
    let mut s = format!("on {}", plural(summary.tools, "tool", "tools"));
    if summary.skills > 0 {
        let _ = write!(s, " and {}", plural(summary.skills, "skill", "skills"));
    }
    s
}

fn paint(style: Style, code: &str, text: &str) -> String {
    if style.color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_owned()
    }
}

/// The severity label padded to one width, coloured when asked: red `error`, yellow `warn`,
/// cyan `info`.
/// A severity label, padded to one width and coloured when `style.color`.
pub(crate) fn label(style: Style, severity: Severity) -> String {
    let padded = format!("{:<5}", severity.as_str());
    match severity {
        Severity::Error => paint(style, "1;31", &padded),
        Severity::Warn => paint(style, "1;33", &padded),
        Severity::Info => paint(style, "1;36", &padded),
    }
}

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
        let _ = writeln!(out, "\n{}", paint(style, "1", key));
        for finding in members {
            let mut head = format!("{}  {}", label(style, finding.severity), finding.code);
            if let Some(param) = &finding.param {
                let _ = write!(head, " ({param})");
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
