//! The suite checked against the tools it will offer, before any request: every `expectedTool`
//! (and every `expectedCalls[].tool`) must name a tool the case offers (its own `tools`, else
//! the surface after `--profile`) and every top-level `expectedArgs` (`expectedCalls[].args`)
//! key a parameter that tool declares. A typo would otherwise cost a paid run whose cases can
//! never pass. Every problem at once, each with `file:line`, the case and the closest names.

use crate::suite::Case;
use crate::suite::select::close_matches;
use crate::surface::Tool;

use super::args::undeclared_names;

fn did_you_mean(near: &[&str]) -> String {
    match near {
        [] => String::new(),
        names => format!(
            " (did you mean {}?)",
            names
                .iter()
                .map(|n| format!("{n:?}"))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    }
}

/// Problems of `cases` against the tools each offers (`sets[i]` for `cases[i]`), one line
/// each (`FILE:LINE: case "id": …`); `offered` says what the run's tools are (`the surface`,
/// `profile "billing"`), a case with its own set is told about "its tools".
pub fn check_cases(
    cases: &[Case],
    sets: &[Vec<&Tool>],
    display: &str,
    offered: &str,
) -> Vec<String> {
    let mut problems = Vec::new();
    for (case, tools) in cases.iter().zip(sets).filter(|(c, _)| c.reviewed) {
        let at = case.line.map(|l| format!(":{l}")).unwrap_or_default();
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
                "expectedTool".to_owned(),
                tool.as_str(),
                case.expected_args.as_ref(),
            ));
        }
        for (field, name, args) in expected {
            let Some(tool) = tools.iter().find(|t| t.name == name) else {
                let near = close_matches(name, tools.iter().map(|t| t.name.as_str()));
                problems.push(format!(
                    "{display}{at}: case {:?}: {field} {name:?} is not a tool of {whose}{}",
                    case.id,
                    did_you_mean(&near)
                ));
                continue;
            };
            let Some(args) = args.and_then(|a| a.as_object()) else {
                continue;
            };
            let args_field = if field == "expectedTool" {
                "expectedArgs".to_owned()
            } else {
                field.replace(".tool", ".args")
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
                    problems.push(format!(
                        "{display}{at}: case {:?}: {args_field} key {key:?} is not a parameter \
                         of {name}{has}",
                        case.id
                    ));
                }
            }
        }
    }
    problems
}
