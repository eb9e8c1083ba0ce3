//! The surface fingerprint: `sha256:` + hex of the canonical JSON of the normalized tools sorted
//! by name. Same tools in any key order, file order or line-ending style → same fingerprint.

use sha2::{Digest, Sha256};

use super::Surface;
use super::normalize::normalize_tool;

/// Canonical JSON text: compact, object keys sorted (normalized values already are), UTF-8.
pub fn canonical_json(v: &serde_json::Value) -> String {
    // `normalize_value` sorted every object; serde_json writes compactly with no spaces.
    serde_json::to_string(&super::normalize::normalize_value(v)).unwrap_or_default()
}

/// The fingerprint of a surface's tools (provenance and skills are not part of it).
pub fn surface_fingerprint(surface: &Surface) -> String {
    let mut tools: Vec<serde_json::Value> = surface
        .tools
        .iter()
        .map(|t| normalize_tool(t).0.wire_json())
        .collect();
    tools.sort_by(|a, b| {
        let name = |v: &serde_json::Value| {
            v.get("name")
                .and_then(|n| n.as_str())
                .unwrap_or_default()
                .to_owned()
        };
        name(a)
            .cmp(&name(b))
            .then_with(|| canonical_json(a).cmp(&canonical_json(b)))
    });
    let text = canonical_json(&serde_json::Value::Array(tools));
    let digest = Sha256::digest(text.as_bytes());
    let mut hex = String::with_capacity(7 + 64);
    hex.push_str("sha256:");
    for byte in digest {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::surface::formats::{Source, load_doc, parse_json};

    fn fp(text: &str) -> String {
        let doc = parse_json(text, "t.json").expect("json");
        let src = Source {
            file: "t.json",
            text,
            doc: &doc,
            base_dir: None,
        };
        let loaded = load_doc(&src).expect("load").expect("a surface");
        surface_fingerprint(&loaded.surface)
    }

    #[test]
    fn key_order_tool_order_and_line_endings_do_not_change_it() {
        let a = fp(
            r#"{"tools":[{"name":"a","description":"Reads a file.","inputSchema":{"type":"object","properties":{"p":{"type":"string"}}}},{"name":"b","inputSchema":{"type":"object"}}]}"#,
        );
        let b = fp(
            "{\"tools\":[{\"inputSchema\":{\"type\":\"object\"},\"name\":\"b\"},\r\n{\"inputSchema\":{\"properties\":{\"p\":{\"type\":\"string\"}},\"type\":\"object\"},\"description\":\"Reads a file.  \",\"name\":\"a\"}]}",
        );
        assert_eq!(a, b);
        assert!(a.starts_with("sha256:") && a.len() == 7 + 64, "{a}");
    }

    #[test]
    fn a_changed_description_changes_it() {
        let a = fp(r#"[{"name":"a","description":"Reads a file.","inputSchema":{}}]"#);
        let b = fp(r#"[{"name":"a","description":"Reads a files.","inputSchema":{}}]"#);
        assert_ne!(a, b);
    }

    #[test]
    fn canonical_json_sorts_nested_keys() {
        assert_eq!(
            canonical_json(&json!({"z": [ {"b": 1, "a": 2} ], "a": null})),
            r#"{"a":null,"z":[{"a":2,"b":1}]}"#
        );
    }

    #[test]
    fn same_surface_in_other_formats_has_same_fingerprint() {
        let mcp =
            fp(r#"{"tools":[{"name":"a","description":"d","inputSchema":{"type":"object"}}]}"#);
        let openai = fp(
            r#"[{"type":"function","function":{"name":"a","description":"d","parameters":{"type":"object"}}}]"#,
        );
        assert_eq!(mcp, openai);
    }
}
