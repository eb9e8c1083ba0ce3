//! Tests of `eval::args`.

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
    let branches = tool(json!({"anyOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]}));
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

#[test]
fn optional_lets_a_property_be_absent_and_still_checks_it_when_present() {
    let a = json!({"$oneOf": ["C", "F"], "$optional": true});
    let absent = assertion(a.clone(), None);
    assert!(absent.ok, "{:?}", absent.problems);
    passes(a.clone(), json!("F"));
    fails(
        a,
        Some(json!("K")),
        "expected one of [\"C\",\"F\"], got \"K\"",
    );
    fails(
        json!({"$oneOf": ["C"]}),
        None,
        "missing; expected a value for $oneOf",
    );
}

#[test]
fn normalize_compares_strings_as_bfcl_does_at_any_depth() {
    let a = json!({"$oneOf": ["April 1, 2024", ["New York", 3]], "$normalize": true});
    passes(a.clone(), json!("april 1 2024"));
    passes(a.clone(), json!("APRIL-1/2024."));
    passes(a.clone(), json!(["new_york", 3]));
    fails(a.clone(), Some(json!("April 2, 2024")), "(normalized)");
    fails(a, Some(json!(["New York", 4])), "(normalized)");
    fails(
        json!({"$oneOf": ["New York"]}),
        Some(json!("new york")),
        "expected one of",
    );
    assert_eq!(normalize("It's a Sine-Wave_x*2^3/4."), "it\"sasinewavex234");
}

#[test]
fn the_new_operators_are_checked_for_syntax() {
    let bad = json!({
        "a": {"$optional": "yes", "$oneOf": [1]},
        "b": {"$normalize": true, "$contains": "x"},
        "c": {"$optional": true, "$exists": true},
    });
    let message = validate_expected_args(&bad).expect_err("invalid");
    for needle in [
        "/a/$optional: expected true or false",
        "/b/$normalize: modifies $oneOf",
        "/c/$optional: cannot be combined with $exists",
    ] {
        assert!(message.contains(needle), "missing {needle:?} in {message}");
    }
    assert!(
        validate_expected_args(
            &json!({"a": {"$optional": true, "$oneOf": [1], "$normalize": true}})
        )
        .is_ok()
    );
}
