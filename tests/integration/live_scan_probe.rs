//! `mf scan --probe`: configured servers are started and their live tools recorded beside the
//! static ones; a failing server is reported with its reason; without `--probe` nothing runs.
#![cfg(target_os = "linux")]

use crate::support::{assert_success, fake_mcp_server, mf};

fn repo() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let marker = dir.path().join("executed");
    let config = serde_json::json!({
        "mcpServers": {
            "good": {"command": "node", "args": [fake_mcp_server(), "ok", marker.to_string_lossy()], "env": {"FAKE_TOKEN": "literal-value-not-used"}},
            "broken": {"command": "node", "args": [fake_mcp_server(), "exit"]}
        }
    });
    std::fs::write(dir.path().join(".mcp.json"), config.to_string()).expect("write");
    (dir, marker)
}

#[test]
fn without_probe_nothing_is_executed() {
    let (dir, marker) = repo();
    let out = mf()
        .args(["scan", "--json", "--no-write"])
        .arg(dir.path())
        .output()
        .expect("run");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(doc["report"].get("probes").is_none());
    assert!(
        !marker.exists(),
        "a configured server was started without --probe"
    );
}

#[test]
fn probe_records_live_tools_and_failures() {
    let (dir, marker) = repo();
    let out = mf()
        .args([
            "scan",
            "--json",
            "--no-write",
            "--probe",
            "--probe-timeout",
            "10",
        ])
        .arg(dir.path())
        .output()
        .expect("run");
    assert_success(&out);
    assert!(marker.exists(), "the good server was not started");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let probes = doc["report"]["probes"].as_array().expect("probes");
    let good = probes
        .iter()
        .find(|p| p["server"] == "good")
        .expect("good probe");
    assert_eq!(
        (good["ok"].as_bool(), good["tools"].as_u64()),
        (Some(true), Some(3))
    );
    let broken = probes
        .iter()
        .find(|p| p["server"] == "broken")
        .expect("broken probe");
    assert_eq!(broken["ok"].as_bool(), Some(false));
    assert!(
        broken["error"]
            .as_str()
            .unwrap_or_default()
            .contains("exited during initialize"),
        "{broken}"
    );
    let live: Vec<&serde_json::Value> = doc["report"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter(|t| t["origin"]["format"] == "live")
        .collect();
    assert_eq!(live.len(), 3);
    assert!(live.iter().all(|t| t["origin"]["server"] == "good"));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("literal-value-not-used"));
}
