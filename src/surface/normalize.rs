//! Normalization before analysis and hashing (BEHAVIOR §1.1): Unicode NFC, CRLF → LF, trailing
//! spaces trimmed, internal `#/...` `$ref`s inlined (external, missing and cyclic refs left in
//! place and reported), object keys sorted. The wire form is never changed: this makes a copy.

use serde::Serialize;
use serde_json::{Map, Value};
use unicode_normalization::UnicodeNormalization;

use super::{Surface, Tool};

/// Why a `$ref` was left in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RefProblem {
    /// Points outside the schema (another file or a URL); mf never fetches it.
    External,
    /// Points inside the schema at something that does not exist.
    Missing,
    /// Refers back to itself through a chain of refs; inlining would never end.
    Cyclic,
    /// Inlining it would go over the per-schema budget ([`MAX_INLINED_NODES`] nodes,
    /// [`MAX_INLINED_BYTES`] bytes of strings): refs that reference each other several times per
    /// level grow exponentially. The ref (and every later one in the schema) is left in place.
    Budget,
}

/// A `$ref` that normalization could not inline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RefIssue {
    /// The tool whose schema holds the ref.
    pub tool: String,
    /// JSON pointer of the object holding `$ref`, inside the input schema.
    pub at: String,
    /// The ref as written.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Why it was left.
    pub problem: RefProblem,
}

/// A surface prepared for analysis, with what could not be normalized.
#[derive(Debug, Clone, Default)]
pub struct Normalized {
    /// Normalized copies of the tools, in the original order.
    pub surface: Surface,
    /// Refs left in place.
    pub ref_issues: Vec<RefIssue>,
}

/// Normalize one text: NFC, CRLF/CR → LF, trailing whitespace removed from every line and from
/// the end.
pub fn normalize_text(s: &str) -> String {
    // One pass into one buffer (a 15 MiB description is not copied three times): CR/CRLF → LF,
    // then NFC, then each line's trailing whitespace held back until something follows it.
    let mut chars = s.chars().peekable();
    let unified = std::iter::from_fn(move || {
        let c = chars.next()?;
        if c == '\r' {
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
            return Some('\n');
        }
        Some(c)
    });
    let mut out = String::with_capacity(s.len());
    let mut pending = String::new();
    for c in unified.nfc() {
        if c == '\n' {
            pending.clear();
            out.push('\n');
        } else if c.is_whitespace() {
            pending.push(c);
        } else {
            out.push_str(&pending);
            pending.clear();
            out.push(c);
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// Normalize every string of a JSON value (keys too) and sort object keys.
pub fn normalize_value(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(normalize_text(s)),
        Value::Array(a) => Value::Array(a.iter().map(normalize_value).collect()),
        Value::Object(o) => {
            let mut entries: Vec<(String, Value)> = o
                .iter()
                .map(|(k, v)| (normalize_text(k), normalize_value(v)))
                .collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().collect::<Map<String, Value>>())
        }
        other => other.clone(),
    }
}

/// Normalize a surface for analysis.
pub fn normalize_surface(surface: &Surface) -> Normalized {
    let mut out = Normalized::default();
    for tool in &surface.tools {
        let (t, mut issues) = normalize_tool(tool);
        out.surface.tools.push(t);
        out.ref_issues.append(&mut issues);
    }
    out.surface.skills = surface
        .skills
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.name = normalize_text(&s.name);
            s.description = s.description.as_deref().map(normalize_text);
            s
        })
        .collect();
    out
}

/// Normalize one tool: texts, schemas (refs inlined) and annotations.
pub fn normalize_tool(tool: &Tool) -> (Tool, Vec<RefIssue>) {
    let mut issues = Vec::new();
    // Built field by field: cloning the tool first would copy its texts only to replace them.
    let t = Tool {
        name: normalize_text(&tool.name),
        title: tool.title.as_deref().map(normalize_text),
        description: tool.description.as_deref().map(normalize_text),
        input_schema: tool.input_schema.as_ref().map(|s| {
            let inlined = inline_refs(s, &tool.name, &mut issues);
            normalize_value(&inlined)
        }),
        output_schema: tool.output_schema.as_ref().map(|s| {
            let mut ignored = Vec::new();
            normalize_value(&inline_refs(s, &tool.name, &mut ignored))
        }),
        annotations: tool.annotations.as_ref().map(normalize_value),
        origin: tool.origin.clone(),
        confidence: tool.confidence,
    };
    (t, issues)
}

/// How many refs may be expanded along one path before we stop (guards exponential blow-up).
const MAX_REF_DEPTH: usize = 32;

/// The most JSON nodes inlining may copy into one schema (counted inside expanded refs only).
pub const MAX_INLINED_NODES: usize = 100_000;

/// The most bytes of keys and strings inlining may copy into one schema.
pub const MAX_INLINED_BYTES: usize = 8 * 1024 * 1024;

/// What is left of one schema's inlining budget.
struct Budget {
    nodes: usize,
    bytes: usize,
    exhausted: bool,
}

