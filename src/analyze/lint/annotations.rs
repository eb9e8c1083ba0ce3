//! Annotations family (MCP `annotations`): hints clients use to decide what needs a human's
//! approval. Contradictory hints, a read-only hint on a mutating name, a destructive name
//! declared safe, non-boolean hints, unknown keys, and coverage (no tool annotated, or only
//! some). Spec defaults when a hint is absent: readOnly false, destructive true, idempotent
//! false, openWorld true — so an unannotated tool is treated as a destructive, open-world write.

use serde_json::{Map, Value};

use super::{LintInput, surface_finding, tool_finding, with_param};
use crate::report::lint::{Finding, Severity};
use crate::surface::{SourceFormat, Tool};

/// The boolean hints of the MCP specification.
const HINTS: &[&str] = &[
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];
/// Every key the specification defines.
const KNOWN: &[&str] = &[
    "title",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// Leading name verbs that change state.
const MUTATING: &[&str] = &[
    "add",
    "append",
    "archive",
    "cancel",
    "create",
    "delete",
    "deploy",
    "destroy",
    "detach",
    "drop",
    "edit",
    "erase",
    "insert",
    "kill",
    "merge",
    "modify",
    "move",
    "overwrite",
    "patch",
    "post",
    "publish",
    "purge",
    "put",
    "remove",
    "rename",
    "replace",
    "reset",
    "revoke",
    "rm",
    "send",
    "set",
    "terminate",
    "truncate",
    "unlink",
    "update",
    "upload",
    "upsert",
    "wipe",
    "write",
];
/// Leading name verbs that destroy data or state.
const DESTRUCTIVE: &[&str] = &[
    "clear",
    "delete",
    "destroy",
    "detach",
    "drop",
    "erase",
    "kill",
    "overwrite",
    "purge",
    "remove",
    "reset",
    "revoke",
    "rm",
    "terminate",
    "truncate",
    "wipe",
];

/// Leading name verbs that only read.
const READING: &[&str] = &[
    "get", "list", "search", "find", "read", "fetch", "query", "describe", "show", "view", "count",
    "lookup", "inspect", "browse",
];
/// Name words that say a tool runs code or commands.
const EXECUTING: &[&str] = &[
    "exec", "execute", "eval", "evaluate", "shell", "bash", "command", "script", "sql", "code",
    "process", "terminal",
];

/// Leading name verbs that start something: with a word of [`EXECUTING`] (`run_groovy_script`,
/// `execute_sql`, `start_process`) the tool runs code or commands.
const RUNNING: &[&str] = &[
    "run", "execute", "exec", "eval", "evaluate", "invoke", "launch", "spawn", "start",
];

/// The word that says a tool runs code: a word of [`EXECUTING`] after a leading running verb
/// (`run_groovy_script`), or leading the name itself (`bash`, `shell_exec`, `sql_query`). Elsewhere
/// it is what another verb acts on: `save_refresh_token_from_code` saves an OAuth code,
/// `check_process_id_in_codelist` looks a process id up, `add_inline_site_script` registers a
/// script (and `process_payment` processes a payment).
fn runs_code(words: &[String]) -> Option<&str> {
    if leading_verb(words, RUNNING).is_some() {
        return words
            .iter()
            .map(String::as_str)
            .find(|w| EXECUTING.contains(w));
    }
    words
        .first()
        .map(String::as_str)
        .filter(|w| EXECUTING.contains(w) && *w != "process")
}

/// Parameters that choose what a multi-operation tool does (`sites_manage(action)`).
const OPERATION_PARAMS: &[&str] = &["action", "operation", "op", "command", "method", "mode"];

/// A multi-operation tool one of whose operations destroys (`action: "delete"`): the
/// parameter and that value.
fn destructive_operation(tool: &Tool) -> Option<(String, String)> {
    let props = tool.input_schema.as_ref()?.get("properties")?.as_object()?;
    props
        .iter()
        .filter(|(k, _)| OPERATION_PARAMS.contains(&k.to_lowercase().as_str()))
        .find_map(|(k, p)| {
            let values = p.get("enum").and_then(Value::as_array)?;
            values.iter().filter_map(Value::as_str).find_map(|v| {
                let first = crate::surface::terms::name_tokens(v).into_iter().next()?;
                DESTRUCTIVE
                    .contains(&first.as_str())
                    .then(|| (k.clone(), v.to_owned()))
            })
        })
}

/// Whether a tool comes from a format that carries MCP annotations.
fn mcp_format(tool: &Tool) -> bool {
    matches!(
        tool.origin.format,
        SourceFormat::McpToolsList
            | SourceFormat::Live
            | SourceFormat::TypescriptCode
            | SourceFormat::PythonCode
    )
}

/// The leading verb of a name (first or second word, after a namespace), if it is in `verbs`.
fn leading_verb<'w>(words: &'w [String], verbs: &[&str]) -> Option<&'w str> {
    // A name that ends in a reading agent noun (`deploy_services_reader`) reads: its first
    // word is the object read.
    if words.last().is_some_and(|w| READERS.contains(&w.as_str())) {
        return None;
    }
    words
        .iter()
        .take(2)
        .map(String::as_str)
        .find(|w| verbs.contains(w))
}

