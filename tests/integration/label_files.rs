//! The hand labels of the lint corpus (`tests/fixtures/*/labels.json` and the second blind
//! labellings, `labels.second.json`) stay in step with the snapshots they judge: every server
//! key has a snapshot, every labelled pair names two different tools of it, every verdict is one
//! of the three, and no pair is labelled twice. A typo would otherwise drop a label silently
//! from `benches/lint_quality.py` and `benches/label_agreement.py`.

use std::collections::BTreeSet;
use std::fs;

use serde_json::Value;

use crate::support::root;

fn label_files() -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for dir in fs::read_dir(root().join("tests/fixtures")).expect("fixtures") {
        let dir = dir.expect("entry").path();
        for name in ["labels.json", "labels.second.json"] {
            if dir.join(name).is_file() {
                out.push(dir.join(name));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_label_names_tools_of_its_snapshot() {
    let files = label_files();
    assert!(
        files
            .iter()
            .filter(|f| f.ends_with("labels.second.json"))
            .count()
            >= 4,
        "{files:?}"
    );
    let mut problems = Vec::new();
    let mut pairs_seen = 0usize;
    for file in &files {
        let doc: Value =
            serde_json::from_str(&fs::read_to_string(file).expect("read")).expect("labels JSON");
        let servers = doc["servers"].as_object().expect("servers object");
        for (server, body) in servers {
            let snap = file
                .parent()
                .expect("dir")
                .join(format!("{server}.tools.json"));
            let Ok(text) = fs::read_to_string(&snap) else {
                problems.push(format!(
                    "{}: server `{server}` has no snapshot",
                    file.display()
                ));
                continue;
            };
            let tools: Value = serde_json::from_str(&text).expect("snapshot JSON");
            let names: BTreeSet<&str> = tools["tools"]
                .as_array()
                .expect("tools")
                .iter()
                .filter_map(|t| t["name"].as_str())
                .collect();
            let mut keys = BTreeSet::new();
            for p in body["pairs"].as_array().into_iter().flatten() {
                pairs_seen += 1;
                let (a, b) = (p["a"].as_str().unwrap_or(""), p["b"].as_str().unwrap_or(""));
                for t in [a, b] {
                    if !names.contains(t) {
                        problems.push(format!("{}: {server}: no tool `{t}`", file.display()));
                    }
                }
                if a == b {
                    problems.push(format!(
                        "{}: {server}: `{a}` paired with itself",
                        file.display()
                    ));
                }
                if !matches!(p["verdict"].as_str(), Some("true" | "false" | "debatable")) {
                    problems.push(format!(
                        "{}: {server}: {a}/{b}: verdict {}",
                        file.display(),
                        p["verdict"]
                    ));
                }
                let key = if a < b { (a, b) } else { (b, a) };
                if !keys.insert(key) {
                    problems.push(format!(
                        "{}: {server}: {a}/{b} labelled twice",
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(pairs_seen > 1000, "only {pairs_seen} pair labels read");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