impl Budget {
    /// Count one copied node (and its string bytes) when inside an expansion.
    fn charge(&mut self, inside_ref: bool, bytes: usize) {
        if !inside_ref {
            return;
        }
        self.nodes = self.nodes.saturating_sub(1);
        self.bytes = self.bytes.saturating_sub(bytes);
        if self.nodes == 0 || self.bytes == 0 {
            self.exhausted = true;
        }
    }
}

/// Inline internal refs of `schema`, reporting the ones left in place. Inlining stops at
/// [`MAX_INLINED_NODES`] / [`MAX_INLINED_BYTES`]: the remaining refs stay as written and one
/// [`RefProblem::Budget`] issue names the tool.
pub fn inline_refs(schema: &Value, tool: &str, issues: &mut Vec<RefIssue>) -> Value {
    let mut stack = Vec::new();
    let mut pointer = String::new();
    let mut budget = Budget {
        nodes: MAX_INLINED_NODES,
        bytes: MAX_INLINED_BYTES,
        exhausted: false,
    };
    inline_at(
        schema,
        schema,
        tool,
        &mut pointer,
        &mut stack,
        issues,
        &mut budget,
    )
}

fn inline_at(
    root: &Value,
    node: &Value,
    tool: &str,
    pointer: &mut String,
    stack: &mut Vec<String>,
    issues: &mut Vec<RefIssue>,
    budget: &mut Budget,
) -> Value {
    let inside = !stack.is_empty();
    match node {
        Value::Object(o) => {
            budget.charge(inside, o.keys().map(String::len).sum());
            if let Some(Value::String(r)) = o.get("$ref") {
                if budget.exhausted {
                    if !issues
                        .iter()
                        .any(|i| i.problem == RefProblem::Budget && i.tool == tool)
                    {
                        issues.push(RefIssue {
                            tool: tool.to_owned(),
                            at: pointer.clone(),
                            reference: r.clone(),
                            problem: RefProblem::Budget,
                        });
                    }
                    return node.clone();
                }
                let report = |problem, issues: &mut Vec<RefIssue>| {
                    if !issues.iter().any(|i| i.at == *pointer && i.reference == *r) {
                        issues.push(RefIssue {
                            tool: tool.to_owned(),
                            at: pointer.clone(),
                            reference: r.clone(),
                            problem,
                        });
                    }
                };
                if !r.starts_with('#') {
                    report(RefProblem::External, issues);
                    return node.clone();
                }
                let target_pointer = decode_fragment(&r[1..]);
                // A ref to itself or an enclosing object (`pointer` is always the real location)
                // or one already being expanded never ends.
                let encloses = target_pointer.as_deref().is_some_and(|t| {
                    *pointer == t || pointer.starts_with(&format!("{t}/")) || t.is_empty()
                });
                if encloses || stack.iter().any(|s| s == r) || stack.len() >= MAX_REF_DEPTH {
                    report(RefProblem::Cyclic, issues);
                    return node.clone();
                }
                let target = target_pointer.as_deref().and_then(|p| root.pointer(p));
                let (Some(target), Some(target_pointer)) = (target, target_pointer) else {
                    report(RefProblem::Missing, issues);
                    return node.clone();
                };
                stack.push(r.clone());
                let here = std::mem::replace(pointer, target_pointer);
                let mut resolved = inline_at(root, target, tool, pointer, stack, issues, budget);
                *pointer = here;
                stack.pop();
                // Sibling keywords next to $ref (allowed since 2019-09) are kept, ref wins on clash.
                if let Value::Object(res) = &mut resolved {
                    for (k, v) in o {
                        if k != "$ref" && !res.contains_key(k) {
                            res.insert(k.clone(), v.clone());
                        }
                    }
                }
                return resolved;
            }
            let mut out = Map::new();
            for (k, v) in o {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&k.replace('~', "~0").replace('/', "~1"));
                out.insert(
                    k.clone(),
                    inline_at(root, v, tool, pointer, stack, issues, budget),
                );
                pointer.truncate(len);
            }
            Value::Object(out)
        }
        Value::Array(a) => {
            budget.charge(inside, 0);
            Value::Array(
                a.iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let len = pointer.len();
                        pointer.push('/');
                        pointer.push_str(&i.to_string());
                        let r = inline_at(root, v, tool, pointer, stack, issues, budget);
                        pointer.truncate(len);
                        r
                    })
                    .collect(),
            )
        }
        other => {
            budget.charge(inside, other.as_str().map_or(0, str::len));
            other.clone()
        }
    }
}

