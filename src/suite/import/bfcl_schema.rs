//! BFCL's schema dialect → JSON Schema.
//!
//! BFCL writes function parameters in a Python-flavoured dialect of JSON Schema. Each change
//! below is recorded as a [`Conversion`] with the JSON pointer it happened at:
//!
//! | BFCL | JSON Schema | why |
//! |---|---|---|
//! | `"type": "dict"` | `"object"` | the dialect's name for an object |
//! | `"type": "float"` | `"number"` | (an integer is a valid float, as BFCL's checker allows) |
//! | `"type": "tuple"` | `"array"` | BFCL's checker reads tuples as lists |
//! | `"type": "any"` | `"string"` | BFCL's own conversion for function-calling models, and its checker expects a string |
//! | `"type": "list"`, `"bool"`, `"int"`, `"str"` | `array`, `boolean`, `integer`, `string` | aliases |
//! | `"optional": …` on a property | removed | not JSON Schema; `required` says the same |
//!
//! Everything else (`description`, `enum`, `default`, `items`, `properties`, `required`,
//! `format`, `maximum`, …) is kept as written.

use serde_json::{Map, Value};

use super::Conversion;

/// The JSON Schema type for a BFCL type name, or `None` when it is already one.
fn json_type(bfcl: &str) -> Option<&'static str> {
    Some(match bfcl {
        "dict" | "HashMap" | "Hashtable" => "object",
        "float" | "double" => "number",
        "tuple" | "list" | "ArrayList" | "Array" | "Queue" | "Stack" => "array",
        "any" | "Any" | "str" | "String" | "char" => "string",
        "bool" => "boolean",
        "int" | "byte" | "short" | "long" | "Bigint" => "integer",
        _ => return None,
    })
}

/// Convert a function's `parameters` (the root, then every nested schema) in place, recording
/// each change at `at` (a pointer prefix such as `math.hypot/parameters`).
pub(super) fn convert_parameters(
    item: &str,
    at: &str,
    schema: &mut Value,
    out: &mut Vec<Conversion>,
) {
    convert(item, at, schema, out);
    if let Value::Object(root) = schema
        && !root.contains_key("properties")
    {
        root.insert("properties".into(), Value::Object(Map::new()));
    }
}

fn convert(item: &str, at: &str, schema: &mut Value, out: &mut Vec<Conversion>) {
    let Value::Object(map) = schema else {
        return;
    };
    let record = |out: &mut Vec<Conversion>, at: String, kind: String| {
        out.push(Conversion {
            item: item.to_owned(),
            at,
            kind,
            detail: None,
        });
    };
    match map.get_mut("type") {
        Some(Value::String(t)) => {
            if let Some(new) = json_type(t) {
                record(out, format!("{at}/type"), format!("type {t} → {new}"));
                *t = new.to_owned();
            }
        }
        Some(Value::Array(types)) => {
            for (i, t) in types.iter_mut().enumerate() {
                if let Value::String(name) = t
                    && let Some(new) = json_type(name)
                {
                    record(
                        out,
                        format!("{at}/type/{i}"),
                        format!("type {name} → {new}"),
                    );
                    *name = new.to_owned();
                }
            }
        }
        _ => {}
    }
    if map.remove("optional").is_some() {
        record(
            out,
            format!("{at}/optional"),
            "`optional` removed (not JSON Schema; `required` says it)".to_owned(),
        );
    }
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        for (name, sub) in props.iter_mut() {
            convert(item, &format!("{at}/properties/{}", escape(name)), sub, out);
        }
    }
    match map.get_mut("items") {
        Some(items @ Value::Object(_)) => convert(item, &format!("{at}/items"), items, out),
        Some(Value::Array(list)) => {
            for (i, sub) in list.iter_mut().enumerate() {
                convert(item, &format!("{at}/items/{i}"), sub, out);
            }
        }
        _ => {}
    }
    if let Some(extra @ Value::Object(_)) = map.get_mut("additionalProperties") {
        convert(item, &format!("{at}/additionalProperties"), extra, out);
    }
}

/// A JSON pointer segment (RFC 6901).
pub(super) fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Whether `value` is valid for a JSON Schema `type` name (`integer` accepts `5.0`, as JSON
/// Schema does).
pub(super) fn fits_type(value: &Value, ty: &str) -> bool {
    match ty {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "number" => value.is_number(),
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => true,
    }
}

/// The JSON Schema type name of a value (`integer` for whole numbers written without a
/// fraction).
pub(super) fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_dialect_becomes_json_schema_and_every_change_is_listed() {
        let mut schema = json!({"type": "dict", "properties": {
            "a": {"type": "float", "optional": true},
            "b": {"type": "tuple", "items": {"type": "any"}},
            "c": {"type": "dict", "properties": {"d": {"type": "integer"}}},
        }, "required": ["c"]});
        let mut out = Vec::new();
        convert_parameters("x_0", "f/parameters", &mut schema, &mut out);
        assert_eq!(
            schema,
            json!({"type": "object", "properties": {
                "a": {"type": "number"},
                "b": {"type": "array", "items": {"type": "string"}},
                "c": {"type": "object", "properties": {"d": {"type": "integer"}}},
            }, "required": ["c"]})
        );
        let kinds: Vec<(&str, &str)> = out
            .iter()
            .map(|c| (c.at.as_str(), c.kind.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("f/parameters/type", "type dict → object"),
                ("f/parameters/properties/a/type", "type float → number"),
                (
                    "f/parameters/properties/a/optional",
                    "`optional` removed (not JSON Schema; `required` says it)"
                ),
                ("f/parameters/properties/b/type", "type tuple → array"),
                ("f/parameters/properties/b/items/type", "type any → string"),
                ("f/parameters/properties/c/type", "type dict → object"),
            ]
        );
    }

    #[test]
    fn types_fit_as_json_schema_reads_them() {
        assert!(fits_type(&json!(5.0), "integer"));
        assert!(!fits_type(&json!(5.5), "integer"));
        assert!(fits_type(&json!(5), "number"));
        assert!(!fits_type(&json!("5"), "number"));
        assert_eq!(type_of(&json!(5)), "integer");
        assert_eq!(type_of(&json!(5.5)), "number");
    }
}
