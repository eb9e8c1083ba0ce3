//! Tests of `suite::read`: positioned errors for JSON, YAML and task sets.

use super::*;
use crate::suite::Case;

fn json(text: &str) -> Result<Suite, SuiteError> {
    parse_json_any(text, "s.json", "s", true)
}

fn yaml(text: &str) -> Result<Suite, SuiteError> {
    parse_yaml_any(text, "s.yaml", "s", true)
}

/// (line, id, field) of a case error, or a panic naming what came instead.
fn case_error(r: Result<Suite, SuiteError>) -> (usize, Option<String>, Option<String>, String) {
    match r {
        Err(SuiteError::Case {
            line,
            id,
            field,
            message,
            ..
        }) => (line, id, field, message),
        other => panic!("expected a case error, got {other:?}"),
    }
}

fn without_lines(cases: &[Case]) -> Vec<Case> {
    cases
        .iter()
        .cloned()
        .map(|c| Case { line: None, ..c })
        .collect()
}

const JSON_SUITE: &str = r#"{
  "name": "s",
  "tools": [],
  "cases": [
    {"id": "a", "input": "refund order 1", "expectedTool": "refund", "tags": ["billing"]},
    {
      "id": "b",
      "input": "hello",
      "expectedTool": null
    }
  ],
  "models": {"fast": {"provider": "openai", "model": "gpt-4.1-mini"}}
}
"#;

const YAML_SUITE: &str = "name: s
tools: []
cases:
  - id: a
    input: refund order 1
    expectedTool: refund
    tags: [billing]
  # small talk must not call a tool
  - id: b
    input: hello
    expectedTool: null
models:
  fast: {provider: openai, model: gpt-4.1-mini}
";

#[test]
fn json_and_yaml_suites_read_the_same_with_their_lines() {
    let j = json(JSON_SUITE).expect("json suite");
    let y = yaml(YAML_SUITE).expect("yaml suite");
    assert_eq!(without_lines(&j.cases), without_lines(&y.cases));
    assert_eq!(j.models, y.models);
    assert_eq!(j.models["fast"].model, "gpt-4.1-mini");
    assert_eq!(
        j.cases.iter().map(|c| c.line).collect::<Vec<_>>(),
        vec![Some(5), Some(6)]
    );
    assert_eq!(
        y.cases.iter().map(|c| c.line).collect::<Vec<_>>(),
        vec![Some(4), Some(9)]
    );
    assert!(y.cases[1].is_must_not_call());
    assert_eq!((j.format, y.format), (SuiteFormat::Json, SuiteFormat::Yaml));
    assert_eq!(y.file.as_deref(), Some("s.yaml"));
}

#[test]
fn json_unknown_key_in_a_case_names_line_case_and_key() {
    let text = JSON_SUITE.replace("\"expectedTool\": null", "\"expectedTol\": null");
    let (line, id, field, message) = case_error(json(&text));
    assert_eq!(
        (line, id.as_deref(), field.as_deref()),
        (9, Some("b"), Some("expectedTol"))
    );
    assert!(
        message.starts_with("unknown field `expectedTol`"),
        "{message}"
    );
    let shown = json(&text).expect_err("again").to_string();
    assert!(
        shown.starts_with("s.json:9:19: case \"b\", field `expectedTol`: unknown field"),
        "{shown}"
    );
}

#[test]
fn json_wrong_type_names_the_key_holding_it() {
    let text = JSON_SUITE.replace("\"input\": \"hello\"", "\"input\": 42");
    let (line, id, field, _) = case_error(json(&text));
    assert_eq!(
        (line, id.as_deref(), field.as_deref()),
        (8, Some("b"), Some("input"))
    );
    let text = JSON_SUITE.replace("[\"billing\"]", "[\"billing\", 7]");
    let (line, id, field, _) = case_error(json(&text));
    assert_eq!(
        (line, id.as_deref(), field.as_deref()),
        (5, Some("a"), Some("tags"))
    );
}

#[test]
fn json_missing_input_names_the_case() {
    let text = JSON_SUITE.replace("\"input\": \"hello\",", "");
    let (line, id, field, message) = case_error(json(&text));
    assert_eq!(
        (id.as_deref(), field.as_deref()),
        (Some("b"), Some("input"))
    );
    assert_eq!(message, "missing field `input`");
    assert_eq!(line, 6, "the case's opening, not serde's closing brace");
}

