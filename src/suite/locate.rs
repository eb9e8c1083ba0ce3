//! Where each case of a suite file is written: the line of each item of `cases[]` (`tasks[]`),
//! and, for JSON, the byte range of each item so an error position can be traced to its case.
//!
//! JSON positions come from [`JsonDoc`]. YAML has no positioned value model in serde_yaml_ng, so
//! the YAML lines come from a scan of the text: the items of the block sequence under the
//! top-level key (each `-` at the sequence's indentation), checked against the parsed ids; when
//! the layout is not that plain block form (a flow sequence `cases: [...]`, an indented root,
//! a count that does not match), each case is found instead by its `id:` line, in order. A
//! case found neither way has no line.

use crate::surface::json_doc::{JsonDoc, Position};

/// The items of a JSON document's top-level array `key`, with their byte ranges.
#[derive(Debug)]
pub(super) struct JsonItems<'a> {
    text: &'a str,
    doc: JsonDoc,
    key: String,
    /// (first byte, last byte) of each item.
    ranges: Vec<(usize, usize)>,
}

impl<'a> JsonItems<'a> {
    /// `None` when the text does not parse or has no top-level array `key`.
    pub(super) fn parse(text: &'a str, key: &str) -> Option<JsonItems<'a>> {
        let doc = JsonDoc::parse(text).ok()?;
        let count = doc.value.get(key)?.as_array()?.len();
        let ranges = (0..count)
            .map(|i| {
                let pointer = format!("/{key}/{i}");
                let start = doc
                    .offset(&pointer)
                    .unwrap_or_else(|| byte_offset(text, doc.position(text, &pointer)));
                (start, value_end(text, start))
            })
            .collect();
        Some(JsonItems {
            text,
            doc,
            key: key.to_owned(),
            ranges,
        })
    }

    /// The item whose text contains byte `offset`.
    pub(super) fn containing(&self, offset: usize) -> Option<usize> {
        self.ranges
            .iter()
            .position(|&(start, end)| start <= offset && offset <= end)
    }

    /// 1-based line and character column where the item starts.
    pub(super) fn start(&self, index: usize) -> (usize, usize) {
        let p = self
            .doc
            .position(self.text, &format!("/{}/{index}", self.key));
        (p.line as usize, p.column as usize)
    }

    /// The item's `id`, when it is a string.
    pub(super) fn id(&self, index: usize) -> Option<String> {
        self.doc.value[self.key.as_str()][index]["id"]
            .as_str()
            .map(str::to_owned)
    }

    /// The key of the item's own object whose name starts last at or before `offset`: the key
    /// whose value holds a problem found at `offset`.
    pub(super) fn key_before(&self, index: usize, offset: usize) -> Option<String> {
        let obj = self.doc.value[self.key.as_str()][index].as_object()?;
        obj.keys()
            .filter_map(|k| {
                let escaped = k.replace('~', "~0").replace('/', "~1");
                let pointer = format!("/{}/{index}/{escaped}", self.key);
                let at = self.doc.offset(&pointer).unwrap_or_else(|| {
                    byte_offset(self.text, self.doc.position(self.text, &pointer))
                });
                (at <= offset).then_some((at, k))
            })
            .max_by_key(|(at, _)| *at)
            .map(|(_, k)| k.clone())
    }
}

/// The 1-based line of each item of the top-level array `key` (none when the text does not
/// parse as JSON).
pub(super) fn json_item_lines(text: &str, key: &str) -> Vec<Option<u32>> {
    let Ok(doc) = JsonDoc::parse(text) else {
        return Vec::new();
    };
    let count = doc
        .value
        .get(key)
        .and_then(serde_json::Value::as_array)
        .map_or(0, Vec::len);
    (0..count)
        .map(|i| Some(doc.line(&format!("/{key}/{i}"))))
        .collect()
}

/// Byte offset of a 1-based line and character column.
fn byte_offset(text: &str, p: Position) -> usize {
    let line_start = if p.line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(p.line as usize - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    let rest = text.get(line_start..).unwrap_or_default();
    line_start
        + rest
            .char_indices()
            .nth((p.column as usize).saturating_sub(1))
            .map_or(rest.len(), |(i, _)| i)
}

/// The last byte of the JSON value starting at `start`: the matching `}`/`]` of an object or
/// array, the closing quote of a string, the last character of a literal. Strings and `//`,
/// `/* */` comments are skipped while matching brackets.
fn value_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let last = text.len().saturating_sub(1);
    match bytes.get(start) {
        Some(b'{' | b'[') => {}
        Some(b'"') => return string_end(bytes, start).min(last),
        Some(_) => {
            let len = bytes[start..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']') || b.is_ascii_whitespace())
                .unwrap_or(bytes.len() - start);
            return (start + len).saturating_sub(1).max(start);
        }
        None => return last,
    }
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i;
                }
            }
            b'"' => i = string_end(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += bytes[i..].iter().position(|&b| b == b'\n').unwrap_or(0);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += text[i + 2..].find("*/").map_or(bytes.len(), |p| p + 3);
            }
            _ => {}
        }
        i += 1;
    }
    last
}

