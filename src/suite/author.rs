//! Appending cases to a suite someone wrote by hand, keeping everything else they wrote.
//!
//! What is guaranteed, by format:
//!
//! - **JSON suite and JSON task set** (JSONC too): the file is edited through a concrete syntax
//!   tree. Every byte outside the `cases` (`tasks`) array is kept, comments included, and so is
//!   every byte of the cases already there; the new cases are inserted after the last one, in
//!   the array's indentation. An empty single-line array (`"cases": []`) is opened onto lines
//!   first; a missing array is added as the object's last key.
//! - **YAML suite and YAML task set**: the file is never re-serialized (serde_yaml_ng cannot
//!   keep comments). The new items are inserted as text right after the last item of the
//!   top-level block sequence `cases:` (`tasks:`), at that sequence's indentation; every other
//!   line stays byte for byte, comments included. `cases: []` on its own line becomes
//!   `cases:` (the one existing line that changes), and a file without the key gets it at its
//!   end. Other layouts (a flow sequence with items, an anchor, a nested root) are refused
//!   with the block to paste by hand.
//! - **Every format**: the edited text is read back with the suite reader before anything is
//!   written; unless it parses to exactly the old cases followed by the new ones, nothing is
//!   written and the error carries the text to paste. The write is atomic (write, then rename;
//!   a symlink at the path is replaced, never followed).
//!
//! New values are written as JSON scalars (YAML accepts them: strings double-quoted,
//! `expectedArgs` and `tags` as flow collections).

use std::path::Path;

use jsonc_parser::cst::{CstInputValue, CstRootNode};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::{Case, Suite, SuiteError, SuiteFormat};

/// Where a case an agent wrote says it came from, unless told otherwise.
pub const DEFAULT_SOURCE: &str = "agent";

/// A case to add, as a caller (the CLI, an MCP client) gives it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewCase {
    /// The id; `None` = a stable one from the expected tool and the input ([`stable_id`]).
    pub id: Option<String>,
    /// The user message.
    pub input: String,
    /// The tool a model should call; `None` = it should call none (must-not-call).
    pub expected_tool: Option<String>,
    /// Assertions on the arguments (the suite's `expectedArgs` syntax).
    pub expected_args: Option<Value>,
    /// Tags for `--only` / `--skip`.
    pub tags: Vec<String>,
}

/// How the cases are marked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marking {
    /// `source` of every new case.
    pub source: String,
    /// `reviewed` of every new case (`false` = never counts in official scores).
    pub reviewed: bool,
}

impl Default for Marking {
    /// `source: agent`, `reviewed: false`.
    fn default() -> Marking {
        Marking {
            source: DEFAULT_SOURCE.to_owned(),
            reviewed: false,
        }
    }
}

