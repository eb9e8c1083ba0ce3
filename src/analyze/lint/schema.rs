//! Schema family: each input schema validated against the meta-schema of its draft (`$schema`
//! when present, 2020-12 otherwise) with the `jsonschema` crate, a root that is not an object,
//! `required` names with no property, and `$ref`s normalization could not inline.

use std::collections::HashMap;

use jsonschema::meta::MetaValidator;
use serde_json::Value;

use super::{LintInput, tool_finding, with_param};
use crate::report::lint::{Finding, Severity};
use crate::surface::normalize::RefProblem;

/// At most this many meta-schema errors are quoted in one finding.
const MAX_QUOTED_ERRORS: usize = 3;

/// Run the schema family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    for (raw, tool) in input.raw.tools.iter().zip(input.tools()) {
        let Some(schema) = raw.input_schema.as_ref() else {
            continue;
        };
        let declared = schema.get("$schema").and_then(Value::as_str);
        let validator = match declared {
            None => jsonschema::draft202012::meta::validator(),
            Some(uri) => match draft_validator(uri) {
                Some(v) => v,
                None => {
                    out.push(tool_finding(
                        Severity::Warn,
                        "schema-unknown-draft",
                        tool,
                        format!("Tool `{}` declares `$schema: {uri}`, a draft mf does not know; it was checked as 2020-12.", tool.name),
                        "Use a standard draft URI, e.g. `https://json-schema.org/draft/2020-12/schema`, or drop `$schema`.".into(),
                    ));
                    jsonschema::draft202012::meta::validator()
                }
            },
        };
        let errors: Vec<String> = validator
            .iter_errors(schema)
            .take(MAX_QUOTED_ERRORS + 1)
            .map(|e| {
                let at = e.instance_path().to_string();
                let at = if at.is_empty() {
                    "the root".to_owned()
                } else {
                    format!("`{at}`")
                };
                format!("at {at}: {}", shorten(&e.to_string()))
            })
            .collect();
        if !errors.is_empty() {
            let more = if errors.len() > MAX_QUOTED_ERRORS {
                "; …"
            } else {
                ""
            };
            let quoted: Vec<&str> = errors
                .iter()
                .take(MAX_QUOTED_ERRORS)
                .map(String::as_str)
                .collect();
            out.push(tool_finding(
                Severity::Error,
                "schema-invalid",
                tool,
                format!("Input schema of `{}` is not a valid JSON Schema ({}): {}{more}", tool.name, declared.unwrap_or("2020-12"), quoted.join("; ")),
                "Fix the schema so it validates against its draft's meta-schema (check `type` names, `required` as an array of strings, `properties` as an object).".into(),
            ));
        }
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            out.push(tool_finding(
                Severity::Error,
                "schema-root-not-object",
                tool,
                format!("Input schema of `{}` does not have `\"type\": \"object\"` at the root; MCP and function-calling APIs require an object of named arguments.", tool.name),
                "Wrap the arguments in `{\"type\": \"object\", \"properties\": {...}}`.".into(),
            ));
        }
        required_without_property(tool, out);
        defs_waste(tool, schema, out);
    }
    ref_problems(input, out);
}

/// `$defs` / `definitions` entries no `$ref` of the schema reaches, and entries identical to
/// another one: tokens paid on every request for nothing.
fn defs_waste(tool: &crate::surface::Tool, schema: &Value, out: &mut Vec<Finding>) {
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(r) = m.get("$ref").and_then(Value::as_str) {
                    out.push(r.to_owned());
                }
                m.values().for_each(|x| refs(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }
    let mut all_refs = Vec::new();
    refs(schema, &mut all_refs);
    for key in ["$defs", "definitions"] {
        let Some(defs) = schema.get(key).and_then(Value::as_object) else {
            continue;
        };
        let mut seen: Vec<(&String, &Value)> = Vec::new();
        // One finding per schema for the unused entries (a server that copies the same
        // definitions into every tool gets one line per tool, not one per copy).
        let mut unused: Vec<(&String, usize)> = Vec::new();
        for (name, def) in defs {
            let pointer = format!("#/{key}/{name}");
            let tokens = || crate::surface::tokens::count(&def.to_string());
            let used = all_refs
                .iter()
                .any(|r| r == &pointer || r.starts_with(&format!("{pointer}/")));
            if !used {
                unused.push((name, tokens()));
            }
            if let Some((first, _)) = seen.iter().find(|(_, d)| *d == def) {
                out.push(with_param(
                    tool_finding(
                        Severity::Warn,
                        "schema-defs-duplicate",
                        tool,
                        format!("`{key}/{name}` in the schema of `{}` is identical to `{key}/{first}`; the copy costs about {} tokens on every request.", tool.name, tokens()),
                        format!("Point the references at `#/{key}/{first}` and remove the copy."),
                    ),
                    &format!("{key}/{name}"),
                ));
            }
            seen.push((name, def));
        }
        if unused.is_empty() {
            continue;
        }
        let total: usize = unused.iter().map(|u| u.1).sum();
        let (message, param) = if let [(name, _)] = unused.as_slice() {
            (
                format!(
                    "`{key}/{name}` in the schema of `{}` is never referenced; it costs about {total} tokens on every request.",
                    tool.name
                ),
                format!("{key}/{name}"),
            )
        } else {
            const LISTED: usize = 5;
            let mut names: Vec<String> = unused
                .iter()
                .take(LISTED)
                .map(|u| format!("`{}`", u.0))
                .collect();
            if unused.len() > LISTED {
                names.push(format!("{} more", unused.len() - LISTED));
            }
            (
                format!(
                    "{} `{key}` entries in the schema of `{}` are never referenced ({}); together they cost about {total} tokens on every request.",
                    unused.len(),
                    tool.name,
                    names.join(", ")
                ),
                key.to_owned(),
            )
        };
        out.push(with_param(
            tool_finding(
                Severity::Warn,
                "schema-defs-unused",
                tool,
                message,
                "Remove the unused definitions (or reference them where they were meant to be used).".into(),
            ),
            &param,
        ));
    }
}

/// The meta-schema validator of a known `$schema` URI.
fn draft_validator(uri: &str) -> Option<MetaValidator<'static>> {
    let key = uri.trim_end_matches('#').replace("https://", "http://");
    Some(match key.as_str() {
        "http://json-schema.org/draft-04/schema" => jsonschema::draft4::meta::validator(),
        "http://json-schema.org/draft-06/schema" => jsonschema::draft6::meta::validator(),
        "http://json-schema.org/draft-07/schema" => jsonschema::draft7::meta::validator(),
        "http://json-schema.org/draft/2019-09/schema" => jsonschema::draft201909::meta::validator(),
        "http://json-schema.org/draft/2020-12/schema" => jsonschema::draft202012::meta::validator(),
        _ => return None,
    })
}

