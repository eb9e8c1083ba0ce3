//! Loaders: one per input shape (BEHAVIOR §1.1). Each turns a parsed JSON document into tools
//! with their file:line, and reports shapes it does not know with file, line, column and what
//! was expected.
//!
//! Detection is by structure, never by file name, so a snapshot saved under any name loads.

pub mod anthropic;
pub mod function_json;
pub mod manifest;
pub mod mcp;
pub mod openai;
pub mod suite;

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::json_doc::{JsonDoc, Position};
use super::{Origin, SourceFormat, Surface, Tool};
use crate::util::safe_read::{self, ReadPolicy, SafeReadError};

/// Files larger than this are refused by [`load_path`] (and skipped by the scan).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a surface file could not be loaded. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The file is over the size cap.
    #[error(
        "{file}: {bytes} bytes or more is over the {limit}-byte limit for tool files; pass a smaller file"
    )]
    TooLarge {
        /// The file.
        file: String,
        /// Its size, or how much was read before the cap stopped the read.
        bytes: u64,
        /// The cap.
        limit: u64,
    },
    /// The file was refused by the safe-open: not a regular file, a symlink where none is
    /// allowed, or outside the folder it must stay in.
    #[error(transparent)]
    Refused(crate::util::safe_read::SafeReadError),
    /// The file is not UTF-8.
    #[error("{file}: not UTF-8 text (invalid byte at offset {offset}); save it as UTF-8")]
    NotUtf8 {
        /// The file.
        file: String,
        /// First bad byte.
        offset: usize,
    },
    /// The JSON does not parse.
    #[error("{file}:{line}:{column}: invalid JSON: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        column: u32,
        /// The parser's message.
        message: String,
    },
    /// The JSON parses but is not a shape mf knows, or a field has the wrong type.
    #[error("{file}:{line}:{column}: {found} at `{pointer}`; expected {expected}")]
    Shape {
        /// The file.
        file: String,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        column: u32,
        /// JSON pointer of the offending value (`/` for the root).
        pointer: String,
        /// What was there.
        found: String,
        /// What would have been accepted.
        expected: String,
    },
}

/// What the document shapes accepted by [`load_doc`] look like, for error messages.
pub const EXPECTED_SHAPES: &str = "an MCP tools/list result ({\"tools\": [...]}, \
{\"result\": {\"tools\": [...]}}, a bare array of tools, or an array of such pages), \
an OpenAI Chat or Responses function array, an Anthropic tools array, a function.json \
object {name, description, parameters}, or an mf suite {\"tools\": [...], \"cases\": [...]}";

/// A document being loaded: its text, parsed form and display name, for locating errors.
#[derive(Debug)]
pub struct Source<'a> {
    /// Display name of the file (relative to the scan root, `/`-separated).
    pub file: &'a str,
    /// The raw text.
    pub text: &'a str,
    /// The parsed document.
    pub doc: &'a JsonDoc,
    /// Directory `ref`s resolve against (suites only).
    pub base_dir: Option<&'a Path>,
}

impl Source<'_> {
    /// 1-based position of the node at `pointer`.
    pub fn position(&self, pointer: &str) -> Position {
        self.doc.position(self.text, pointer)
    }

    /// An origin for the node at `pointer`.
    pub fn origin(&self, format: SourceFormat, pointer: &str) -> Origin {
        let p = self.position(pointer);
        Origin::at(format, self.file, p.line, p.column)
    }

    /// A shape error at `pointer`.
    pub fn shape_error(&self, pointer: &str, found: &Value, expected: &str) -> LoadError {
        let p = self.position(pointer);
        LoadError::Shape {
            file: self.file.to_owned(),
            line: p.line,
            column: p.column,
            pointer: if pointer.is_empty() {
                "/".into()
            } else {
                pointer.into()
            },
            found: describe(found),
            expected: expected.to_owned(),
        }
    }
}

/// A short description of a JSON value for "found …" messages.
pub fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() > 40 => "a string".into(),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(a) => format!("an array of {} items", a.len()),
        Value::Object(o) if o.is_empty() => "an empty object".into(),
        Value::Object(o) => {
            let keys: Vec<&str> = o.keys().take(6).map(String::as_str).collect();
            format!("an object with keys {}", keys.join(", "))
        }
    }
}

