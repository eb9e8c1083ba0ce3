//! `x-mcp-header` family: a schema keyword asking the client to mirror an argument into an HTTP
//! header. Its value must be a non-empty RFC 9110 token (tchar only), unique case-insensitively
//! within the tool, on a statically reachable property (directly under the root `properties`,
//! not under arrays, combinators or nested objects) whose `type` is string, integer or boolean.
//!
//! The normalized schema is walked, so a header reached through an internal `$ref` counts where
//! the ref is used; `$defs` themselves are skipped.

use std::collections::HashMap;

use serde_json::Value;

use super::{LintInput, tool_finding, with_param};
use crate::report::lint::{Finding, Severity};

/// The keyword.
pub const KEYWORD: &str = "x-mcp-header";

/// Keywords whose value is one subschema.
const ONE: &[&str] = &[
    "additionalProperties",
    "items",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
/// Keywords whose value is an array of subschemas.
const MANY: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems", "items"];
/// Keywords whose value maps names to subschemas.
const MAPS: &[&str] = &["properties", "patternProperties", "dependentSchemas"];

/// RFC 9110 `tchar`.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Run the header family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    for tool in input.tools() {
        let Some(schema) = tool.input_schema.as_ref() else {
            continue;
        };
        let mut found = Vec::new();
        walk(schema, "", true, 0, &mut found);
        let mut seen: HashMap<String, String> = HashMap::new();
        for (at, prop, reachable) in found {
            let value = prop.get(KEYWORD).unwrap_or(&Value::Null);
            let param = at.trim_start_matches("/properties/").to_owned();
            let finding = |code: &str, message: String, suggestion: &str| {
                with_param(
                    tool_finding(Severity::Error, code, tool, message, suggestion.to_owned()),
                    &param,
                )
            };
            let name = value
                .as_str()
                .filter(|s| !s.is_empty() && s.chars().all(is_tchar));
            match name {
                None => out.push(finding(
                    "header-invalid-name",
                    format!("`{KEYWORD}` at `{at}` of `{}` is {value}, not an HTTP header name (an RFC 9110 token).", tool.name),
                    "Use a non-empty header name of letters, digits and `!#$%&'*+-.^_`|~`, e.g. `X-Tenant-Id`.",
                )),
                Some(n) => {
                    if let Some(first) = seen.get(&n.to_ascii_lowercase()) {
                        out.push(finding(
                            "header-duplicate",
                            format!("Header `{n}` of `{}` is also mapped from `{first}` (header names are case-insensitive).", tool.name),
                            "Give each mirrored argument its own header name.",
                        ));
                    } else {
                        seen.insert(n.to_ascii_lowercase(), at.clone());
                    }
                }
            }
            if !reachable {
                out.push(finding(
                    "header-unreachable",
                    format!("`{KEYWORD}` at `{at}` of `{}` is not on a top-level property; a client cannot know statically which value to send.", tool.name),
                    "Move the keyword to a property directly under the input schema's `properties`.",
                ));
            } else if !matches!(
                prop.get("type").and_then(Value::as_str),
                Some("string" | "integer" | "boolean")
            ) {
                out.push(finding(
                    "header-invalid-type",
                    format!("Property `{param}` of `{}` carries `{KEYWORD}` but its type is {}; a header value must be a string, integer or boolean.", tool.name, prop.get("type").map_or("not declared".to_owned(), Value::to_string)),
                    "Declare `\"type\": \"string\"` (or integer/boolean) on the property, or drop the header mapping.",
                ));
            }
        }
    }
}

/// Collect `(pointer, schema object, reachable)` for every subschema carrying the keyword.
fn walk<'v>(
    node: &'v Value,
    at: &str,
    root: bool,
    depth: usize,
    found: &mut Vec<(String, &'v Value, bool)>,
) {
    if depth > 32 {
        return;
    }
    let Some(obj) = node.as_object() else { return };
    if obj.contains_key(KEYWORD) {
        // Reachable = exactly one step below the root, through `properties`.
        let reachable = !root && depth == 2 && at.starts_with("/properties/");
        found.push((
            if root { "/".to_owned() } else { at.to_owned() },
            node,
            reachable,
        ));
    }
    for (key, value) in obj {
        let key = key.as_str();
        let child = format!("{at}/{}", escape(key));
        if MAPS.contains(&key) {
            if let Some(map) = value.as_object() {
                for (name, sub) in map {
                    walk(
                        sub,
                        &format!("{child}/{}", escape(name)),
                        false,
                        depth + 2,
                        found,
                    );
                }
            }
        } else if MANY.contains(&key) && value.is_array() {
            for (i, sub) in value.as_array().into_iter().flatten().enumerate() {
                walk(sub, &format!("{child}/{i}"), false, depth + 2, found);
            }
        } else if ONE.contains(&key) {
            walk(value, &child, false, depth + 1, found);
        }
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
