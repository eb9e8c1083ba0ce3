use super::*;
use crate::suite::read::parse_suite_text;

fn new(input: &str, tool: Option<&str>) -> NewCase {
    NewCase {
        input: input.into(),
        expected_tool: tool.map(String::from),
        ..NewCase::default()
    }
}

fn add(text: &str, yaml: bool, cases: &[NewCase]) -> Result<String, AuthorError> {
    let suite = parse_suite_text(text, "s", "s", yaml).expect("reads");
    let built = build(cases, &Marking::default());
    let problems = shape_problems(&suite, &built);
    assert!(problems.is_empty(), "{problems:?}");
    appended("s", text, &suite, &built)
}

const JSON: &str = "{\n  \"version\": 1,\n  \"name\": \"s\",\n  \"tools\": [{\"name\": \"get_order\"}],\n  \"cases\": [\n    {\"id\": \"a\", \"input\": \"where is my order\", \"expectedTool\": \"get_order\"}\n  ],\n  \"profiles\": {\"p\": [\"get_order\"]}\n}\n";

#[test]
fn json_keeps_every_byte_around_the_new_case() {
    let out = add(JSON, false, &[new("refund me", None)]).expect("adds");
    let last = "\"expectedTool\": \"get_order\"}";
    let before = &JSON[..JSON.find(last).expect("case a") + last.len()];
    assert!(out.starts_with(before), "{out}");
    assert!(
        out.ends_with("\n  ],\n  \"profiles\": {\"p\": [\"get_order\"]}\n}\n"),
        "{out}"
    );
    let v: Value = serde_json::from_str(&out).expect("json");
    let added = &v["cases"][1];
    assert_eq!(added["input"], "refund me");
    assert_eq!(added["expectedTool"], Value::Null);
    assert_eq!(added["reviewed"], false);
    assert_eq!(added["source"], "agent");
    assert_eq!(added["id"], stable_id(None, "refund me"));
    // The first case's line is untouched.
    assert!(out.contains("    {\"id\": \"a\", \"input\": \"where is my order\", \"expectedTool\": \"get_order\"},\n"), "{out}");
}

#[test]
fn json_without_cases_or_with_an_empty_array_gets_them() {
    for text in [
        "{\"version\": 1, \"name\": \"s\", \"tools\": []}",
        "{\"version\": 1, \"name\": \"s\", \"tools\": [], \"cases\": []}",
    ] {
        let out = add(text, false, &[new("hi", Some("t"))]).expect("adds");
        let v: Value = serde_json::from_str(&out).expect("json");
        assert_eq!(v["cases"][0]["expectedTool"], "t", "{out}");
        assert_eq!(v["tools"], serde_json::json!([]));
    }
}

const YAML: &str = "# the team's suite\nversion: 1\nname: s\ncases:\n  # orders\n  - id: a\n    input: where is my order   # keep me\n    expectedTool: get_order\n\n# the profiles\nprofiles:\n  p: [get_order]\n";

#[test]
fn yaml_inserts_after_the_last_item_and_keeps_every_other_line() {
    let mut c = new("refund \"now\": order #7", Some("refund_order"));
    c.expected_args = Some(serde_json::json!({"id": {"$regex": "^7$"}}));
    c.tags = vec!["billing".into()];
    let out = add(YAML, true, &[c, new("hello", None)]).expect("adds");
    let inserted = format!(
        "  - id: \"{}\"\n    input: \"refund \\\"now\\\": order #7\"\n    expectedTool: \"refund_order\"\n    expectedArgs: {{\"id\":{{\"$regex\":\"^7$\"}}}}\n    tags: [\"billing\"]\n    source: \"agent\"\n    reviewed: false\n",
        stable_id(Some("refund_order"), "refund \"now\": order #7")
    );
    let head = &YAML[..YAML.find("\n\n# the profiles").expect("at") + 1];
    assert_eq!(&out[..head.len()], head, "{out}");
    assert!(out[head.len()..].starts_with(&inserted), "{out}");
    assert!(
        out.ends_with("    reviewed: false\n\n# the profiles\nprofiles:\n  p: [get_order]\n"),
        "{out}"
    );
    let suite = parse_suite_text(&out, "s", "s", true).expect("reads back");
    assert_eq!(suite.cases.len(), 3);
    assert!(!suite.cases[2].reviewed && suite.cases[2].is_must_not_call());
    assert_eq!(suite.profiles["p"], vec!["get_order"]);
}