/// The result of loading one document.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The tools (and, for suites, skills) found.
    pub surface: Surface,
    /// Problems that did not stop the load (e.g. a suite `ref` that could not be followed).
    pub warnings: Vec<String>,
}

/// Read a file that must be a tool surface (for commands that take a surface path).
/// `display` is how the file is named in messages and origins.
pub fn load_path(path: &Path, display: &str) -> Result<Loaded, LoadError> {
    let text = read_text(path, display, MAX_FILE_BYTES)?;
    let doc = parse_json(&text, display)?;
    let source = Source {
        file: display,
        text: &text,
        doc: &doc,
        base_dir: path.parent(),
    };
    match load_doc(&source)? {
        Some(loaded) => Ok(loaded),
        None => Err(source.shape_error("", &doc.value, EXPECTED_SHAPES)),
    }
}

/// Read a file the user named (a command-line argument, a file the scan walked to) as UTF-8
/// text through the safe-open: a regular file (symlinks followed), never a FIFO or device, at
/// most `limit` bytes. A leading UTF-8 byte-order mark is dropped.
pub fn read_text(path: &Path, display: &str, limit: u64) -> Result<String, LoadError> {
    read_text_with(path, display, &ReadPolicy::argument(limit))
}

/// Read a file that came from a repository (a suite `ref`, a discovered suite) as UTF-8 text:
/// no symlink, inside `root`, at most `limit` bytes.
pub fn read_repo_text(
    path: &Path,
    display: &str,
    root: &Path,
    limit: u64,
) -> Result<String, LoadError> {
    read_text_with(path, display, &ReadPolicy::repository(root, limit))
}

