//! The suite checked against the tools it will offer, before any request: every `expectedTool`
//! must name a tool on the surface (after `--profile`) and every top-level `expectedArgs` key a
//! parameter the expected tool declares. A typo would otherwise cost a paid run whose cases can
//! never pass. Every problem at once, each with `file:line`, the case and the closest names.

use crate::suite::Case;
use crate::surface::Tool;
use crate::util::closest::{close_matches, did_you_mean};

use super::args::undeclared_names;

/// Problems of `cases` against `tools`, one line each (`FILE:LINE: case "id": …`); `offered`
/// says what the tools are (`the surface`, `profile "billing"`). Unreviewed cases are not
/// checked here (they never count); [`case_problems`] checks any one case.
pub fn check_cases(cases: &[Case], tools: &[Tool], display: &str, offered: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for case in cases.iter().filter(|c| c.reviewed) {
        let at = case.line.map(|l| format!(":{l}")).unwrap_or_default();
        for p in case_problems(case, tools, offered) {
            problems.push(format!("{display}{at}: case {:?}: {p}", case.id));
        }
    }
    problems
}

/// What is wrong with one case against `tools`: an `expectedTool` that is not one of them, an
/// `expectedArgs` key the tool does not declare (each with the closest names).
pub fn case_problems(case: &Case, tools: &[Tool], offered: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(Some(expected)) = &case.expected_tool else {
        return problems;
    };
    let Some(tool) = tools.iter().find(|t| &t.name == expected) else {
        let near = close_matches(expected, tools.iter().map(|t| t.name.as_str()));
        let hint = if near.is_empty() {
            tool_list(tools)
        } else {
            did_you_mean(&near)
        };
        problems.push(format!(
            "expectedTool {expected:?} is not a tool of {offered}{hint}"
        ));
        return problems;
    };
    let Some(args) = case.expected_args.as_ref().and_then(|a| a.as_object()) else {
        return problems;
    };
    if let Some((undeclared, declared)) = undeclared_names(tool, args.keys().map(String::as_str)) {
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
                "expectedArgs key {name:?} is not a parameter of {expected}{has}"
            ));
        }
    }
    problems
}

/// ` (its tools: a, b, c, … 16 in all)`: the first few names, when none is close.
fn tool_list(tools: &[Tool]) -> String {
    const SHOWN: usize = 8;
    let names: Vec<&str> = tools.iter().take(SHOWN).map(|t| t.name.as_str()).collect();
    let more = if tools.len() > SHOWN {
        format!(", … {} in all", tools.len())
    } else {
        String::new()
    };
    format!(" (its tools: {}{more})", names.join(", "))
}
