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
pub const OPERATORS: [&str; 10] = [
    "$contains",
    "$oneOf",
    "$optional",
    "$normalize",
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
    ///     with `"$normalize": true` strings (at any depth) are compared after [`normalize`]
    ///     (lower case; spaces and `, . / - _ * ^` removed; `'` read as `"`), the leniency of
    ///     the Berkeley Function Calling Leaderboard's checker;
    ///   - `{"$optional": true, …}` the property may be absent; when present the other
    ///     operators apply;
    ///   - `{"$regex": "…"}` a string matching the Rust regular expression anywhere (unanchored;
    ///     write `^…$` to anchor, `(?i)` to ignore case);
    ///   - `{"$gte": n}`, `{"$lte": n}`, `{"$gt": n}`, `{"$lt": n}` a number in the range; they
    ///     combine, e.g. `{"$gte": 1, "$lte": 10}`.
    ///
    /// Every operator except `{"$exists": false}` fails on a missing property, unless the
    /// assertion says `"$optional": true`.
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

/// The names of `names` that `tool`'s input schema does not declare (check 3 of the module
/// documentation), with the names it does declare; `None` when the schema is open (its names
/// cannot be read, so nothing is undeclared).
pub fn undeclared_names<'n>(
    tool: &Tool,
    names: impl Iterator<Item = &'n str>,
) -> Option<(Vec<&'n str>, Vec<String>)> {
    let object = serde_json::json!({"type": "object"});
    let schema = tool.input_schema.as_ref().unwrap_or(&object);
    match declared_names(schema) {
        DeclaredNames::Open => None,
        DeclaredNames::Closed {
            properties,
            patterns,
        } => {
            let undeclared = names
                .filter(|n| !properties.contains(*n) && !patterns.iter().any(|p| p.is_match(n)))
                .collect();
            Some((undeclared, properties.into_iter().collect()))
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
            "$optional" | "$normalize" => {
                if !operand.is_boolean() {
                    errors.push(format!(
                        "{at}: expected true or false, got {} {}",
                        kind(operand),
                        quote(operand)
                    ));
                } else if op == "$normalize" && !ops.contains_key("$oneOf") {
                    errors.push(format!(
                        "{at}: modifies $oneOf; write it beside a \"$oneOf\" list"
                    ));
                } else if op == "$optional" && ops.contains_key("$exists") {
                    errors.push(format!(
                        "{at}: cannot be combined with $exists (say either that the property \
                         may be absent or whether it must be)"
                    ));
                }
            }
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
        if ops.get("$optional") == Some(&Value::Bool(true)) {
            return;
        }
        let wanted: Vec<&String> = ops.keys().filter(|k| !is_modifier(k)).collect();
        problems.push(format!(
            "{at}: missing; expected a value for {}",
            join_names(&wanted)
        ));
        return;
    };
    for (op, operand) in ops {
        let failure = match op.as_str() {
            "$exists" | "$optional" | "$normalize" => None,
            "$contains" => check_contains(value, operand),
            "$oneOf" => {
                let options = operand.as_array().map(Vec::as_slice).unwrap_or_default();
                let loose = ops.get("$normalize") == Some(&Value::Bool(true));
                let equal = |o: &Value| {
                    if loose {
                        json_equal(&normalized(value), &normalized(o))
                    } else {
                        json_equal(value, o)
                    }
                };
                (!options.iter().any(equal)).then(|| {
                    format!(
                        "expected one of {}{}, got {}",
                        quote(operand),
                        if loose { " (normalized)" } else { "" },
                        quote(value)
                    )
                })
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

/// Operators that modify others and assert nothing alone.
fn is_modifier(op: &str) -> bool {
    matches!(op, "$optional" | "$normalize")
}

/// A string as `$normalize` compares it: lower case, with spaces and `, . / - _ * ^` removed
/// and `'` read as `"` (so `"April 1, 2024"` matches `"april 1 2024"`). This is the
/// Berkeley Function Calling Leaderboard checker's `standardize_string`.
pub fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, ' ' | ',' | '.' | '/' | '-' | '_' | '*' | '^'))
        .flat_map(char::to_lowercase)
        .map(|c| if c == '\'' { '"' } else { c })
        .collect()
}

/// `v` with every string in it (at any depth) [`normalize`]d.
fn normalized(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(normalize(s)),
        Value::Array(items) => Value::Array(items.iter().map(normalized).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), normalized(v)))
                .collect(),
        ),
        other => other.clone(),
    }
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
mod tests;
