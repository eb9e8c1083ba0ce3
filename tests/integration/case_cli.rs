//! `mf case add` (issue 19 item 1): appends an unreviewed `source: agent` case checked against
//! the suite's tools, keeps the rest of a hand-written file, refuses unknown tools and argument
//! keys with the closest names, and writes nothing on a dry run or an error.

use crate::support::{assert_success, mf_in, root, show};
use serde_json::Value;

fn acme() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let status = std::process::Command::new("cp")
        .arg("-r")
        .arg(root().join("examples/acme-support/."))
        .arg(dir.path())
        .status()
        .expect("cp");
    assert!(status.success());
    dir
}

#[test]
fn a_yaml_suite_gets_an_unreviewed_agent_case_and_keeps_every_byte_it_had() {
    let dir = acme();
    let suite = dir.path().join("mf.suite.yaml");
    let before = std::fs::read_to_string(&suite).expect("suite");
    let out = mf_in(dir.path())
        .args([
            "case",
            "add",
            "--suite",
            "mf.suite.yaml",
            "--input",
            "Where is order A-1001?",
        ])
        .args([
            "--expected",
            "lookup_order",
            "--args",
            r#"{"order_number": "A-1001"}"#,
        ])
        .args(["--tag", "orders", "--json"])
        .output()
        .expect("run");
    assert_success(&out);
    let after = std::fs::read_to_string(&suite).expect("suite");
    assert!(after.starts_with(&before), "{after}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    // The document matches its committed schema (schemas/cases-added.schema.json).
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("schemas/cases-added.schema.json")).expect("schema"),
    )
    .expect("schema json");
    let validator = jsonschema::draft202012::new(&schema).expect("compiles");
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let mut tampered = report.clone();
    tampered["cases"][0]["reviewd"] = Value::Bool(true);
    assert!(!validator.is_valid(&tampered), "unknown fields are refused");
    assert_eq!(report["kind"], "cases-added");
    assert_eq!(report["written"], true);
    let case = &report["cases"][0];
    assert_eq!(case["reviewed"], false);
    assert_eq!(case["source"], "agent");
    assert_eq!(case["expectedTool"], "lookup_order");
    let line = case["line"].as_u64().expect("line") as usize;
    assert_eq!(
        after.lines().nth(line - 1).map(str::trim_start),
        Some(format!("- id: {}", serde_json::to_string(&case["id"]).expect("id")).as_str()),
        "{after}"
    );
    // The suite still reads and runs: an offline eval over it is not an input error.
    let eval = mf_in(dir.path())
        .args([
            "eval",
            "--suite",
            "mf.suite.yaml",
            "--models",
            "lexical",
            "--no-cache",
        ])
        .output()
        .expect("eval");
    assert_ne!(eval.status.code(), Some(1), "{}", show(&eval));
}

#[test]
fn an_unknown_tool_or_argument_exits_1_naming_it_and_writes_nothing() {
    let dir = acme();
    let suite = dir.path().join("mf.suite.yaml");
    let before = std::fs::read(&suite).expect("suite");
    let out = mf_in(dir.path())
        .args([
            "case",
            "add",
            "--suite",
            "mf.suite.yaml",
            "--input",
            "where is my order",
        ])
        .args(["--expected", "lookup_ordr"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("\"lookup_ordr\" is not a tool")
            && err.contains("did you mean \"lookup_order\""),
        "{err}"
    );
    let out = mf_in(dir.path())
        .args([
            "case",
            "add",
            "--suite",
            "mf.suite.yaml",
            "--input",
            "where is my order",
        ])
        .args([
            "--expected",
            "lookup_order",
            "--args",
            r#"{"order_numbr": "7"}"#,
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("\"order_numbr\" is not a parameter of lookup_order")
            && err.contains("did you mean \"order_number\""),
        "{err}"
    );
    let out = mf_in(dir.path())
        .args([
            "case",
            "add",
            "--suite",
            "mf.suite.yaml",
            "--input",
            "a totally new question",
        ])
        .args(["--expected", "none", "--dry-run"])
        .output()
        .expect("run");
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("would add case") && text.contains("\"reviewed\": false"),
        "{text}"
    );
    assert_eq!(
        std::fs::read(&suite).expect("suite"),
        before,
        "nothing written"
    );
}

#[test]
fn a_hand_formatted_json_suite_keeps_its_layout_and_a_repeat_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = "{\n    \"version\": 1,\n    \"name\": \"tiny\",\n    \"tools\": [\n        {\"name\": \"get_weather\", \"description\": \"Current weather for a city.\",\n         \"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}}}\n    ],\n    \"cases\": [\n        {\"id\": \"w1\", \"input\": \"weather in Oslo?\", \"expectedTool\": \"get_weather\"}\n    ]\n}\n";
    std::fs::write(dir.path().join("mf.suite.json"), text).expect("write");
    let add = || {
        mf_in(dir.path())
            .args([
                "case",
                "add",
                "--input",
                "Is it raining in Rome?",
                "--expected",
                "get_weather",
            ])
            .output()
            .expect("run")
    };
    let out = add();
    assert_success(&out);
    let after = std::fs::read_to_string(dir.path().join("mf.suite.json")).expect("read");
    let keep = "        {\"id\": \"w1\", \"input\": \"weather in Oslo?\", \"expectedTool\": \"get_weather\"}";
    assert!(
        after.starts_with(&text[..text.find(keep).expect("w1") + keep.len()]),
        "{after}"
    );
    assert!(after.ends_with("\n    ]\n}\n"), "{after}");
    let v: Value = serde_json::from_str(&after).expect("json");
    assert_eq!(v["cases"][1]["reviewed"], false);
    let again = add();
    assert_eq!(again.status.code(), Some(1), "{}", show(&again));
    assert!(String::from_utf8_lossy(&again.stderr).contains("added before"));
}
