//! The lint of the head surface as the templates read it: the findings the gate counts (new in
//! a pull request) worst first, the pre-existing ones counted and folded, and the counts lines.

use super::limit::TOP_FINDINGS;
use super::types::{FindingView, LintView};
use crate::render::text::{location, plural, subject, summary_phrase};
use crate::report::ci::{FindingScope, LintGate};
use crate::report::lint::{Finding, LintReport, Severity};

pub(super) fn finding_view(f: &Finding) -> FindingView {
    FindingView {
        severity: f.severity.as_str(),
        icon: match f.severity {
            Severity::Error => "❌",
            Severity::Warn => "⚠️",
            Severity::Info => "ℹ️",
        },
        code: f.code.clone(),
        subject: match &f.param {
            Some(p) => format!("{} ({p})", subject(f)),
            None => subject(f),
        },
        message: f.message.clone(),
        suggestion: f.suggestion.clone(),
        location: location(f).unwrap_or_default(),
    }
}

/// `2 errors and 1 warning`, `1 error`, `3 warnings`, `no errors or warnings`.
pub(crate) fn problems_phrase(errors: usize, warnings: usize) -> String {
    match (errors, warnings) {
        (0, 0) => "no errors or warnings".to_owned(),
        (e, 0) => plural(e, "error", "errors"),
        (0, w) => plural(w, "warning", "warnings"),
        (e, w) => format!(
            "{} and {}",
            plural(e, "error", "errors"),
            plural(w, "warning", "warnings")
        ),
    }
}

fn count(findings: &[FindingView], severity: &str) -> usize {
    findings.iter().filter(|f| f.severity == severity).count()
}

/// The lint view; `gate` splits the findings into those the gate counts and pre-existing ones
/// (none pre-existing without a gate).
pub(super) fn lint_view(l: &LintReport, gate: Option<&LintGate>) -> LintView {
    let s = &l.summary;
    let counted = |f: &&Finding| gate.is_none_or(|g| g.counts(f));
    let new: Vec<FindingView> = l
        .findings
        .iter()
        .filter(counted)
        .filter(|f| f.severity != Severity::Info)
        .map(finding_view)
        .collect();
    let new_infos: Vec<FindingView> = l
        .findings
        .iter()
        .filter(counted)
        .filter(|f| f.severity == Severity::Info)
        .map(finding_view)
        .collect();
    let preexisting: Vec<FindingView> = l
        .findings
        .iter()
        .filter(|f| !counted(f))
        .map(finding_view)
        .collect();
    let (errors, warnings) = (count(&new, "error"), count(&new, "warn"));
    let top: Vec<FindingView> = new.iter().take(TOP_FINDINGS).cloned().collect();
    let rest = &new[top.len()..];
    let (more_errors, more_warnings) = (count(rest, "error"), count(rest, "warn"));
    let more_text = match (more_errors, more_warnings) {
        (0, 0) => String::new(),
        (e, 0) => format!("… {} more {}", e, if e == 1 { "error" } else { "errors" }),
        (0, w) => format!(
            "… {} more {}",
            w,
            if w == 1 { "warning" } else { "warnings" }
        ),
        (e, w) => format!(
            "… {e} more {} and {w} more {}",
            if e == 1 { "error" } else { "errors" },
            if w == 1 { "warning" } else { "warnings" }
        ),
    };
    let in_pr = gate.is_some_and(|g| g.scope == FindingScope::New && g.base.is_some());
    let gate_line = if in_pr {
        let mut line = format!("{} new in this change", problems_phrase(errors, warnings));
        if !preexisting.is_empty() {
            line.push_str(&format!(
                "; {} already at the base (not gated)",
                plural(
                    preexisting.len(),
                    "pre-existing finding",
                    "pre-existing findings"
                )
            ));
        }
        line
    } else {
        problems_phrase(errors, warnings)
    };
    LintView {
        line: summary_phrase(s),
        icon: if errors > 0 {
            "❌"
        } else if warnings > 0 {
            "⚠️"
        } else {
            "✅"
        },
        errors: s.errors,
        warnings: s.warnings,
        title: if in_pr {
            "New lint findings".to_owned()
        } else {
            "Lint findings".to_owned()
        },
        gate_line,
        more: rest.len(),
        more_text,
        top,
        new,
        new_infos,
        preexisting,
        all: l.findings.iter().map(finding_view).collect(),
    }
}
