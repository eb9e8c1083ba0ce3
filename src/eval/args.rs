//! Argument checks for a call to the expected tool: the tool's input schema, then the case's
//! `expectedArgs` assertions.
//!
//! A call's arguments pass when every check below finds nothing:
//!
//! 1. **JSON.** Arguments that did not parse as JSON (`Call::raw_arguments`) fail, and nothing
//!    else is checked. Arguments that are not an object fail the same way.
//! 2. **Required.** Every name in the input schema's top-level `required` is present.
//! 3. **Hallucinated names.** Every top-level name is declared: listed in `properties` (of the
//!    root or of a root `allOf`/`anyOf`/`oneOf` branch) or matched by a `patternProperties`
//!    pattern. A name that is not declared is reported as hallucinated **even when the schema
//!    leaves `additionalProperties` unset**: the schema would accept it, but the tool never
//!    asked for it, so the model invented it and its intent is likely lost. The check is off
//!    only when the schema opens the object on purpose — `additionalProperties` (or
//!    `unevaluatedProperties`) set to `true` or to a schema — or when the root is a `$ref` or
//!    not an object, so the declared names cannot be read. A tool without an input schema is
//!    served as `{"type": "object"}` and so declares no names.
//! 4. **Types.** The arguments validate against the input schema with the `jsonschema` crate
//!    (draft from `$schema`, 2020-12 by default), nested values included. Errors already
//!    reported by 2 and 3 are not repeated. A schema the validator cannot compile (an external
//!    `$ref`, an unsupported draft) is **skipped with a note** (`ArgCheck::notes`), not counted
//!    against the model: the fault is the tool's, and `mf lint` reports it.
//! 5. **`expectedArgs`.** The case's assertions, one per property (see [`validate_expected_args`]
//!    for the syntax and [`ArgumentChecker::check`] for the semantics).
//!
//! Every problem starts with a JSON pointer to the argument it is about (`/filters/status`), or
//! `arguments` when it is about the whole object.

use std::collections::BTreeSet;

use jsonschema::error::ValidationErrorKind;
use regex::Regex;
use serde_json::{Map, Value};

use crate::providers::Call;
use crate::report::metrics::ArgCheck;
use crate::surface::Tool;

/// The operators `expectedArgs` understands.
pub const OPERATORS: [&str; 8] = [
    "$contains",
    "$oneOf",
    "$exists",
    "$regex",
    "$gte",
    "$lte",
    "$gt",
    "$lt",
];

/// Longest rendering of a JSON value quoted in a problem.
const MAX_QUOTE: usize = 80;

/// Check the arguments of `call` (a call to `tool`) against the tool's input schema and the
/// case's `expectedArgs`. See the module documentation for the checks and [`ArgumentChecker`]
/// to check many calls to one tool without recompiling its schema.
pub fn check_arguments(tool: &Tool, call: &Call, expected_args: Option<&Value>) -> ArgCheck {
    ArgumentChecker::new(tool).check(call, expected_args)
}

/// The argument checks of one tool, with its schema compiled once.
#[derive(Debug)]
pub struct ArgumentChecker {
    tool: String,
    required: Vec<String>,
    names: DeclaredNames,
    validator: Result<jsonschema::Validator, String>,
}

/// What the schema says about top-level names.
#[derive(Debug)]
enum DeclaredNames {
    /// Any name is fine (open object, or the names cannot be read).
    Open,
    /// Only these names and names matching these patterns.
    Closed {
        properties: BTreeSet<String>,
        patterns: Vec<Regex>,
    },
}

