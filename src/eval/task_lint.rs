//! `mf tasks lint`: a suite's cases checked against the surface before anything is spent —
//! the rule table ([`TASK_RULES`], stable codes), the checks, and the report. The error rules
//! that [`blocking`] runs are also what every `mf eval` checks before its first request (a
//! typo in `expectedTool` is refused there, never scored as a confusion).
//!
//! Guidance figures are the coverage ones (`report::coverage`): at least
//! [`MIN_CASES_PER_TOOL`] reviewed cases per tool and [`MIN_MUST_NOT_CALL_SHARE`] of reviewed
//! cases must-not-call.

use std::collections::HashMap;

use crate::report::coverage::{MIN_CASES_PER_TOOL, MIN_MUST_NOT_CALL_SHARE};
use crate::report::lint::Severity;
use crate::report::tasks_lint::{
    TASKS_LINT_REPORT_VERSION, TaskFinding, TasksLintReport, TasksLintSummary,
};
use crate::suite::{Case, Suite, SuiteFormat};
use crate::surface::Tool;
use crate::surface::fingerprint::surface_fingerprint;

use super::check_suite::check_cases;

/// What the rule registry says about one tasks lint code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskRule {
    /// The stable code.
    pub code: &'static str,
    /// Its severity (fixed per code).
    pub severity: Severity,
    /// One sentence: what the rule finds.
    pub summary: &'static str,
    /// How to fix what it finds.
    pub fix: &'static str,
}

/// Every tasks lint rule. Errors stop `mf eval` before any request; the rest are advice.
pub const TASK_RULES: &[TaskRule] = &[
    TaskRule {
        code: "unknown-expected-tool",
        severity: Severity::Error,
        summary: "The case expects a tool the surface does not offer (a typo, or a renamed tool): it can never pass.",
        fix: "Name a tool of the surface (the message lists the closest names), or write null for a must-not-call case.",
    },
    TaskRule {
        code: "unknown-argument",
        severity: Severity::Error,
        summary: "An expectedArgs key is not a parameter the expected tool declares: the assertion can never hold.",
        fix: "Assert only parameters the tool's input schema declares (the message lists the closest ones).",
    },
    TaskRule {
        code: "expected-not-stated",
        severity: Severity::Error,
        summary: "The case does not say which tool to expect; eval cannot score it.",
        fix: "Write the tool's name, or null when the model should call none.",
    },
    TaskRule {
        code: "blank-input",
        severity: Severity::Error,
        summary: "The case's user message is blank.",
        fix: "Write the message the model should answer.",
    },
    TaskRule {
        code: "blank-id",
        severity: Severity::Error,
        summary: "The case has no id; results, caches and comparisons are keyed by it.",
        fix: "Give the case a stable, unique id.",
    },
    TaskRule {
        code: "duplicate-id",
        severity: Severity::Error,
        summary: "Two cases share an id; their results would be mixed up.",
        fix: "Give each case its own id.",
    },
    TaskRule {
        code: "conflicting-input",
        severity: Severity::Error,
        summary: "The same input is written twice with different expected tools: one of the two can never pass.",
        fix: "Decide which tool the message asks for and delete or rewrite the other case.",
    },
    TaskRule {
        code: "duplicate-input",
        severity: Severity::Warn,
        summary: "The same input (ignoring case and spacing) is written twice with the same expectation: it counts twice without testing anything new.",
        fix: "Delete one, or rephrase it into a new case (mf tasks mutate writes variants as such).",
    },
    TaskRule {
        code: "input-names-tool",
        severity: Severity::Warn,
        summary: "The input contains the expected tool's name verbatim: the case tests string matching, not understanding.",
        fix: "Say what the user wants in their own words, without the tool's identifier.",
    },
    TaskRule {
        code: "too-few-cases",
        severity: Severity::Warn,
        summary: "A tool has fewer reviewed cases than the guidance (3): its accuracy cannot be told from luck.",
        fix: "Write (or review) more cases that expect this tool; mf tasks generate drafts some.",
    },
    TaskRule {
        code: "must-not-call-share",
        severity: Severity::Warn,
        summary: "Fewer than 15% of the reviewed cases are must-not-call: over-triggering goes unmeasured.",
        fix: "Add cases that should call no tool (expectedTool: null), e.g. near misses of a tool's job.",
    },
    TaskRule {
        code: "variant-without-original",
        severity: Severity::Warn,
        summary: "A variant (mutatedFrom) names a case the file does not have: robustness cannot compare it with anything.",
        fix: "Keep the original case in the same file (mf tasks mutate writes both), or drop mutatedFrom.",
    },
    TaskRule {
        code: "unreviewed-case",
        severity: Severity::Info,
        summary: "The case is not reviewed: it runs, but never counts in official figures.",
        fix: "Read it, fix it if needed, and remove `reviewed: false` (or delete it).",
    },
];

