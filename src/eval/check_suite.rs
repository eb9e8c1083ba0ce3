//! The suite checked against the tools it will offer, before any request: every `expectedTool`
//! (and every `expectedCalls[].tool`) must name a tool the case offers (its own `tools`, else
//! the surface after `--profile`) and every top-level `expectedArgs` (`expectedCalls[].args`)
//! key a parameter that tool declares. A typo would otherwise cost a paid run whose cases can
//! never pass — and be scored as if the model had confused two tools. Every problem at once,
//! each a [`TaskFinding`] with `file:line`, the case and the closest names; `mf tasks lint`
//! reports the same findings (codes `unknown-expected-tool`, `unknown-argument`).

use crate::report::lint::Severity;
use crate::report::tasks_lint::TaskFinding;
use crate::suite::{Case, SuiteFormat};
use crate::surface::Tool;
use crate::util::closest::{close_matches, did_you_mean};

use super::args::undeclared_names;

/// Problems of `cases` (reviewed or not: an unreviewed case is sent too) against the tools
/// each offers (`sets[i]` for `cases[i]`), as error findings in case order; `offered` says what
/// the run's tools are (`the surface (x.json)`, `profile "billing"`) — a case with its own set
/// is told about "its tools" — and `format` how the file names its fields.
pub fn check_cases(
    cases: &[Case],
    sets: &[Vec<&Tool>],
    display: &str,
    offered: &str,
    format: SuiteFormat,
) -> Vec<TaskFinding> {
    let mut problems = Vec::new();
    let expected_field = format.expected_field();
    for (case, tools) in cases.iter().zip(sets) {
        let whose = if case.tools.is_some() {
            "its tools"
        } else {
            offered
        };
        let mut expected: Vec<(String, &str, Option<&serde_json::Value>)> = Vec::new();
        if let Some(calls) = case.call_set() {
            for (i, call) in calls.iter().enumerate() {
                expected.push((
                    format!("expectedCalls[{i}].tool"),
                    call.tool.as_str(),
                    call.args.as_ref(),
                ));
            }
        } else if let Some(Some(tool)) = &case.expected_tool {
            expected.push((
                expected_field.to_owned(),
                tool.as_str(),
                case.expected_args.as_ref(),
            ));
        }
        for (field, name, args) in expected {
            let finding =
                |code: &str, field: String, message: String, suggestion: String| TaskFinding {
                    severity: Severity::Error,
                    code: code.to_owned(),
                    case: Some(case.id.clone()),
                    tool: Some(name.to_owned()),
                    field: Some(field),
                    message,
                    suggestion,
                    file: display.to_owned(),
                    line: case.line,
                };
            let Some(tool) = tools.iter().find(|t| t.name == name) else {
                let near = close_matches(name, tools.iter().map(|t| t.name.as_str()));
                let suggestion = match near.first() {
                    Some(n) => format!("write `{field}: {n}` if that is the tool meant"),
                    None => format!(
                        "name one of the offered tools ({}), or `{expected_field}: null` for a \
                         must-not-call case",
                        tool_list(tools)
                    ),
                };
                problems.push(finding(
                    "unknown-expected-tool",
                    field.clone(),
                    format!(
                        "{field} {name:?} is not a tool of {whose}{}",
                        did_you_mean(&near)
                    ),
                    suggestion,
                ));
                continue;
            };
            let Some(args) = args.and_then(|a| a.as_object()) else {
                continue;
            };
            let args_field = if field.starts_with("expectedCalls") {
                field.replace(".tool", ".args")
            } else {
                "expectedArgs".to_owned()
            };
            if let Some((undeclared, declared)) =
                undeclared_names(tool, args.keys().map(String::as_str))
            {
                for key in undeclared {
                    let near = close_matches(key, declared.iter().map(String::as_str));
                    let has = if declared.is_empty() {
                        " (it declares no parameters)".to_owned()
                    } else if near.is_empty() {
                        format!(" (its parameters: {})", declared.join(", "))
                    } else {
                        did_you_mean(&near)
                    };
                    problems.push(finding(
                        "unknown-argument",
                        format!("{args_field}.{key}"),
                        format!("{args_field} key {key:?} is not a parameter of {name}{has}"),
                        "assert only parameters the tool's input schema declares".to_owned(),
                    ));
                }
            }
        }
    }
    problems
}

/// `a, b, c` (at most 8 names, then `…`).
fn tool_list(tools: &[&Tool]) -> String {
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

/// Every case offered all of `tools` (a suite without per-case `tools`, or a check that does
/// not resolve them).
pub fn same_set<'t>(cases: &[Case], tools: &'t [Tool]) -> Vec<Vec<&'t Tool>> {
    let all: Vec<&Tool> = tools.iter().collect();
    vec![all; cases.len()]
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
    let cases = std::slice::from_ref(case);
    check_cases(cases, &same_set(cases, tools), "", offered, format)
        .into_iter()
        .map(|f| f.message)
        .collect()
}
