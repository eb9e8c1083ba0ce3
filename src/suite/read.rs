//! Reading a suite file in any accepted shape: `mf.suite.json` (JSON), the same fields in YAML,
//! or a task set `{version, surface?, tasks}` in either syntax. Errors carry file, line and
//! column, and, when they lie inside a case, the case id and the key at fault.

use std::path::Path;

use serde_json::Value;

use super::locate::{JsonItems, json_item_lines, yaml_item_lines};
use super::taskset::TaskSet;
use super::{Suite, SuiteError, SuiteFormat};
use crate::surface::formats::{MAX_FILE_BYTES, read_text_with};
use crate::util::safe_read::ReadPolicy;

/// The two syntaxes a suite can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Json,
    Yaml,
}

impl Syntax {
    /// By extension (`.yaml`/`.yml` → YAML, `.json` → JSON); otherwise JSON when the
    /// text starts with `{` or `[`, YAML else.
    fn detect(path: &Path, text: &str) -> Syntax {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("yaml" | "yml") => Syntax::Yaml,
            Some("json") => Syntax::Json,
            _ if strip_bom(text).trim_start().starts_with(['{', '[']) => Syntax::Json,
            _ => Syntax::Yaml,
        }
    }
}

/// Read a suite in any accepted shape: an `mf.suite.json` v1, a YAML suite with the same
/// fields, or a task set `{version: 1, surface?, tasks: [{id, prompt, expected, tags?}]}` in
/// JSON or YAML (recognized by its top-level `tasks` key). `display` names the file in messages
/// and is kept in [`Suite::file`]. A task set becomes a suite named after the file stem.
///
/// Unknown keys, missing keys and wrong types are errors naming the file, line and column, and
/// the case id and key when they lie inside a case. Duplicate case ids are an error listing
/// every repeated id with its lines.
pub fn read_suite_any(path: &Path, display: &str) -> Result<Suite, SuiteError> {
    read_any(path, display, true).map(|(suite, _)| suite)
}

/// [`read_suite_any`] without the duplicate-id refusal: for `mf tasks lint`, which reports
/// every repeated id as a finding with its line instead of stopping at the first file error.
pub fn read_suite_for_lint(path: &Path, display: &str) -> Result<Suite, SuiteError> {
    read_any(path, display, false).map(|(suite, _)| suite)
}

/// [`read_suite_any`], with the text the suite was read from (for an edit of that text).
pub fn read_suite_and_text(path: &Path, display: &str) -> Result<(Suite, String), SuiteError> {
    read_any(path, display, true)
}

fn read_any(path: &Path, display: &str, unique_ids: bool) -> Result<(Suite, String), SuiteError> {
    let text = read_suite_text(path, display)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "tasks".to_owned());
    let suite = match Syntax::detect(path, &text) {
        Syntax::Json => parse_json_any(&text, display, &name, unique_ids),
        Syntax::Yaml => parse_yaml_any(&text, display, &name, unique_ids),
    }?;
    check_surface_inside(&suite, path, display)?;
    Ok((suite, text))
}

/// A suite's (task set's) `surface` names a file or folder inside the suite's own folder:
/// absolute paths and `..` are refused, and so is a path that resolves (through a symlink)
/// outside it. mf runs on fork pull requests; a suite must not point it at `/` or `../..`.
pub(super) fn check_surface_inside(
    suite: &Suite,
    path: &Path,
    display: &str,
) -> Result<(), SuiteError> {
    use std::path::Component;
    let Some(rel) = suite.surface.as_deref() else {
        return Ok(());
    };
    let refuse = |why: &str| SuiteError::Reference {
        file: display.to_owned(),
        message: format!(
            "surface {rel:?} {why}; name a file or folder inside the suite's folder, relative to it"
        ),
    };
    let p = Path::new(rel);
    if p.is_absolute()
        || p.components()
            .any(|c| matches!(c, Component::Prefix(_) | Component::RootDir))
    {
        return Err(refuse("is an absolute path"));
    }
    if p.components().any(|c| matches!(c, Component::ParentDir)) {
        return Err(refuse("leaves the suite's folder with `..`"));
    }
    let base = match path.parent() {
        Some(b) if !b.as_os_str().is_empty() => b,
        _ => Path::new("."),
    };
    if let (Ok(real), Ok(real_base)) = (
        std::fs::canonicalize(base.join(p)),
        std::fs::canonicalize(base),
    ) && !real.starts_with(&real_base)
    {
        return Err(refuse(
            "resolves outside the suite's folder through a symlink",
        ));
    }
    Ok(())
}

