//! The lint of the head surface as the templates read it: the top problems, every finding, and
//! the counts line.

use super::limit::TOP_FINDINGS;
use super::types::{FindingView, LintView};
use crate::render::text::{location, subject, summary_phrase};
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

pub(super) fn lint_view(l: &LintReport) -> LintView {
    let s = &l.summary;
    let problems: Vec<FindingView> = l
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .map(finding_view)
        .collect();
    LintView {
        line: summary_phrase(s),
        icon: if s.errors > 0 {
            "❌"
        } else if s.warnings > 0 {
            "⚠️"
        } else {
            "✅"
        },
        errors: s.errors,
        warnings: s.warnings,
        more: problems.len().saturating_sub(TOP_FINDINGS),
        top: problems.into_iter().take(TOP_FINDINGS).collect(),
        all: l.findings.iter().map(finding_view).collect(),
    }
}
