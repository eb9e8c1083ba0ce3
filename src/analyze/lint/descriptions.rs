//! Descriptions family: a tool's description is what a model chooses by. Missing (error for
//! declared tools, warn when a code recognizer may simply have missed it), too short, identical
//! to another tool's, parameters without a description, and generic tool names.

use std::collections::HashMap;

use serde_json::Value;

use super::{LintInput, tool_finding, with_param};
use crate::report::lint::{Finding, Severity};
use crate::surface::{Confidence, Tool};

/// Name words that say nothing about what a tool does. A name made only of these (digits
/// ignored) is generic: `run`, `do_it`, `tool1`, `execute_action`, `helper`.
const GENERIC_WORDS: &[&str] = &[
    "action",
    "call",
    "cmd",
    "command",
    "do",
    "exec",
    "execute",
    "fn",
    "func",
    "function",
    "handle",
    "handler",
    "helper",
    "invoke",
    "it",
    "main",
    "misc",
    "op",
    "operation",
    "perform",
    "process",
    "run",
    "stuff",
    "task",
    "test",
    "thing",
    "tool",
    "util",
    "utility",
    "utils",
];

/// Run the descriptions family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let min = input.options.min_description_chars;
    let mut by_description: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (tool, facts)) in input.tools().iter().zip(input.facts).enumerate() {
        let text = tool.description.as_deref().unwrap_or("").trim();
        if text.is_empty() {
            let severity = if tool.confidence == Confidence::Low {
                Severity::Warn
            } else {
                Severity::Error
            };
            out.push(tool_finding(
                severity,
                "description-missing",
                tool,
                format!("Tool `{}` has no description; a model can only guess from the name when to call it.", tool.name),
                "Describe what the tool does, what it returns, and when to use it instead of its neighbours.".into(),
            ));
        } else {
            let n = text.chars().count();
            if n < min {
                out.push(tool_finding(
                    Severity::Warn,
                    "description-too-short",
                    tool,
                    format!("Description of `{}` is {n} characters (< {min}): \"{text}\".", tool.name),
                    "Say what the tool does, what it returns, and when to use it (one or two sentences).".into(),
                ));
            }
            by_description
                .entry(facts.description.as_str())
                .or_default()
                .push(i);
        }
        undescribed_params(tool, out);
        if is_generic(&facts.words) {
            out.push(tool_finding(
                Severity::Warn,
                "name-generic",
                tool,
                format!("Tool name `{}` says nothing about what it does; models pick tools by name first.", tool.name),
                "Name the action and its object, e.g. `run` → `run_sql_query`, `helper` → `format_invoice`.".into(),
            ));
        }
    }
    let tools = input.tools();
    for indices in by_description.values().filter(|v| v.len() > 1) {
        let names: Vec<&str> = indices.iter().map(|&i| tools[i].name.as_str()).collect();
        for &i in indices {
            let tool = &tools[i];
            let others: Vec<String> = names
                .iter()
                .filter(|n| **n != tool.name)
                .map(|n| format!("`{n}`"))
                .collect();
            let others = if others.is_empty() {
                "another tool with the same name".to_owned()
            } else {
                others.join(", ")
            };
            out.push(tool_finding(
                Severity::Error,
                "description-duplicate",
                tool,
                format!("Description of `{}` is identical to {others}'s; a model cannot tell them apart.", tool.name),
                "Rewrite each description to say what is different: the object it acts on, and when to use the other tool instead.".into(),
            ));
        }
    }
}

fn is_generic(words: &[String]) -> bool {
    !words.is_empty()
        && words.iter().all(|w| {
            let stem = w.trim_end_matches(|c: char| c.is_ascii_digit());
            stem.is_empty() || GENERIC_WORDS.contains(&stem)
        })
}

/// Report parameters (nested ones as dotted paths, array items as `name[]`) without a description.
fn undescribed_params(tool: &Tool, out: &mut Vec<Finding>) {
    let Some(schema) = tool.input_schema.as_ref() else {
        return;
    };
    let mut missing = Vec::new();
    super::visit_params(schema, &mut |path, prop| {
        // A `$ref` (left in place) or a boolean schema documents itself elsewhere.
        if !prop.is_object() || prop.get("$ref").is_some() {
            return false;
        }
        let described = prop
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| !d.trim().is_empty());
        if !described {
            missing.push(path.to_owned());
        }
        true
    });
    for path in missing {
        out.push(with_param(
            tool_finding(
                Severity::Warn,
                "param-description-missing",
                tool,
                format!("Parameter `{path}` of `{}` has no description; the model must guess its format and meaning.", tool.name),
                "Add a `description` saying what the value is, its format or units, and an example.".into(),
            ),
            &path,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(name: &str) -> Vec<String> {
        super::super::name_words(name)
    }

    #[test]
    fn generic_names_are_made_only_of_generic_words() {
        for name in [
            "run", "execute", "do", "tool1", "helper", "process", "handle", "doIt", "run_tool",
        ] {
            assert!(is_generic(&words(name)), "{name}");
        }
        for name in [
            "run_sql_query",
            "process_refund",
            "get_user",
            "handle_webhook_event",
        ] {
            assert!(!is_generic(&words(name)), "{name}");
        }
    }
}
