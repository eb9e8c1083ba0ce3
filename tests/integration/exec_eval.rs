//! `mf eval --execute` against a local OpenAI-compatible server (wiremock): after the model
//! picks the expected tool, the Node implementation runs with the case's `toolInput` and its
//! `expect` is checked. A satisfied `contains` passes, an unsatisfied one fails and is reported
//! with the expectation and the tool's output (scorecard, terminal, JUnit `exec_failed`);
//! executions are never served from the trial cache; `compare` refuses runs of different
//! implementations.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use crate::exec_cli::notes_repo;
use crate::support::junit::parse_junit;
use crate::support::{chat_server, mf_in, show, stdout_json};

fn eval_suite(root: &Path) {
    let mut base: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("mf.suite.json")).expect("read"))
            .expect("json");
    // The test server's calls carry `{"q": <input>}`: read_note takes `q` (and `name`, no longer
    // required) so the pick scores as correct with good arguments and the execution decides.
    base["tools"][0]["parameters"] = json!({"type": "object",
        "properties": {"name": {"type": "string"}, "q": {"type": "string"}}});
    let suite = json!({
        "name": "notes-exec",
        "tools": base["tools"],
        "execution": base["execution"],
        "cases": [
            {"id": "pass", "input": "What does my todo say? [call read_note]", "expectedTool": "read_note",
             "toolInput": {"name": "todo"}, "expect": {"ok": true, "contains": "milk"}},
            {"id": "fail", "input": "Is there eggs on my todo? [call read_note]", "expectedTool": "read_note",
             "toolInput": {"name": "todo"}, "expect": {"contains": "eggs"}},
            {"id": "wrong", "input": "Read my todo [call count_words]", "expectedTool": "read_note",
             "toolInput": {"name": "todo"}, "expect": {"contains": "milk"}},
            {"id": "model-args", "input": "Read the note [call read_note]", "expectedTool": "read_note",
             "expect": {"ok": true}}
        ]
    });
    std::fs::write(root.join("eval.suite.json"), suite.to_string()).expect("write");
}

fn run_eval(root: &Path, uri: &str, extra: &[&str]) -> std::process::Output {
    mf_in(root)
        .args([
            "eval",
            "--suite",
            "eval.suite.json",
            "--models",
            "vllm:served-model",
        ])
        .args([
            "--base-url",
            &format!("{uri}/v1"),
            "--repeat",
            "2",
            "--format",
            "json",
        ])
        .arg("--cache-dir")
        .arg(root.join("cache"))
        .arg("--execute")
        .args(extra)
        .env("MF_PROVIDER_API_KEY", "sk-exec-eval")
        .output()
        .expect("runs")
}

