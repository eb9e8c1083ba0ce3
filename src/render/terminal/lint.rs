//! Terminal output of `mf lint`. The default ([`lint_with`], not verbose): the summary line
//! first, then one line per finding in the report's order (errors, then the confusable pairs
//! strongest first, then the rest), cut to the terminal width. Verbose ([`lint`]): findings
//! grouped by subject (tool, pair, skill or the surface), each with its severity label, code,
//! `file:line`, message and `→ suggestion`, then one summary line. Colour only when
//! [`Style::color`] says so; without it the text is plain and stable.

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

/// How [`lint_with`] lays findings out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LintView {
    /// Every finding with its message and fix, grouped by subject ([`lint`]).
    pub verbose: bool,
    /// Cut each line to this many characters (`None`: never cut).
    pub width: Option<usize>,
}

/// A lint report for people: one line per finding unless `view.verbose` (see the module docs).
pub fn lint_with(report: &LintReport, style: Style, view: LintView) -> String {
    if view.verbose {
        return lint(report, style);
    }
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", paint(style, "1", "mf lint:"), report.target);
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
        return out;
    }
    let _ = writeln!(
        out,
        "{}",
        paint(style, "1", &summary_phrase(&report.summary))
    );
    if let Some(first) = report.findings.first() {
        let _ = writeln!(out, "fix first: {} {}", first.code, subject(first));
    }
    let _ = writeln!(out);
    let code_w = report
        .findings
        .iter()
        .map(|f| f.code.chars().count())
        .max()
        .unwrap_or(0);
    for f in &report.findings {
        let mut subj = subject(f);
        if let Some(param) = &f.param {
            let _ = write!(subj, " ({param})");
        }
        let message = f.message.lines().next().unwrap_or_default();
        let plain = format!(
            "{:<5}  {:<code_w$}  {subj}  {message}",
            f.severity.as_str(),
            f.code
        );
        let plain = match view.width {
            Some(w) if plain.chars().count() > w && w > 1 => {
                let cut: String = plain.chars().take(w - 1).collect();
                format!("{cut}…")
            }
            _ => plain,
        };
        // Colour only the severity word, which is the first 5 columns.
        let sev = f.severity.as_str();
        let rest = &plain[plain.find(sev).map_or(0, |i| i + sev.len())..];
        let _ = writeln!(out, "{}{rest}", label(style, f.severity).trim_end());
    }
    let _ = writeln!(
        out,
        "\n(`--verbose` for each finding's message and fix; `--explain CODE` for a rule)"
    );
    out
}