#[test]
fn yaml_at_indent_zero_empty_flow_and_no_key() {
    let zero = "name: s\ncases:\n- id: a\n  input: x\n  expectedTool: t\n";
    let out = add(zero, true, &[new("y", Some("t"))]).expect("adds");
    assert!(
        out.starts_with(zero) && out.contains("\n- id: \"t-"),
        "{out}"
    );
    let empty = "name: s\ncases: []\nprofiles: {}\n";
    let out = add(empty, true, &[new("y", Some("t"))]).expect("adds");
    assert!(
        out.starts_with("name: s\ncases:\n  - id: ") && out.ends_with("profiles: {}\n"),
        "{out}"
    );
    let none = "name: s  # no cases yet";
    let out = add(none, true, &[new("y", Some("t"))]).expect("adds");
    assert!(
        out.starts_with("name: s  # no cases yet\ncases:\n  - id: "),
        "{out}"
    );
}

#[test]
fn a_flow_sequence_with_items_is_refused_with_the_block() {
    let flow = "name: s\ncases: [{id: a, input: x, expectedTool: t}]\n";
    let e = add(flow, true, &[new("y", Some("t"))]).expect_err("flow");
    let msg = e.to_string();
    assert!(
        msg.contains("not a block sequence") && msg.contains("- id: \"t-"),
        "{msg}"
    );
}

#[test]
fn task_sets_get_prompt_and_expected_and_read_back_unreviewed() {
    let json =
        "{\"version\": 1, \"tasks\": [{\"id\": \"a\", \"prompt\": \"x\", \"expected\": \"t\"}]}";
    let out = add(json, false, &[new("y", Some("t"))]).expect("adds");
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["tasks"][1]["prompt"], "y");
    assert_eq!(v["tasks"][1]["expected"], "t");
    let suite = parse_suite_text(&out, "t", "t", false).expect("reads");
    assert!(suite.cases[0].reviewed && !suite.cases[1].reviewed);
    let yaml = "tasks:\n  - id: a\n    prompt: x\n    expected: t\n";
    let out = add(yaml, true, &[new("y", None)]).expect("adds");
    assert!(
        out.contains("    prompt: \"y\"\n    expected: null\n"),
        "{out}"
    );

    let suite = parse_suite_text(json, "t", "t", false).expect("reads");
    let mut c = new("y", Some("t"));
    c.expected_args = Some(serde_json::json!({"a": 1}));
    let problems = shape_problems(&suite, &build(&[c], &Marking::default()));
    assert!(problems[0].contains("no expectedArgs"), "{problems:?}");
}

#[test]
fn ids_are_stable_and_duplicates_are_refused() {
    assert_eq!(
        stable_id(Some("get order"), " hi "),
        stable_id(Some("get order"), "hi")
    );
    assert!(stable_id(Some("get order"), "hi").starts_with("get-order-"));
    assert_ne!(stable_id(Some("a"), "hi"), stable_id(None, "hi"));
    let text = add(JSON, false, &[new("refund me", None)]).expect("adds");
    let suite = parse_suite_text(&text, "s", "s", false).expect("reads");
    let again = build(
        &[
            new("refund me", None),
            new("b", Some("t")),
            new("b", Some("t")),
        ],
        &Marking::default(),
    );
    let problems = shape_problems(&suite, &again);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("added before"), "{problems:?}");
    assert!(problems[1].contains("given twice"), "{problems:?}");
}