/// A suite file's text through the safe-open: never through a symlink (a suite in a fork's
/// tree must not make mf read, and echo, a file elsewhere), a regular file of at most
/// [`MAX_FILE_BYTES`], and — when named by a relative path — inside the working directory.
pub(super) fn read_suite_text(path: &Path, display: &str) -> Result<String, SuiteError> {
    let cwd = if path.is_relative() {
        std::env::current_dir().ok()
    } else {
        None
    };
    let policy = ReadPolicy {
        root: cwd.as_deref(),
        follow_symlinks: false,
        limit: MAX_FILE_BYTES,
    };
    Ok(read_text_with(path, display, &policy)?)
}

/// [`read_suite_any`] on text already read (no file involved): YAML when `yaml`, else JSON; `name` names a task
/// set. For the fuzz targets and embedding.
pub fn parse_suite_text(
    text: &str,
    display: &str,
    name: &str,
    yaml: bool,
) -> Result<Suite, SuiteError> {
    if yaml {
        parse_yaml_any(text, display, name, true)
    } else {
        parse_json_any(text, display, name, true)
    }
}

fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Parse JSON text that must be an `mf.suite.json` (no task sets): what [`super::read_suite`]
/// reads.
pub(super) fn parse_json_suite(text: &str, display: &str) -> Result<Suite, SuiteError> {
    parse_json_only(text, display, true)
}

fn parse_json_only(text: &str, display: &str, unique_ids: bool) -> Result<Suite, SuiteError> {
    let text = strip_bom(text);
    let suite: Suite =
        serde_json::from_str(text).map_err(|e| json_error(text, display, &e, "cases"))?;
    finish(suite, text, display, SuiteFormat::Json, unique_ids)
}

/// Parse JSON text as a suite or, when it has a top-level `tasks` key, a task set.
fn parse_json_any(
    text: &str,
    display: &str,
    name: &str,
    unique_ids: bool,
) -> Result<Suite, SuiteError> {
    let text = strip_bom(text);
    let value: Value =
        serde_json::from_str(text).map_err(|e| json_error(text, display, &e, "cases"))?;
    if value.get("tasks").is_none() {
        return parse_json_only(text, display, unique_ids);
    }
    let set: TaskSet =
        serde_json::from_str(text).map_err(|e| json_error(text, display, &e, "tasks"))?;
    set.check_version(display, || {
        let doc = crate::surface::json_doc::JsonDoc::parse(text).ok();
        doc.map_or(1, |d| d.position(text, "/version").line as usize)
    })?;
    let suite = set.into_suite(name);
    finish(suite, text, display, SuiteFormat::TaskSetJson, unique_ids)
}

/// Parse YAML text as a suite or, when it has a top-level `tasks` key, a task set.
fn parse_yaml_any(
    text: &str,
    display: &str,
    name: &str,
    unique_ids: bool,
) -> Result<Suite, SuiteError> {
    let text = strip_bom(text);
    crate::util::yaml_limits::check_depth(text, crate::util::yaml_limits::MAX_YAML_DEPTH).map_err(
        |message| SuiteError::Reference {
            file: display.to_owned(),
            message,
        },
    )?;
    let value: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(text).map_err(|e| yaml_error(display, &e, "cases", None))?;
    let is_task_set = value.as_mapping().is_some_and(|m| m.contains_key("tasks"));
    let (suite, format) = if is_task_set {
        let set: TaskSet = serde_yaml_ng::from_str(text)
            .map_err(|e| yaml_error(display, &e, "tasks", Some(&value)))?;
        set.check_version(display, || {
            super::locate::yaml_top_key_line(text, "version").map_or(1, |l| l as usize)
        })?;
        (set.into_suite(name), SuiteFormat::TaskSetYaml)
    } else {
        let suite: Suite = serde_yaml_ng::from_str(text)
            .map_err(|e| yaml_error(display, &e, "cases", Some(&value)))?;
        (suite, SuiteFormat::Yaml)
    };
    finish(suite, text, display, format, unique_ids)
}