impl ArgumentChecker {
    /// Read `tool`'s input schema once: required names, declared names, compiled validator.
    pub fn new(tool: &Tool) -> ArgumentChecker {
        let default_schema = serde_json::json!({"type": "object"});
        let schema = tool.input_schema.as_ref().unwrap_or(&default_schema);
        let required = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| {
                names
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let validator = jsonschema::validator_for(schema).map_err(|e| {
            format!("the input schema of `{}` could not be compiled ({e}); argument types were not checked", tool.name)
        });
        ArgumentChecker {
            tool: tool.name.clone(),
            required,
            names: declared_names(schema),
            validator,
        }
    }

    /// Check one call's arguments, then `expected_args`.
    ///
    /// `expectedArgs` semantics, per property of the object (all must hold):
    /// - a **literal** (string, number, boolean, null, array) must equal the argument: deep
    ///   equality, strings compared exactly, numbers by value (`1` equals `1.0`), arrays in order;
    /// - an **object without `$` keys** is a nested assertion: the argument must be an object and
    ///   each of its listed properties must satisfy its own assertion (other properties are free);
    /// - an **object of `$` operators** must satisfy every operator in it:
    ///   - `{"$exists": true}` present (any value, `null` included); `{"$exists": false}` absent;
    ///   - `{"$contains": x}` on a string: `x` is a substring, compared **case-insensitively**
    ///     (Unicode lower case), since a model may capitalize what the user wrote; on an array:
    ///     some element equals `x` (strings case-insensitively, other values by deep equality);
    ///   - `{"$oneOf": [a, b, …]}` equals one of the listed values (deep equality as above);
    ///   - `{"$regex": "…"}` a string matching the Rust regular expression anywhere (unanchored;
    ///     write `^…$` to anchor, `(?i)` to ignore case);
    ///   - `{"$gte": n}`, `{"$lte": n}`, `{"$gt": n}`, `{"$lt": n}` a number in the range; they
    ///     combine, e.g. `{"$gte": 1, "$lte": 10}`.
    ///
    /// Every operator except `{"$exists": false}` fails on a missing property.
    pub fn check(&self, call: &Call, expected_args: Option<&Value>) -> ArgCheck {
        let mut problems = Vec::new();
        let mut notes = Vec::new();
        match &call.arguments {
            None => {
                let raw = call.raw_arguments.as_deref().unwrap_or("");
                problems.push(format!(
                    "arguments: not valid JSON: {}",
                    shorten(raw, MAX_QUOTE)
                ));
            }
            Some(Value::Object(args)) => {
                self.check_schema(args, &mut problems, &mut notes);
                if let Some(expected) = expected_args {
                    check_expected(expected, args, &mut problems);
                }
            }
            Some(other) => problems.push(format!(
                "arguments: expected an object, got {} {}",
                kind(other),
                quote(other)
            )),
        }
        ArgCheck {
            ok: problems.is_empty(),
            problems,
            notes,
        }
    }

    fn check_schema(
        &self,
        args: &Map<String, Value>,
        problems: &mut Vec<String>,
        notes: &mut Vec<String>,
    ) {
        let missing: BTreeSet<&str> = self
            .required
            .iter()
            .map(String::as_str)
            .filter(|name| !args.contains_key(*name))
            .collect();
        for name in &missing {
            problems.push(format!(
                "{}: required by `{}` but missing",
                pointer(&[name]),
                self.tool
            ));
        }
        let mut hallucinated = BTreeSet::new();
        if let DeclaredNames::Closed {
            properties,
            patterns,
        } = &self.names
        {
            for name in args.keys() {
                let declared =
                    properties.contains(name) || patterns.iter().any(|p| p.is_match(name));
                if !declared {
                    problems.push(format!(
                        "{}: not a parameter of `{}` (hallucinated name)",
                        pointer(&[name]),
                        self.tool
                    ));
                    hallucinated.insert(name.as_str());
                }
            }
        }
        let validator = match &self.validator {
            Ok(v) => v,
            Err(note) => {
                notes.push(note.clone());
                return;
            }
        };
        let instance = Value::Object(args.clone());
        for error in validator.iter_errors(&instance) {
            let at_root = error.instance_path().as_str().is_empty();
            let repeated = at_root
                && match error.kind() {
                    ValidationErrorKind::Required { property } => {
                        property.as_str().is_some_and(|name| missing.contains(name))
                    }
                    ValidationErrorKind::AdditionalProperties { unexpected }
                    | ValidationErrorKind::UnevaluatedProperties { unexpected } => unexpected
                        .iter()
                        .all(|name| hallucinated.contains(name.as_str())),
                    _ => false,
                };
            if repeated {
                continue;
            }
            let path = error.instance_path().as_str();
            let place = if path.is_empty() { "arguments" } else { path };
            problems.push(format!(
                "{place}: {}",
                shorten(&error.to_string(), 2 * MAX_QUOTE)
            ));
        }
    }
}

/// Read the declared top-level names of a schema (see the module documentation, check 3).
fn declared_names(schema: &Value) -> DeclaredNames {
    let Some(root) = schema.as_object() else {
        return DeclaredNames::Open;
    };
    let opens = |key: &str| root.get(key).is_some_and(|v| v != &Value::Bool(false));
    if root.contains_key("$ref") || opens("additionalProperties") || opens("unevaluatedProperties")
    {
        return DeclaredNames::Open;
    }
    let mut properties = BTreeSet::new();
    let mut patterns = Vec::new();
    let mut read = |object: &Map<String, Value>| -> bool {
        if let Some(props) = object.get("properties").and_then(Value::as_object) {
            properties.extend(props.keys().cloned());
        }
        if let Some(pats) = object.get("patternProperties").and_then(Value::as_object) {
            for pattern in pats.keys() {
                match Regex::new(pattern) {
                    Ok(re) => patterns.push(re),
                    // A pattern we cannot read could declare any name: do not guess.
                    Err(_) => return false,
                }
            }
        }
        true
    };
    if !read(root) {
        return DeclaredNames::Open;
    }
    for combinator in ["allOf", "anyOf", "oneOf"] {
        for branch in root
            .get(combinator)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(branch) = branch.as_object() else {
                continue;
            };
            let branch_opens =
                |key: &str| branch.get(key).is_some_and(|v| v != &Value::Bool(false));
            if branch.contains_key("$ref")
                || branch_opens("additionalProperties")
                || branch_opens("unevaluatedProperties")
                || !read(branch)
            {
                return DeclaredNames::Open;
            }
        }
    }
    DeclaredNames::Closed {
        properties,
        patterns,
    }
}