#[test]
fn errors_outside_cases_keep_serde_positions() {
    let text = JSON_SUITE.replace("\"tools\": []", "\"tool\": []");
    match json(&text) {
        Err(SuiteError::Invalid { line, message, .. }) => {
            assert_eq!(line, 3);
            assert!(message.starts_with("unknown field `tool`"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let text = JSON_SUITE.replace("\"name\": \"s\",", "");
    assert!(matches!(
        json(&text),
        Err(SuiteError::Invalid { ref message, .. }) if message == "missing field `name`"
    ));
    assert!(matches!(
        json("{\"name\": \"s\",\n \"cases\": [}"),
        Err(SuiteError::Invalid { line: 2, .. })
    ));
}

#[test]
fn yaml_case_errors_name_line_case_and_key() {
    let text = YAML_SUITE.replace("expectedTool: null", "expectedTol: null");
    let (line, id, field, message) = case_error(yaml(&text));
    assert_eq!(
        (line, id.as_deref(), field.as_deref()),
        (11, Some("b"), Some("expectedTol"))
    );
    assert!(
        message.starts_with("unknown field `expectedTol`"),
        "{message}"
    );

    let text = YAML_SUITE.replace("tags: [billing]", "tags: [billing, [x]]");
    let (line, id, field, _) = case_error(yaml(&text));
    assert_eq!(
        (line, id.as_deref(), field.as_deref()),
        (7, Some("a"), Some("tags"))
    );

    let text = YAML_SUITE.replace("    input: hello\n", "");
    let (line, id, field, _) = case_error(yaml(&text));
    assert_eq!(
        (line, id.as_deref(), field.as_deref()),
        (9, Some("b"), Some("input"))
    );
    let shown = yaml(&text).expect_err("again").to_string();
    assert_eq!(
        shown,
        "s.yaml:9:5: case \"b\", field `input`: missing field `input`"
    );
}

#[test]
fn yaml_syntax_errors_keep_their_context() {
    match yaml("name: s\ncases:\n  - id: a\n    input: \"open\n") {
        Err(SuiteError::Invalid { line, message, .. }) => {
            assert!(line >= 4, "{line}");
            assert!(message.contains("quoted scalar"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn duplicate_ids_are_listed_with_their_lines() {
    let text = YAML_SUITE.replace("id: b", "id: a");
    let err = yaml(&text).expect_err("duplicate");
    assert_eq!(
        err.to_string(),
        "s.yaml: case id used more than once: \"a\" (lines 4, 9); ids must be unique in the suite"
    );
}

const TASKS_JSON: &str = r#"{
  "version": 1,
  "surface": "../tools.json",
  "tasks": [
    {"id": "a", "prompt": "refund order 1", "expected": "refund", "tags": ["billing"]},
    {"id": "b", "prompt": "hello", "expected": null}
  ]
}"#;

#[test]
fn task_sets_become_suites_named_after_the_file() {
    let j = parse_json_any(TASKS_JSON, "t.json", "t", true).expect("task set");
    assert_eq!(j.name, "t");
    assert_eq!(j.format, SuiteFormat::TaskSetJson);
    assert_eq!(j.surface.as_deref(), Some("../tools.json"));
    assert!(j.cases[1].is_must_not_call());
    assert_eq!(j.cases[0].expected_tool, Some(Some("refund".to_owned())));
    assert_eq!(
        j.cases.iter().map(|c| c.line).collect::<Vec<_>>(),
        vec![Some(5), Some(6)]
    );
    let y = parse_yaml_any(
        "version: 1\nsurface: ../tools.json\ntasks:\n- id: a\n  prompt: refund order 1\n  expected: refund\n  tags: [billing]\n- id: b\n  prompt: hello\n  expected: ~\n",
        "t.yaml",
        "t",
        true,
    )
    .expect("yaml task set");
    assert_eq!(without_lines(&y.cases), without_lines(&j.cases));
    assert_eq!(
        y.cases.iter().map(|c| c.line).collect::<Vec<_>>(),
        vec![Some(4), Some(8)]
    );
}

#[test]
fn task_set_errors_use_task_set_names() {
    let text = TASKS_JSON.replace(", \"expected\": null", "");
    let (line, id, field, _) = case_error(parse_json_any(&text, "t.json", "t", true));
    assert_eq!(
        (line, id.as_deref(), field.as_deref()),
        (6, Some("b"), Some("expected"))
    );
    let text = TASKS_JSON.replace("\"version\": 1,", "\"version\": 1, \"extra\": true,");
    assert!(matches!(
        parse_json_any(&text, "t.json", "t", true),
        Err(SuiteError::Invalid { line: 2, ref message, .. }) if message.starts_with("unknown field `extra`")
    ));
    let text = TASKS_JSON.replace("\"version\": 1", "\"version\": 3");
    assert_eq!(
        parse_json_any(&text, "t.json", "t", true)
            .expect_err("v3")
            .to_string(),
        "t.json:2:1: task-set version 3 is not supported; this mf reads version 1"
    );
}

#[test]
fn read_suite_stays_json_only() {
    // A task set is not an mf.suite.json: `tasks` is an unknown key there.
    let err = parse_json_suite(TASKS_JSON, "t.json").expect_err("not a suite");
    assert!(err.to_string().contains("unknown field `tasks`"), "{err}");
}

#[test]
fn syntax_is_detected_by_extension_then_content() {
    use std::path::Path;
    assert_eq!(Syntax::detect(Path::new("a.yml"), "{}"), Syntax::Yaml);
    assert_eq!(Syntax::detect(Path::new("a.JSON"), "x: 1"), Syntax::Json);
    assert_eq!(
        Syntax::detect(Path::new("suite"), "\u{feff}  {\"a\": 1}"),
        Syntax::Json
    );
    assert_eq!(Syntax::detect(Path::new("suite"), "name: x"), Syntax::Yaml);
}

#[test]
fn yaml_path_prefixes_split_into_case_and_key() {
    assert_eq!(
        split_yaml_path("cases[3].tags[1]: invalid type: x", "cases"),
        Some((3, Some("tags".to_owned()), "invalid type: x".to_owned()))
    );
    assert_eq!(
        split_yaml_path("cases[0]: missing field `id`", "cases"),
        Some((0, None, "missing field `id`".to_owned()))
    );
    assert_eq!(split_yaml_path("models.x: bad", "cases"), None);
}

#[test]
fn parse_suite_text_reads_yaml_like_read_suite_any() {
    let yaml = "name: s\ncases:\n  - id: a\n    input: hi\n    expectedTool: null\n";
    let s = super::parse_suite_text(yaml, "mf.suite.yaml", "tasks", true).expect("yaml");
    assert_eq!(s.cases.len(), 1);
    assert!(super::parse_suite_text("{", "mf.suite.yaml", "tasks", true).is_err());
}