fn shorten(text: &str) -> String {
    const LIMIT: usize = 160;
    if text.chars().count() <= LIMIT {
        return text.to_owned();
    }
    let cut: String = text.chars().take(LIMIT).collect();
    format!("{cut}…")
}

/// `required` entries (top level) that name no property.
fn required_without_property(tool: &crate::surface::Tool, out: &mut Vec<Finding>) {
    let Some(schema) = tool.input_schema.as_ref() else {
        return;
    };
    let Some(required) = schema.get("required").and_then(Value::as_array) else {
        return;
    };
    let props = schema.get("properties").and_then(Value::as_object);
    let open = props.is_none()
        && schema
            .get("additionalProperties")
            .is_some_and(|v| v != &Value::Bool(false));
    for name in required.iter().filter_map(Value::as_str) {
        if open || props.is_some_and(|p| p.contains_key(name)) {
            continue;
        }
        out.push(with_param(
            tool_finding(
                Severity::Warn,
                "schema-required-unknown",
                tool,
                format!("`{}` requires `{name}`, but declares no such property; the model has no type or description for it.", tool.name),
                format!("Add `{name}` to `properties` with a type and description, or remove it from `required`."),
            ),
            name,
        ));
    }
}

/// Refs normalization left in place (BEHAVIOR §1.1).
fn ref_problems(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    if input.normalized.ref_issues.is_empty() {
        return;
    }
    let mut by_name: HashMap<&str, &crate::surface::Tool> = HashMap::new();
    for tool in input.tools() {
        by_name.entry(tool.name.as_str()).or_insert(tool);
    }
    for issue in &input.normalized.ref_issues {
        let Some(tool) = by_name.get(issue.tool.as_str()) else {
            continue;
        };
        let (severity, code, why, fix) = match issue.problem {
            RefProblem::External => (
                Severity::Warn,
                "schema-ref-external",
                "points outside the schema; clients and models never fetch it, so the model sees an unresolved reference",
                "Inline the referenced schema (or copy it under `$defs` and use `#/$defs/...`).",
            ),
            RefProblem::Missing => (
                Severity::Error,
                "schema-ref-missing",
                "points at nothing inside the schema; validators refuse to compile it",
                "Fix the pointer or add the missing definition under `$defs`.",
            ),
            RefProblem::Budget => (
                Severity::Warn,
                "schema-ref-budget",
                "and the refs after it were left un-inlined: inlining the schema would copy more than 100,000 nodes or 8 MiB (refs that reference each other several times per level grow exponentially), so mf analyses the schema only partly",
                "Reference shared definitions once per level, or flatten the schema; models see the same blow-up.",
            ),
            RefProblem::Cyclic => (
                Severity::Info,
                "schema-ref-cyclic",
                "is recursive; some providers reject recursive schemas and mf analyses it only up to the cycle",
                "Keep it if every target provider accepts recursion; otherwise bound the depth explicitly.",
            ),
        };
        let at = if issue.at.is_empty() {
            "/"
        } else {
            issue.at.as_str()
        };
        out.push(with_param(
            tool_finding(
                severity,
                code,
                tool,
                format!(
                    "`$ref: {}` at `{at}` in `{}` {why}.",
                    issue.reference, tool.name
                ),
                fix.into(),
            ),
            at,
        ));
    }
}