/// [`read_text`] under an explicit [`ReadPolicy`].
pub fn read_text_with(
    path: &Path,
    display: &str,
    policy: &ReadPolicy<'_>,
) -> Result<String, LoadError> {
    let bytes = safe_read::read_bytes(path, display, policy).map_err(|e| match e {
        SafeReadError::Io { file, source } => LoadError::Io { file, source },
        SafeReadError::TooLarge { file, limit } => LoadError::TooLarge {
            file,
            bytes: limit + 1,
            limit,
        },
        other => LoadError::Refused(other),
    })?;
    let mut text = String::from_utf8(bytes).map_err(|e| LoadError::NotUtf8 {
        file: display.to_owned(),
        offset: e.utf8_error().valid_up_to(),
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// Parse JSON(C) text, turning a syntax error into a [`LoadError`] that names the file.
pub fn parse_json(text: &str, display: &str) -> Result<JsonDoc, LoadError> {
    JsonDoc::parse(text).map_err(|e| LoadError::Syntax {
        file: display.to_owned(),
        line: e.position.line,
        column: e.position.column,
        message: e.message,
    })
}

/// Load a parsed document by its shape. `Ok(None)` when the document is not a tool surface at
/// all (e.g. a `package.json`); `Err` when it looks like one but something in it is wrong.
pub fn load_doc(src: &Source<'_>) -> Result<Option<Loaded>, LoadError> {
    let mut loaded = load_doc_shape(src)?;
    if let Some(l) = &mut loaded {
        l.warnings.extend(duplicate_key_warnings(src));
    }
    Ok(loaded)
}

/// One warning per key written twice in the same object: JSON parsers keep the last one
/// silently, so a reviewer may read a different value than the model gets.
pub fn duplicate_key_warnings(src: &Source<'_>) -> Vec<String> {
    src.doc
        .duplicates
        .iter()
        .map(|d| {
            let key: String = d.key.chars().take(60).collect();
            let object = if d.object.is_empty() {
                "/"
            } else {
                d.object.as_str()
            };
            format!(
                "{}:{}:{}: duplicate key {key:?} in the object at `{object}`; the last one is used — remove the others",
                src.file, d.position.line, d.position.column
            )
        })
        .collect()
}

fn load_doc_shape(src: &Source<'_>) -> Result<Option<Loaded>, LoadError> {
    let v = &src.doc.value;
    if suite::looks_like_suite(v) {
        return suite::load(src).map(Some);
    }
    if let Some(tools) = mcp::load(src)? {
        return Ok(Some(tools));
    }
    if let Value::Array(items) = v {
        if items.is_empty() || !items.iter().all(looks_like_tool) {
            return Ok(None);
        }
        let mut loaded = Loaded::default();
        for (i, item) in items.iter().enumerate() {
            loaded
                .surface
                .tools
                .push(load_tool(src, item, &format!("/{i}"))?);
        }
        return Ok(Some(loaded));
    }
    if function_json::looks_like_function(v) {
        return Ok(Some(Loaded {
            surface: Surface {
                tools: vec![load_tool(src, v, "")?],
                skills: vec![],
                unread: Vec::new(),
            },
            warnings: vec![],
        }));
    }
    Ok(None)
}

/// Whether a JSON value is plausibly one tool definition in any known shape.
pub fn looks_like_tool(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    if o.get("type").and_then(Value::as_str) == Some("function") {
        return o.contains_key("function") || o.contains_key("name");
    }
    o.contains_key("name")
        && (o.contains_key("inputSchema")
            || o.contains_key("input_schema")
            || o.contains_key("parameters")
            || o.contains_key("description"))
}

/// Load one tool object, whatever its shape, from the node at `pointer`.
pub fn load_tool(src: &Source<'_>, v: &Value, pointer: &str) -> Result<Tool, LoadError> {
    let Some(o) = v.as_object() else {
        return Err(src.shape_error(pointer, v, "a tool object with a `name`"));
    };
    if o.get("type").and_then(Value::as_str) == Some("function") {
        if o.contains_key("function") {
            return openai::load_chat_tool(src, v, pointer);
        }
        return openai::load_responses_tool(src, v, pointer);
    }
    if o.contains_key("input_schema") {
        return anthropic::load_tool(src, v, pointer);
    }
    if (o.contains_key("parameters") || o.contains_key("input")) && !o.contains_key("inputSchema") {
        return function_json::load_tool(src, v, pointer, SourceFormat::FunctionJson);
    }
    mcp::load_tool(src, v, pointer)
}

/// Read a required string field.
pub(crate) fn req_str(
    src: &Source<'_>,
    o: &Value,
    pointer: &str,
    key: &str,
) -> Result<String, LoadError> {
    let p = format!("{pointer}/{key}");
    match o.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
        Some(other) => {
            Err(src.shape_error(&p, other, &format!("`{key}` to be a non-empty string")))
        }
        None => Err(src.shape_error(pointer, o, &format!("a `{key}` field (string)"))),
    }
}

/// Read an optional string field (`null` counts as absent).
pub(crate) fn opt_str(
    src: &Source<'_>,
    o: &Value,
    pointer: &str,
    key: &str,
) -> Result<Option<String>, LoadError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(src.shape_error(
            &format!("{pointer}/{key}"),
            other,
            &format!("`{key}` to be a string"),
        )),
    }
}

/// Read an optional object field (`null` counts as absent).
pub(crate) fn opt_obj(
    src: &Source<'_>,
    o: &Value,
    pointer: &str,
    key: &str,
) -> Result<Option<Value>, LoadError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v @ Value::Object(_)) => Ok(Some(v.clone())),
        Some(other) => Err(src.shape_error(
            &format!("{pointer}/{key}"),
            other,
            &format!("`{key}` to be a JSON object (a JSON Schema)"),
        )),
    }
}

/// The display form of a path: `/`-separated, relative to `root` when inside it.
pub fn display_path(path: &Path, root: &Path) -> String {
    let rel: PathBuf = path
        .strip_prefix(root)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| path.to_path_buf());
    let s = rel.to_string_lossy().replace('\\', "/");
    if s.is_empty() { ".".into() } else { s }
}

/// Where a typed (serde) read of one of mf's own JSON files failed: 1-based line and column,
/// and serde's message without its trailing "at line L column C".
pub fn serde_error_parts(e: &serde_json::Error) -> (usize, usize, String) {
    let text = e.to_string();
    let message = text
        .split(" at line ")
        .next()
        .unwrap_or_default()
        .to_owned();
    (e.line(), e.column(), message)
}

#[cfg(test)]
mod tests;