/// Why cases could not be added. Nothing was written in any of these.
#[derive(Debug, thiserror::Error)]
pub enum AuthorError {
    /// The suite could not be read.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// The suite's tools could not be read.
    #[error(transparent)]
    Surface(#[from] super::input::ResolveError),
    /// One or more cases are wrong; every problem, one per line.
    #[error("{file}: nothing was added ({} problem{}):\n{}", .problems.len(), if .problems.len() == 1 { "" } else { "s" }, .problems.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
    Invalid {
        /// The suite file.
        file: String,
        /// Each problem, naming the case and what to do.
        problems: Vec<String>,
    },
    /// The file's layout cannot be edited without rewriting it.
    #[error("{file}: {message}; nothing was written — add this by hand:\n{block}")]
    Layout {
        /// The suite file.
        file: String,
        /// What is in the way.
        message: String,
        /// The text to paste.
        block: String,
    },
    /// The file could not be written.
    #[error("cannot write {file}: {source}")]
    Write {
        /// The suite file.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// A stable id for a case: the expected tool (`no-tool` for must-not-call) and the first 8 hex
/// digits of the SHA-256 of the input with its surrounding whitespace trimmed. The same case
/// added twice gets the same id, so the second add is refused as a duplicate.
pub fn stable_id(expected_tool: Option<&str>, input: &str) -> String {
    let digest = Sha256::digest(input.trim().as_bytes());
    let hex: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    let tool: String = expected_tool
        .unwrap_or("no-tool")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("{tool}-{hex}")
}

/// The cases `new` stands for, marked and with their ids.
pub fn build(new: &[NewCase], marking: &Marking) -> Vec<Case> {
    new.iter()
        .map(|n| Case {
            id: n
                .id
                .clone()
                .unwrap_or_else(|| stable_id(n.expected_tool.as_deref(), &n.input)),
            input: n.input.clone(),
            expected_tool: Some(n.expected_tool.clone()),
            expected_args: n.expected_args.clone(),
            tool_input: None,
            expect: None,
            tags: n.tags.clone(),
            source: Some(marking.source.clone()),
            reviewed: marking.reviewed,
            line: None,
            mutated_from: None,
            mutation: None,
        })
        .collect()
}

/// What the format itself refuses in `cases` and what collides with `suite`: blank ids, ids
/// already used (in the suite or among the new ones), `expectedArgs` in a task set (the shape
/// has no such field). One line each.
pub fn shape_problems(suite: &Suite, cases: &[Case]) -> Vec<String> {
    let mut problems = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let name = format!("case {} (id {:?})", i + 1, case.id);
        if case.id.trim().is_empty() {
            problems.push(format!(
                "case {}: the id is blank; give a stable, unique id or leave it out",
                i + 1
            ));
        } else if let Some(old) = suite.cases.iter().find(|c| c.id == case.id) {
            let at = old
                .line
                .map(|l| format!(" at line {l}"))
                .unwrap_or_default();
            let same = old.input.trim() == case.input.trim();
            problems.push(format!(
                "{name}: the suite already has a case with this id{at}{}",
                if same {
                    " and the same input (it was added before); nothing to do"
                } else {
                    "; choose another id"
                }
            ));
        } else if cases[..i].iter().any(|c| c.id == case.id) {
            problems.push(format!("{name}: the id is given twice in this request"));
        }
        if case.input.trim().is_empty() {
            problems.push(format!(
                "{name}: the input is blank; write the user message the model should answer"
            ));
        }
        if case
            .tags
            .iter()
            .any(|t| t.trim().is_empty() || t.contains(','))
        {
            problems.push(format!(
                "{name}: a tag is blank or holds a comma; give each tag as one word"
            ));
        }
        if suite.format.is_task_set() && case.expected_args.is_some() {
            problems.push(format!(
                "{name}: a task set has no expectedArgs field; add the case without expectedArgs, \
                 or to an mf suite (mf.suite.json / .yaml)"
            ));
        }
    }
    problems
}

/// The text of the suite at `display` (currently `text`, read as `suite`) with `cases`
/// appended, checked by reading it back. See the module documentation for what is kept.
pub fn appended(
    display: &str,
    text: &str,
    suite: &Suite,
    cases: &[Case],
) -> Result<String, AuthorError> {
    let format = suite.format;
    let values: Vec<Value> = cases.iter().map(|c| case_value(c, format)).collect();
    let key = format.cases_key();
    let out = if format.is_yaml() {
        yaml_append(display, text, key, &values)?
    } else {
        json_append(display, text, key, &values)?
    };
    verify(display, &out, suite, cases, &values)?;
    Ok(out)
}

/// Write the new text atomically.
pub fn write(path: &Path, display: &str, text: &str) -> Result<(), AuthorError> {
    crate::util::atomic::write_atomic(path, text.as_bytes()).map_err(|source| AuthorError::Write {
        file: display.to_owned(),
        source,
    })
}

/// A case as the file writes it: the suite's field names, or the task set's.
fn case_value(case: &Case, format: SuiteFormat) -> Value {
    let mut o = Map::new();
    o.insert("id".into(), case.id.clone().into());
    let expected = case
        .expected_tool
        .clone()
        .flatten()
        .map_or(Value::Null, Value::String);
    o.insert(format.input_field().into(), case.input.clone().into());
    o.insert(format.expected_field().into(), expected);
    if let Some(args) = &case.expected_args {
        o.insert("expectedArgs".into(), args.clone());
    }
    if !case.tags.is_empty() {
        o.insert("tags".into(), case.tags.clone().into());
    }
    if let Some(source) = &case.source {
        o.insert("source".into(), source.clone().into());
    }
    o.insert("reviewed".into(), case.reviewed.into());
    Value::Object(o)
}

fn layout(display: &str, message: impl Into<String>, key: &str, values: &[Value]) -> AuthorError {
    AuthorError::Layout {
        file: display.to_owned(),
        message: message.into(),
        block: yaml_items(values, 2, key),
    }
}

/// JSON (JSONC): append to the array through the CST.
fn json_append(
    display: &str,
    text: &str,
    key: &str,
    values: &[Value],
) -> Result<String, AuthorError> {
    let root = CstRootNode::parse(text, &jsonc_parser::ParseOptions::default()).map_err(|e| {
        AuthorError::Layout {
            file: display.to_owned(),
            message: format!("not JSON the editor can read ({e})"),
            block: json_block(values),
        }
    })?;
    let Some(obj) = root.object_value() else {
        return Err(AuthorError::Layout {
            file: display.to_owned(),
            message: "not a JSON object".into(),
            block: json_block(values),
        });
    };
    let Some(array) = obj.array_value_or_create(key) else {
        return Err(AuthorError::Layout {
            file: display.to_owned(),
            message: format!("`{key}` is not an array"),
            block: json_block(values),
        });
    };
    if array.elements().is_empty() {
        array.ensure_multiline();
    }
    for v in values {
        array.append(cst_input(v));
    }
    Ok(root.to_string())
}

fn json_block(values: &[Value]) -> String {
    values
        .iter()
        .map(|v| serde_json::to_string_pretty(v).unwrap_or_default())
        .collect::<Vec<_>>()
        .join(",\n")
}

fn cst_input(v: &Value) -> CstInputValue {
    match v {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(cst_input).collect()),
        Value::Object(o) => {
            CstInputValue::Object(o.iter().map(|(k, v)| (k.clone(), cst_input(v))).collect())
        }
    }
}

/// Block-sequence items at `indent`, each field on its own line, values as JSON (valid YAML).
/// With `key`, headed by `key:` (the block to paste into a file without one).
fn yaml_items(values: &[Value], indent: usize, key: &str) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    if !key.is_empty() {
        out.push_str(&format!("{key}:\n"));
    }
    for v in values {
        let Some(o) = v.as_object() else { continue };
        for (i, (k, field)) in o.iter().enumerate() {
            let lead = if i == 0 { "- " } else { "  " };
            out.push_str(&format!("{pad}{lead}{k}: {field}\n"));
        }
    }
    out
}