/// Check the syntax of a case's `expectedArgs` before anything runs: the top level is an object
/// of property → assertion; an object mixes no operators with property names; operators are
/// known; `$exists` is a boolean and `{"$exists": false}` stands alone; `$oneOf` is a non-empty
/// array; `$regex` is a string that compiles; range bounds are numbers and leave a non-empty
/// range. `null` means no assertions.
///
/// Every mistake is reported, each with a JSON pointer into `expectedArgs`
/// (e.g. `/filters/date/$gte: expected a number, got string "2024"`), joined by `; `.
pub fn validate_expected_args(v: &Value) -> Result<(), String> {
    let mut errors = Vec::new();
    match v {
        Value::Null => {}
        Value::Object(map) => {
            if map.keys().any(|k| k.starts_with('$')) {
                errors.push(
                    "(top level): name properties here, e.g. {\"query\": {\"$contains\": \"x\"}}; \
                     operators go inside a property"
                        .to_owned(),
                );
            } else {
                validate_properties(map, &mut Vec::new(), &mut errors);
            }
        }
        other => errors.push(format!(
            "(top level): expected an object of property → assertion, got {} {}",
            kind(other),
            quote(other)
        )),
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

fn validate_properties<'a>(
    map: &'a Map<String, Value>,
    path: &mut Vec<&'a str>,
    errors: &mut Vec<String>,
) {
    for (name, assertion) in map {
        path.push(name);
        if let Value::Object(inner) = assertion {
            let (ops, props): (Vec<&String>, Vec<&String>) =
                inner.keys().partition(|k| k.starts_with('$'));
            if !ops.is_empty() && !props.is_empty() {
                errors.push(format!(
                    "{}: mixes operators ({}) with property names ({}); put operators and \
                     nested properties in separate assertions",
                    pointer(path),
                    join_names(&ops),
                    join_names(&props)
                ));
            } else if ops.is_empty() {
                validate_properties(inner, path, errors);
            } else {
                validate_operators(inner, path, errors);
            }
        }
        path.pop();
    }
}

fn validate_operators<'a>(
    ops: &'a Map<String, Value>,
    path: &mut Vec<&'a str>,
    errors: &mut Vec<String>,
) {
    for (op, operand) in ops {
        path.push(op);
        let at = pointer(path);
        match op.as_str() {
            "$exists" => {
                if !operand.is_boolean() {
                    errors.push(format!(
                        "{at}: expected true or false, got {} {}",
                        kind(operand),
                        quote(operand)
                    ));
                } else if operand == &Value::Bool(false) && ops.len() > 1 {
                    errors.push(format!(
                        "{at}: false cannot be combined with other operators (an absent \
                         property has nothing to compare)"
                    ));
                }
            }
            "$contains" => {}
            "$oneOf" => match operand.as_array() {
                Some(options) if !options.is_empty() => {}
                _ => errors.push(format!(
                    "{at}: expected a non-empty array of allowed values, got {}",
                    quote(operand)
                )),
            },
            "$regex" => match operand.as_str() {
                Some(pattern) => {
                    if let Err(e) = Regex::new(pattern) {
                        let reason = e.to_string().replace('\n', " ");
                        errors.push(format!(
                            "{at}: not a valid regular expression: {}",
                            shorten(&reason, 2 * MAX_QUOTE)
                        ));
                    }
                }
                None => errors.push(format!(
                    "{at}: expected a regular expression string, got {} {}",
                    kind(operand),
                    quote(operand)
                )),
            },
            "$gte" | "$lte" | "$gt" | "$lt" => {
                if operand.as_f64().is_none_or(|n| !n.is_finite()) {
                    errors.push(format!(
                        "{at}: expected a number, got {} {}",
                        kind(operand),
                        quote(operand)
                    ));
                }
            }
            unknown => errors.push(format!(
                "{at}: unknown operator `{unknown}`; expected one of {}",
                OPERATORS.join(", ")
            )),
        }
        path.pop();
    }
    let bound = |key: &str| ops.get(key).and_then(Value::as_f64);
    let lower = match (bound("$gte"), bound("$gt")) {
        (Some(a), Some(b)) if b >= a => Some((b, true)),
        (Some(a), _) => Some((a, false)),
        (None, Some(b)) => Some((b, true)),
        (None, None) => None,
    };
    let upper = match (bound("$lte"), bound("$lt")) {
        (Some(a), Some(b)) if b <= a => Some((b, true)),
        (Some(a), _) => Some((a, false)),
        (None, Some(b)) => Some((b, true)),
        (None, None) => None,
    };
    if let (Some((lo, lo_strict)), Some((hi, hi_strict))) = (lower, upper)
        && (lo > hi || (lo == hi && (lo_strict || hi_strict)))
    {
        errors.push(format!(
            "{}: the range is empty (no number is both {} {lo} and {} {hi}); check the bounds",
            pointer(path),
            if lo_strict { "above" } else { "at least" },
            if hi_strict { "below" } else { "at most" },
        ));
    }
}

