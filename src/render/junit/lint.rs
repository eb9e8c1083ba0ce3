//! JUnit XML output of `mf lint` (quick-junit), for CI test reporters: one `<testsuite name="mf
//! lint">`, one `<testcase>` per finding, the run's counts as `<properties>`.
//!
//! A finding at or above `fail_on` (the gate rule is `analyze::lint::fails`) is a `<failure
//! type="CODE" message="…">` whose body holds the message, the suggestion and `file:line`. A
//! finding below it (by default every warning and info) is a *passing* testcase whose
//! `<system-out>` holds the same text: reporters still list it, but it fails nothing, matching the
//! exit code of `mf lint --fail-on`. Testcases carry `file`/`line` attributes when known. With no
//! findings the suite holds one passing testcase `lint`, so it is never empty.

use quick_junit::{
    NonSuccessKind, Property, Report, SerializeError, TestCase, TestCaseStatus, TestSuite,
};

use crate::analyze::lint::fails;
use crate::render::text::{location, subject};
use crate::report::lint::{Finding, LintReport, Severity};

/// The name of the testsuite that holds the lint findings.
pub const SUITE_NAME: &str = "mf lint";

/// The testcase `classname` of a finding: its tool, `skill:NAME`, or `surface`.
fn classname(finding: &Finding) -> String {
    match (&finding.tool, &finding.skill) {
        (Some(tool), _) => tool.clone(),
        (None, Some(skill)) => format!("skill:{skill}"),
        (None, None) => "surface".to_owned(),
    }
}

/// The testcase name: the code, the subject and the parameter, e.g.
/// `schema-invalid: search_kb (filters.since)`.
fn case_name(finding: &Finding) -> String {
    match &finding.param {
        Some(param) => format!("{}: {} ({param})", finding.code, subject(finding)),
        None => format!("{}: {}", finding.code, subject(finding)),
    }
}

/// The text of a finding for a failure body or system-out: message, `→ suggestion`, `at
/// file:line`.
fn body(finding: &Finding) -> String {
    let mut text = format!("{}: {}", finding.severity.as_str(), finding.message);
    if !finding.suggestion.is_empty() {
        text.push_str("\n→ ");
        text.push_str(&finding.suggestion);
    }
    if let Some(at) = location(finding) {
        text.push_str("\nat ");
        text.push_str(&at);
    }
    text
}

fn test_case(finding: &Finding, fail_on: Option<Severity>) -> TestCase {
    let mut case = if fails(finding, fail_on) {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status
            .set_type(finding.code.as_str())
            .set_message(finding.message.as_str())
            .set_description(body(finding));
        TestCase::new(case_name(finding), status)
    } else {
        let mut case = TestCase::new(case_name(finding), TestCaseStatus::success());
        case.set_system_out(body(finding));
        case
    };
    case.set_classname(classname(finding));
    if let Some(file) = &finding.file {
        case.extra.insert("file".into(), file.as_str().into());
    }
    if let Some(line) = finding.line {
        case.extra.insert("line".into(), line.to_string().into());
    }
    case
}

/// The lint testsuite: findings at `fail_on` or worse are failures (none with `None`); the
/// rest pass with their text in `<system-out>`. Shared by `mf lint --junit` and the CI JUnit
/// file.
pub(crate) fn lint_suite(report: &LintReport, fail_on: Option<Severity>) -> TestSuite {
    let mut suite = TestSuite::new(SUITE_NAME);
    let s = &report.summary;
    suite.add_properties([
        Property::new("target", report.target.as_str()),
        Property::new("fingerprint", report.fingerprint.as_str()),
        Property::new("failOn", fail_on.map_or("never", Severity::as_str)),
        Property::new("tools", s.tools.to_string()),
        Property::new("skills", s.skills.to_string()),
        Property::new("errors", s.errors.to_string()),
        Property::new("warnings", s.warnings.to_string()),
        Property::new("infos", s.infos.to_string()),
        Property::new("suppressed", s.suppressed.to_string()),
    ]);
    if report.findings.is_empty() {
        let mut case = TestCase::new("lint", TestCaseStatus::success());
        case.set_classname("surface");
        suite.add_test_case(case);
    } else {
        suite.add_test_cases(report.findings.iter().map(|f| test_case(f, fail_on)));
    }
    suite
}

/// A lint report as JUnit XML. Findings at `fail_on` or worse are failures (none with `None`);
/// the rest pass. Fails only if the XML writer fails, which writing to memory does not.
pub fn lint(report: &LintReport, fail_on: Option<Severity>) -> Result<String, SerializeError> {
    let mut junit = Report::new("mf");
    junit.add_test_suite(lint_suite(report, fail_on));
    junit.to_string().map(super::xml_safe)
}
