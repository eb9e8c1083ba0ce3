//! Mount-group scoring (`mf eval --profile all|NAME`) and profiles in `mf compare`: each group
//! mounted alone vs within every tool, with lifted and jammed cases; the run with every tool is
//! a plain eval's (same trials, from the cache); runs whose profile definitions differ are not
//! comparable.

use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::{Value, json};

use crate::support::{assert_success, chat_server, mf_in, show, stdout_json, write_json};

fn tool(name: &str) -> Value {
    json!({"name": name, "description": format!("The {name} tool."),
           "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}})
}

/// `lookup` loses s1 and s3 to read_graph when everything is mounted (lifted when alone);
/// `writing` needs search_nodes beside create_entities for s6 (jammed when alone).
fn suite(dir: &Path, writing: &[&str]) {
    let tools: Vec<Value> = [
        "read_graph",
        "search_nodes",
        "open_nodes",
        "create_entities",
    ]
    .into_iter()
    .map(tool)
    .collect();
    write_json(
        &dir.join("mf.suite.json"),
        &json!({"version": 1, "name": "memory",
        "tools": tools,
        "profiles": {"lookup": ["search_nodes", "open_nodes"], "writing": writing},
        "cases": [
            {"id": "s1", "input": "find Alice [prefer read_graph,search_nodes]", "expectedTool": "search_nodes"},
            {"id": "s2", "input": "open Bob [call open_nodes]", "expectedTool": "open_nodes"},
            {"id": "s3", "input": "the graph of x squared [prefer read_graph]", "expectedTool": null},
            {"id": "s4", "input": "dump it all [call read_graph]", "expectedTool": "read_graph"},
            {"id": "s6", "input": "add Dana [with search_nodes call create_entities]", "expectedTool": "create_entities"}
        ]}),
    );
}

fn eval(dir: &Path, server: &str) -> Command {
    let mut cmd = mf_in(dir);
    cmd.arg("eval")
        .args(["--models", "openai-compatible:m", "--base-url"])
        .arg(format!("{server}/v1"))
        .args(["--repeat", "3", "--cache-dir"])
        .arg(dir.join("cache"));
    cmd
}

fn group<'a>(card: &'a Value, name: &str) -> &'a Value {
    card["profiles"]["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .find(|g| g["profile"] == name)
        .unwrap_or_else(|| panic!("group {name}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_group_is_scored_mounted_alone_and_within_all_tools() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let dir = tempfile::tempdir().expect("tmp");
    suite(dir.path(), &["create_entities"]);
    // A plain eval first: its 15 trials are the "within all tools" half.
    let plain = eval(dir.path(), &server.uri())
        .args(["--format", "json"])
        .output()
        .expect("runs");
    assert_success(&plain);
    let plain = stdout_json(&plain);
    let out = eval(dir.path(), &server.uri())
        .args(["--profile", "all", "--format", "json"])
        .output()
        .expect("runs");
    assert_success(&out);
    let card = stdout_json(&out);
    // Plain 15, then lookup mounted alone (s1, s2, s3 × 3) and writing (s3, s6 × 3) only.
    let sent = server.received_requests().await.expect("recorded");
    assert_eq!(
        sent.len(),
        15 + 9 + 6,
        "the all-tools trials came from the cache"
    );
    assert_eq!(card["models"][0]["metrics"]["cached"], 15);
    let verdicts = |c: &Value| -> Vec<Value> {
        c["models"][0]["trials"]
            .as_array()
            .expect("trials")
            .iter()
            .map(|t| json!([t["case"], t["trial"], t["order"], t["verdict"]]))
            .collect()
    };
    assert_eq!(
        verdicts(&card),
        verdicts(&plain),
        "same trials as a plain eval"
    );
    assert!(card["suite"].get("profile").is_none());

    assert_eq!(
        card["profiles"]["definitions"],
        json!({"lookup": ["open_nodes", "search_nodes"], "writing": ["create_entities"]})
    );
    let lookup = group(&card, "lookup");
    assert_eq!(lookup["model"], "openai-compatible:m");
    assert_eq!(lookup["tools"], json!(["search_nodes", "open_nodes"]));
    assert_eq!(lookup["cases"], json!(["s1", "s2", "s3"]));
    assert_eq!(
        (
            &lookup["mounted"]["numerator"],
            &lookup["mounted"]["denominator"]
        ),
        (&json!(9), &json!(9))
    );
    assert_eq!(
        (
            &lookup["allInOne"]["numerator"],
            &lookup["allInOne"]["denominator"]
        ),
        (&json!(3), &json!(9))
    );
    let delta = lookup["delta"].as_f64().expect("delta");
    assert!((delta - 2.0 / 3.0).abs() < 1e-12, "{delta}");
    assert_eq!(lookup["lifted"], json!(["s1", "s3"]));
    assert_eq!(lookup["jammed"], json!([]));
    assert_eq!(
        (
            &lookup["test"]["improved"],
            &lookup["test"]["regressed"],
            &lookup["test"]["tied"]
        ),
        (&json!(2), &json!(0), &json!(1))
    );
    // sign test 2 up 0 down: p = 0.5; Holm with writing's p = 1 (1 up, 1 down) doubles it.
    assert_eq!(
        (&lookup["test"]["p"], &lookup["test"]["pAdjusted"]),
        (&json!(0.5), &json!(1.0))
    );
    let writing = group(&card, "writing");
    assert_eq!(writing["cases"], json!(["s3", "s6"]));
    assert_eq!(writing["lifted"], json!(["s3"]));
    assert_eq!(
        writing["jammed"],
        json!(["s6"]),
        "needs search_nodes beside it"
    );
    assert_eq!(writing["delta"], json!(0.0));
    assert_eq!(writing["healthy"], true);

    // One group by name: the same figures, one group.
    let out = eval(dir.path(), &server.uri())
        .args(["--profile", "writing", "--format", "json"])
        .output()
        .expect("runs");
    assert_success(&out);
    let one = stdout_json(&out);
    assert_eq!(one["profiles"]["groups"].as_array().map(Vec::len), Some(1));
    assert_eq!(group(&one, "writing"), writing);
    assert_eq!(
        server.received_requests().await.expect("recorded").len(),
        30,
        "every trial cached"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_whole_plan_is_checked_against_the_budget_and_the_terminal_shows_each_group() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let dir = tempfile::tempdir().expect("tmp");
    suite(dir.path(), &["create_entities"]);
    let out = eval(dir.path(), &server.uri())
        .args(["--profile", "all", "--max-trials", "29"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the plan has 30 paid trials in all (15 with every tool + 9 for group \"lookup\" mounted alone + 6 for group \"writing\" mounted alone), over --max-trials 29"),
        "{err}"
    );
    assert_eq!(server.received_requests().await.expect("recorded").len(), 0);

    let out = eval(dir.path(), &server.uri())
        .args(["--profile", "all"])
        .output()
        .expect("runs");
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("mount groups"), "{text}");
    assert!(
        text.contains("delta +66.7 pts · lifted s1, s3 · jammed none"),
        "{text}"
    );
    assert!(
        text.contains("delta +0.0 pts · lifted s3 · jammed s6"),
        "{text}"
    );
}

#[test]
fn mount_groups_offline_and_the_errors_of_a_suite_without_them() {
    let dir = tempfile::tempdir().expect("tmp");
    suite(dir.path(), &["create_entities"]);
    let out = mf_in(dir.path())
        .args([
            "eval",
            "--models",
            "lexical",
            "--no-cache",
            "--profile",
            "all",
        ])
        .args(["--format", "json"])
        .output()
        .expect("runs");
    assert_success(&out);
    let card = stdout_json(&out);
    for g in card["profiles"]["groups"].as_array().expect("groups") {
        for key in [
            "profile", "mounted", "allInOne", "delta", "lifted", "jammed",
        ] {
            assert!(g.get(key).is_some(), "{key} in {g}");
        }
    }
    // Without --quiet the runs are announced on stderr; with it, nothing is said.
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("note: group \"lookup\" mounted alone: 2 tools, 3 cases")
    );
    let quiet = mf_in(dir.path())
        .args([
            "-q",
            "eval",
            "--models",
            "lexical",
            "--no-cache",
            "--profile",
            "all",
        ])
        .output()
        .expect("runs");
    assert_success(&quiet);
    assert_eq!(String::from_utf8_lossy(&quiet.stderr), "", "--quiet");
    // Markdown and HTML carry the same groups.
    std::fs::write(dir.path().join("card.json"), &out.stdout).expect("write");
    let md = mf_in(dir.path())
        .args(["report", "card.json", "--format", "markdown"])
        .output()
        .expect("runs");
    assert_success(&md);
    let md = String::from_utf8_lossy(&md.stdout).into_owned();
    let lookup = group(&card, "lookup");
    let row = format!(
        "| `lookup` | lexical | {}/{} = ",
        lookup["mounted"]["numerator"], lookup["mounted"]["denominator"]
    );
    assert!(md.contains("**Mount groups**") && md.contains(&row), "{md}");
    let html = mf_in(dir.path())
        .args(["report", "card.json", "--format", "html"])
        .output()
        .expect("runs");
    assert_success(&html);
    let html = String::from_utf8_lossy(&html.stdout);
    assert!(html.contains("<h2 id=\"groups-h\">Mount groups</h2>"));
    assert!(html.contains("<td><code>writing</code></td>"));

    let out = mf_in(dir.path())
        .args(["eval", "--models", "lexical", "--profile", "nope"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("no profile \"nope\" in the suite (profiles: lookup, writing")
    );
    let bare = tempfile::tempdir().expect("tmp");
    write_json(
        &bare.path().join("mf.suite.json"),
        &json!({"version": 1, "name": "bare", "tools": [tool("a")],
                "cases": [{"id": "x", "input": "a", "expectedTool": "a"}]}),
    );
    let out = mf_in(bare.path())
        .args(["eval", "--models", "lexical", "--profile", "all"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no `profiles`"));
}

fn lexical_card(dir: &Path, suite: &str, args: &[&str], out: &str) {
    let run = mf_in(dir)
        .args([
            "eval",
            "--suite",
            suite,
            "--models",
            "lexical",
            "--no-cache",
        ])
        .args(args)
        .args(["--json-out", out, "--format", "json"])
        .output()
        .expect("runs");
    assert_success(&run);
}

#[test]
fn compare_marks_a_group_defined_differently_and_refuses_a_mounted_run_of_one() {
    let dir = tempfile::tempdir().expect("tmp");
    suite(dir.path(), &["create_entities"]);
    std::fs::rename(
        dir.path().join("mf.suite.json"),
        dir.path().join("base.json"),
    )
    .expect("mv");
    suite(dir.path(), &["create_entities", "search_nodes"]);
    std::fs::rename(
        dir.path().join("mf.suite.json"),
        dir.path().join("head.json"),
    )
    .expect("mv");
    lexical_card(dir.path(), "base.json", &["--profile", "all"], "b.json");
    lexical_card(dir.path(), "head.json", &["--profile", "all"], "h.json");
    let out = mf_in(dir.path())
        .args(["compare", "b.json", "h.json", "--format", "json"])
        .output()
        .expect("runs");
    assert_success(&out);
    let groups = stdout_json(&out)["eval"]["profiles"].clone();
    let find = |name: &str| {
        groups
            .as_array()
            .expect("profiles")
            .iter()
            .find(|g| g["profile"] == name)
            .cloned()
            .expect("group")
    };
    assert_eq!(find("lookup")["comparable"], true);
    let w = find("writing");
    assert_eq!(w["comparable"], false);
    assert_eq!(
        w["reasons"],
        json!([
            "the group is defined differently: base [create_entities], head [create_entities, search_nodes]"
        ])
    );
    assert!(w["before"]["mounted"].is_object() && w["after"]["mounted"].is_object());
    let text = mf_in(dir.path())
        .args(["compare", "b.json", "h.json"])
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&text.stdout).contains("writing · lexical:"));
    assert!(
        String::from_utf8_lossy(&text.stdout)
            .contains("NOT COMPARABLE: the group is defined differently")
    );

    let md = mf_in(dir.path())
        .args(["compare", "b.json", "h.json", "--format", "markdown"])
        .output()
        .expect("runs");
    let md = String::from_utf8_lossy(&md.stdout).into_owned();
    assert!(md.contains("**Mount groups** (base → head)"), "{md}");
    assert!(
        md.contains("⚠️ not comparable: the group is defined differently: base [create_entities], head [create_entities, search_nodes] |\n\n"),
        "{md}"
    );

    let html = mf_in(dir.path())
        .args(["compare", "b.json", "h.json", "--json-out", "c.json"])
        .output()
        .expect("runs");
    assert_success(&html);
    let html = mf_in(dir.path())
        .args(["report", "c.json", "--format", "html"])
        .output()
        .expect("runs");
    assert_success(&html);
    assert!(
        String::from_utf8_lossy(&html.stdout)
            .contains("<td class=\"warn\">not comparable: the group is defined differently"),
        "{}",
        show(&html)
    );

    // A run of one group's tools alone against a run of a differently defined group: refused.
    let only = ["--profile", "writing", "--mounted-only", "--cases", "s3,s6"];
    lexical_card(dir.path(), "base.json", &only, "mb.json");
    lexical_card(dir.path(), "head.json", &only, "mh.json");
    let out = mf_in(dir.path())
        .args(["compare", "mb.json", "mh.json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "profile \"writing\" is defined differently: base [create_entities], head [create_entities, search_nodes]"
        ),
        "{}",
        show(&out)
    );
    // The same definition compares.
    lexical_card(dir.path(), "base.json", &only, "mb2.json");
    let out = mf_in(dir.path())
        .args(["compare", "mb.json", "mb2.json"])
        .output()
        .expect("runs");
    assert_success(&out);
}