/// Check `expected` (already the `expectedArgs` object) against the arguments.
fn check_expected(expected: &Value, args: &Map<String, Value>, problems: &mut Vec<String>) {
    match expected {
        Value::Null => {}
        Value::Object(map) => {
            if let Err(e) = validate_expected_args(expected) {
                problems.push(format!("expectedArgs is invalid, not checked: {e}"));
                return;
            }
            check_properties(map, args, &mut Vec::new(), problems);
        }
        other => problems.push(format!(
            "expectedArgs is invalid, not checked: expected an object, got {}",
            kind(other)
        )),
    }
}

fn check_properties<'a>(
    expected: &'a Map<String, Value>,
    actual: &Map<String, Value>,
    path: &mut Vec<&'a str>,
    problems: &mut Vec<String>,
) {
    for (name, assertion) in expected {
        path.push(name);
        let value = actual.get(name);
        match assertion {
            Value::Object(inner) if inner.keys().any(|k| k.starts_with('$')) => {
                check_operators(inner, value, &pointer(path), problems);
            }
            Value::Object(inner) => match value {
                Some(Value::Object(sub)) => check_properties(inner, sub, path, problems),
                Some(other) => problems.push(format!(
                    "{}: expected an object, got {} {}",
                    pointer(path),
                    kind(other),
                    quote(other)
                )),
                None => problems.push(format!("{}: missing; expected an object", pointer(path))),
            },
            literal => match value {
                Some(v) if json_equal(v, literal) => {}
                Some(v) => problems.push(format!(
                    "{}: expected {}, got {}",
                    pointer(path),
                    quote(literal),
                    quote(v)
                )),
                None => problems.push(format!(
                    "{}: missing; expected {}",
                    pointer(path),
                    quote(literal)
                )),
            },
        }
        path.pop();
    }
}

fn check_operators(
    ops: &Map<String, Value>,
    value: Option<&Value>,
    at: &str,
    problems: &mut Vec<String>,
) {
    if let Some(exists) = ops.get("$exists").and_then(Value::as_bool) {
        match (exists, value) {
            (false, Some(v)) => {
                problems.push(format!("{at}: expected to be absent, got {}", quote(v)));
                return;
            }
            (false, None) => return,
            (true, None) => {
                problems.push(format!("{at}: missing; expected to be present"));
                return;
            }
            (true, Some(_)) => {}
        }
    }
    let Some(value) = value else {
        let wanted: Vec<&String> = ops.keys().collect();
        problems.push(format!(
            "{at}: missing; expected a value for {}",
            join_names(&wanted)
        ));
        return;
    };
    for (op, operand) in ops {
        let failure = match op.as_str() {
            "$exists" => None,
            "$contains" => check_contains(value, operand),
            "$oneOf" => {
                let options = operand.as_array().map(Vec::as_slice).unwrap_or_default();
                (!options.iter().any(|o| json_equal(value, o)))
                    .then(|| format!("expected one of {}, got {}", quote(operand), quote(value)))
            }
            "$regex" => {
                let pattern = operand.as_str().unwrap_or_default();
                match (Regex::new(pattern), value.as_str()) {
                    (Ok(re), Some(s)) if re.is_match(s) => None,
                    (Ok(_), Some(s)) => Some(format!(
                        "expected to match /{pattern}/, got {}",
                        quote(&Value::String(s.to_owned()))
                    )),
                    (Ok(_), None) => Some(format!(
                        "expected a string matching /{pattern}/, got {} {}",
                        kind(value),
                        quote(value)
                    )),
                    (Err(e), _) => Some(format!("$regex does not compile: {e}")),
                }
            }
            "$gte" | "$lte" | "$gt" | "$lt" => check_bound(op, operand, value),
            unknown => Some(format!("unknown operator `{unknown}`")),
        };
        if let Some(message) = failure {
            problems.push(format!("{at}: {message}"));
        }
    }
}

