//! The JSON that `mf lint` and `mf cluster` print validates against the committed JSON Schemas
//! in `schemas/` (the machine form of SCHEMA.md), with unknown fields refused, so the types and
//! the documented contract cannot drift apart unnoticed.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn validator(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("schemas").join(name)).expect("schema");
    let schema: Value = serde_json::from_str(&text).expect("schema JSON");
    jsonschema::draft202012::meta::validate(&schema).expect("schema is valid 2020-12");
    jsonschema::draft202012::new(&schema).expect("schema compiles")
}

fn output(args: &[&str]) -> Value {
    let out = Command::cargo_bin("mf")
        .expect("mf")
        .args(args)
        .output()
        .expect("runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

fn inputs() -> Vec<String> {
    let mut v: Vec<String> = ["filesystem", "memory", "everything"]
        .iter()
        .map(|s| {
            root()
                .join(format!("tests/fixtures/servers/{s}.tools.json"))
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    v.push(
        root()
            .join("examples/acme-support")
            .to_string_lossy()
            .into_owned(),
    );
    v
}

fn assert_valid(validator: &jsonschema::Validator, doc: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

#[test]
fn lint_json_matches_its_schema() {
    let v = validator("lint-report.schema.json");
    for input in inputs() {
        let doc = output(&["lint", "--format", "json", "--fail-on", "never", &input]);
        assert_valid(&v, &doc, &input);
    }
    // The schema is not vacuous: a drifted field is refused.
    let mut doc = output(&[
        "lint",
        "--format",
        "json",
        "--fail-on",
        "never",
        &inputs()[0],
    ]);
    doc["findings"][0]["severity"] = Value::from("warning");
    assert!(!v.is_valid(&doc));
    doc["findings"][0]["severity"] = Value::from("warn");
    doc["summary"]["extra"] = Value::from(1);
    assert!(!v.is_valid(&doc));
}

#[test]
fn cluster_json_matches_its_schema() {
    let v = validator("cluster-report.schema.json");
    for input in inputs() {
        let doc = output(&["cluster", "--format", "json", &input]);
        assert_valid(&v, &doc, &input);
        assert!(
            !doc["clusters"].as_array().expect("clusters").is_empty()
                || input.contains("everything"),
            "{input}"
        );
    }
    let mut doc = output(&["cluster", "--format", "json", &inputs()[0]]);
    doc["riskyPairs"][0]["basis"] = Value::from("vibes");
    assert!(!v.is_valid(&doc));
}