/// Index of the quote closing the string whose opening quote is at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The 1-based line of each item of the YAML sequence under top-level `key`, one entry per id
/// in `ids` (the parsed case ids, in order).
pub(super) fn yaml_item_lines(text: &str, key: &str, ids: &[&str]) -> Vec<Option<u32>> {
    let lines: Vec<&str> = text.lines().collect();
    if let Some(items) = block_sequence_items(&lines, key)
        && items.len() == ids.len()
        && items
            .iter()
            .zip(ids)
            .all(|(&(first, end), id)| lines[first..end].iter().any(|l| yaml_line_has_id(l, id)))
    {
        return items
            .iter()
            .map(|&(first, _)| Some(to_line(first)))
            .collect();
    }
    // Fallback: each case's `id:` line, searched in order after the key.
    let mut from = yaml_top_key_index(&lines, key).map_or(0, |(i, _)| i + 1);
    ids.iter()
        .map(|id| {
            let found = lines
                .iter()
                .enumerate()
                .skip(from)
                .find(|(_, l)| yaml_line_has_id(l, id))
                .map(|(i, _)| i);
            found.map(|i| {
                from = i + 1;
                to_line(i)
            })
        })
        .collect()
}

/// The 1-based line of top-level `key` in a YAML text.
pub(super) fn yaml_top_key_line(text: &str, key: &str) -> Option<u32> {
    let lines: Vec<&str> = text.lines().collect();
    yaml_top_key_index(&lines, key).map(|(i, _)| to_line(i))
}

fn to_line(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

/// The 0-based line of `key:` at column 0, and what follows the colon on that line.
fn yaml_top_key_index<'t>(lines: &[&'t str], key: &str) -> Option<(usize, &'t str)> {
    lines
        .iter()
        .enumerate()
        .find_map(|(i, l)| yaml_key_rest(l, key).map(|rest| (i, rest)))
}

/// When `line` is `key:` (plain, `"key":` or `'key':`) followed by a space or the end, the
/// text after the colon, trimmed.
fn yaml_key_rest<'t>(line: &'t str, key: &str) -> Option<&'t str> {
    let after = [("", ""), ("\"", "\""), ("'", "'")]
        .iter()
        .find_map(|(open, close)| {
            line.strip_prefix(open)?
                .strip_prefix(key)?
                .strip_prefix(close)
        })?;
    let rest = after.trim_start_matches([' ', '\t']).strip_prefix(':')?;
    if rest.is_empty() || rest.starts_with([' ', '\t']) {
        Some(rest.trim())
    } else {
        None
    }
}

/// For a block sequence under top-level `key`, each item's (first line, end line exclusive),
/// 0-based. `None` when the key is missing or its value is written on the key's own line.
fn block_sequence_items(lines: &[&str], key: &str) -> Option<Vec<(usize, usize)>> {
    let (key_index, rest) = yaml_top_key_index(lines, key)?;
    if !(rest.is_empty() || rest.starts_with('#')) {
        return None;
    }
    let mut starts = Vec::new();
    let mut indent_of_items = None;
    let mut end = lines.len();
    for (i, line) in lines.iter().enumerate().skip(key_index + 1) {
        let body = line.trim_start_matches(' ');
        if body.trim().is_empty() || body.starts_with('#') {
            continue;
        }
        let indent = line.len() - body.len();
        let is_item = body == "-" || body.starts_with("- ") || body.starts_with("-\t");
        match indent_of_items {
            None if is_item => {
                indent_of_items = Some(indent);
                starts.push(i);
            }
            None => {
                end = i;
                break;
            }
            Some(n) if indent < n || (indent == n && !is_item) => {
                end = i;
                break;
            }
            Some(n) if indent == n => starts.push(i),
            Some(_) => {}
        }
    }
    let ends = starts.iter().skip(1).copied().chain(std::iter::once(end));
    Some(starts.iter().copied().zip(ends).collect())
}

