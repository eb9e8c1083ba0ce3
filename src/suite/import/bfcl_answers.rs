//! BFCL possible answers → `expectedArgs` assertions (see [`expected_args`]).

use serde_json::{Map, Value, json};

use super::Conversion;
use super::bfcl_schema::{escape, fits_type, type_of};

/// The conversion kind of an answer that requires a parameter the function does not declare:
/// no call can pass BFCL's check, so the case is imported unreviewed.
pub(super) const UNSATISFIABLE: &str = "answer requires a parameter the function does not \
     declare (no call can pass BFCL's check): dropped, case marked reviewed: false";

/// Most literal objects one BFCL dict answer expands into.
const MAX_EXPANSION: usize = 256;

/// The `expectedArgs` of one expected call, from BFCL's possible answer for it (`answer`:
/// parameter → list of accepted values, `""` = may be omitted) and the function's converted
/// `schema` (widened in place where an accepted value has another type than declared).
///
/// Per declared parameter, as BFCL's `simple_function_checker` judges a call:
/// - not in the answer → `{"$exists": false}` (BFCL: "unexpected parameter");
/// - only `""` accepted → `{"$exists": false}`;
/// - else `{"$oneOf": [accepted…]}`, with `"$normalize": true` when a value holds a string
///   (BFCL compares strings lower-cased without spaces and `, . / - _ * ^`), and
///   `"$optional": true` when `""` is among them. A dict answer (`{key: [accepted…]}`) becomes
///   every literal object it accepts (keys whose list holds `""` may be absent), at most 256.
///
/// An answer parameter the function does not declare is dropped (listed); when the answer
/// requires it, [`UNSATISFIABLE`] is recorded.
pub(super) fn expected_args(
    item: &str,
    at: &str,
    schema: &mut Value,
    answer: &Map<String, Value>,
    out: &mut Vec<Conversion>,
) -> Map<String, Value> {
    let mut args = Map::new();
    let record = |out: &mut Vec<Conversion>, at: String, kind: &str, detail: Option<String>| {
        out.push(Conversion {
            item: item.to_owned(),
            at,
            kind: kind.to_owned(),
            detail,
        });
    };
    let declared: Vec<String> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    for (name, accepted) in answer {
        if !declared.contains(name) {
            let optional = accepted
                .as_array()
                .is_some_and(|l| l.iter().any(|v| v.as_str() == Some("")));
            record(
                out,
                format!("{at}/answer/{}", escape(name)),
                if optional {
                    "answer names a parameter the function does not declare: dropped"
                } else {
                    UNSATISFIABLE
                },
                Some(format!("accepted {accepted}")),
            );
        }
    }
    for name in &declared {
        let Some(accepted) = answer.get(name) else {
            args.insert(name.clone(), json!({"$exists": false}));
            continue;
        };
        let list: Vec<Value> = match accepted {
            Value::Array(list) => list.clone(),
            other => vec![other.clone()],
        };
        let optional = list.iter().any(|v| v.as_str() == Some(""));
        let values: Vec<Value> = list
            .into_iter()
            .filter(|v| v.as_str() != Some(""))
            .collect();
        if values.is_empty() {
            args.insert(name.clone(), json!({"$exists": false}));
            continue;
        }
        let prop_at = format!("{at}/parameters/properties/{}", escape(name));
        let prop = schema
            .get_mut("properties")
            .and_then(|p| p.get_mut(name))
            .expect("declared");
        widen(prop, &values, &prop_at, &mut |at, detail| {
            record(
                out,
                at,
                "type widened to accept an answer of another type",
                Some(detail),
            );
        });
        widen_enum(prop, &values, &prop_at, &mut |at, detail| {
            record(
                out,
                at,
                "enum widened to accept an answer it does not list",
                Some(detail),
            );
        });
        // BFCL checks list items one level deep by the same rule.
        let elements: Vec<Value> = values
            .iter()
            .filter_map(Value::as_array)
            .flatten()
            .cloned()
            .collect();
        if let Some(items) = prop.get_mut("items")
            && !elements.is_empty()
        {
            widen(
                items,
                &elements,
                &format!("{prop_at}/items"),
                &mut |at, detail| {
                    record(
                        out,
                        at,
                        "item type widened to accept an answer of another type",
                        Some(detail),
                    );
                },
            );
            widen_enum(
                items,
                &elements,
                &format!("{prop_at}/items"),
                &mut |at, detail| {
                    record(
                        out,
                        at,
                        "item enum widened to accept an answer it does not list",
                        Some(detail),
                    );
                },
            );
        }
        let is_object = declared_types(prop).contains(&"object".to_owned());
        let items_object = prop
            .get("items")
            .map(declared_types)
            .is_some_and(|t| t.contains(&"object".to_owned()));
        let mut literals = Vec::new();
        for v in values {
            match (&v, is_object, items_object) {
                (Value::Object(dict), true, _) => literals.extend(expand_dict(dict)),
                (Value::Array(list), _, true) if list.iter().all(Value::is_object) => {
                    literals.extend(expand_list_of_dicts(list));
                }
                _ => literals.push(v),
            }
        }
        if literals.len() > MAX_EXPANSION {
            record(
                out,
                prop_at.clone(),
                "accepted values cut to the first 256 combinations",
                Some(format!("{} combinations", literals.len())),
            );
            literals.truncate(MAX_EXPANSION);
        }
        let mut assertion = Map::new();
        let normalize = literals.iter().any(has_string);
        assertion.insert("$oneOf".into(), Value::Array(literals));
        if normalize {
            assertion.insert("$normalize".into(), Value::Bool(true));
        }
        if optional {
            assertion.insert("$optional".into(), Value::Bool(true));
        }
        args.insert(name.clone(), Value::Object(assertion));
    }
    args
}