/// Agent nouns of reading (the last word of `netlify-deploy-services-reader`).
const READERS: &[&str] = &[
    "reader",
    "viewer",
    "getter",
    "fetcher",
    "lister",
    "finder",
    "inspector",
    "searcher",
];

/// Third-person writes a description states (`"… and updates them on the application"`).
const STATED_WRITES: &[&str] = &[
    "updates",
    "creates",
    "deletes",
    "removes",
    "modifies",
    "overwrites",
    "writes",
    "sends",
    "publishes",
    "uploads",
];

/// The first write a description says its tool does, if any.
fn states_a_write(description: &str) -> Option<&'static str> {
    description
        .split(|c: char| !c.is_alphanumeric())
        .find_map(|w| STATED_WRITES.iter().find(|s| **s == w).copied())
}

/// Run the annotations family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let tools = input.tools();
    let mut annotated = 0usize;
    for (tool, facts) in tools.iter().zip(input.facts) {
        let Some(value) = tool.annotations.as_ref() else {
            continue;
        };
        let Some(map) = value.as_object() else {
            out.push(tool_finding(
                Severity::Error,
                "annotations-invalid-hint",
                tool,
                format!(
                    "`annotations` of `{}` is not an object; clients ignore it.",
                    tool.name
                ),
                "Write annotations as an object, e.g. `{\"readOnlyHint\": true}`.".into(),
            ));
            continue;
        };
        if HINTS.iter().any(|h| map.contains_key(*h)) {
            annotated += 1;
        }
        key_problems(tool, map, out);
        let hint = |k: &str| map.get(k).and_then(Value::as_bool);
        if hint("readOnlyHint") == Some(true) && hint("destructiveHint") == Some(true) {
            out.push(tool_finding(
                Severity::Error,
                "annotations-conflicting",
                tool,
                format!("`{}` declares both `readOnlyHint: true` and `destructiveHint: true`.", tool.name),
                "A read-only tool cannot be destructive: drop `destructiveHint`, or set `readOnlyHint: false`.".into(),
            ));
        }
        if hint("readOnlyHint") == Some(true)
            && let Some(verb) = leading_verb(&facts.words, MUTATING)
        {
            out.push(tool_finding(
                    Severity::Warn,
                    "annotations-readonly-mutating",
                    tool,
                    format!("`{}` is declared `readOnlyHint: true`, but its name (`{verb}`) says it changes state; clients may run it without asking.", tool.name),
                    "If it changes anything, set `readOnlyHint: false` (and `destructiveHint` as appropriate); if it does not, rename it.".into(),
                ));
        }
        if hint("destructiveHint") == Some(false)
            && hint("readOnlyHint") != Some(true)
            && let Some(verb) = leading_verb(&facts.words, DESTRUCTIVE)
        {
            out.push(tool_finding(
                    Severity::Warn,
                    "annotations-destructive-declared-safe",
                    tool,
                    format!("`{}` is declared `destructiveHint: false`, but its name (`{verb}`) says it destroys data.", tool.name),
                    "Set `destructiveHint: true` (the default) unless the operation is truly reversible; then say so in the description.".into(),
                ));
        }
        if hint("destructiveHint") == Some(true)
            && hint("readOnlyHint") != Some(true)
            && let Some(verb) = leading_verb(&facts.words, READING)
            && !facts.words.iter().any(|w| MUTATING.contains(&w.as_str()))
        {
            // auth0's `get_quickstart_guide` "updates them on the Auth0 application": the
            // hints are right and the name is what misleads.
            let finding = match states_a_write(&facts.description) {
                Some(write) => tool_finding(
                    Severity::Warn,
                    "annotations-destructive-reader",
                    tool,
                    format!("`{}` is declared `destructiveHint: true` and its description says it {write}, but its name (`{verb}`) says it only reads; a model asked to look something up may call it and change state.", tool.name),
                    "Rename it after what it changes (or split the read from the write); keep the hints.".into(),
                ),
                None => tool_finding(
                    Severity::Warn,
                    "annotations-destructive-reader",
                    tool,
                    format!("`{}` is declared `destructiveHint: true`, but its name (`{verb}`) says it only reads; clients will ask for approval on every call.", tool.name),
                    "If it only reads, set `readOnlyHint: true` and drop `destructiveHint`; if it does change something, say what in the name and description.".into(),
                ),
            };
            out.push(finding);
        }
    }
    dangerous_unannotated(input, out);
    coverage(input, annotated, out);
}

