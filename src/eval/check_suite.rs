//! The suite checked against the tools it will offer, before any request: every `expectedTool`
//! must name a tool on the surface (after `--profile`) and every top-level `expectedArgs` key a
//! parameter the expected tool declares. A typo would otherwise cost a paid run whose cases can
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

/// Problems of `cases` against `tools`, one line each (`FILE:LINE: case "id": …`); `offered`
/// says what the tools are (`the surface`, `profile "billing"`).
pub fn check_cases(cases: &[Case], tools: &[Tool], display: &str, offered: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for case in cases.iter().filter(|c| c.reviewed) {
        let at = case.line.map(|l| format!(":{l}")).unwrap_or_default();
        let Some(Some(expected)) = &case.expected_tool else {
            continue;
        };
        let Some(tool) = tools.iter().find(|t| &t.name == expected) else {
            let near = close_matches(expected, tools.iter().map(|t| t.name.as_str()));
            problems.push(format!(
                "{display}{at}: case {:?}: expectedTool {expected:?} is not a tool of {offered}{}",
                case.id,
                did_you_mean(&near)
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
                problems.push(format!(
                    "{display}{at}: case {:?}: expectedArgs key {name:?} is not a parameter of \
                     {expected}{has}",
                    case.id
                ));
            }
        }
    }
    problems
}