/// Record where the suite came from and where each case starts, then (when `unique_ids`)
/// refuse duplicate ids.
fn finish(
    mut suite: Suite,
    text: &str,
    display: &str,
    format: SuiteFormat,
    unique_ids: bool,
) -> Result<Suite, SuiteError> {
    if !format.is_task_set() && suite.version != super::SUITE_VERSION {
        let line = match format {
            SuiteFormat::Yaml => {
                super::locate::yaml_top_key_line(text, "version").map_or(1, |l| l as usize)
            }
            _ => crate::surface::json_doc::JsonDoc::parse(text)
                .map_or(1, |d| d.position(text, "/version").line as usize),
        };
        return Err(SuiteError::Invalid {
            file: display.to_owned(),
            line,
            column: 1,
            message: format!(
                "suite version {} is not supported; this mf reads v1; write `version: 1` (and only v1 fields) or use the mf that wrote this file",
                suite.version
            ),
        });
    }
    let key = format.cases_key();
    let lines = match format {
        SuiteFormat::Json | SuiteFormat::TaskSetJson => json_item_lines(text, key),
        SuiteFormat::Yaml | SuiteFormat::TaskSetYaml => {
            let ids: Vec<&str> = suite.cases.iter().map(|c| c.id.as_str()).collect();
            yaml_item_lines(text, key, &ids)
        }
    };
    for (i, case) in suite.cases.iter_mut().enumerate() {
        case.line = lines.get(i).copied().flatten();
    }
    suite.file = Some(display.to_owned());
    suite.format = format;
    if unique_ids {
        check_unique_ids(&suite, display)?;
    }
    Ok(suite)
}

/// Every id used more than once, with the lines of its uses, in one error.
fn check_unique_ids(suite: &Suite, display: &str) -> Result<(), SuiteError> {
    // First-use order, found through a map: linear in the number of cases.
    let mut uses: Vec<(&str, Vec<Option<u32>>)> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for case in &suite.cases {
        match index.get(case.id.as_str()) {
            Some(&i) => uses[i].1.push(case.line),
            None => {
                index.insert(&case.id, uses.len());
                uses.push((&case.id, vec![case.line]));
            }
        }
    }
    let repeated: Vec<String> = uses
        .iter()
        .filter(|(_, lines)| lines.len() > 1)
        .map(|(id, lines)| {
            let at: Vec<String> = lines.iter().flatten().map(u32::to_string).collect();
            if at.is_empty() {
                format!("{id:?} ({} times)", lines.len())
            } else {
                format!("{id:?} (lines {})", at.join(", "))
            }
        })
        .collect();
    if repeated.is_empty() {
        return Ok(());
    }
    let what = if repeated.len() == 1 { "id" } else { "ids" };
    Err(SuiteError::Reference {
        file: display.to_owned(),
        message: format!(
            "case {what} used more than once: {}; ids must be unique in the suite",
            repeated.join(", ")
        ),
    })
}