/// Whether a YAML line holds `id: <id>` as a key of a case (after an optional `- ` and `{`).
fn yaml_line_has_id(line: &str, id: &str) -> bool {
    let body = line.trim_start();
    let body = body.strip_prefix('-').map_or(body, str::trim_start);
    let body = body.strip_prefix('{').map_or(body, str::trim_start);
    let Some(value) = yaml_key_rest(body, "id") else {
        return false;
    };
    for quote in ['"', '\''] {
        if let Some(inner) = value.strip_prefix(quote) {
            return inner
                .strip_prefix(id)
                .is_some_and(|after| after.starts_with(quote));
        }
    }
    value
        .strip_prefix(id)
        .is_some_and(|after| after.is_empty() || after.starts_with([' ', '\t', ',', '}', ']']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_items_know_their_ranges_ids_and_keys() {
        let text = "{\"name\": \"s\", \"cases\": [\n  {\"id\": \"a\", \"input\": \"x\"},\n  {\"id\": \"b\",\n   \"input\": 3}\n]}";
        let items = JsonItems::parse(text, "cases").expect("items");
        let three = text.find('3').expect("3");
        assert_eq!(items.containing(three), Some(1));
        assert_eq!(items.id(1).as_deref(), Some("b"));
        assert_eq!(items.key_before(1, three).as_deref(), Some("input"));
        assert_eq!(
            items.containing(text.len() - 1),
            None,
            "the closing brace is outside"
        );
        assert_eq!(json_item_lines(text, "cases"), vec![Some(2), Some(3)]);
    }

    #[test]
    fn value_end_skips_brackets_inside_strings() {
        let text = r#"{"a": "}]\"}", "b": [1, {"c": "{"}]} tail"#;
        assert_eq!(value_end(text, 0), text.len() - 6);
    }

    #[test]
    fn yaml_block_items_ignore_dashes_inside_block_scalars() {
        let text = "name: s\ncases:\n  # first\n  - id: a\n    input: |\n      - not an item\n      - nor this\n\n  - input: hi\n    id: \"b\"\nprofiles: {}\n";
        assert_eq!(
            yaml_item_lines(text, "cases", &["a", "b"]),
            vec![Some(4), Some(9)]
        );
    }

    #[test]
    fn yaml_items_at_the_key_indentation_end_at_the_next_key() {
        let text = "cases:\n- id: a\n  input: x\n- id: b\n  input: y\nname: s\n";
        assert_eq!(
            yaml_item_lines(text, "cases", &["a", "b"]),
            vec![Some(2), Some(4)]
        );
    }

    #[test]
    fn yaml_flow_sequences_fall_back_to_the_id_lines() {
        let text = "name: s\ncases: [\n  {id: a, input: x},\n  {id: 'b', input: y}]\n";
        assert_eq!(
            yaml_item_lines(text, "cases", &["a", "b"]),
            vec![Some(3), Some(4)]
        );
    }

    #[test]
    fn yaml_ids_that_are_prefixes_do_not_match_longer_ids() {
        assert!(!yaml_line_has_id("  - id: refund-2", "refund"));
        assert!(yaml_line_has_id("  - id: refund # note", "refund"));
        assert!(yaml_line_has_id("    \"id\": \"refund\",", "refund"));
    }

    #[test]
    fn yaml_top_key_accepts_quotes_and_rejects_longer_keys() {
        assert_eq!(yaml_key_rest("'cases': # c", "cases"), Some("# c"));
        assert_eq!(yaml_key_rest("casesx: 1", "cases"), None);
        assert_eq!(
            yaml_top_key_line("name: x\nversion: 2\n", "version"),
            Some(2)
        );
    }
}