/// A destructive or code-running MCP tool (by its name) without any hint.
fn dangerous_unannotated(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    for (tool, facts) in input.tools().iter().zip(input.facts) {
        if !mcp_format(tool) {
            continue;
        }
        let declares = tool
            .annotations
            .as_ref()
            .and_then(Value::as_object)
            .is_some_and(|m| HINTS.iter().any(|h| m.contains_key(*h)));
        if declares {
            continue;
        }
        let why = if let Some(verb) = leading_verb(&facts.words, DESTRUCTIVE) {
            format!("its name (`{verb}`) says it destroys data")
        } else if let Some((param, op)) = destructive_operation(tool) {
            format!("its `{param}` can be `{op}`")
        } else if let Some(w) = runs_code(&facts.words)
            // `search_code`, `get-code-references`, `list_processes` read about code and
            // processes: a leading reading verb makes the word the object, not something run.
            .filter(|_| leading_verb(&facts.words, READING).is_none())
        {
            format!("its name (`{w}`) says it runs code or commands")
        } else {
            continue;
        };
        out.push(tool_finding(
            Severity::Warn,
            "annotations-dangerous-unannotated",
            tool,
            format!("`{}` declares no annotation hints, and {why}; clients that trust hints cannot tell it needs a human's approval.", tool.name),
            "Declare `destructiveHint: true` (and `readOnlyHint: false`, `openWorldHint` as it is) so clients ask before running it.".into(),
        ));
    }
}

fn key_problems(tool: &Tool, map: &Map<String, Value>, out: &mut Vec<Finding>) {
    for (key, value) in map {
        if HINTS.contains(&key.as_str()) {
            if !value.is_boolean() {
                out.push(with_param(
                    tool_finding(
                        Severity::Error,
                        "annotations-invalid-hint",
                        tool,
                        format!("`{key}` of `{}` is {value}, not a boolean; clients ignore it and assume the default.", tool.name),
                        format!("Write `\"{key}\": true` or `false` (no quotes)."),
                    ),
                    key,
                ));
            }
        } else if key == "title" {
            if !value.is_string() {
                out.push(with_param(
                    tool_finding(
                        Severity::Error,
                        "annotations-invalid-hint",
                        tool,
                        format!("`title` annotation of `{}` is not a string.", tool.name),
                        "Write the title as a string.".into(),
                    ),
                    key,
                ));
            }
        } else {
            let near = KNOWN.iter().find(|k| {
                k.eq_ignore_ascii_case(key) || k.trim_end_matches("Hint").eq_ignore_ascii_case(key)
            });
            let suggestion = match near {
                Some(k) => {
                    format!("Did you mean `{k}`? Rename the key; as written it has no effect.")
                }
                None => format!(
                    "Remove `{key}` or move it to `_meta`; known keys are {}.",
                    KNOWN.join(", ")
                ),
            };
            out.push(with_param(
                tool_finding(
                    Severity::Warn,
                    "annotations-unknown-key",
                    tool,
                    format!(
                        "`annotations` of `{}` has unknown key `{key}`; clients ignore it.",
                        tool.name
                    ),
                    suggestion,
                ),
                key,
            ));
        }
    }
}

fn coverage(input: &LintInput<'_>, annotated: usize, out: &mut Vec<Finding>) {
    let tools = input.tools();
    let mcp: Vec<&Tool> = tools.iter().filter(|t| mcp_format(t)).collect();
    if mcp.is_empty() {
        return;
    }
    if annotated == 0 {
        out.push(surface_finding(
            Severity::Info,
            "annotations-none",
            format!("None of the {} MCP tools declares annotations; clients treat every tool as a destructive, open-world write and ask before each call.", mcp.len()),
            "Declare `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint` on each tool.".into(),
        ));
        return;
    }
    let declares = |t: &Tool| {
        t.annotations
            .as_ref()
            .and_then(Value::as_object)
            .is_some_and(|m| HINTS.iter().any(|h| m.contains_key(*h)))
    };
    for tool in mcp.iter().filter(|t| !declares(t)) {
        out.push(tool_finding(
            Severity::Info,
            "annotations-partial",
            tool,
            format!("`{}` has no annotation hints while {annotated} other tools do; clients assume it is a destructive, open-world write.", tool.name),
            "Declare its hints like the other tools (at least `readOnlyHint` and `destructiveHint`).".into(),
        ));
    }
}
