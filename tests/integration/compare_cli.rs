//! `mf compare` end to end: a planted regression on one tool is named and fails the gate,
//! identical runs are unchanged, incomparable runs are refused with every reason, and the free
//! surface diff runs on two files and on a git revision.

use std::path::Path;

use assert_cmd::Command;
use serde_json::{Value, json};

use crate::support::git::git;
use crate::support::planted::{self, eval};
use crate::support::{mf_in, read_json, server, text};

/// The planted suite.
fn suite() -> Value {
    planted::suite("planted")
}

/// A script answering every case correctly, except refunds go to `refund_tool`.
fn script(refund_tool: &str) -> Value {
    planted::script(refund_tool, "get_ticket")
}

/// `mf compare base.json head.json` in `dir`; add flags with `.args`.
fn compare(dir: &Path) -> Command {
    let mut cmd = mf_in(dir);
    cmd.args(["compare", "base.json", "head.json"]);
    cmd
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    planted::write_inputs(dir.path(), "planted");
    dir
}

#[test]
fn a_planted_regression_on_one_tool_is_named_and_fails_the_gate() {
    let dir = setup();
    let d = dir.path();
    eval(d, "base.json", &script("issue_refund"), &[]);
    eval(d, "head.json", &script("lookup_order"), &[]);

    let out = compare(d)
        .args(["--fail-on-regression", "--format", "json"])
        .output()
        .expect("compare");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["verdict"], "regressed");
    let model = &report["eval"]["models"][0];
    let accuracy = &model["metrics"][0];
    assert_eq!(accuracy["metric"], "selection-accuracy");
    assert_eq!(accuracy["verdict"], "regressed");
    assert_eq!(accuracy["case"]["regressed"], 10);
    assert_eq!(accuracy["case"]["improved"], 0);
    assert_eq!(accuracy["trial"]["regressed"], 50);
    let tools = model["tools"].as_array().expect("tools");
    let regressed: Vec<&str> = tools
        .iter()
        .filter(|t| t["verdict"] == "regressed")
        .map(|t| t["subject"].as_str().expect("subject"))
        .collect();
    assert_eq!(regressed, ["issue_refund"], "only the planted tool");
    let pairs = model["pairs"].as_array().expect("pairs");
    assert!(
        pairs
            .iter()
            .any(|p| p["subject"] == "issue_refund → lookup_order" && p["verdict"] == "regressed"),
        "{pairs:?}"
    );
    // Without --fail-on-regression the verdict is reported, exit 0.
    let out = compare(d).output().expect("compare");
    assert_eq!(out.status.code(), Some(0));
    let t = text(&out);
    assert!(t.contains("REGRESSED") && t.contains("issue_refund"), "{t}");
    // Markdown names it too.
    let out = compare(d)
        .args(["--format", "markdown"])
        .output()
        .expect("md");
    let t = text(&out);
    assert!(
        t.contains("| `tool-accuracy issue_refund` |") && t.contains("regressed"),
        "{t}"
    );
}

#[test]
fn identical_runs_are_unchanged_and_exit_0() {
    let dir = setup();
    let d = dir.path();
    eval(d, "base.json", &script("issue_refund"), &[]);
    eval(d, "head.json", &script("issue_refund"), &[]);
    let out = compare(d)
        .args(["--fail-on-regression", "--format", "json"])
        .output()
        .expect("compare");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["verdict"], "unchanged");
    assert_eq!(report["eval"]["cases"]["paired"], 20);
}

#[test]
fn incomparable_runs_are_refused_with_every_reason() {
    let dir = setup();
    let d = dir.path();
    eval(d, "base.json", &script("issue_refund"), &[]);
    eval(
        d,
        "head.json",
        &script("issue_refund"),
        &["--seed", "7", "--repeat", "3"],
    );
    let out = compare(d).output().expect("compare");
    assert_eq!(out.status.code(), Some(1));
    let t = text(&out);
    assert!(
        t.contains("seed differs") && t.contains("repeat differs"),
        "{t}"
    );
}

