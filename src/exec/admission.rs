//! Admission: whether a call may run at all, decided before anything starts. A tool's
//! `sideEffects` says what it touches — `none` and `read` need nothing extra, `write` needs
//! `--allow-write PATH`, `external` needs `--allow-net`. A tool that declares nothing is judged
//! by its MCP annotations (`readOnlyHint: true` → read, `openWorldHint: true` → external) and
//! otherwise treated as `write`. Then the arguments are validated against the tool's input
//! schema, every violation listed.

use serde_json::Value;

use super::config::ExecSetup;
use crate::suite::execution::SideEffects;

/// The side effects a call is admitted under, and where that came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Effective {
    /// The class.
    pub side_effects: SideEffects,
    /// `declared`, `annotations` or `undeclared`.
    pub basis: &'static str,
}

/// The side effects of a tool: declared, else from its annotations, else `write`.
pub fn effective(declared: Option<SideEffects>, annotations: Option<&Value>) -> Effective {
    if let Some(side_effects) = declared {
        return Effective {
            side_effects,
            basis: "declared",
        };
    }
    let hint = |k: &str| annotations.and_then(|a| a.get(k)).and_then(Value::as_bool);
    if hint("openWorldHint") == Some(true) {
        return Effective {
            side_effects: SideEffects::External,
            basis: "annotations",
        };
    }
    if hint("readOnlyHint") == Some(true) {
        return Effective {
            side_effects: SideEffects::Read,
            basis: "annotations",
        };
    }
    Effective {
        side_effects: SideEffects::Write,
        basis: "undeclared",
    }
}

/// Why `tool` may not run under `setup` (empty = admitted).
pub fn refusals(tool: &str, eff: Effective, setup: &ExecSetup) -> Vec<String> {
    let mut out = Vec::new();
    let class = eff.side_effects.as_str();
    let why = match eff.basis {
        "declared" => format!("tool `{tool}` declares sideEffects: {class}"),
        "annotations" => format!("tool `{tool}`'s MCP annotations mark it {class}"),
        _ => format!(
            "tool `{tool}` declares no sideEffects, so mf treats it as write (declare \
             `sideEffects: read` in the suite if it only reads)"
        ),
    };
    match eff.side_effects {
        SideEffects::None | SideEffects::Read => {}
        SideEffects::Write if setup.allow_write.is_empty() => out.push(format!(
            "{why}: pass --allow-write PATH (the folder it may write) to run it"
        )),
        SideEffects::Write => {}
        SideEffects::External if !setup.allow_net => {
            out.push(format!("{why}: pass --allow-net to run it"));
        }
        SideEffects::External => {}
    }
    out
}

/// Every way `input` breaks `schema` (`/path: message`); an unusable schema is one entry.
pub fn schema_violations(tool: &str, schema: Option<&Value>, input: &Value) -> Vec<String> {
    if !input.is_object() {
        return vec![format!(
            "the arguments of `{tool}` must be a JSON object, not {}",
            kind(input)
        )];
    }
    let Some(schema) = schema else {
        return Vec::new();
    };
    match jsonschema::validator_for(schema) {
        Ok(v) => v
            .iter_errors(input)
            .map(|e| {
                let at = e.instance_path().to_string();
                format!("{}: {e}", if at.is_empty() { "/" } else { at.as_str() })
            })
            .collect(),
        Err(e) => vec![format!(
            "the input schema of `{tool}` is not a usable JSON Schema: {e}"
        )],
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn undeclared_tools_are_judged_by_annotations_then_treated_as_write() {
        let read = json!({"readOnlyHint": true});
        let open = json!({"readOnlyHint": true, "openWorldHint": true});
        assert_eq!(effective(None, Some(&read)).side_effects, SideEffects::Read);
        assert_eq!(
            effective(None, Some(&open)).side_effects,
            SideEffects::External
        );
        assert_eq!(effective(None, None).side_effects, SideEffects::Write);
        assert_eq!(
            effective(Some(SideEffects::None), Some(&open)).side_effects,
            SideEffects::None
        );
    }

    #[test]
    fn schema_violations_list_every_problem_with_its_path() {
        let schema = json!({"type": "object", "required": ["path"],
            "properties": {"path": {"type": "string"}, "n": {"type": "integer"}}});
        let v = schema_violations("t", Some(&schema), &json!({"n": "x"}));
        assert_eq!(v.len(), 2, "{v:?}");
        assert!(v.iter().any(|m| m.starts_with("/n:")), "{v:?}");
        assert!(v.iter().any(|m| m.contains("path")), "{v:?}");
        assert!(schema_violations("t", Some(&schema), &json!({"path": "a"})).is_empty());
        assert_eq!(schema_violations("t", None, &json!([1])).len(), 1);
    }
}