fn case<'a>(card: &'a Value, id: &str) -> &'a Value {
    card["models"][0]["execution"]["cases"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["case"] == id))
        .unwrap_or_else(|| panic!("no execution for case {id}: {card}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_execute_checks_expect_and_reports_the_failed_expectation_with_output() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let (_tmp, root) = notes_repo();
    eval_suite(&root);
    let out = run_eval(&root, &server.uri(), &[]);
    // The unsatisfied `contains` fails the default min-execution gate (every execution).
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let card = stdout_json(&out);
    crate::exec_cli::assert_schema("scorecard.schema.json", &card);
    let x = &card["suite"]["execution"];
    assert_eq!(x["runtime"], "node");
    assert!(
        x["engine"]
            .as_str()
            .is_some_and(|e| e.starts_with("node-permission")),
        "{x}"
    );
    assert_eq!(x["entry"], "tools/index.mjs");
    assert!(
        x["hash"].as_str().is_some_and(|h| h.starts_with("sha256:")),
        "{x}"
    );

    let pass = case(&card, "pass");
    assert_eq!(
        (pass["executed"].as_u64(), pass["passed"].as_u64()),
        (Some(2), Some(2)),
        "{pass}"
    );
    let fail = case(&card, "fail");
    assert_eq!(
        (fail["executed"].as_u64(), fail["passed"].as_u64()),
        (Some(2), Some(0)),
        "{fail}"
    );
    assert_eq!(
        fail["failed"],
        json!(["contains \"eggs\": not in the result"])
    );
    assert!(
        fail["output"]
            .as_str()
            .is_some_and(|o| o.contains("buy milk and bread")),
        "{fail}"
    );
    // The model picked another tool: nothing of the case ran.
    let wrong = case(&card, "wrong");
    assert_eq!(wrong["executed"], 0);
    assert!(
        wrong["notRun"][0]
            .as_str()
            .is_some_and(|w| w.contains("picked count_words")),
        "{wrong}"
    );
    // No toolInput and no --execute-model-args: not executed.
    assert_eq!(case(&card, "model-args")["executed"], 0);
    let rate = &card["models"][0]["execution"]["rate"];
    assert_eq!(
        (rate["numerator"].as_u64(), rate["denominator"].as_u64()),
        (Some(2), Some(4))
    );
    assert!(rate["ci95"].is_array(), "{rate}");
    let gate = card["gates"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["name"] == "min-execution"))
        .expect("gate");
    assert_eq!(gate["passed"], false);
    let row = card["models"][0]["trials"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["case"] == "fail"))
        .expect("trial");
    assert_eq!(row["execution"]["passed"], false);
    assert_eq!(row["execution"]["status"], "ok");

    // JUnit: the failing case is `exec_failed`, with the expectation and the output.
    let card_path = root.join("card.json");
    std::fs::write(&card_path, serde_json::to_string(&card).expect("json")).expect("write");
    let junit = mf_in(&root)
        .args(["report", "card.json", "--format", "junit"])
        .output()
        .expect("runs");
    let xml = String::from_utf8_lossy(&junit.stdout).into_owned();
    let parsed = parse_junit(&xml);
    let cases: Vec<_> = parsed.suites.iter().flat_map(|s| &s.cases).collect();
    let failed = cases.iter().find(|c| c.name == "fail").expect("fail case");
    let f = failed.failure.as_ref().expect("a failure");
    assert_eq!(f.kind, "exec_failed");
    assert!(
        f.body.contains("contains \"eggs\"") && f.body.contains("buy milk"),
        "{}",
        f.body
    );
    let passed = cases.iter().find(|c| c.name == "pass").expect("pass case");
    assert!(passed.failure.is_none(), "{xml}");

    // The terminal summary says it to people.
    let text = mf_in(&root)
        .args(["report", "card.json", "--format", "terminal"])
        .output()
        .expect("runs");
    let t = String::from_utf8_lossy(&text.stdout);
    assert!(t.contains("execution") && t.contains("2/4"), "{t}");
    assert!(
        t.contains("exec failed fail") && t.contains("contains \"eggs\""),
        "{t}"
    );

    // Markdown and HTML carry the execution figure and the failed expectation too.
    for format in ["markdown", "html"] {
        let out = mf_in(&root)
            .args(["report", "card.json", "--format", format])
            .output()
            .expect("runs");
        assert!(out.status.success(), "{}", show(&out));
        let doc = String::from_utf8_lossy(&out.stdout);
        assert!(
            doc.contains("execution") && doc.contains("50.0%"),
            "{format}: {doc}"
        );
        assert!(
            doc.contains("2 of 2 executions failed") && doc.contains("eggs"),
            "{format}: {doc}"
        );
    }

    // A lower gate passes; the trials now come from the cache, the executions never do: the
    // note changed on disk, and the result says so.
    std::fs::write(root.join("tools/notes/todo.txt"), "buy eggs\n").expect("write");
    let again = run_eval(&root, &server.uri(), &["--min-execution", "0.25"]);
    assert_eq!(again.status.code(), Some(0), "{}", show(&again));
    let card2 = stdout_json(&again);
    assert!(
        card2["models"][0]["trials"]
            .as_array()
            .expect("trials")
            .iter()
            .all(|t| t["cached"] == true)
    );
    assert_eq!(case(&card2, "fail")["passed"], 2, "{card2}");
    assert_eq!(case(&card2, "pass")["passed"], 0, "{card2}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn model_arguments_run_only_when_asked_and_are_validated() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let (_tmp, root) = notes_repo();
    eval_suite(&root);
    let out = run_eval(
        &root,
        &server.uri(),
        &["--execute-model-args", "--cases", "model-args"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let card = stdout_json(&out);
    assert_eq!(
        card["suite"]["execution"]["inputs"],
        "toolInput, else model-args"
    );
    let c = case(&card, "model-args");
    // The model sent {"q": …} and no `name`: the tool ran with the model's arguments and threw.
    assert_eq!(c["executed"], 2, "{c}");
    let failed = c["failed"][0].as_str().unwrap_or_default();
    assert!(
        failed.contains("ok: true, but it threw") && failed.contains("ENOENT"),
        "{c}"
    );
    assert!(
        c["output"]
            .as_str()
            .is_some_and(|o| o.contains("undefined.txt")),
        "{c}"
    );
    // Without the flag the same case runs nothing.
    let out = run_eval(
        &root,
        &server.uri(),
        &["--cases", "model-args", "--min-execution", "0"],
    );
    let card = stdout_json(&out);
    assert_eq!(case(&card, "model-args")["executed"], 0, "{card}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no toolInput"),
        "{}",
        show(&out)
    );
}

#[test]
fn compare_refuses_runs_of_different_implementations() {
    let (_tmp, root) = notes_repo();
    let eval = |out: &str| {
        let o = mf_in(&root)
            .args([
                "eval",
                "--suite",
                "mf.suite.json",
                "--models",
                "lexical",
                "--repeat",
                "1",
            ])
            .args([
                "--execute",
                "--min-execution",
                "0",
                "--no-cache",
                "--format",
                "json",
            ])
            .args(["--json-out", out])
            .output()
            .expect("runs");
        assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    };
    eval("a.json");
    eval("b.json");
    let same = mf_in(&root)
        .args(["compare", "a.json", "b.json"])
        .output()
        .expect("runs");
    assert_eq!(same.status.code(), Some(0), "{}", show(&same));
    let entry = root.join("tools/index.mjs");
    let mut code = std::fs::read_to_string(&entry).expect("read");
    code.push_str("\n// changed\n");
    std::fs::write(&entry, code).expect("write");
    eval("c.json");
    let changed = mf_in(&root)
        .args(["compare", "a.json", "c.json"])
        .output()
        .expect("runs");
    assert_eq!(changed.status.code(), Some(1), "{}", show(&changed));
    let text = String::from_utf8_lossy(&changed.stderr).into_owned()
        + &String::from_utf8_lossy(&changed.stdout);
    assert!(text.contains("execution differs"), "{text}");
}

#[test]
fn execution_flags_without_execute_are_refused_and_nothing_runs_by_default() {
    let (_tmp, root) = notes_repo();
    let out = mf_in(&root)
        .args([
            "eval",
            "--suite",
            "mf.suite.json",
            "--models",
            "lexical",
            "--allow-net",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--execute"),
        "{}",
        show(&out)
    );
    // Without --execute an eval of a suite with an execution block runs nothing.
    let out = mf_in(&root)
        .args([
            "eval",
            "--suite",
            "mf.suite.json",
            "--models",
            "lexical",
            "--repeat",
            "1",
        ])
        .args(["--no-cache", "--format", "json"])
        .output()
        .expect("runs");
    let card = stdout_json(&out);
    assert!(card["suite"].get("execution").is_none(), "{card}");
    assert!(card["models"][0].get("execution").is_none(), "{card}");
}

#[test]
fn mf_ci_evaluates_a_suite_with_an_execution_block_without_executing_it() {
    let (_tmp, root) = notes_repo();
    crate::support::git::git(&root, &["init", "-q"]);
    crate::support::git::git(&root, &["add", "-A"]);
    crate::support::git::git(
        &root,
        &[
            "-c",
            "user.email=t@example.com",
            "-c",
            "user.name=t",
            "commit",
            "-qm",
            "init",
        ],
    );
    let mut cmd = mf_in(&root);
    for k in crate::support::machine_ci_vars() {
        cmd.env_remove(k);
    }
    let out = cmd
        .args(["ci", "--models", "lexical", "--suite", "mf.suite.json"])
        .args(["--json-out", "ci.json", "mf.suite.json"])
        .output()
        .expect("runs");
    assert!(out.status.code().is_some_and(|c| c != 1), "{}", show(&out));
    let ci: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("ci.json")).expect("ci.json"))
            .expect("json");
    assert_eq!(ci["mode"], "full", "{ci}");
    let head = &ci["head"];
    assert_eq!(head["kind"], "scorecard", "{ci}");
    assert!(head["suite"].get("execution").is_none(), "{head}");
    assert!(head["models"][0].get("execution").is_none(), "{head}");
}
