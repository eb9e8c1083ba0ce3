//! `mf ablate` end to end: the offline lexical router (no key) and an OpenAI-compatible server
//! whose answers depend on the tools offered (`[prefer A,B]`: A steals the case while it is
//! there). Leave-one-out names the case a tool was taking, fixes and hurts are counted per case
//! with the paired tests, the full plan's trials are a plain eval's (cached once), and the whole
//! cost of `--all` is planned before anything is sent.

use assert_cmd::Command;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{assert_success, chat_server, mf_in, show, stdout_json, write_json};

fn tool(name: &str, description: &str) -> Value {
    json!({"name": name, "description": description,
           "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}})
}

fn memory_tools() -> Vec<Value> {
    vec![
        tool(
            "read_graph",
            "Read the entire knowledge graph with every entity and relation.",
        ),
        tool(
            "search_nodes",
            "Search nodes in the knowledge graph by a query string.",
        ),
        tool("open_nodes", "Open specific nodes by their names."),
        tool(
            "create_entities",
            "Create new entities in the knowledge graph.",
        ),
    ]
}

/// The lexical suite: `read_graph` shares the word "graph" with a must-not-call question (c9)
/// and with c4's request, and takes both.
fn lexical_suite(dir: &Path) {
    write_json(
        &dir.join("mf.suite.json"),
        &json!({"version": 1, "name": "memory", "tools": memory_tools(),
        "profiles": {"reading": ["read_graph", "search_nodes", "open_nodes"],
                     "writing": ["create_entities"]},
        "cases": [
            {"id": "c1", "input": "search nodes about Alice", "expectedTool": "search_nodes"},
            {"id": "c2", "input": "open the nodes named Bob and Carol", "expectedTool": "open_nodes"},
            {"id": "c3", "input": "create entities for the new team members", "expectedTool": "create_entities"},
            {"id": "c4", "input": "read the graph entities of the whole team", "expectedTool": "open_nodes"},
            {"id": "c9", "input": "plot the graph of y equals x squared", "expectedTool": null}
        ]}),
    );
}

fn ablate(dir: &Path) -> Command {
    let mut cmd = mf_in(dir);
    cmd.arg("ablate").arg("--no-cache");
    cmd
}

#[test]
fn ablate_names_the_case_the_tool_was_stealing_offline() {
    let dir = tempfile::tempdir().expect("tmp");
    lexical_suite(dir.path());
    let out = ablate(dir.path())
        .args([
            "--tool",
            "read_graph",
            "--models",
            "lexical",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_success(&out);
    let r = stdout_json(&out);
    assert_eq!(r["kind"], "ablate");
    assert_eq!(r["status"], "pass");
    let a = &r["ablations"][0];
    assert_eq!(r["ablations"].as_array().map(Vec::len), Some(1));
    assert_eq!(a["tool"], "read_graph");
    assert_eq!(
        a["summary"],
        "removing `read_graph` fixes c9 (over-trigger 5→0 of 5); hurts nothing"
    );
    assert_eq!(a["fixes"], json!(["c9"]));
    assert_eq!(a["hurts"], json!([]));
    // It called read_graph on c4 and c9 in every trial of the full plan.
    assert_eq!(
        a["stolen"],
        json!([{"case": "c4", "trials": 5, "of": 5}, {"case": "c9", "trials": 5, "of": 5}])
    );
    let c9 = a["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| c["case"] == "c9")
        .expect("c9 compared");
    assert_eq!(
        (&c9["before"], &c9["after"], &c9["change"]),
        (&json!(0), &json!(5), &json!("fixed"))
    );
    assert_eq!(c9["failureBefore"], "over-trigger");
    assert!(c9.get("failureAfter").is_none());
    // 5 cases × 5 trials paired; 5 trials flipped, on one case.
    let sel = &a["selection"];
    assert_eq!(sel["before"]["numerator"], 15);
    assert_eq!(sel["after"]["numerator"], 20);
    assert_eq!(sel["trial"]["improved"], 5);
    assert_eq!(sel["case"]["improved"], 1);
    assert_eq!(
        sel["verdict"], "insufficient-data",
        "one case cannot decide"
    );

    // The same finding in the terminal text.
    let out = ablate(dir.path())
        .args(["--tool", "read_graph", "--models", "lexical"])
        .output()
        .expect("runs");
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("removing `read_graph` fixes c9 (over-trigger 5→0 of 5); hurts nothing"),
        "{text}"
    );
    assert!(
        text.contains("it was taking     c4 (5 of 5 trials), c9 (5 of 5 trials)"),
        "{text}"
    );
    // And in markdown, with the per-tool table.
    let out = ablate(dir.path())
        .args([
            "--tool",
            "read_graph",
            "--models",
            "lexical",
            "--format",
            "markdown",
        ])
        .output()
        .expect("runs");
    assert_success(&out);
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains(
            "**removing `read_graph` fixes c9 (over-trigger 5→0 of 5); hurts nothing** (lexical)"
        ),
        "{md}"
    );
    assert!(
        md.contains("| (none) | 0.0% (0/5) | 100.0% (5/5) | 1↑ 0↓ 0= |"),
        "{md}"
    );
    assert!(
        md.contains("Changed cases (good trials): `c9` fixed 0→5 of 5"),
        "{md}"
    );
}

#[test]
fn cases_expecting_the_tool_are_not_asked_and_bad_names_are_refused() {
    let dir = tempfile::tempdir().expect("tmp");
    lexical_suite(dir.path());
    let out = ablate(dir.path())
        .args([
            "--tool",
            "search_nodes",
            "--models",
            "lexical",
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    assert_success(&out);
    let a = &stdout_json(&out)["ablations"][0];
    assert_eq!(a["leftOut"], json!(["c1"]));
    let compared: Vec<&str> = a["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter_map(|c| c["case"].as_str())
        .collect();
    assert_eq!(compared, ["c2", "c3", "c4", "c9"]);

    let out = ablate(dir.path())
        .args(["--tool", "read_grahp", "--models", "lexical"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--tool read_grahp: not a tool of the surface"),
        "{err}"
    );
    // Within a group, a tool of another group is not offered.
    let out = ablate(dir.path())
        .args([
            "--profile",
            "writing",
            "--tool",
            "read_graph",
            "--models",
            "lexical",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a tool of profile \"writing\""));
    let out = ablate(dir.path())
        .args([
            "--profile",
            "all",
            "--tool",
            "read_graph",
            "--models",
            "lexical",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --profile NAME"));
}

#[test]
fn within_a_profile_the_group_is_mounted_alone_over_its_cases() {
    let dir = tempfile::tempdir().expect("tmp");
    lexical_suite(dir.path());
    let out = ablate(dir.path())
        .args(["--profile", "reading", "--tool", "read_graph"])
        .args(["--models", "lexical", "--format", "json"])
        .output()
        .expect("runs");
    assert_success(&out);
    let r = stdout_json(&out);
    assert_eq!(r["suite"]["profile"], "reading");
    assert_eq!(
        r["suite"]["tools"],
        json!(["read_graph", "search_nodes", "open_nodes"])
    );
    // c3 expects a tool of another group: not in the group's plan.
    assert_eq!(r["suite"]["cases"], json!(["c1", "c2", "c4", "c9"]));
    assert_eq!(r["ablations"][0]["fixes"], json!(["c9"]));
}

/// The server-backed suite: `[prefer read_graph,search_nodes]` makes read_graph take s1 while it
/// is offered; s5 needs search_nodes beside open_nodes.
fn served_suite(dir: &Path) {
    write_json(
        &dir.join("mf.suite.json"),
        &json!({"version": 1, "name": "memory", "tools": memory_tools(),
        "cases": [
            {"id": "s1", "input": "find Alice [prefer read_graph,search_nodes]", "expectedTool": "search_nodes"},
            {"id": "s2", "input": "open Bob [call open_nodes]", "expectedTool": "open_nodes"},
            {"id": "s3", "input": "the graph of x squared [prefer read_graph]", "expectedTool": null},
            {"id": "s4", "input": "dump it all [call read_graph]", "expectedTool": "read_graph"},
            {"id": "s5", "input": "who knows Carol [with search_nodes call open_nodes]", "expectedTool": "open_nodes"}
        ]}),
    );
}

fn served(dir: &Path, server: &str, command: &str) -> Command {
    let mut cmd = mf_in(dir);
    cmd.arg(command)
        .args(["--models", "openai-compatible:m", "--base-url"])
        .arg(format!("{server}/v1"))
        .args(["--repeat", "3", "--cache-dir"])
        .arg(dir.join("cache"));
    cmd
}

async fn requests(server: &wiremock::MockServer) -> Vec<Value> {
    server
        .received_requests()
        .await
        .expect("recorded")
        .iter()
        .map(|r| serde_json::from_slice(&r.body).expect("json body"))
        .collect()
}

fn offers(request: &Value, name: &str) -> bool {
    request["tools"]
        .as_array()
        .is_some_and(|t| t.iter().any(|t| t["function"]["name"] == name))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_served_model_loses_the_stolen_case_and_the_full_plan_is_a_plain_eval() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let dir = tempfile::tempdir().expect("tmp");
    served_suite(dir.path());
    let out = served(dir.path(), &server.uri(), "ablate")
        .args(["--tool", "read_graph", "--format", "json"])
        .output()
        .expect("runs");
    assert_success(&out);
    let a = stdout_json(&out)["ablations"][0].clone();
    assert_eq!(
        a["summary"],
        "removing `read_graph` fixes s1 (wrong-tool 3→0 of 3), s3 (over-trigger 3→0 of 3); hurts nothing"
    );
    assert_eq!(a["leftOut"], json!(["s4"]));
    assert_eq!(
        a["stolen"],
        json!([{"case": "s1", "trials": 3, "of": 3}, {"case": "s3", "trials": 3, "of": 3}])
    );
    let s1 = &a["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["subject"] == "search_nodes")
        .expect("search_nodes row")["trial"];
    assert_eq!((&s1["improved"], &s1["regressed"]), (&json!(3), &json!(0)));
    // 5 cases × 3 with every tool, then 4 × 3 without read_graph, which none of them offered.
    let sent = requests(&server).await;
    assert_eq!(sent.len(), 27);
    assert_eq!(sent.iter().filter(|r| offers(r, "read_graph")).count(), 15);
    assert!(
        sent.iter()
            .filter(|r| !offers(r, "read_graph"))
            .all(|r| r["tools"].as_array().map(Vec::len) == Some(3))
    );

    // The full plan is exactly a plain eval's: served from the cache, nothing sent.
    let out = served(dir.path(), &server.uri(), "eval")
        .args(["--format", "json"])
        .output()
        .expect("runs");
    assert_success(&out);
    assert_eq!(stdout_json(&out)["models"][0]["metrics"]["cached"], 15);
    assert_eq!(requests(&server).await.len(), 27);

    // Leaving out search_nodes hurts s5, which needs it beside open_nodes; only the new run is
    // paid for.
    let out = served(dir.path(), &server.uri(), "ablate")
        .args(["--tool", "search_nodes", "--format", "json"])
        .output()
        .expect("runs");
    assert_success(&out);
    let a = &stdout_json(&out)["ablations"][0];
    assert_eq!(
        a["summary"],
        "removing `search_nodes` fixes nothing; hurts s5 (no-call 0→3 of 3)"
    );
    assert_eq!(a["hurts"], json!(["s5"]));
    assert_eq!(requests(&server).await.len(), 27 + 12);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn all_tools_are_planned_first_and_refused_over_the_trial_budget() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let dir = tempfile::tempdir().expect("tmp");
    served_suite(dir.path());
    // 15 with every tool + 12 without read_graph + 12 without search_nodes + 9 without
    // open_nodes + 15 without create_entities (no case expects it) = 63.
    let out = served(dir.path(), &server.uri(), "ablate")
        .args(["--all", "--max-trials", "60"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the plan has 63 paid trials in all (15 with every tool + 12 without read_graph + 12 without search_nodes + 9 without open_nodes + 15 without create_entities), over --max-trials 60"),
        "{err}"
    );
    assert_eq!(
        requests(&server).await.len(),
        0,
        "refused before any request"
    );

    let out = served(dir.path(), &server.uri(), "ablate")
        .args(["--all", "--max-trials", "63", "--dry-run"])
        .output()
        .expect("runs");
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("budget: ok (63 paid trials of --max-trials 63"),
        "{text}"
    );
    assert!(
        text.contains("without open_nodes: 3 cases, 3 tools, 9 trials per model"),
        "{text}"
    );
    assert_eq!(requests(&server).await.len(), 0, "a dry run sends nothing");

    let out = served(dir.path(), &server.uri(), "ablate")
        .args(["--all", "--max-trials", "63", "--format", "json"])
        .output()
        .expect("runs");
    assert_success(&out);
    let r = stdout_json(&out);
    let tools: Vec<&str> = r["ablations"]
        .as_array()
        .expect("ablations")
        .iter()
        .filter_map(|a| a["tool"].as_str())
        .collect();
    assert_eq!(
        tools,
        [
            "read_graph",
            "search_nodes",
            "open_nodes",
            "create_entities"
        ]
    );
    assert_eq!(requests(&server).await.len(), 63);
    assert_eq!(
        r["ablations"][3]["summary"],
        "removing `create_entities` fixes nothing; hurts nothing"
    );
}
