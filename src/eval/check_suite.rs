//! The suite checked against the tools it will offer, before any request: every `expectedTool`
//! must name a tool on the surface (after `--profile`) and every top-level `expectedArgs` key a
//! parameter the expected tool declares. A typo would otherwise cost a paid run whose cases can
//! never pass — and be scored as if the model had confused two tools. Every problem at once,
//! each a [`TaskFinding`] with `file:line`, the case and the closest names; `mf tasks lint`
//! reports the same findings (codes `unknown-expected-tool`, `unknown-argument`).

use crate::report::lint::Severity;
use crate::report::tasks_lint::TaskFinding;
use crate::suite::{Case, SuiteFormat};
use crate::surface::Tool;
use crate::util::closest::{close_matches, did_you_mean};

use super::args::undeclared_names;

/// Problems of `cases` (reviewed or not: an unreviewed case is sent too) against `tools`, as
/// error findings in case order; `offered` says what the tools are (`the surface (x.json)`,
/// `profile "billing"`), `format` how the file names its fields.
pub fn check_cases(
    cases: &[Case],
    tools: &[Tool],
    display: &str,
    offered: &str,
    format: SuiteFormat,
) -> Vec<TaskFinding> {
    let mut problems = Vec::new();
    let expected_field = format.expected_field();
    for case in cases {
        let Some(Some(expected)) = &case.expected_tool else {
            continue;
        };
        let finding =
            |code: &str, field: String, message: String, suggestion: String| TaskFinding {
                severity: Severity::Error,
                code: code.to_owned(),
                case: Some(case.id.clone()),
                tool: Some(expected.clone()),
                field: Some(field),
                message,
                suggestion,
                file: display.to_owned(),
                line: case.line,
            };
        let Some(tool) = tools.iter().find(|t| &t.name == expected) else {
            let near = close_matches(expected, tools.iter().map(|t| t.name.as_str()));
            let suggestion = match near.first() {
                Some(n) => format!("write `{expected_field}: {n}` if that is the tool meant"),
                None => format!(
                    "name one of the offered tools ({}), or `{expected_field}: null` for a \
                     must-not-call case",
                    tool_list(tools)
                ),
            };
            problems.push(finding(
                "unknown-expected-tool",
                expected_field.to_owned(),
                format!(
                    "{expected_field} {expected:?} is not a tool of {offered}{}",
                    did_you_mean(&near)
                ),
                suggestion,
            ));
            continue;
        };
        let Some(args) = case.expected_args.as_ref().and_then(|a| a.as_object()) else {
            continue;
        };
        if let Some((undeclared, declared)) =
            undeclared_names(tool, args.keys().map(String::as_str))
        {
            for name in undeclared {
                let near = close_matches(name, declared.iter().map(String::as_str));
                let has = if declared.is_empty() {
                    " (it declares no parameters)".to_owned()
                } else if near.is_empty() {
                    format!(" (its parameters: {})", declared.join(", "))
                } else {
                    did_you_mean(&near)
                };
                problems.push(finding(
                    "unknown-argument",
                    format!("expectedArgs.{name}"),
                    format!("expectedArgs key {name:?} is not a parameter of {expected}{has}"),
                    "assert only parameters the tool's input schema declares".to_owned(),
                ));
            }
        }
    }
    problems
}

/// `a, b, c` (at most 8 names, then `…`).
fn tool_list(tools: &[Tool]) -> String {
    let mut names: Vec<&str> = tools.iter().take(8).map(|t| t.name.as_str()).collect();
    if tools.len() > 8 {
        names.push("…");
    }
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// What is wrong with one case against `tools` (an `expectedTool` that is not one of them, an
/// `expectedArgs` key the tool does not declare, each with the closest names), as messages:
/// the same findings [`check_cases`] reports, for `mf case add` and `mf mcp`'s `add_cases`.
pub fn case_problems(
    case: &Case,
    tools: &[Tool],
    offered: &str,
    format: SuiteFormat,
) -> Vec<String> {
    check_cases(std::slice::from_ref(case), tools, "", offered, format)
        .into_iter()
        .map(|f| f.message)
        .collect()
}
