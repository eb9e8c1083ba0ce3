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

/// Compact JSON of an already normalized value with object keys sorted, into `hasher`: the
/// bytes `canonical_json` would produce for it.
fn write_sorted(v: &serde_json::Value, hasher: &mut Sha256) {
    use serde_json::Value;
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            hasher.update(b"{");
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    hasher.update(b",");
                }
                hasher.update(serde_json::to_string(k).unwrap_or_default().as_bytes());
                hasher.update(b":");
                write_sorted(&o[k], hasher);
            }
            hasher.update(b"}");
        }
        Value::Array(a) => {
            hasher.update(b"[");
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    hasher.update(b",");
                }
                write_sorted(x, hasher);
            }
            hasher.update(b"]");
        }
        Value::String(s) => {
            // serde_json's escaping, piece by piece through an io::Write into the hash.
            let _ = serde_json::to_writer(HashWriter(hasher), s);
        }
        other => hasher.update(other.to_string().as_bytes()),
    }
}

struct HashWriter<'a>(&'a mut Sha256);

impl std::io::Write for HashWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The fingerprint of a surface's tools (provenance and skills are not part of it).
pub fn surface_fingerprint(surface: &Surface) -> String {
    let mut tools: Vec<serde_json::Value> = surface
        .tools
        .iter()
        .map(|t| normalize_tool(t).0.into_wire_json())
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
    // The digest of `canonical_json` of the array, written straight into the hash: the tools
    // are normalized already, so only the key order is left to do (no copy of the texts).
    let mut hasher = Sha256::new();
    hasher.update(b"[");
    for (i, t) in tools.iter().enumerate() {
        if i > 0 {
            hasher.update(b",");
        }
        write_sorted(t, &mut hasher);
    }
    hasher.update(b"]");
    let digest = hasher.finalize();
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

    #[test]
    fn the_streamed_digest_is_the_digest_of_canonical_json() {
        let text = r#"{"tools": [
            {"name": "b", "description": "Zweite \u00e9tape\r\n  ", "inputSchema": {"type": "object", "properties": {"z": {"type": "string"}, "a": {"type": "integer", "enum": [1, 2.5, null, true]}}}},
            {"name": "a", "description": "quote \" and \\ slash", "annotations": {"readOnlyHint": true}, "inputSchema": {"type": "object"}}
        ]}"#;
        let doc = parse_json(text, "t.json").expect("json");
        let src = Source {
            file: "t.json",
            text,
            doc: &doc,
            base_dir: None,
        };
        let surface = load_doc(&src).expect("load").expect("a surface").surface;
        let mut tools: Vec<serde_json::Value> = surface
            .tools
            .iter()
            .map(|t| normalize_tool(t).0.wire_json())
            .collect();
        tools.sort_by_key(|t| t["name"].as_str().unwrap_or_default().to_owned());
        let text = canonical_json(&serde_json::Value::Array(tools));
        let want: String = Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(surface_fingerprint(&surface), format!("sha256:{want}"));
    }

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