/// YAML: insert the items after the last item of the top-level block sequence `key`.
fn yaml_append(
    display: &str,
    text: &str,
    key: &str,
    values: &[Value],
) -> Result<String, AuthorError> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let is_key_line = |l: &str| {
        l.strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    };
    let Some(at) = lines.iter().position(|l| is_key_line(l)) else {
        let mut out = text.to_owned();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&yaml_items(values, 2, key));
        return Ok(out);
    };
    let after_colon = lines[at][key.len()..].trim_start()[1..].trim();
    let value = strip_comment(after_colon);
    let mut out = String::new();
    let mut head = lines[..at].concat();
    match value {
        "" => head.push_str(lines[at]),
        "[]" => head.push_str(&format!("{key}:\n")),
        _ => {
            return Err(layout(
                display,
                format!(
                    "`{key}:` is not a block sequence (`{key}: {value}`); mf appends only to one item per `- ` line"
                ),
                key,
                values,
            ));
        }
    }
    // The block: every following line that is blank, a comment, or indented or a `-` item.
    let mut end = at + 1;
    let mut last_content = at;
    let mut indent: Option<usize> = None;
    while end < lines.len() {
        let l = lines[end];
        let trimmed = l.trim_start();
        let blank = trimmed.trim().is_empty();
        let comment = trimmed.starts_with('#');
        let inside =
            l.starts_with([' ', '\t']) || trimmed.starts_with("- ") || trimmed.trim_end() == "-";
        if !(blank || comment || inside) || l.starts_with("---") || l.starts_with("...") {
            break;
        }
        if !blank && !comment {
            last_content = end;
            if indent.is_none() && (trimmed.starts_with("- ") || trimmed.trim_end() == "-") {
                indent = Some(l.len() - trimmed.len());
            }
        }
        end += 1;
    }
    if value == "[]" && last_content > at {
        return Err(layout(
            display,
            format!("`{key}: []` is followed by indented lines"),
            key,
            values,
        ));
    }
    let indent = indent.unwrap_or(2);
    out.push_str(&head);
    out.push_str(&lines[at + 1..=last_content].concat());
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&yaml_items(values, indent, ""));
    out.push_str(&lines[last_content + 1..].concat());
    Ok(out)
}

/// A plain YAML value without its trailing ` # comment`.
fn strip_comment(v: &str) -> &str {
    match v.find(" #") {
        Some(i) if !v.starts_with(['"', '\'']) => v[..i].trim_end(),
        _ if v.starts_with('#') => "",
        _ => v,
    }
}

/// Read the edited text back: it must hold the old cases, unchanged, then the new ones.
fn verify(
    display: &str,
    out: &str,
    suite: &Suite,
    cases: &[Case],
    values: &[Value],
) -> Result<(), AuthorError> {
    let name = suite.name.clone();
    let reread = super::read::parse_suite_text(out, display, &name, suite.format.is_yaml());
    let key = suite.format.cases_key();
    let fail = |why: String| {
        let block = if suite.format.is_yaml() {
            yaml_items(values, 2, "")
        } else {
            json_block(values)
        };
        AuthorError::Layout {
            file: display.to_owned(),
            message: format!(
                "the edited file would not read back as written ({why}); mf appends under a top-level `{key}` only"
            ),
            block,
        }
    };
    let reread = reread.map_err(|e| fail(e.to_string()))?;
    let same = |a: &Case, b: &Case| {
        a.id == b.id
            && a.input == b.input
            && a.expected_tool == b.expected_tool
            && a.expected_args == b.expected_args
            && a.tags == b.tags
            && a.source == b.source
            && a.reviewed == b.reviewed
    };
    let n = suite.cases.len();
    if reread.cases.len() != n + cases.len()
        || !reread.cases[..n]
            .iter()
            .zip(&suite.cases)
            .all(|(a, b)| same(a, b))
        || !reread.cases[n..].iter().zip(cases).all(|(a, b)| same(a, b))
    {
        return Err(fail(format!(
            "{} cases read back, {} expected",
            reread.cases.len(),
            n + cases.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