fn check_contains(value: &Value, operand: &Value) -> Option<String> {
    match value {
        Value::String(s) => match operand.as_str() {
            Some(sub) if s.to_lowercase().contains(&sub.to_lowercase()) => None,
            Some(sub) => Some(format!(
                "expected to contain \"{}\" (ignoring case), got {}",
                shorten(sub, MAX_QUOTE),
                quote(value)
            )),
            None => Some(format!(
                "$contains on a string needs a string, got {} {}",
                kind(operand),
                quote(operand)
            )),
        },
        Value::Array(items) => {
            let found = items.iter().any(|item| match (item, operand) {
                (Value::String(a), Value::String(b)) => a.to_lowercase() == b.to_lowercase(),
                (a, b) => json_equal(a, b),
            });
            (!found).then(|| {
                format!(
                    "expected an element equal to {}, got {}",
                    quote(operand),
                    quote(value)
                )
            })
        }
        other => Some(format!(
            "expected a string or an array to search for {}, got {} {}",
            quote(operand),
            kind(other),
            quote(other)
        )),
    }
}

fn check_bound(op: &str, operand: &Value, value: &Value) -> Option<String> {
    let Some(bound) = operand.as_f64() else {
        return Some(format!("{op} needs a number, got {}", quote(operand)));
    };
    let Some(n) = value.as_f64() else {
        return Some(format!(
            "expected a number ({op} {bound}), got {} {}",
            kind(value),
            quote(value)
        ));
    };
    let (holds, words) = match op {
        "$gte" => (n >= bound, "at least"),
        "$lte" => (n <= bound, "at most"),
        "$gt" => (n > bound, "above"),
        _ => (n < bound, "below"),
    };
    (!holds).then(|| format!("expected a number {words} {bound}, got {}", quote(value)))
}

/// Deep equality with numbers compared by value (`1 == 1.0`), exactly for integers.
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let int = |n: &serde_json::Number| {
                n.as_i64()
                    .map(i128::from)
                    .or_else(|| n.as_u64().map(i128::from))
            };
            match (int(x), int(y)) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64().zip(y.as_f64()).is_some_and(|(f, g)| f == g),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// A JSON pointer (RFC 6901) from path segments.
fn pointer(segments: &[&str]) -> String {
    if segments.is_empty() {
        return "arguments".to_owned();
    }
    segments
        .iter()
        .map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1")))
        .collect()
}

