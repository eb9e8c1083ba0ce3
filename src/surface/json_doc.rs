//! JSON (and JSONC) text parsed into a `serde_json::Value` together with where every node sits,
//! so loaders can name the file, line and column of a tool or of a shape they did not expect.

use std::collections::HashMap;

use jsonc_parser::ast;
use serde_json::{Map, Number, Value};

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

/// A parse failure with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// What the parser expected or found.
    pub message: String,
    /// Where.
    pub position: Position,
}

/// A key repeated in one JSON object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The key.
    pub key: String,
    /// JSON pointer of the object holding it (`""` for the root).
    pub object: String,
    /// Where the repeated key starts.
    pub position: Position,
}

/// A parsed JSON document: the value and the start offset of every node by JSON pointer.
#[derive(Debug)]
pub struct JsonDoc {
    /// The document's value.
    pub value: Value,
    /// Keys written more than once in the same object (the last one wins in `value`), each
    /// with the JSON pointer of the object and where the repeat starts.
    pub duplicates: Vec<DuplicateKey>,
    offsets: HashMap<String, usize>,
    line_starts: Vec<usize>,
    text_len: usize,
}

/// How deep a document may nest before it is refused (guards the recursive conversion).
const MAX_DEPTH: usize = 256;

impl JsonDoc {
    /// Parse `text`. Comments and trailing commas are accepted (VS Code configs are JSONC);
    /// everything else must be JSON.
    pub fn parse(text: &str) -> Result<JsonDoc, SyntaxError> {
        let line_starts = line_starts(text);
        let options = jsonc_parser::ParseOptions {
            allow_comments: true,
            allow_loose_object_property_names: false,
            allow_trailing_commas: true,
            allow_missing_commas: false,
            allow_single_quoted_strings: false,
            allow_hexadecimal_numbers: false,
            ..Default::default()
        };
        let parsed =
            jsonc_parser::parse_to_ast(text, &jsonc_parser::CollectOptions::default(), &options)
                .map_err(|e| SyntaxError {
                    message: e.kind().to_string(),
                    position: Position {
                        line: to_u32(e.line_display()),
                        column: to_u32(e.column_display()),
                    },
                })?;
        let mut doc = JsonDoc {
            value: Value::Null,
            duplicates: Vec::new(),
            offsets: HashMap::new(),
            line_starts,
            text_len: text.len(),
        };
        let Some(root) = parsed.value else {
            return Err(SyntaxError {
                message: "the file holds no JSON value".into(),
                position: Position { line: 1, column: 1 },
            });
        };
        let mut pointer = String::new();
        doc.value = doc.convert(text, &root, &mut pointer, 0)?;
        Ok(doc)
    }

