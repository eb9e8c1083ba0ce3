//! The lint report: the rules' findings after the baseline and the suite's suppressions, with
//! counts, the surface fingerprint and token totals beside them (SCHEMA.md "Lint report").
//! `mf lint` and `mf ci` both build theirs here.

use super::{LintOptions, lint};
use crate::analyze::baseline::{self, Baseline};
use crate::report::lint::{Finding, LINT_REPORT_VERSION, LintReport, LintSummary, Severity};
use crate::suite::Suppression;
use crate::surface::Surface;
use crate::surface::fingerprint::surface_fingerprint;
use crate::surface::tokens::surface_tokens;

/// Lint `surface`, drop what the baseline accepts and the suite suppresses, build the report.
pub fn lint_report(
    label: &str,
    surface: &Surface,
    options: &LintOptions,
    accepted: Option<&Baseline>,
    suppressions: &[Suppression],
) -> LintReport {
    let findings = lint(surface, options);
    let (findings, suppressed) = baseline::apply(findings, accepted, suppressions);
    build_report(label, surface, findings, suppressed)
}

/// The report of `findings` (already filtered; `suppressed` of them were dropped).
pub fn build_report(
    label: &str,
    surface: &Surface,
    findings: Vec<Finding>,
    suppressed: usize,
) -> LintReport {
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let (_, tokens) = surface_tokens(&surface.tools, true);
    LintReport {
        version: LINT_REPORT_VERSION,
        kind: "lint".into(),
        target: label.to_owned(),
        fingerprint: surface_fingerprint(surface),
        tokens,
        summary: LintSummary {
            tools: surface.tools.len(),
            skills: surface.skills.len(),
            errors: count(Severity::Error),
            warnings: count(Severity::Warn),
            infos: count(Severity::Info),
            suppressed,
        },
        findings,
    }
}