fn join_names(names: &[&String]) -> String {
    names
        .iter()
        .map(|n| n.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The JSON type name of a value.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A value as compact JSON, shortened for a message.
fn quote(v: &Value) -> String {
    shorten(&v.to_string(), MAX_QUOTE)
}

/// At most `max` characters of `s`, with `…` when cut.
fn shorten(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::surface::{Confidence, Origin};

    fn tool(schema: Value) -> Tool {
        let mut t = Tool::named("search", Origin::default(), Confidence::High);
        t.input_schema = Some(schema);
        t
    }

    fn weather() -> Tool {
        tool(json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer", "minimum": 1},
                "units": {"type": "string", "enum": ["metric", "imperial"]},
                "filters": {
                    "type": "object",
                    "properties": {"tags": {"type": "array", "items": {"type": "string"}}},
                    "additionalProperties": false
                }
            },
            "required": ["city"]
        }))
    }

    fn call(args: Value) -> Call {
        Call {
            name: Some("search".into()),
            arguments: Some(args),
            raw_arguments: None,
        }
    }

    fn check(t: &Tool, args: Value, expected: Option<Value>) -> ArgCheck {
        check_arguments(t, &call(args), expected.as_ref())
    }

    /// Assert one expectedArgs assertion on `{"q": value}` passes or fails.
    fn assertion(assertion: Value, value: Option<Value>) -> ArgCheck {
        let open = tool(json!({"type": "object", "additionalProperties": true}));
        let mut args = Map::new();
        if let Some(v) = value {
            args.insert("q".into(), v);
        }
        let expected = json!({ "q": assertion });
        validate_expected_args(&expected).expect("valid assertion");
        check(&open, Value::Object(args), Some(expected))
    }

    fn passes(a: Value, v: Value) {
        let c = assertion(a.clone(), Some(v.clone()));
        assert!(c.ok, "{a} should accept {v}: {:?}", c.problems);
    }

    fn fails(a: Value, v: Option<Value>, needle: &str) {
        let c = assertion(a.clone(), v.clone());
        assert!(!c.ok, "{a} should reject {v:?}");
        assert!(
            c.problems
                .iter()
                .any(|p| p.starts_with("/q: ") && p.contains(needle)),
            "{a} on {v:?}: expected a problem mentioning {needle:?}, got {:?}",
            c.problems
        );
    }

    #[test]
    fn good_arguments_pass() {
        let c = check(
            &weather(),
            json!({"city": "Paris", "days": 3, "filters": {"tags": ["rain"]}}),
            None,
        );
        assert_eq!(
            c,
            ArgCheck {
                ok: true,
                problems: vec![],
                notes: vec![]
            }
        );
    }

    #[test]
    fn raw_arguments_fail() {
        let raw = Call {
            name: Some("search".into()),
            arguments: None,
            raw_arguments: Some("{city: Paris".into()),
        };
        let c = check_arguments(&weather(), &raw, None);
        assert!(!c.ok);
        assert_eq!(c.problems, ["arguments: not valid JSON: {city: Paris"]);
    }

    #[test]
    fn non_object_arguments_fail() {
        let c = check(&weather(), json!(["Paris"]), None);
        assert_eq!(
            c.problems,
            ["arguments: expected an object, got array [\"Paris\"]"]
        );
    }

    #[test]
    fn missing_required_is_reported_once() {
        let c = check(&weather(), json!({"days": 2}), None);
        assert_eq!(c.problems, ["/city: required by `search` but missing"]);
    }

    #[test]
    fn undeclared_name_is_hallucinated_even_without_additional_properties() {
        let c = check(&weather(), json!({"city": "Paris", "country": "FR"}), None);
        assert_eq!(
            c.problems,
            ["/country: not a parameter of `search` (hallucinated name)"]
        );
    }

    #[test]
    fn undeclared_name_is_reported_once_when_schema_forbids_it() {
        let mut t = weather();
        if let Some(Value::Object(s)) = t.input_schema.as_mut() {
            s.insert("additionalProperties".into(), json!(false));
        }
        let c = check(&t, json!({"city": "Paris", "country": "FR"}), None);
        assert_eq!(
            c.problems,
            ["/country: not a parameter of `search` (hallucinated name)"]
        );
    }

    #[test]
    fn open_schemas_and_patterns_declare_extra_names() {
        let open = tool(
            json!({"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "string"}}),
        );
        assert!(check(&open, json!({"a": 1, "b": "x"}), None).ok);
        // The extra value is still validated against additionalProperties.
        let c = check(&open, json!({"a": 1, "b": 2}), None);
        assert!(!c.ok);
        assert!(c.problems[0].starts_with("/b: "), "{:?}", c.problems);
        let patterned = tool(json!({"type": "object", "patternProperties": {"^x-": {}}}));
        assert!(check(&patterned, json!({"x-trace": 1}), None).ok);
        assert!(!check(&patterned, json!({"trace": 1}), None).ok);
        let branches =
            tool(json!({"anyOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]}));
        assert!(check(&branches, json!({"b": 1}), None).ok);
        assert!(!check(&branches, json!({"c": 1}), None).ok);
    }

    #[test]
    fn tool_without_schema_declares_no_names() {
        let bare = Tool::named("ping", Origin::default(), Confidence::High);
        assert!(check_arguments(&bare, &call(json!({})), None).ok);
        assert!(!check_arguments(&bare, &call(json!({"x": 1})), None).ok);
    }

    #[test]
    fn types_are_validated_nested_included() {
        let c = check(
            &weather(),
            json!({"city": "Paris", "days": "three", "filters": {"tags": [1], "extra": true}}),
            None,
        );
        assert!(!c.ok);
        let paths: Vec<&str> = c
            .problems
            .iter()
            .filter_map(|p| p.split(':').next())
            .collect();
        assert!(paths.contains(&"/days"), "{:?}", c.problems);
        assert!(paths.contains(&"/filters/tags/0"), "{:?}", c.problems);
        assert!(
            paths.contains(&"/filters"),
            "nested additionalProperties: {:?}",
            c.problems
        );
        let enum_miss = check(
            &weather(),
            json!({"city": "Paris", "units": "kelvin"}),
            None,
        );
        assert!(
            enum_miss.problems[0].starts_with("/units: "),
            "{:?}",
            enum_miss.problems
        );
        let below_min = check(&weather(), json!({"city": "Paris", "days": 0}), None);
        assert!(!below_min.ok);
    }

    #[test]
    fn schema_that_does_not_compile_is_skipped_with_a_note() {
        let broken = tool(json!({"type": "object", "properties": {"a": {"type": "strnig"}}}));
        let c = check(&broken, json!({"a": 1}), None);
        assert!(c.ok, "{:?}", c.problems);
        assert_eq!(c.notes.len(), 1);
        assert!(
            c.notes[0].contains("could not be compiled"),
            "{:?}",
            c.notes
        );
        // Names and expectedArgs are still checked.
        let c = check(&broken, json!({"b": 1}), Some(json!({"a": 1})));
        assert_eq!(c.problems.len(), 2, "{:?}", c.problems);
    }

    #[test]
    fn literal_assertions_use_deep_equality() {
        passes(json!("Paris"), json!("Paris"));
        fails(
            json!("Paris"),
            Some(json!("paris")),
            "expected \"Paris\", got \"paris\"",
        );
        passes(json!(3), json!(3.0));
        fails(json!(3), Some(json!(4)), "expected 3, got 4");
        passes(json!(true), json!(true));
        passes(json!(null), json!(null));
        passes(json!(["a", "b"]), json!(["a", "b"]));
        fails(json!(["a", "b"]), Some(json!(["b", "a"])), "expected");
        fails(json!("Paris"), None, "missing; expected \"Paris\"");
    }

    #[test]
    fn nested_objects_recurse_and_allow_other_keys() {
        let open = tool(json!({"type": "object", "additionalProperties": true}));
        let expected = json!({"filter": {"status": "open", "age": {"$lt": 30}}});
        let good = check(
            &open,
            json!({"filter": {"status": "open", "age": 7, "x": 1}}),
            Some(expected.clone()),
        );
        assert!(good.ok, "{:?}", good.problems);
        let bad = check(
            &open,
            json!({"filter": {"status": "closed", "age": 40}}),
            Some(expected.clone()),
        );
        assert_eq!(
            bad.problems,
            [
                "/filter/status: expected \"open\", got \"closed\"",
                "/filter/age: expected a number below 30, got 40"
            ]
        );
        let not_object = check(&open, json!({"filter": "open"}), Some(expected.clone()));
        assert_eq!(
            not_object.problems,
            ["/filter: expected an object, got string \"open\""]
        );
        let missing = check(&open, json!({}), Some(expected));
        assert_eq!(missing.problems, ["/filter: missing; expected an object"]);
    }

    #[test]
    fn contains_on_strings_ignores_case() {
        passes(
            json!({"$contains": "paris"}),
            json!("Flights to PARIS tomorrow"),
        );
        fails(
            json!({"$contains": "paris"}),
            Some(json!("London")),
            "expected to contain \"paris\"",
        );
        fails(
            json!({"$contains": "paris"}),
            Some(json!(12)),
            "string or an array",
        );
        fails(json!({"$contains": 1}), Some(json!("1")), "needs a string");
        fails(json!({"$contains": "paris"}), None, "missing");
    }

    #[test]
    fn contains_on_arrays_looks_for_an_element() {
        passes(json!({"$contains": "Rain"}), json!(["sun", "rain"]));
        passes(json!({"$contains": 2}), json!([1, 2.0, 3]));
        passes(json!({"$contains": {"id": 1}}), json!([{"id": 1}]));
        fails(
            json!({"$contains": "snow"}),
            Some(json!(["sun", "rain"])),
            "element equal to \"snow\"",
        );
        fails(json!({"$contains": "ra"}), Some(json!(["rain"])), "element");
    }

    #[test]
    fn one_of_accepts_a_listed_value() {
        passes(json!({"$oneOf": ["metric", "imperial"]}), json!("metric"));
        passes(json!({"$oneOf": [1, 2]}), json!(2.0));
        fails(
            json!({"$oneOf": ["metric", "imperial"]}),
            Some(json!("Metric")),
            "expected one of",
        );
        fails(json!({"$oneOf": ["metric"]}), None, "missing");
    }

    #[test]
    fn exists_checks_presence() {
        passes(json!({"$exists": true}), json!(null));
        fails(
            json!({"$exists": true}),
            None,
            "missing; expected to be present",
        );
        let absent = assertion(json!({"$exists": false}), None);
        assert!(absent.ok, "{:?}", absent.problems);
        fails(
            json!({"$exists": false}),
            Some(json!(1)),
            "expected to be absent",
        );
    }

    #[test]
    fn regex_is_unanchored_and_case_sensitive() {
        passes(json!({"$regex": "\\d{4}-\\d{2}"}), json!("due 2024-05-01"));
        passes(json!({"$regex": "(?i)^paris$"}), json!("PARIS"));
        fails(
            json!({"$regex": "^paris$"}),
            Some(json!("Paris")),
            "expected to match /^paris$/",
        );
        fails(
            json!({"$regex": "1"}),
            Some(json!(1)),
            "expected a string matching",
        );
        fails(json!({"$regex": "x"}), None, "missing");
    }

    #[test]
    fn ranges_combine() {
        passes(json!({"$gte": 1, "$lte": 10}), json!(1));
        passes(json!({"$gte": 1, "$lte": 10}), json!(10));
        passes(json!({"$gt": 0.5, "$lt": 1}), json!(0.75));
        fails(json!({"$gte": 1}), Some(json!(0)), "at least 1");
        fails(json!({"$lte": 10}), Some(json!(11)), "at most 10");
        fails(json!({"$gt": 1}), Some(json!(1)), "above 1");
        fails(json!({"$lt": 1}), Some(json!(1)), "below 1");
        fails(json!({"$gte": 1}), Some(json!("5")), "expected a number");
        fails(json!({"$gte": 1}), None, "missing");
    }

    #[test]
    fn every_failing_operator_is_reported() {
        let c = assertion(
            json!({"$regex": "^a", "$contains": "z"}),
            Some(json!("bcd")),
        );
        assert_eq!(c.problems.len(), 2, "{:?}", c.problems);
    }

    #[test]
    fn validate_accepts_every_operator() {
        let ok = json!({
            "q": {"$contains": "x"}, "r": {"$oneOf": [1, 2]}, "s": {"$exists": true},
            "t": {"$regex": "^a+$"}, "u": {"$gte": 1, "$lt": 5.5}, "v": {"w": {"$gt": 0}},
            "lit": [1, 2], "nul": null
        });
        assert_eq!(validate_expected_args(&ok), Ok(()));
        assert_eq!(validate_expected_args(&Value::Null), Ok(()));
    }

    #[test]
    fn validate_names_each_mistake_with_its_path() {
        let bad = json!({
            "a": {"$startsWith": "x"},
            "b": {"$regex": "("},
            "c": {"$gte": "1"},
            "d": {"e": {"$exists": "yes"}},
            "f": {"$oneOf": []},
            "g": {"$exists": false, "$regex": "x"},
            "h": {"$gt": 5, "$lte": 5},
            "i~/": {"$contains": "x", "j": 1}
        });
        let message = validate_expected_args(&bad).expect_err("invalid");
        for needle in [
            "/a/$startsWith: unknown operator `$startsWith`",
            "/b/$regex: not a valid regular expression",
            "/c/$gte: expected a number, got string \"1\"",
            "/d/e/$exists: expected true or false",
            "/f/$oneOf: expected a non-empty array",
            "/g/$exists: false cannot be combined",
            "/h: the range is empty",
            "/i~0~1: mixes operators ($contains) with property names (j)",
        ] {
            assert!(message.contains(needle), "missing {needle:?} in {message}");
        }
        assert!(validate_expected_args(&json!(["q"])).is_err());
        assert!(validate_expected_args(&json!({"$contains": "x"})).is_err());
    }

    #[test]
    fn invalid_expected_args_fail_the_check_instead_of_passing() {
        let open = tool(json!({"type": "object", "additionalProperties": true}));
        let c = check(&open, json!({"q": 1}), Some(json!({"q": {"$nope": 1}})));
        assert!(!c.ok);
        assert!(
            c.problems[0].starts_with("expectedArgs is invalid"),
            "{:?}",
            c.problems
        );
    }

    #[test]
    fn long_values_are_shortened_in_messages() {
        let long = "x".repeat(500);
        let c = assertion(json!("short"), Some(json!(long)));
        assert!(c.problems[0].chars().count() < 200, "{}", c.problems[0]);
        assert!(c.problems[0].ends_with('…'));
    }
}
