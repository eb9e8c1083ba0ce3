//! `mf check` (install gate) and `mf coverage` end to end on real server fixtures.

use predicates::prelude::PredicateBooleanExt;

use serde_json::Value;

use crate::support::{fixture, json_and_code, mf};

#[test]
fn check_warns_on_a_taken_name_and_a_confusable_tool_and_names_the_family() {
    let (v, code) = json_and_code(
        mf().args(["check", "--format", "json", "--manifest"])
            .arg(fixture("check/docs-reader.manifest.json"))
            .arg("--installed")
            .arg(fixture("servers/filesystem.tools.json")),
    );
    assert_eq!(code, 0, "the install gate never fails by itself");
    assert_eq!(v["kind"], "check");
    assert_eq!(v["verdict"], "warn");
    let codes: Vec<(&str, &str)> = v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().expect("code"),
                f["tool"].as_str().expect("tool"),
            )
        })
        .collect();
    assert!(
        codes.contains(&("check-name-taken", "read_text_file")),
        "{codes:?}"
    );
    assert!(
        codes.contains(&("check-confusable", "fetch_text_file")),
        "{codes:?}"
    );
    // One scorer for lint, cluster and check: `read_document` copies words of
    // `read_text_file`'s description but names another object and its text is not
    // near-identical (cosine 0.47 < 0.85), so the pair scorer does not call it confusable, as
    // lint would not on one server. The name-taken `read_text_file` is not also "confusable".
    assert!(!codes.iter().any(|c| c.1 == "read_document"), "{codes:?}");
    assert_eq!(
        codes.iter().filter(|c| c.0 == "check-confusable").count(),
        1,
        "{codes:?}"
    );
    let family: Vec<&str> = v["family"]
        .as_array()
        .expect("family")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(
        family,
        ["read_text_file"],
        "installed tools a new one competes with"
    );
    // --fail-on-warn turns the verdict into a gate.
    mf().args(["check", "--fail-on-warn", "--manifest"])
        .arg(fixture("check/docs-reader.manifest.json"))
        .arg("--installed")
        .arg(fixture("servers/filesystem.tools.json"))
        .assert()
        .code(2);
}

#[test]
fn check_passes_an_unrelated_capability() {
    let (v, code) = json_and_code(
        mf().args(["check", "--format", "json", "--manifest"])
            .arg(fixture("check/weather.manifest.json"))
            .arg("--installed")
            .arg(fixture("servers/filesystem.tools.json"))
            .arg("--installed")
            .arg(fixture("servers/memory.tools.json")),
    );
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "pass", "{v:#}");
    assert_eq!(v["tools"], serde_json::json!(["get_weather_forecast"]));
    assert_eq!(v["family"], serde_json::json!([]));
}

#[test]
fn check_errors_only_when_the_manifest_has_no_name() {
    let dir = tempfile::tempdir().expect("tmp");
    let m = dir.path().join("m.json");
    std::fs::write(&m, r#"{"tools": []}"#).expect("write");
    mf().args(["check", "--manifest"])
        .arg(&m)
        .arg("--installed")
        .arg(fixture("servers/memory.tools.json"))
        .assert()
        .code(1)
        .stderr(predicates::str::contains("`name`"));
}

#[test]
fn check_json_is_byte_identical_across_runs() {
    let run = || {
        mf().args(["check", "--format", "json", "--manifest"])
            .arg(fixture("check/docs-reader.manifest.json"))
            .arg("--installed")
            .arg(fixture("servers/filesystem.tools.json"))
            .output()
            .expect("runs")
            .stdout
    };
    assert_eq!(run(), run());
}

#[test]
fn coverage_counts_reviewed_cases_and_must_not_call_share() {
    let (v, code) = json_and_code(
        mf().args(["coverage", "--format", "json", "--suite"])
            .arg(fixture("check/coverage.suite.json")),
    );
    assert_eq!(code, 0);
    assert_eq!(v["summary"]["reviewedCases"], 5);
    assert_eq!(v["summary"]["mustNotCall"], 1);
    assert_eq!(v["summary"]["mustNotCallShare"], 0.2);
    assert_eq!(v["summary"]["meetsGuidance"], false);
    let rows: Vec<(&str, u64, u64)> = v["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            (
                t["tool"].as_str().expect("tool"),
                t["reviewedCases"].as_u64().expect("n"),
                t["missing"].as_u64().expect("n"),
            )
        })
        .collect();
    assert_eq!(rows, vec![("search_tickets", 3, 0), ("get_ticket", 1, 2)]);
    assert_eq!(
        v["profiles"][0]["toolsBelowMinimum"],
        serde_json::json!(["get_ticket"])
    );
    mf().args(["coverage", "--fail-under-guidance", "--suite"])
        .arg(fixture("check/coverage.suite.json"))
        .assert()
        .code(2);
}

#[test]
fn coverage_rejects_unknown_case_keys_with_file_and_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let s = dir.path().join("s.json");
    std::fs::write(&s, "{\"name\": \"s\", \"tools\": [],\n \"cases\": [{\"id\": \"a\", \"input\": \"x\", \"expectedTol\": \"t\"}]}").expect("write");
    mf().args(["coverage", "--suite"])
        .arg(&s)
        .assert()
        .code(1)
        .stderr(
            predicates::str::contains("s.json:2:").and(predicates::str::contains("expectedTol")),
        );
}

#[test]
fn markdown_forms_lead_with_the_verdict() {
    let out = mf()
        .args(["coverage", "--format", "markdown", "--suite"])
        .arg(fixture("check/coverage.suite.json"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("**mf coverage `coverage-demo`: 1/2 tools"),
        "{text}"
    );
    assert!(text.contains("| `get_ticket` | 1 | 1 | 2 |"), "{text}");
    let out = mf()
        .args(["check", "--format", "markdown", "--manifest"])
        .arg(fixture("check/docs-reader.manifest.json"))
        .arg("--installed")
        .arg(fixture("servers/filesystem.tools.json"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("**mf check `docs-reader`: warn**"),
        "{text}"
    );
    assert!(text.contains("`check-name-taken`"), "{text}");
    let out = mf()
        .args(["cluster", "--format", "markdown"])
        .arg(fixture("real/word.tools.json"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    // Two clusters: the footnote adders and the footnote deleters (`set_table_column_width` /
    // `_widths` no longer pair: one column and many are told apart by the plural).
    assert!(
        text.starts_with("**mf cluster: 54 tools → 2 clusters"),
        "{text}"
    );
    assert!(text.contains("`add_footnote_robust`"), "{text}");
    assert!(
        text.contains("| the same action on the same object |"),
        "each pair says why: {text}"
    );
}