#[test]
fn cases_on_one_side_only_are_listed_and_left_out() {
    let dir = setup();
    let d = dir.path();
    eval(d, "base.json", &script("issue_refund"), &[]);
    let mut s = suite();
    s["cases"].as_array_mut().expect("cases").pop();
    s["cases"][0]["input"] = json!("refund order 0, please");
    std::fs::write(d.join("suite.json"), s.to_string()).expect("suite");
    eval(d, "head.json", &script("issue_refund"), &[]);
    let out = compare(d)
        .args(["--format", "json"])
        .output()
        .expect("compare");
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    let cases = &report["eval"]["cases"];
    assert_eq!(cases["paired"], 18);
    assert_eq!(cases["onlyInBase"], json!(["other-9"]));
    assert_eq!(cases["inputChanged"], json!(["refund-0"]));
}

#[test]
fn the_free_surface_diff_runs_on_two_files_and_on_a_git_revision() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path();
    let base = server("filesystem");
    let mut v: Value = read_json(&base);
    let tools = v["tools"].as_array_mut().expect("tools");
    let removed = tools.remove(3)["name"].as_str().expect("name").to_owned();
    tools[0]["description"] = json!("Read a file. Edited description.");
    let edited = tools[0]["name"].as_str().expect("name").to_owned();
    std::fs::write(
        d.join("head.json"),
        serde_json::to_string_pretty(&v).expect("json"),
    )
    .expect("write");
    let out = mf_in(d)
        .arg("compare")
        .arg(&base)
        .arg("head.json")
        .args(["--format", "json"])
        .output()
        .expect("compare");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    let s = &report["surface"];
    assert_eq!(s["removed"].as_array().map(Vec::len), Some(1));
    assert_eq!(s["removed"][0]["name"], removed.as_str());
    assert_eq!(s["redescribed"].as_array().map(Vec::len), Some(1));
    assert_eq!(s["redescribed"][0]["name"], edited.as_str());
    assert_eq!(s["added"].as_array().map(Vec::len), Some(0));
    assert_eq!(s["reschemed"].as_array().map(Vec::len), Some(0));
    assert!(s["tokens"]["delta"].as_i64().expect("delta") < 0);

    // --base-ref: the same edit as a commit.
    git(d, &["init", "-q"]);
    std::fs::copy(&base, d.join("tools.json")).expect("copy");
    git(d, &["add", "tools.json"]);
    git(d, &["commit", "-qm", "base"]);
    std::fs::copy(d.join("head.json"), d.join("tools.json")).expect("edit");
    let out = mf_in(d)
        .args([
            "compare",
            "--base-ref",
            "HEAD",
            "tools.json",
            "--format",
            "json",
        ])
        .output()
        .expect("compare");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["surface"]["removed"][0]["name"], removed.as_str());
    assert_eq!(report["surface"]["redescribed"][0]["name"], edited.as_str());
    assert_eq!(report["base"]["source"], "HEAD:tools.json");
}

#[test]
fn a_trial_level_regression_carried_by_a_few_flipped_cases_is_flagged() {
    let dir = setup();
    let d = dir.path();
    eval(d, "base.json", &script("issue_refund"), &[]);
    // Only three cases move, each with all five trials: what a provider flipping whole cases
    // between runs looks like.
    let mut head = script("issue_refund");
    for i in 0..3 {
        head[format!("refund order {i}")] = json!("lookup_order");
    }
    eval(d, "head.json", &head, &[]);
    let run = |pairing: &str| {
        let out = compare(d)
            .args(["--format", "json", "--pairing", pairing])
            .output()
            .expect("compare");
        serde_json::from_slice::<Value>(&out.stdout).expect("json")
    };
    let trial = run("trial");
    let accuracy = &trial["eval"]["models"][0]["metrics"][0];
    assert_eq!(accuracy["verdict"], "regressed", "15 trials, p tiny");
    assert_eq!(accuracy["trial"]["regressed"], 15);
    let notes = accuracy["notes"].to_string();
    assert!(
        notes.contains("rests on 3 case(s) whose trials all flipped together"),
        "{notes}"
    );
    // The default (case-level) gate does not call it: three discordant cases cannot decide,
    // so it reads "likely regressed" and says what would decide (it does not fail the gate).
    let case = run("case");
    let accuracy = &case["eval"]["models"][0]["metrics"][0];
    assert_eq!(accuracy["verdict"], "likely-regressed");
    let notes = accuracy["notes"].to_string();
    assert!(
        notes.contains("more changed cases") && notes.contains("cannot rule out provider drift"),
        "{notes}"
    );
}