/// The declared JSON Schema type names of a property (none when it declares no type).
fn declared_types(prop: &Value) -> Vec<String> {
    match prop.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

/// Add the type of every accepted value the declared type refuses (BFCL accepts a value of the
/// answer's type: its "variable" rule), so the accepted answers validate.
fn widen(prop: &mut Value, values: &[Value], at: &str, record: &mut dyn FnMut(String, String)) {
    let mut types = declared_types(prop);
    if types.is_empty() {
        return;
    }
    let before = types.clone();
    for v in values {
        if !types.iter().any(|t| fits_type(v, t)) {
            let t = type_of(v).to_owned();
            let t = if t == "integer" && types.iter().any(|t| t == "number") {
                "number".to_owned()
            } else {
                t
            };
            if !types.contains(&t) {
                types.push(t);
            }
        }
    }
    if types != before {
        record(
            format!("{at}/type"),
            format!("{} → {}", before.join(" | "), types.join(" | ")),
        );
        if let Value::Object(map) = prop {
            map.insert(
                "type".into(),
                Value::Array(types.into_iter().map(Value::String).collect()),
            );
        }
    }
}

/// Add to an `enum` every accepted value it does not list: BFCL never reads `enum`, so its
/// answers may lie outside it (`"N/A"` for `unit: enum ["seconds", "milliseconds"]`), and the
/// accepted answer must validate.
fn widen_enum(
    prop: &mut Value,
    values: &[Value],
    at: &str,
    record: &mut dyn FnMut(String, String),
) {
    let Some(Value::Array(allowed)) = prop.get_mut("enum") else {
        return;
    };
    let mut added = Vec::new();
    for v in values {
        if !allowed.contains(v) {
            allowed.push(v.clone());
            added.push(v.to_string());
        }
    }
    if !added.is_empty() {
        record(format!("{at}/enum"), format!("added {}", added.join(", ")));
    }
}

/// Every literal object a BFCL dict answer accepts: per key, one of its accepted values, or
/// absent when `""` is among them.
fn expand_dict(dict: &Map<String, Value>) -> Vec<Value> {
    let mut combos: Vec<Map<String, Value>> = vec![Map::new()];
    for (key, accepted) in dict {
        let list: Vec<Value> = match accepted {
            Value::Array(l) => l.clone(),
            other => vec![other.clone()],
        };
        let mut next = Vec::new();
        for combo in &combos {
            for v in &list {
                let mut c = combo.clone();
                if v.as_str() != Some("") {
                    c.insert(key.clone(), v.clone());
                }
                next.push(c);
                if next.len() > MAX_EXPANSION {
                    break;
                }
            }
        }
        combos = next;
    }
    let mut out: Vec<Value> = Vec::new();
    for c in combos {
        let v = Value::Object(c);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Every literal list a BFCL list-of-dicts answer accepts (each position expanded).
fn expand_list_of_dicts(list: &[Value]) -> Vec<Value> {
    let mut combos: Vec<Vec<Value>> = vec![Vec::new()];
    for entry in list {
        let options = entry.as_object().map(expand_dict).unwrap_or_default();
        let mut next = Vec::new();
        for combo in &combos {
            for o in &options {
                let mut c = combo.clone();
                c.push(o.clone());
                next.push(c);
                if next.len() > MAX_EXPANSION {
                    break;
                }
            }
        }
        combos = next;
    }
    combos.into_iter().map(Value::Array).collect()
}

fn has_string(v: &Value) -> bool {
    match v {
        Value::String(_) => true,
        Value::Array(items) => items.iter().any(has_string),
        Value::Object(map) => map.values().any(has_string),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_become_assertions() {
        let mut schema = json!({"type": "object", "properties": {
            "base": {"type": "integer"}, "unit": {"type": "string"},
            "z": {"type": "integer"}, "never": {"type": "string"},
            "venue": {"type": "string"},
            "cond": {"type": "object"},
        }});
        let answer = json!({"base": [10], "unit": ["units", ""], "z": [""], "venue": ["", true],
                            "cond": [{"dept": ["Science"], "school": ["A", ""]}],
                            "ghost": ["", 1]});
        let mut out = Vec::new();
        let args = expected_args(
            "i",
            "f",
            &mut schema,
            answer.as_object().expect("map"),
            &mut out,
        );
        assert_eq!(
            Value::Object(args),
            json!({
                "base": {"$oneOf": [10]},
                "unit": {"$oneOf": ["units"], "$normalize": true, "$optional": true},
                "z": {"$exists": false},
                "never": {"$exists": false},
                "venue": {"$oneOf": [true], "$optional": true},
                "cond": {"$oneOf": [{"dept": "Science", "school": "A"}, {"dept": "Science"}],
                         "$normalize": true},
            })
        );
        assert_eq!(
            schema["properties"]["venue"]["type"],
            json!(["string", "boolean"])
        );
        let kinds: Vec<&str> = out.iter().map(|c| c.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "answer names a parameter the function does not declare: dropped",
                "type widened to accept an answer of another type"
            ]
        );
    }

    #[test]
    fn enums_take_accepted_answers_and_required_undeclared_answers_are_flagged() {
        let mut schema = json!({"type": "object", "properties": {
            "unit": {"type": "string", "enum": ["seconds", "milliseconds"]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}},
        }});
        let answer = json!({"unit": ["N/A"], "tags": [["a", "b"]], "start_time": ["09:00"]});
        let mut out = Vec::new();
        expected_args(
            "i",
            "f",
            &mut schema,
            answer.as_object().expect("map"),
            &mut out,
        );
        assert_eq!(
            schema["properties"]["unit"]["enum"],
            json!(["seconds", "milliseconds", "N/A"])
        );
        assert_eq!(
            schema["properties"]["tags"]["items"]["enum"],
            json!(["a", "b"])
        );
        let kinds: Vec<&str> = out.iter().map(|c| c.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [
                UNSATISFIABLE,
                "enum widened to accept an answer it does not list",
                "item enum widened to accept an answer it does not list",
            ]
        );
    }
}