/// A URI fragment (`/$defs/a%20b`) as a JSON pointer; `None` for anchors (`#name`).
fn decode_fragment(fragment: &str) -> Option<String> {
    if fragment.is_empty() {
        return Some(String::new());
    }
    if !fragment.starts_with('/') {
        return None;
    }
    let mut out = Vec::with_capacity(fragment.len());
    let bytes = fragment.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::surface::{Confidence, Origin};

    /// The three-copy implementation `normalize_text` replaced, as the reference.
    fn normalize_text_reference(s: &str) -> String {
        let unified = s.replace("\r\n", "\n").replace('\r', "\n");
        let nfc: String = unified.nfc().collect();
        let mut out = String::new();
        for (i, line) in nfc.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(line.trim_end());
        }
        out.truncate(out.trim_end().len());
        out
    }

    #[test]
    fn one_pass_normalization_equals_the_reference() {
        for s in [
            "",
            "plain",
            "a \r\nb\t\r\rc  \n\n",
            "  lead and trail  ",
            "cafe\u{301} and e\u{301}\u{327} \u{a0}\n\u{2003}x\u{2003}",
            "\r",
            "\r\n\r\n",
            "x \u{301}",
            "tab\t\tinside\tline\t",
            "\u{1e9b}\u{323} \r\n \u{0041}\u{030a}",
        ] {
            assert_eq!(normalize_text(s), normalize_text_reference(s), "{s:?}");
        }
    }

    fn tool(schema: Value) -> Tool {
        let mut t = Tool::named("t", Origin::default(), Confidence::High);
        t.input_schema = Some(schema);
        t
    }

    #[test]
    fn text_is_nfc_lf_and_trimmed() {
        // "e" + combining acute → precomposed é; CRLF and lone CR → LF; trailing spaces gone.
        assert_eq!(
            normalize_text("Cafe\u{301}  \r\nnext\rlast \t \n\n"),
            "Caf\u{e9}\nnext\nlast"
        );
    }

    #[test]
    fn keys_are_sorted() {
        let v = normalize_value(&json!({"b": 1, "a": {"d": 2, "c": 3}}));
        assert_eq!(
            serde_json::to_string(&v).expect("json"),
            r#"{"a":{"c":3,"d":2},"b":1}"#
        );
    }

    #[test]
    fn internal_refs_are_inlined() {
        let (t, issues) = normalize_tool(&tool(json!({
            "type": "object",
            "properties": {"where": {"$ref": "#/$defs/place", "description": "the place"}},
            "$defs": {"place": {"type": "string"}}
        })));
        assert!(issues.is_empty(), "{issues:?}");
        let schema = t.input_schema.expect("schema");
        assert_eq!(
            schema["properties"]["where"],
            json!({"description": "the place", "type": "string"})
        );
    }

    #[test]
    fn external_missing_and_cyclic_refs_are_reported_and_left() {
        let (t, issues) = normalize_tool(&tool(json!({
            "properties": {
                "ext": {"$ref": "https://example.com/s.json"},
                "gone": {"$ref": "#/$defs/nothing"},
                "node": {"$ref": "#/$defs/node"}
            },
            "$defs": {"node": {"properties": {"next": {"$ref": "#/$defs/node"}}}}
        })));
        let mut problems: Vec<(String, RefProblem)> =
            issues.iter().map(|i| (i.at.clone(), i.problem)).collect();
        problems.sort_by(|a, b| a.0.cmp(&b.0));
        // The cycle is reported once, where the `$ref` is written.
        assert_eq!(
            problems,
            vec![
                ("/$defs/node/properties/next".to_owned(), RefProblem::Cyclic),
                ("/properties/ext".to_owned(), RefProblem::External),
                ("/properties/gone".to_owned(), RefProblem::Missing),
            ]
        );
        let schema = t.input_schema.expect("schema");
        assert_eq!(
            schema["properties"]["ext"]["$ref"],
            "https://example.com/s.json"
        );
        // The ref to `node` is inlined one level; the self-reference inside stays as written.
        assert_eq!(
            schema["properties"]["node"]["properties"]["next"]["$ref"],
            "#/$defs/node"
        );
    }

    #[test]
    fn ref_bomb_stops_at_the_budget_and_names_the_tool() {
        let mut defs = serde_json::Map::new();
        for i in 0..24 {
            let next = format!("#/$defs/d{}", i + 1);
            defs.insert(
                format!("d{i}"),
                json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}}),
            );
        }
        defs.insert("d24".into(), json!({"type": "string"}));
        let schema =
            json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs});
        let (t, issues) = normalize_tool(&tool(schema));
        let budget: Vec<_> = issues
            .iter()
            .filter(|i| i.problem == RefProblem::Budget)
            .collect();
        assert_eq!(budget.len(), 1, "{issues:?}");
        assert_eq!(budget[0].tool, "t");
        let size = serde_json::to_string(&t.input_schema).expect("json").len();
        assert!(size < 20 * 1024 * 1024, "{size} bytes after inlining");
    }

    #[test]
    fn percent_encoded_fragments_resolve() {
        let (_, issues) = normalize_tool(&tool(json!({
            "properties": {"a": {"$ref": "#/$defs/a%20b"}},
            "$defs": {"a b": {"type": "integer"}}
        })));
        assert!(issues.is_empty(), "{issues:?}");
    }
}