/// The rule of `code`.
pub fn find(code: &str) -> Option<&'static TaskRule> {
    TASK_RULES.iter().find(|r| r.code == code)
}

fn finding(
    code: &str,
    case: Option<&Case>,
    display: &str,
    message: String,
    field: Option<&str>,
) -> TaskFinding {
    let rule = find(code);
    TaskFinding {
        severity: rule.map_or(Severity::Error, |r| r.severity),
        code: code.to_owned(),
        case: case.map(|c| c.id.clone()),
        tool: case.and_then(|c| c.expected_tool.clone().flatten()),
        field: field.map(str::to_owned),
        message,
        suggestion: rule.map_or_else(String::new, |r| r.fix.to_owned()),
        file: display.to_owned(),
        line: case.and_then(|c| c.line),
    }
}

/// An input as compared for duplicates: lower-cased, whitespace collapsed.
fn normalized(input: &str) -> String {
    input
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether `a` and `b` are a case and its variant, or two variants of one case: those are
/// meant to be near-duplicates of each other.
fn related(a: &Case, b: &Case) -> bool {
    let of = |v: &Case, o: &Case| v.mutated_from.as_deref() == Some(o.id.as_str());
    of(a, b) || of(b, a) || (a.mutated_from.is_some() && a.mutated_from == b.mutated_from)
}

/// Pairs of cases with the same normalized input (each later case against the first one),
/// variants of one case left out.
fn same_inputs(cases: &[Case]) -> Vec<(&Case, &Case)> {
    // The same question is the same input offered the same tools: cases with their own
    // `tools` (benchmark items) may ask one thing of different functions.
    let key = |case: &Case| {
        let tools = case
            .tools
            .as_ref()
            .map(|t| serde_json::to_string(t).unwrap_or_default())
            .unwrap_or_default();
        format!("{}\u{0}{tools}", normalized(&case.input))
    };
    let mut first: HashMap<String, &Case> = HashMap::new();
    let mut pairs = Vec::new();
    for case in cases {
        if case.input.trim().is_empty() {
            continue;
        }
        match first.get(&key(case)) {
            Some(earlier) if !related(earlier, case) => pairs.push((*earlier, case)),
            Some(_) => {}
            None => {
                first.insert(key(case), case);
            }
        }
    }
    pairs
}

fn at(case: &Case) -> String {
    case.line
        .map_or_else(String::new, |l| format!(" (line {l})"))
}

fn conflicts(cases: &[Case], display: &str, format: SuiteFormat) -> Vec<TaskFinding> {
    let show = |e: &Option<Option<String>>| match e {
        Some(Some(t)) => t.clone(),
        Some(None) => "null".to_owned(),
        None => "nothing".to_owned(),
    };
    same_inputs(cases)
        .into_iter()
        .filter(|(a, b)| a.expected_tool != b.expected_tool)
        .map(|(a, b)| {
            finding(
                "conflicting-input",
                Some(b),
                display,
                format!(
                    "the same {} as case {:?}{} expects {} here and {} there",
                    format.input_field(),
                    a.id,
                    at(a),
                    show(&b.expected_tool),
                    show(&a.expected_tool)
                ),
                Some(format.expected_field()),
            )
        })
        .collect()
}

/// The error rules that can hold for a suite that was read and passed `validate_for_eval`:
/// unknown expected tools and argument keys against `tools`, and conflicting inputs. What every
/// eval refuses before its first request.
pub fn blocking(
    cases: &[Case],
    sets: &[Vec<&Tool>],
    display: &str,
    offered: &str,
    format: SuiteFormat,
) -> Vec<TaskFinding> {
    let mut out = check_cases(cases, sets, display, offered, format);
    out.extend(conflicts(cases, display, format));
    out
}

/// True when `name` is a multi-word identifier (`search_tickets`, `getUser`, `files.read`),
/// the kind of name no user types by chance.
fn is_identifier_like(name: &str) -> bool {
    name.contains(['_', '-', '.'])
        || name
            .chars()
            .zip(name.chars().skip(1))
            .any(|(a, b)| a.is_lowercase() && b.is_uppercase())
}

/// Whether `input` contains `name` as a whole word, ignoring case.
fn names_verbatim(input: &str, name: &str) -> bool {
    let (input, name) = (input.to_lowercase(), name.to_lowercase());
    let word = |c: char| c.is_alphanumeric() || c == '_';
    input.match_indices(&name).any(|(i, m)| {
        let before = input[..i].chars().next_back();
        let after = input[i + m.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// Lint `suite` (read from `display`) against `tools` (from `surface_label`).
pub fn lint(suite: &Suite, display: &str, tools: &[Tool], surface_label: &str) -> TasksLintReport {
    let format = suite.format;
    let cases = &suite.cases;
    let mut findings = Vec::new();
    let mut first_id: HashMap<&str, &Case> = HashMap::new();
    for case in cases {
        if case.id.trim().is_empty() {
            let m = "the case has no id".to_owned();
            findings.push(finding("blank-id", Some(case), display, m, Some("id")));
        } else if let Some(first) = first_id.get(case.id.as_str()) {
            let m = format!("id {:?} is also the id of the case{}", case.id, at(first));
            findings.push(finding("duplicate-id", Some(case), display, m, Some("id")));
        } else {
            first_id.insert(&case.id, case);
        }
        if case.input.trim().is_empty() {
            let field = format.input_field();
            let m = format!("{field} is blank");
            findings.push(finding("blank-input", Some(case), display, m, Some(field)));
        }
        if case.expected_tool.is_none() {
            let field = format.expected_field();
            let m = format!("{field} is not stated");
            findings.push(finding(
                "expected-not-stated",
                Some(case),
                display,
                m,
                Some(field),
            ));
        }
        if let Some(Some(expected)) = &case.expected_tool
            && is_identifier_like(expected)
            && names_verbatim(&case.input, expected)
        {
            let m = format!(
                "the {} contains the expected tool's name {expected:?}",
                format.input_field()
            );
            let field = format.input_field();
            findings.push(finding(
                "input-names-tool",
                Some(case),
                display,
                m,
                Some(field),
            ));
        }
        if let Some(from) = &case.mutated_from
            && !cases
                .iter()
                .any(|c| &c.id == from && c.mutated_from.is_none())
        {
            let m = format!("mutatedFrom {from:?} is not a case of this file");
            let field = Some("mutatedFrom");
            findings.push(finding(
                "variant-without-original",
                Some(case),
                display,
                m,
                field,
            ));
        }
        if !case.reviewed {
            let m = "not reviewed: it runs, but never counts in official figures".to_owned();
            findings.push(finding(
                "unreviewed-case",
                Some(case),
                display,
                m,
                Some("reviewed"),
            ));
        }
    }
    let offered = format!("the surface ({surface_label})");
    // Each case against what it offers: its own `tools` when it names them, else the surface.
    let resolved = super::case_tools::resolve(cases, tools, tools.to_vec(), display).ok();
    let sets: Vec<Vec<&Tool>> = match &resolved {
        Some(ct) => ct
            .sets
            .iter()
            .map(|set| set.iter().map(|&i| &ct.pool[i]).collect())
            .collect(),
        None => super::check_suite::same_set(cases, tools),
    };
    findings.extend(blocking(cases, &sets, display, &offered, format));
    for (a, b) in same_inputs(cases) {
        if a.expected_tool == b.expected_tool {
            let m = format!(
                "the same {} as case {:?}{}",
                format.input_field(),
                a.id,
                at(a)
            );
            let field = format.input_field();
            findings.push(finding("duplicate-input", Some(b), display, m, Some(field)));
        }
    }
    guidance(suite, display, tools, &mut findings);

    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.line.unwrap_or(u32::MAX).cmp(&b.line.unwrap_or(u32::MAX)))
            .then_with(|| a.code.cmp(&b.code))
            .then_with(|| a.tool.cmp(&b.tool))
            .then_with(|| a.case.cmp(&b.case))
            .then_with(|| a.field.cmp(&b.field))
    });
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let surface = crate::surface::Surface {
        tools: tools.to_vec(),
        skills: Vec::new(),
        unread: Vec::new(),
    };
    TasksLintReport {
        version: TASKS_LINT_REPORT_VERSION,
        kind: "tasks-lint".into(),
        suite: display.to_owned(),
        surface: surface_label.to_owned(),
        fingerprint: surface_fingerprint(&surface),
        summary: TasksLintSummary {
            cases: cases.len(),
            reviewed: cases.iter().filter(|c| c.reviewed).count(),
            must_not_call: cases
                .iter()
                .filter(|c| c.reviewed && c.is_must_not_call())
                .count(),
            tools: tools.len(),
            errors: count(Severity::Error),
            warnings: count(Severity::Warn),
            infos: count(Severity::Info),
        },
        findings,
    }
}

/// The coverage guidance: reviewed cases per tool, and the must-not-call share.
fn guidance(suite: &Suite, display: &str, tools: &[Tool], out: &mut Vec<TaskFinding>) {
    let reviewed: Vec<&Case> = suite.cases.iter().filter(|c| c.reviewed).collect();
    let mut per_tool: HashMap<&str, usize> = HashMap::new();
    for c in &reviewed {
        if let Some(Some(t)) = &c.expected_tool {
            *per_tool.entry(t.as_str()).or_default() += 1;
        }
    }
    for tool in tools {
        let n = per_tool.get(tool.name.as_str()).copied().unwrap_or(0);
        if n < MIN_CASES_PER_TOOL {
            let mut f = finding(
                "too-few-cases",
                None,
                display,
                format!(
                    "{} has {n} reviewed case{} (guidance: at least {MIN_CASES_PER_TOOL})",
                    tool.name,
                    if n == 1 { "" } else { "s" }
                ),
                None,
            );
            f.tool = Some(tool.name.clone());
            out.push(f);
        }
    }
    let total = reviewed.len();
    let none = reviewed.iter().filter(|c| c.is_must_not_call()).count();
    if total > 0 && (none as f64) < MIN_MUST_NOT_CALL_SHARE * total as f64 {
        // The fewest must-not-call cases m to add so that (none + m) / (total + m) ≥ share.
        let need = ((MIN_MUST_NOT_CALL_SHARE * total as f64 - none as f64)
            / (1.0 - MIN_MUST_NOT_CALL_SHARE))
            .ceil()
            .max(1.0) as usize;
        out.push(finding(
            "must-not-call-share",
            None,
            display,
            format!(
                "{none} of {total} reviewed cases ({:.0}%) are must-not-call (guidance: at least \
                 {:.0}%); about {need} more would meet it",
                100.0 * none as f64 / total as f64,
                100.0 * MIN_MUST_NOT_CALL_SHARE
            ),
            None,
        ));
    }
}

#[cfg(test)]
mod tests;