/// A serde_json error as a suite error: syntax errors as they are; a data error inside a case
/// of `items_key` names the case and the key.
fn json_error(text: &str, display: &str, e: &serde_json::Error, items_key: &str) -> SuiteError {
    let (line, byte_column, message) = crate::surface::formats::serde_error_parts(e);
    let line_start = nth_line_start(text, line);
    // serde_json's column counts the bytes read on the line, so the last byte it read sits at
    // `line_start + column - 1`; messages show columns in characters.
    let end = (line_start + byte_column).min(text.len());
    let column = text
        .get(line_start..end)
        .map_or(byte_column, |s| s.chars().count())
        .max(1);
    let invalid = || SuiteError::Invalid {
        file: display.to_owned(),
        line,
        column,
        message: message.clone(),
    };
    if e.classify() != serde_json::error::Category::Data {
        return invalid();
    }
    let offset = end.saturating_sub(1);
    let Some(items) = JsonItems::parse(text, items_key) else {
        return invalid();
    };
    let Some(index) = items.containing(offset) else {
        return invalid();
    };
    let field = field_in_message(&message).or_else(|| items.key_before(index, offset));
    // serde_json finds a missing key at the closing brace; the case's opening is where to look
    // (and where YAML points).
    let (line, column) = if message.starts_with("missing field") {
        items.start(index)
    } else {
        (line, column)
    };
    SuiteError::Case {
        file: display.to_owned(),
        line,
        column,
        index,
        id: items.id(index),
        field,
        message,
    }
}

/// A serde_yaml_ng error as a suite error. Its message starts with the path of the value at
/// fault (`cases[3].input: …`), which names the case and the key.
fn yaml_error(
    display: &str,
    e: &serde_yaml_ng::Error,
    items_key: &str,
    doc: Option<&serde_yaml_ng::Value>,
) -> SuiteError {
    let (line, column) = e
        .location()
        .map_or((1, 1), |l| (l.line().max(1), l.column().max(1)));
    let mut message = e.to_string();
    for suffix in [
        format!(" at line {line} column {column}"),
        format!(" at position {}", e.location().map_or(0, |l| l.index())),
    ] {
        if let Some(m) = message.strip_suffix(&suffix) {
            message = m.to_owned();
        }
    }
    let Some((index, path_field, rest)) = split_yaml_path(&message, items_key) else {
        return SuiteError::Invalid {
            file: display.to_owned(),
            line,
            column,
            message,
        };
    };
    let id = doc
        .and_then(|d| d.get(items_key))
        .and_then(|items| items.get(index))
        .and_then(|case| case.get("id"))
        .and_then(serde_yaml_ng::Value::as_str)
        .map(str::to_owned);
    let field = field_in_message(&rest).or(path_field);
    SuiteError::Case {
        file: display.to_owned(),
        line,
        column,
        index,
        id,
        field,
        message: rest,
    }
}

/// `cases[3].tags[1]: invalid type…` → (3, Some("tags"), "invalid type…").
fn split_yaml_path(message: &str, items_key: &str) -> Option<(usize, Option<String>, String)> {
    let after_key = message.strip_prefix(items_key)?.strip_prefix('[')?;
    let close = after_key.find(']')?;
    let index: usize = after_key[..close].parse().ok()?;
    let after_index = &after_key[close + 1..];
    let (path_rest, text) = after_index.split_once(": ")?;
    let field = path_rest
        .strip_prefix('.')
        .map(|p| p.split(['.', '[']).next().unwrap_or(p).to_owned())
        .filter(|f| !f.is_empty());
    Some((index, field, text.to_owned()))
}

/// The key a serde message names: ``unknown field `x` ``, ``missing field `x` ``,
/// ``duplicate field `x` ``.
fn field_in_message(message: &str) -> Option<String> {
    ["unknown field `", "missing field `", "duplicate field `"]
        .iter()
        .find_map(|p| message.strip_prefix(p))
        .and_then(|rest| rest.split_once('`'))
        .map(|(f, _)| f.to_owned())
}

/// Byte offset where 1-based `line` starts (the text's end when there is no such line).
fn nth_line_start(text: &str, line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    text.match_indices('\n')
        .nth(line - 2)
        .map_or(text.len(), |(i, _)| i + 1)
}

#[cfg(test)]
mod tests;
