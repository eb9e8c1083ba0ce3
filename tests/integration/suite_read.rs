//! Reading suites in every accepted shape (`mf.suite.json`, YAML suite, JSON and YAML task
//! sets): the same cases whatever the shape, each with its line, and errors that name the file,
//! line, case id and key.

use std::path::PathBuf;

use mf::suite::{Case, Selection, SuiteError, SuiteFormat, read_suite, read_suite_any, select};

use crate::support::fixture;

fn suite_file(name: &str) -> PathBuf {
    fixture("suites").join(name)
}

fn display(name: &str) -> String {
    format!("suites/{name}")
}

fn read(name: &str) -> mf::suite::Suite {
    read_suite_any(&suite_file(name), &display(name))
        .unwrap_or_else(|e| panic!("{name} should read: {e}"))
}

fn read_err(name: &str) -> SuiteError {
    match read_suite_any(&suite_file(name), &display(name)) {
        Ok(_) => panic!("{name} should not read"),
        Err(e) => e,
    }
}

fn lines(cases: &[Case]) -> Vec<Option<u32>> {
    cases.iter().map(|c| c.line).collect()
}

fn without_lines(cases: &[Case]) -> Vec<Case> {
    cases
        .iter()
        .cloned()
        .map(|c| Case { line: None, ..c })
        .collect()
}

#[test]
fn every_shape_reads_the_same_cases() {
    let json = read("suite.json");
    let reference = without_lines(&json.cases);
    assert_eq!(reference.len(), 4);
    for name in ["suite.yaml", "tasks.json", "tasks.yaml"] {
        assert_eq!(without_lines(&read(name).cases), reference, "{name}");
    }
    let yaml = read("suite.yaml");
    assert_eq!(yaml.tools, json.tools);
    assert_eq!(yaml.models, json.models);
    assert_eq!(json.models["fast"].model, "gpt-4.1-mini");
}

#[test]
fn expected_null_means_must_not_call_in_every_shape() {
    for name in ["suite.json", "suite.yaml", "tasks.json", "tasks.yaml"] {
        let suite = read(name);
        let must_not: Vec<&str> = suite
            .cases
            .iter()
            .filter(|c| c.is_must_not_call())
            .map(|c| c.id.as_str())
            .collect();
        assert_eq!(must_not, vec!["small-talk"], "{name}");
        assert!(suite.cases.iter().all(|c| c.reviewed), "{name}");
    }
}

#[test]
fn each_case_records_the_line_it_starts_on() {
    assert_eq!(
        lines(&read("suite.json").cases),
        vec![Some(10), Some(16), Some(22), Some(23)]
    );
    // The third YAML case starts with `- input:`; the line is the item's, not the id's.
    assert_eq!(
        lines(&read("suite.yaml").cases),
        vec![Some(13), Some(20), Some(25), Some(30)]
    );
    assert_eq!(
        lines(&read("tasks.json").cases),
        vec![Some(5), Some(6), Some(7), Some(8)]
    );
    assert_eq!(
        lines(&read("tasks.yaml").cases),
        vec![Some(4), Some(8), Some(12), Some(16)]
    );
}

#[test]
fn the_shape_and_file_are_recorded() {
    let formats: Vec<(SuiteFormat, Option<String>)> =
        ["suite.json", "suite.yaml", "tasks.json", "tasks.yaml"]
            .iter()
            .map(|n| {
                let s = read(n);
                (s.format, s.file)
            })
            .collect();
    assert_eq!(
        formats,
        vec![
            (SuiteFormat::Json, Some(display("suite.json"))),
            (SuiteFormat::Yaml, Some(display("suite.yaml"))),
            (SuiteFormat::TaskSetJson, Some(display("tasks.json"))),
            (SuiteFormat::TaskSetYaml, Some(display("tasks.yaml"))),
        ]
    );
}

#[test]
fn task_sets_are_named_after_the_file_and_keep_their_surface() {
    let set = read("tasks.yaml");
    assert_eq!(set.name, "tasks");
    assert_eq!(set.surface.as_deref(), Some("suite.json"));
    assert!(set.tools.is_empty());
}

#[test]
fn read_suite_keeps_reading_json_suites_with_lines() {
    let suite = read_suite(&suite_file("suite.json"), "suite.json").expect("json suite");
    assert_eq!(suite.name, "support");
    assert_eq!(lines(&suite.cases)[3], Some(23));
}

/// Each malformed twin fails with `file:line:column: case "id", field `key`: …`.
#[test]
fn malformed_twins_name_file_line_case_and_field() {
    let expected = [
        (
            "suite.bad.json",
            19,
            "where-is-my-order",
            "expectedTol",
            "unknown field `expectedTol`",
        ),
        (
            "suite.bad.yaml",
            28,
            "open-ticket",
            "tags",
            "invalid type: string \"tickets\", expected a sequence",
        ),
        (
            "tasks.bad.json",
            8,
            "small-talk",
            "expected",
            "missing field `expected`",
        ),
        (
            "tasks.bad.yaml",
            9,
            "where-is-my-order",
            "promt",
            "unknown field `promt`",
        ),
    ];
    for (name, line, case, field, message) in expected {
        let err = read_err(name);
        let SuiteError::Case {
            line: got_line,
            id,
            field: got_field,
            ..
        } = &err
        else {
            panic!("{name}: expected a case error, got {err:?}");
        };
        assert_eq!(
            (*got_line, id.as_deref(), got_field.as_deref()),
            (line, Some(case), Some(field)),
            "{name}"
        );
        let shown = err.to_string();
        let head = format!("{}:{line}:", display(name));
        assert!(shown.starts_with(&head), "{name}: {shown}");
        assert!(
            shown.contains(&format!("case \"{case}\", field `{field}`: {message}")),
            "{name}: {shown}"
        );
    }
}

#[test]
fn eval_readiness_lists_every_unready_case() {
    let suite = read("unstated.yaml");
    let err = suite
        .validate_for_eval(&display("unstated.yaml"))
        .expect_err("two cases are not ready");
    let shown = err.to_string();
    let expected = [
        "suites/unstated.yaml: 2 cases cannot be evaluated as written:",
        "  suites/unstated.yaml:7: case \"where-is-my-order\", field `expectedTool`: is not stated",
        "  suites/unstated.yaml:9: case \"blank\", field `input`: is blank",
    ];
    let got: Vec<&str> = shown.lines().collect();
    assert_eq!(got.len(), expected.len(), "{shown}");
    for (line, want) in got.iter().zip(expected) {
        assert!(
            line.starts_with(want),
            "{line:?} should start with {want:?}"
        );
    }
    for name in ["suite.json", "suite.yaml", "tasks.json", "tasks.yaml"] {
        let suite = read(name);
        assert!(suite.validate_for_eval(name).is_ok(), "{name}");
    }
}

#[test]
fn selection_reads_like_the_flags() {
    let suite = read("suite.yaml");
    let picked = select(
        &suite,
        &Selection {
            ids: vec![],
            only: vec!["billing,orders".into()],
            skip: vec!["orders".into()],
        },
    )
    .expect("one case");
    assert_eq!(
        picked.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        vec!["refund-damaged"]
    );
    let err = select(
        &suite,
        &Selection {
            ids: vec!["smal-talk".into()],
            ..Selection::default()
        },
    )
    .expect_err("typo");
    assert!(
        err.to_string()
            .contains("\"smal-talk\" (did you mean \"small-talk\"?)"),
        "{err}"
    );
}
