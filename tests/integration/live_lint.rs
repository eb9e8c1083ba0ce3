//! `mf lint --stdio …` on the real server-filesystem finds exactly what linting its saved
//! snapshot finds (only the location differs: a live tool has a server, a snapshot a file:line).

use std::path::PathBuf;

use serde_json::Value;

use crate::support::{assert_success, fixture, installed_server, mf};

fn filesystem_entry() -> PathBuf {
    installed_server("server-filesystem")
}

fn lint_json(args: &[&str]) -> Value {
    let out = mf()
        .args(["lint", "--format", "json", "--fail-on", "never"])
        .args(args)
        .output()
        .expect("runs");
    assert_success(&out);
    serde_json::from_slice(&out.stdout).expect("json")
}

fn without_location(findings: &Value) -> Vec<Value> {
    findings
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            let mut f = f.clone();
            if let Some(o) = f.as_object_mut() {
                o.remove("file");
                o.remove("line");
            }
            f
        })
        .collect()
}

#[test]
fn live_lint_equals_snapshot_lint() {
    if !crate::support::test_servers_installed() {
        return;
    }
    let dir = tempfile::tempdir().expect("tmp");
    let snapshot = dir.path().join("fs.tools.json");
    let command = format!(
        "node {} {}",
        filesystem_entry().display(),
        dir.path().display()
    );
    let live = lint_json(&[
        "--stdio",
        &command,
        "--save-snapshot",
        snapshot.to_str().expect("utf8"),
    ]);
    let saved = lint_json(&[snapshot.to_str().expect("utf8")]);
    assert_eq!(live["fingerprint"], saved["fingerprint"]);
    assert_eq!(live["summary"], saved["summary"]);
    assert_eq!(
        without_location(&live["findings"]),
        without_location(&saved["findings"])
    );
    assert!(live["summary"]["tools"].as_u64().expect("n") >= 10);
    // The snapshot side knows where each tool is written.
    assert!(
        saved["findings"]
            .as_array()
            .expect("f")
            .iter()
            .all(|f| f.get("line").is_some() || f["kind"] == "surface")
    );
}

#[test]
fn check_reads_the_installed_side_from_a_live_server() {
    if !crate::support::test_servers_installed() {
        return;
    }
    let dir = tempfile::tempdir().expect("tmp");
    let command = format!(
        "node {} {}",
        filesystem_entry().display(),
        dir.path().display()
    );
    let manifest = fixture("check/docs-reader.manifest.json");
    let out = mf()
        .args(["check", "--format", "json", "--manifest"])
        .arg(&manifest)
        .args(["--stdio", &command])
        .output()
        .expect("runs");
    assert_success(&out);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["verdict"], "warn");
    assert_eq!(v["summary"]["installedTools"], 14);
    assert!(
        v["family"]
            .as_array()
            .expect("family")
            .iter()
            .any(|t| t == "read_text_file"),
        "{v:#}"
    );
}
