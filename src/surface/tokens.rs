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

/// Count tokens of a text with o200k_base.
pub fn count(text: &str) -> usize {
    super::o200k::count(text)
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
    let wire = serde_json::json!({
        "type": "function",
        "name": tool.name,
        "description": tool.description.as_deref().unwrap_or_default(),
        "parameters": serde_json::from_str::<serde_json::Value>(&schema_text).unwrap_or_default(),
    });
    let total = count(&serde_json::to_string(&wire).unwrap_or_default());
    ToolTokens {
        name,
        description,
        schema,
        envelope: total.saturating_sub(name + description + schema),
        total,
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
    fn missing_description_counts_zero() {
        let t = Tool::named("x", Origin::default(), Confidence::High);
        let c = tool_tokens(&t);
        assert_eq!(c.description, 0);
        assert!(c.total > c.name);
    }
}