    fn convert(
        &mut self,
        text: &str,
        node: &ast::Value<'_>,
        pointer: &mut String,
        depth: usize,
    ) -> Result<Value, SyntaxError> {
        let start = node_start(node);
        if depth > MAX_DEPTH {
            return Err(SyntaxError {
                message: format!("nesting deeper than {MAX_DEPTH} levels"),
                position: self.position_of_offset(text, start),
            });
        }
        self.offsets.insert(pointer.clone(), start);
        Ok(match node {
            ast::Value::StringLit(s) => Value::String(s.value.to_string()),
            ast::Value::NumberLit(n) => {
                let number: Number = n.value.parse().map_err(|_| SyntaxError {
                    message: format!("`{}` is not a JSON number", n.value),
                    position: self.position_of_offset(text, start),
                })?;
                Value::Number(number)
            }
            ast::Value::BooleanLit(b) => Value::Bool(b.value),
            ast::Value::NullKeyword(_) => Value::Null,
            ast::Value::Array(arr) => {
                let mut out = Vec::with_capacity(arr.elements.len());
                for (i, el) in arr.elements.iter().enumerate() {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&i.to_string());
                    out.push(self.convert(text, el, pointer, depth + 1)?);
                    pointer.truncate(len);
                }
                Value::Array(out)
            }
            ast::Value::Object(obj) => {
                let mut map = Map::new();
                for prop in &obj.properties {
                    let key = prop.name.as_str();
                    if map.contains_key(key) {
                        self.duplicates.push(DuplicateKey {
                            key: key.to_owned(),
                            object: pointer.clone(),
                            position: self.position_of_offset(text, prop.range.start),
                        });
                    }
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    let v = self.convert(text, &prop.value, pointer, depth + 1)?;
                    // The property name is a better anchor for messages than its value.
                    self.offsets.insert(pointer.clone(), prop.range.start);
                    pointer.truncate(len);
                    map.insert(key.to_owned(), v);
                }
                Value::Object(map)
            }
        })
    }

    /// The byte offset where the node at `pointer` starts, when it exists.
    pub fn offset(&self, pointer: &str) -> Option<usize> {
        self.offsets.get(pointer).copied()
    }

    /// The 1-based line where the node at `pointer` starts (as [`JsonDoc::position`], without
    /// the column: a binary search, however long the line — a minified file is one line).
    pub fn line(&self, pointer: &str) -> u32 {
        let mut p = pointer;
        loop {
            if let Some(&off) = self.offsets.get(p) {
                let off = off.min(self.text_len);
                let idx = match self.line_starts.binary_search(&off) {
                    Ok(i) => i,
                    Err(i) => i.saturating_sub(1),
                };
                return to_u32(idx + 1);
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return 1,
            }
        }
    }

    /// Where the node at `pointer` (RFC 6901) starts; the nearest existing ancestor if the
    /// pointer names nothing; line 1 column 1 at worst.
    pub fn position(&self, text: &str, pointer: &str) -> Position {
        let mut p = pointer;
        loop {
            if let Some(&off) = self.offsets.get(p) {
                return self.position_of_offset(text, off);
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return Position { line: 1, column: 1 },
            }
        }
    }

    fn position_of_offset(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(self.text_len);
        let line_idx = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let line_start = self.line_starts.get(line_idx).copied().unwrap_or(0);
        let column = text
            .get(line_start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(0);
        Position {
            line: to_u32(line_idx + 1),
            column: to_u32(column + 1),
        }
    }
}

fn node_start(node: &ast::Value<'_>) -> usize {
    match node {
        ast::Value::StringLit(v) => v.range.start,
        ast::Value::NumberLit(v) => v.range.start,
        ast::Value::BooleanLit(v) => v.range.start,
        ast::Value::Object(v) => v.range.start,
        ast::Value::Array(v) => v.range.start,
        ast::Value::NullKeyword(v) => v.range.start,
    }
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_of_nested_nodes() {
        let text = "{\n  \"tools\": [\n    {\"name\": \"a\"},\n    {\"name\": \"b\"}\n  ]\n}\n";
        let doc = JsonDoc::parse(text).expect("valid json");
        assert_eq!(
            doc.position(text, "/tools/1"),
            Position { line: 4, column: 5 }
        );
        assert_eq!(
            doc.position(text, "/tools/0/name"),
            Position { line: 3, column: 6 }
        );
        // A pointer to nothing falls back to its nearest ancestor.
        assert_eq!(
            doc.position(text, "/tools/0/missing"),
            Position { line: 3, column: 5 }
        );
    }

    #[test]
    fn truncated_json_reports_where() {
        let err = JsonDoc::parse("{\n  \"tools\": [\n    {\"name\": \"a\"").expect_err("truncated");
        assert!(err.position.line >= 3, "{err:?}");
    }

    #[test]
    fn comments_and_trailing_commas_are_accepted() {
        let doc = JsonDoc::parse("{ // servers\n \"a\": [1,2,],\n}").expect("jsonc");
        assert_eq!(doc.value["a"][1], 2);
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let text = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        assert!(JsonDoc::parse(&text).is_err());
    }
}
