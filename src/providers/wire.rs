//! What the wire formats share: clipping provider text, `malformed` errors, reading a body as a
//! JSON object, a tool's parameter schema, turning wire arguments into a [`Call`], and the
//! OpenAI-style error message. Pure functions: no I/O, no knowledge of any one format.

use serde_json::{Map, Value, json};

use super::{Call, ErrorKind, TrialError};
use crate::surface::Tool;

/// `text` cut to at most `max_chars` characters, with `…` when cut.
pub(crate) fn clip(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// A `malformed` trial error.
pub(crate) fn malformed(what: impl Into<String>) -> TrialError {
    TrialError::new(ErrorKind::Malformed, what)
}

/// The body as a JSON object, or a short `malformed` error (never the body itself).
pub(crate) fn parse_object(body: &[u8]) -> Result<Map<String, Value>, TrialError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(malformed("response is not a JSON object")),
        Err(e) => Err(malformed(format!("response is not JSON: {e}"))),
    }
}

/// The tool's input schema as served, or an empty object schema when it has none.
pub(crate) fn tool_parameters(tool: &Tool) -> Value {
    tool.input_schema
        .clone()
        .unwrap_or_else(|| json!({ "type": "object", "properties": {} }))
}

/// A call from wire arguments: a JSON string (parsed when valid, kept raw otherwise), an
/// already-parsed value (some servers send an object), or nothing (`{}`).
pub(crate) fn call_from_arguments(name: Option<String>, arguments: Option<&Value>) -> Call {
    match arguments {
        Some(Value::String(s)) => Call::from_wire(name, s),
        None | Some(Value::Null) => Call::from_wire(name, ""),
        Some(v) => Call {
            name,
            arguments: Some(v.clone()),
            raw_arguments: None,
        },
    }
}

/// The message of an OpenAI-style error body: `{error: {message}}`, `{error: "…"}` or
/// `{message: "…"}` (vLLM), clipped to 300 characters.
pub(crate) fn openai_error_message(body: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let message = match v.get("error") {
        Some(Value::Object(e)) => e.get("message").and_then(Value::as_str),
        Some(Value::String(s)) => Some(s.as_str()),
        _ => v.get("message").and_then(Value::as_str),
    }?;
    Some(clip(message, 300))
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Fixtures and tools for the wire format unit tests.

    use serde_json::json;

    use crate::surface::{Confidence, Origin, Tool};

    /// A response body from `tests/fixtures/providers/DIR/NAME`.
    pub(crate) fn fixture(dir: &str, name: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/providers")
            .join(dir)
            .join(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// `search_docs` (description and schema) and `create_ticket` (neither).
    pub(crate) fn two_tools() -> Vec<Tool> {
        let mut search = Tool::named("search_docs", Origin::default(), Confidence::High);
        search.description = Some("Search the product documentation.".into());
        search.input_schema = Some(json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look for"},
                "limit": {"type": "integer", "minimum": 1}
            },
            "required": ["query"]
        }));
        let ticket = Tool::named("create_ticket", Origin::default(), Confidence::High);
        vec![search, ticket]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_counts_characters() {
        assert_eq!(clip("héllo", 10), "héllo");
        assert_eq!(clip("héllo", 2), "hé…");
    }
}
