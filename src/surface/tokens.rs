//! Token counts of a surface as a provider sees it: per tool (name, description, schema and the
//! JSON envelope around them) and in total, with a named tokenizer. OpenAI families use
//! `o200k_base`, which is exact for them; other providers get the same count with `exact: false`.

use serde::{Deserialize, Serialize};

use super::Tool;

/// The tokenizer every count here uses.
pub const TOKENIZER: &str = "o200k_base";

/// Token counts of one tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolTokens {
    /// The name.
    pub name: usize,
    /// The description (0 when missing).
    pub description: usize,
    /// The input schema as compact JSON.
    pub schema: usize,
    /// The JSON around them (keys, quotes, braces) in the function-tool wire form.
    pub envelope: usize,
    /// The whole tool as sent.
    pub total: usize,
}

/// Token counts of a surface.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SurfaceTokens {
    /// Tokenizer name.
    pub tokenizer: String,
    /// Whether the tokenizer is the provider's own (true for OpenAI families).
    pub exact: bool,
    /// Sum over tools.
    pub total: usize,
}

/// A description longer than this is JSON-escaped and counted piece by piece (`escaped_count`).
pub const CHUNK: usize = 64 * 1024;

/// Count tokens of a text with o200k_base (the compact tables of `o200k.rs`, identical counts
/// to tiktoken's).
pub fn count(text: &str) -> usize {
    super::o200k::count(text)
}

/// A byte offset at or after `from` that starts ` <letter>` right after a non-space, if any:
/// where o200k's pre-tokenizer starts a new piece anyway, so counting the two sides apart gives
/// the same total.
fn safe_cut(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    (from.max(1)..bytes.len().saturating_sub(1)).find(|&i| {
        bytes[i] == b' '
            && !bytes[i - 1].is_ascii_whitespace()
            && text.is_char_boundary(i + 1)
            && text[i + 1..]
                .chars()
                .next()
                .is_some_and(char::is_alphabetic)
            && bytes[i - 1] < 0x80
    })
}

/// Count one tool in the function-tool wire form `{"type":"function","name","description","parameters"}`.
pub fn tool_tokens(tool: &Tool) -> ToolTokens {
    let name = count(&tool.name);
    let description = tool.description.as_deref().map(count).unwrap_or(0);
    let schema_text = tool
        .input_schema
        .as_ref()
        .map(|s| serde_json::to_string(s).unwrap_or_default())
        .unwrap_or_else(|| "{\"type\":\"object\"}".to_owned());
    let schema = count(&schema_text);
    let text = tool.description.as_deref().unwrap_or_default();
    let long = text.len() > CHUNK;
    let wire = serde_json::json!({
        "type": "function",
        "name": tool.name,
        // A long description is counted separately, JSON-escaped piece by piece, instead of in
        // a copy of the whole wire text (the envelope is then exact, the join may differ by a
        // token or two).
        "description": if long { "" } else { text },
        "parameters": serde_json::from_str::<serde_json::Value>(&schema_text).unwrap_or_default(),
    });
    let mut total = count(&serde_json::to_string(&wire).unwrap_or_default());
    if long {
        // JSON escaping changes only quotes, backslashes and control characters: without any,
        // the escaped text is the text, already counted.
        total += if text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
            escaped_count(text)
        } else {
            description
        };
    }
    ToolTokens {
        name,
        description,
        schema,
        envelope: total.saturating_sub(name + description + schema),
        total,
    }
}

/// Tokens of `text` as a JSON string body (escaped, without the quotes), piece by piece.
fn escaped_count(text: &str) -> usize {
    let mut total = 0;
    let mut rest = text;
    loop {
        let cut = if rest.len() > CHUNK {
            safe_cut(rest, CHUNK).unwrap_or(rest.len())
        } else {
            rest.len()
        };
        let piece = serde_json::to_string(&rest[..cut]).unwrap_or_default();
        total += count(
            piece
                .get(1..piece.len().saturating_sub(1))
                .unwrap_or_default(),
        );
        rest = &rest[cut..];
        if rest.is_empty() {
            return total;
        }
    }
}

/// Count a list of tools; `exact` says whether the target provider uses this tokenizer.
pub fn surface_tokens(tools: &[Tool], exact: bool) -> (Vec<ToolTokens>, SurfaceTokens) {
    let per: Vec<ToolTokens> = tools.iter().map(tool_tokens).collect();
    let total = per.iter().map(|t| t.total).sum();
    (
        per,
        SurfaceTokens {
            tokenizer: TOKENIZER.to_owned(),
            exact,
            total,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::{Confidence, Origin};

    #[test]
    fn known_o200k_counts() {
        // Reference values from OpenAI's tiktoken (o200k_base).
        assert_eq!(count("hello world"), 2);
        assert_eq!(count(""), 0);
    }

    #[test]
    fn parts_add_up_to_total() {
        let mut t = Tool::named("read_file", Origin::default(), Confidence::High);
        t.description = Some("Read the complete contents of a file from the file system.".into());
        t.input_schema = Some(
            serde_json::json!({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}),
        );
        let c = tool_tokens(&t);
        assert!(
            c.name >= 1 && c.description >= 10 && c.schema >= 10,
            "{c:?}"
        );
        assert_eq!(c.name + c.description + c.schema + c.envelope, c.total);
    }

    #[test]
    fn a_long_text_counts_the_same_in_pieces() {
        // Mixed words, punctuation, digits, non-ASCII and runs of spaces, well past one piece.
        let unit = "Read the file «données» at path/to/x.json, then 42 lines;  done.\n";
        let text = unit.repeat(3 * CHUNK / unit.len());
        assert!(text.len() > 2 * CHUNK);
        let whole = tiktoken_rs::o200k_base_singleton()
            .encode_ordinary(&text)
            .len();
        assert_eq!(count(&text), whole);
        // The wire total of a tool with that description is within a token of the exact one.
        let mut t = Tool::named("read_file", Origin::default(), Confidence::High);
        t.description = Some(text.clone());
        let c = tool_tokens(&t);
        let wire = serde_json::json!({"type": "function", "name": "read_file",
            "description": text, "parameters": {"type": "object"}});
        let exact = tiktoken_rs::o200k_base_singleton()
            .encode_ordinary(&serde_json::to_string(&wire).expect("json"))
            .len();
        assert!(c.total.abs_diff(exact) <= 2, "{} vs {exact}", c.total);
        assert_eq!(c.description, whole);
    }

    #[test]
    fn missing_description_counts_zero() {
        let t = Tool::named("x", Origin::default(), Confidence::High);
        let c = tool_tokens(&t);
        assert_eq!(c.description, 0);
        assert!(c.total > c.name);
    }
}
