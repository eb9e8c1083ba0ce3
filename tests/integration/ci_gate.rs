//! The PR lint gate judges what the pull request introduced: findings already at the merge
//! base are counted and folded, never annotated, and never fail the run; a finding the PR adds
//! fails it and is annotated. `--gate-findings all` restores the old behaviour.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};

use crate::support::git::git;
use crate::support::{machine_ci_vars, mf_in, show, write_json};

fn tool(name: &str, description: Option<&str>) -> Value {
    let mut t = json!({"name": name, "inputSchema": {"type": "object", "properties": {
        "id": {"type": "string", "description": "The record's id."}}}});
    if let Some(d) = description {
        t["description"] = d.into();
    }
    t
}

/// A repository whose base has a lint error (`legacy_lookup` has no description).
fn repo() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tmp");
    let r = dir.path();
    git(r, &["init", "-q", "-b", "main"]);
    write_json(
        &r.join("tools.json"),
        &json!({"tools": [
            tool("get_invoice", Some("Fetch one invoice by its id, with its lines and totals.")),
            tool("legacy_lookup", None),
        ]}),
    );
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "base"]);
    let base = git(r, &["rev-parse", "HEAD"]);
    (dir, base)
}

fn push(r: &Path, extra: Value) {
    let mut doc: Value =
        serde_json::from_str(&std::fs::read_to_string(r.join("tools.json")).expect("read"))
            .expect("json");
    doc["tools"].as_array_mut().expect("array").push(extra);
    write_json(&r.join("tools.json"), &doc);
    git(r, &["commit", "-q", "-am", "head"]);
}

fn ci(r: &Path, base: &str, extra: &[&str]) -> (Output, Value) {
    let json_out = r.join("..").join(format!("ci-{}.json", extra.len()));
    let mut cmd = mf_in(r);
    for k in machine_ci_vars() {
        cmd.env_remove(k);
    }
    let out = cmd
        .env("GITHUB_ACTIONS", "true")
        .args([
            "ci",
            ".",
            "--base-ref",
            base,
            "--comment",
            "off",
            "--json-out",
        ])
        .arg(&json_out)
        .args(extra)
        .output()
        .expect("runs");
    let report = serde_json::from_str(&std::fs::read_to_string(&json_out).unwrap_or_default())
        .unwrap_or(Value::Null);
    (out, report)
}

#[test]
fn a_clean_pr_on_a_base_with_a_lint_error_passes_and_annotates_nothing_old() {
    let (dir, base) = repo();
    let r = dir.path();
    push(
        r,
        tool(
            "void_invoice",
            Some(
                "Cancel one unpaid invoice by its id; paid invoices are refunded with refund_invoice instead.",
            ),
        ),
    );
    let (out, report) = ci(r, &base, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let gate = &report["lintGate"];
    assert_eq!(gate["scope"], "new", "{report:#}");
    assert_eq!(gate["base"], base.as_str());
    assert!(gate["preexisting"].as_u64().expect("count") >= 1, "{gate}");
    assert!(
        gate["preexistingKeys"]
            .as_array()
            .expect("keys")
            .iter()
            .any(|k| k == "description-missing|legacy_lookup|"),
        "{gate}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stdout.contains("legacy_lookup"),
        "a pre-existing finding was annotated:\n{stdout}"
    );
    // The old behaviour on request: every finding gates.
    let (all, report) = ci(r, &base, &["--gate-findings", "all"]);
    assert_eq!(all.status.code(), Some(2), "{}", show(&all));
    assert_eq!(report["lintGate"]["scope"], "all");
}

#[test]
fn a_pr_adding_a_finding_fails_and_the_annotation_names_it() {
    let (dir, base) = repo();
    let r = dir.path();
    // The same description as get_invoice: description-duplicate, an error the PR introduced.
    push(
        r,
        tool(
            "fetch_invoice",
            Some("Fetch one invoice by its id, with its lines and totals."),
        ),
    );
    let (out, report) = ci(r, &base, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let reasons = report["reasons"].to_string();
    assert!(
        reasons.contains("new finding") && reasons.contains("already at the base"),
        "{reasons}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let annotation = stdout
        .lines()
        .find(|l| l.starts_with("::error") && l.contains("fetch_invoice"))
        .unwrap_or_else(|| panic!("no annotation names fetch_invoice:\n{stdout}"));
    assert!(!annotation.contains("legacy_lookup"), "{annotation}");
}

#[test]
fn without_a_base_every_finding_gates() {
    let (dir, _) = repo();
    let mut cmd = mf_in(dir.path());
    for k in machine_ci_vars() {
        cmd.env_remove(k);
    }
    let out = cmd
        .args(["ci", ".", "--comment", "off"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
}
