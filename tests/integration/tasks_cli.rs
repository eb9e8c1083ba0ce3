//! `mf tasks lint`, `mf tasks mutate`, `mf tasks generate`, and eval's refusal of a suite that
//! names what the surface lacks — through the binary, against real HTTP servers (wiremock)
//! where a model is involved.

use std::path::Path;

use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::support::{chat_server, mf_in, root, show, stdout_json, write_json};

fn schema(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("schemas").join(name)).expect("schema");
    jsonschema::draft202012::new(&serde_json::from_str(&text).expect("json")).expect("schema")
}

fn tools(dir: &Path) {
    chat_server::write_tools(dir);
}

/// A suite about [`chat_server::tools_json`]'s tools with one problem of each error kind.
fn broken_suite(dir: &Path) {
    let text = r#"{
  "name": "broken",
  "surface": "tools.json",
  "cases": [
    {"id": "typo", "input": "find tickets about refunds", "expectedTool": "search_tikets"},
    {"id": "args", "input": "open ticket T-1", "expectedTool": "get_ticket",
     "expectedArgs": {"qq": "T-1"}},
    {"id": "dup", "input": "refund order 7", "expectedTool": "issue_refund"},
    {"id": "dup", "input": "Refund  ORDER 7", "expectedTool": "lookup_order"},
    {"id": "easy", "input": "run get_invoice for INV-1", "expectedTool": "get_invoice"},
    {"id": "draft", "input": "hello", "expectedTool": null, "reviewed": false}
  ]
}
"#;
    std::fs::write(dir.join("suite.json"), text).expect("suite");
}

#[test]
fn tasks_lint_reports_each_problem_with_its_code_and_line() {
    let dir = tempfile::tempdir().expect("tmp");
    tools(dir.path());
    broken_suite(dir.path());
    let out = mf_in(dir.path())
        .args(["tasks", "lint", "--suite", "suite.json", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let report = stdout_json(&out);
    let validator = schema("tasks-lint-report.schema.json");
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let found: Vec<(String, Option<String>, Option<u64>)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap_or_default().to_owned(),
                f["case"].as_str().map(str::to_owned),
                f["line"].as_u64(),
            )
        })
        .collect();
    for (code, case, line) in [
        ("unknown-expected-tool", "typo", 5),
        ("unknown-argument", "args", 6),
        ("duplicate-id", "dup", 9),
        ("conflicting-input", "dup", 9),
        ("input-names-tool", "easy", 10),
        ("unreviewed-case", "draft", 11),
    ] {
        assert!(
            found.contains(&(code.to_owned(), Some(case.to_owned()), Some(line))),
            "{code} {case}:{line} missing from {found:?}"
        );
    }
    let typo = &report["findings"][0];
    assert_eq!(typo["code"], "unknown-expected-tool");
    assert!(
        typo["message"]
            .as_str()
            .is_some_and(|m| m.contains("did you mean \"search_tickets\"")),
        "{typo}"
    );
    assert_eq!(report["summary"]["errors"], 4);

    // SARIF: valid, one result per finding at the case's line.
    let out = mf_in(dir.path())
        .args([
            "tasks",
            "lint",
            "--suite",
            "suite.json",
            "--format",
            "sarif",
        ])
        .output()
        .expect("runs");
    let sarif = stdout_json(&out);
    let v = crate::render_lint::sarif_validator();
    assert!(v.is_valid(&sarif), "{sarif}");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), found.len());
    assert_eq!(results[0]["ruleId"], "unknown-expected-tool");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        5
    );
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "suite.json"
    );

    // Terminal: file:line and the fix; --fail-on never exits 0.
    let out = mf_in(dir.path())
        .args([
            "tasks",
            "lint",
            "--suite",
            "suite.json",
            "--fail-on",
            "never",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("unknown-expected-tool  suite.json:5  case \"typo\""),
        "{text}"
    );
    assert!(text.contains("4 errors"), "{text}");
}

#[tokio::test]
async fn eval_refuses_a_typo_in_expected_tool_before_any_request() {
    let server = chat_server::start(std::time::Duration::ZERO, true).await;
    let dir = tempfile::tempdir().expect("tmp");
    tools(dir.path());
    std::fs::write(
        dir.path().join("suite.json"),
        r#"{"name": "t", "cases": [
  {"id": "ok", "input": "x [call get_ticket]", "expectedTool": "get_ticket"},
  {"id": "typo", "input": "x [call get_invoice]", "expectedTool": "get_invoce"}
]}
"#,
    )
    .expect("suite");
    let out = mf_in(dir.path())
        .args(["eval", "tools.json", "--suite", "suite.json"])
        .args(["--models", "openai-compatible:m", "--base-url"])
        .arg(format!("{}/v1", server.uri()))
        .args(["--repeat", "1", "--no-cache", "--no-progress"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no request was sent"), "{err}");
    assert!(
        err.contains("suite.json:3: case \"typo\": expectedTool \"get_invoce\"")
            && err.contains("did you mean \"get_invoice\"")
            && err.contains("[unknown-expected-tool]"),
        "{err}"
    );
    let sent = server.received_requests().await.expect("recording");
    assert_eq!(sent.len(), 0, "no request may be sent");
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

fn mutate(dir: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let seed = if extra.contains(&"--seed") {
        &[][..]
    } else {
        &["--seed", "7"][..]
    };
    mf_in(dir)
        .args(["tasks", "mutate", "--suite", "suite.yaml", "--out", out])
        .args(seed)
        .args(extra)
        .output()
        .expect("runs")
}

#[test]
fn mutate_with_the_same_seed_writes_the_same_bytes_and_every_variant_is_unreviewed() {
    let dir = tempfile::tempdir().expect("tmp");
    copy_dir(&root().join("examples/acme-support"), dir.path());
    std::fs::rename(
        dir.path().join("mf.suite.yaml"),
        dir.path().join("suite.yaml"),
    )
    .expect("mv");

    let first = mutate(dir.path(), "a.json", &[]);
    assert_eq!(first.status.code(), Some(0), "{}", show(&first));
    assert!(String::from_utf8_lossy(&first.stderr).contains("wrote a.json"));
    let second = mutate(dir.path(), "b.json", &[]);
    assert_eq!(second.status.code(), Some(0), "{}", show(&second));
    let a = std::fs::read(dir.path().join("a.json")).expect("a");
    let b = std::fs::read(dir.path().join("b.json")).expect("b");
    assert_eq!(a, b, "same seed, same bytes");
    let other = mutate(dir.path(), "c.json", &["--seed", "8"]);
    assert_eq!(other.status.code(), Some(0), "{}", show(&other));
    assert_ne!(a, std::fs::read(dir.path().join("c.json")).expect("c"));

    // Refuses to overwrite without --force, and leaves the file as it was.
    std::fs::write(dir.path().join("a.json"), "edited by hand").expect("edit");
    let refused = mutate(dir.path(), "a.json", &[]);
    assert_eq!(refused.status.code(), Some(1), "{}", show(&refused));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--force"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.json")).expect("a"),
        "edited by hand"
    );
    let forced = mutate(dir.path(), "a.json", &["--force"]);
    assert_eq!(forced.status.code(), Some(0), "{}", show(&forced));
    assert_eq!(std::fs::read(dir.path().join("a.json")).expect("a"), b);

    let doc: Value = serde_json::from_slice(&b).expect("json");
    let cases = doc["cases"].as_array().expect("cases");
    let originals: Vec<&Value> = cases
        .iter()
        .filter(|c| c.get("mutatedFrom").is_none() && c["reviewed"] != false)
        .collect();
    assert!(!originals.is_empty());
    for o in &originals {
        let variants: Vec<&Value> = cases
            .iter()
            .filter(|c| c["mutatedFrom"] == o["id"])
            .collect();
        assert!(!variants.is_empty(), "no variant of {}", o["id"]);
        for v in variants {
            assert_eq!(v["reviewed"], false, "{v}");
            assert_eq!(v["source"], "mutate", "{v}");
            assert_eq!(v["expectedTool"], o["expectedTool"], "{v}");
            assert!(v["mutation"].is_string(), "{v}");
        }
    }

    // The mutated suite lints without errors and evaluates with a robustness section.
    let lint = mf_in(dir.path())
        .args(["tasks", "lint", "--suite", "b.json", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(lint.status.code(), Some(0), "{}", show(&lint));
    let card = mf_in(dir.path())
        .args([
            "eval", "--suite", "b.json", "--models", "lexical", "--repeat", "1",
        ])
        .args(["--format", "json", "--no-cache", "--no-progress"])
        .output()
        .expect("runs");
    let card = stdout_json(&card);
    let schema = schema("scorecard.schema.json");
    let errors: Vec<String> = schema
        .iter_errors(&card)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let r = &card["models"][0]["robustness"];
    let variants = cases
        .iter()
        .filter(|c| c.get("mutatedFrom").is_some())
        .count();
    assert_eq!(r["mutated"]["denominator"], variants as u64, "{r}");
    assert_eq!(r["original"]["denominator"], originals.len() as u64, "{r}");
    let kinds: u64 = r["byKind"]
        .as_array()
        .expect("byKind")
        .iter()
        .map(|k| k["mutated"]["denominator"].as_u64().unwrap_or_default())
        .sum();
    assert_eq!(kinds, variants as u64);

    // mf compare pairs the variants of two runs like any metric: `robustness`.
    for side in ["base.json", "head.json"] {
        let run = mf_in(dir.path())
            .args([
                "eval", "--suite", "b.json", "--models", "lexical", "--repeat", "1",
            ])
            .args(["--no-cache", "--no-progress", "--json-out", side])
            .output()
            .expect("runs");
        assert_eq!(run.status.code(), Some(0), "{}", show(&run));
    }
    let cmp = mf_in(dir.path())
        .args(["compare", "base.json", "head.json", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(cmp.status.code(), Some(0), "{}", show(&cmp));
    let report = stdout_json(&cmp);
    let v = crate::report_schemas::linked_validator("compare-report.schema.json");
    let errors: Vec<String> = v
        .iter_errors(&report)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let rob = &report["eval"]["models"][0]["robustness"];
    assert_eq!(rob["metric"], "robustness", "{rob}");
    assert_eq!(rob["before"]["denominator"], variants as u64, "{rob}");
    assert_eq!(rob["before"], rob["after"], "the same offline run twice");
    let text = mf_in(dir.path())
        .args(["compare", "base.json", "head.json"])
        .output()
        .expect("runs");
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("robustness"),
        "{}",
        show(&text)
    );

    // Every rendering of the compare document shows it; none gates on it: a robustness drop
    // (planted into the saved document) is no regression of the PR and no failing testcase.
    let mut dropped = report.clone();
    dropped["eval"]["models"][0]["robustness"]["verdict"] = json!("regressed");
    write_json(&dir.path().join("cmp.json"), &dropped);
    let render = |format: &str| {
        let out = mf_in(dir.path())
            .args(["report", "cmp.json", "--format", format])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for format in ["markdown", "html"] {
        let text = render(format);
        assert!(text.contains("robustness"), "{format}: {text}");
    }
    // The sticky comment lists robustness with every comparison, not in the gated table.
    let comment = render("comment");
    let (gated, all) = comment.split_once("<details>").expect("a details section");
    assert!(!gated.contains("`robustness`"), "{comment}");
    assert!(all.contains("`robustness`"), "{comment}");
    let xml = render("junit");
    crate::support::junit::well_formed(&xml);
    let suites = crate::support::junit::parse_junit(&xml);
    let case = suites
        .suites
        .iter()
        .flat_map(|s| &s.cases)
        .find(|c| c.name == "robustness")
        .expect("a robustness testcase");
    assert!(case.failure.is_none(), "{case:?}");
    assert!(
        case.system_out
            .as_deref()
            .is_some_and(|o| o.starts_with("regressed (not gated)")),
        "{case:?}"
    );
}

/// An OpenAI-compatible server that drafts through `record_cases`: for each tool definition in
/// the message (`{"name":"X"` — one for a tool request, two for a pair) two cases expecting it,
/// plus a must-not-call one, a case naming a tool the request was not about (to be dropped),
/// and a repeat of the first (to be dropped).
struct Drafter;

impl Respond for Drafter {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let message = body["messages"][0]["content"].as_str().unwrap_or_default();
        let offered = body["tools"][0]["function"]["name"]
            .as_str()
            .unwrap_or_default();
        let names: Vec<&str> = message
            .split("{\"name\":\"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .collect();
        let mut cases = Vec::new();
        for name in &names {
            let words = name.replace('_', " ");
            for k in 1..=2 {
                cases.push(
                    json!({"input": format!("please {words}, variant {k}"), "expectedTool": name}),
                );
            }
        }
        cases.push(json!({"input": format!("what does {} mean?", names.join(" or ").replace('_', " ")), "expectedTool": null}));
        cases.push(json!({"input": "something else entirely", "expectedTool": "not_asked_about"}));
        if let Some(first) = cases.first().cloned() {
            cases.push(first);
        }
        let call = json!({"id": "call_1", "type": "function", "function": {
            "name": offered, "arguments": json!({"cases": cases}).to_string()}});
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "x", "object": "chat.completion", "created": 1, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": null, "tool_calls": [call]}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150}
        }))
    }
}

#[tokio::test]
async fn generate_against_a_local_server_writes_a_task_set_that_lints_clean() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Drafter)
        .mount(&server)
        .await;
    let dir = tempfile::tempdir().expect("tmp");
    // Two look-alike tools (the same action on the same object), so `mf cluster` finds a
    // risky pair and the plan has a boundary request for it.
    let mut t = chat_server::tools_json();
    t["tools"].as_array_mut().expect("tools").push(json!({
        "name": "find_tickets",
        "description": "Find support tickets matching a keyword.",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    }));
    write_json(&dir.path().join("tools.json"), &t);
    let base = format!("{}/v1", server.uri());
    let generate = |extra: &[&str]| {
        mf_in(dir.path())
            .args([
                "tasks",
                "generate",
                "tools.json",
                "--models",
                "openai-compatible:drafter",
            ])
            .args(["--base-url", &base, "--out", "drafts.tasks.yaml"])
            .args(extra)
            .output()
            .expect("runs")
    };

    let dry = generate(&["--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{}", show(&dry));
    let plan = String::from_utf8_lossy(&dry.stdout).into_owned();
    let planned = plan.lines().filter(|l| l.starts_with('#')).count();
    let pairs = plan
        .lines()
        .filter(|l| l.starts_with('#') && l.contains(" pair "))
        .count();
    assert!(
        plan.contains("pair search_tickets ↔ find_tickets"),
        "{plan}"
    );
    assert_eq!(planned, 6 + pairs, "6 tools + the risky pairs: {plan}");
    assert_eq!(server.received_requests().await.map_or(0, |r| r.len()), 0);
    assert!(!dir.path().join("drafts.tasks.yaml").exists());

    let out = generate(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let sent = server.received_requests().await.expect("recording");
    assert_eq!(sent.len(), planned);
    let text = std::fs::read_to_string(dir.path().join("drafts.tasks.yaml")).expect("written");
    let set: Value = serde_yaml_ng::from_str(&text).expect("yaml");
    assert_eq!(set["version"], 1);
    assert_eq!(set["surface"], "tools.json");
    let tasks = set["tasks"].as_array().expect("tasks");
    // Per tool request: 2 cases + 1 must-not-call; per pair: 2 + 2 + 1, less the inputs a
    // tool request already drafted ("please search tickets, variant 1" …).
    assert!(tasks.len() >= 6 * 3 + pairs, "{text}");
    let mut inputs: Vec<&str> = tasks.iter().filter_map(|t| t["prompt"].as_str()).collect();
    let n = inputs.len();
    inputs.sort_unstable();
    inputs.dedup();
    assert_eq!(inputs.len(), n, "each input once");
    for task in tasks {
        assert_eq!(task["reviewed"], false, "{task}");
        assert_eq!(task["source"], "generate", "{task}");
        assert_ne!(task["expected"], "not_asked_about");
    }
    assert!(tasks.iter().any(|t| t["tags"][0] == "boundary"));
    assert!(tasks.iter().any(|t| t["expected"].is_null()));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a tool this request was about"), "{err}");

    let lint = mf_in(dir.path())
        .args(["tasks", "lint", "--suite", "drafts.tasks.yaml"])
        .output()
        .expect("runs");
    assert_eq!(lint.status.code(), Some(0), "{}", show(&lint));
    assert!(String::from_utf8_lossy(&lint.stdout).contains("0 errors"));

    // Again without --force: refused, nothing sent.
    let again = generate(&[]);
    assert_eq!(again.status.code(), Some(1), "{}", show(&again));
    assert_eq!(
        server.received_requests().await.map_or(0, |r| r.len()),
        planned
    );
}

#[tokio::test]
async fn generate_without_the_key_says_what_it_would_send_and_sends_nothing() {
    let server = MockServer::start().await;
    let dir = tempfile::tempdir().expect("tmp");
    tools(dir.path());
    let out = mf_in(dir.path())
        .args([
            "tasks",
            "generate",
            "tools.json",
            "--models",
            "openrouter:some/model",
        ])
        .args([
            "--base-url",
            &format!("{}/v1", server.uri()),
            "--out",
            "d.json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let plan = String::from_utf8_lossy(&out.stdout);
    assert!(plan.contains("OPENROUTER_API_KEY is not set"), "{plan}");
    assert!(
        plan.contains("should be answered by calling search_tickets"),
        "{plan}"
    );
    assert!(plan.contains("nothing was sent"), "{plan}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the plan cannot run") && err.contains("OPENROUTER_API_KEY"),
        "{err}"
    );
    assert!(!dir.path().join("d.json").exists());
    assert_eq!(server.received_requests().await.map_or(0, |r| r.len()), 0);
}

#[test]
fn every_tasks_lint_code_is_documented_with_its_severity_and_in_the_schema() {
    let out = crate::support::mf()
        .args(["tasks", "lint", "--list-rules"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let schema_md = std::fs::read_to_string(root().join("SCHEMA.md")).expect("SCHEMA.md");
    let json_schema = std::fs::read_to_string(root().join("schemas/tasks-lint-report.schema.json"))
        .expect("schema");
    let listed = String::from_utf8_lossy(&out.stdout).into_owned();
    let rows: Vec<(&str, &str)> = listed
        .lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            Some((w.next()?, w.next()?))
        })
        .collect();
    assert_eq!(rows.len(), 13, "{listed}");
    for (code, severity) in rows {
        assert!(
            schema_md.contains(&format!("| `{code}` | {severity} |")),
            "SCHEMA.md lacks the row of {code} ({severity})"
        );
        assert!(
            json_schema.contains(&format!("\"{code}\"")),
            "{code} not in the JSON Schema"
        );
        let explain = crate::support::mf()
            .args(["tasks", "lint", "--explain", code])
            .output()
            .expect("runs");
        assert_eq!(explain.status.code(), Some(0), "{}", show(&explain));
    }
}

#[test]
fn a_task_set_stays_a_task_set_and_its_surface_is_rebased() {
    let dir = tempfile::tempdir().expect("tmp");
    let suites = crate::support::fixture("suites");
    std::fs::copy(suites.join("tasks.yaml"), dir.path().join("tasks.yaml")).expect("copy");
    std::fs::copy(suites.join("suite.json"), dir.path().join("suite.json")).expect("copy");
    std::fs::create_dir_all(dir.path().join("out")).expect("mkdir");
    // Out of the suite's folder: `surface: suite.json` would leave out/ — refused, nothing written.
    let refused = mf_in(dir.path())
        .args([
            "tasks",
            "mutate",
            "--suite",
            "tasks.yaml",
            "--out",
            "out/m.yaml",
        ])
        .output()
        .expect("runs");
    assert_eq!(refused.status.code(), Some(1), "{}", show(&refused));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("surface \"suite.json\""),
        "{}",
        show(&refused)
    );
    assert!(!dir.path().join("out/m.yaml").exists());

    let out = mf_in(dir.path())
        .args([
            "tasks",
            "mutate",
            "--suite",
            "tasks.yaml",
            "--out",
            "m.yaml",
        ])
        .args(["--kinds", "typos,filler"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let text = std::fs::read_to_string(dir.path().join("m.yaml")).expect("written");
    let set: Value = serde_yaml_ng::from_str(&text).expect("yaml");
    assert_eq!(set["surface"], "suite.json");
    let tasks = set["tasks"].as_array().expect("a task set");
    let kinds: std::collections::BTreeSet<&str> = tasks
        .iter()
        .filter_map(|t| t["mutation"].as_str())
        .collect();
    assert_eq!(kinds, ["filler", "typos"].into_iter().collect());
    assert_eq!(tasks.len(), 4 + 4 * 2, "{text}");
    for t in tasks.iter().filter(|t| t.get("mutatedFrom").is_some()) {
        assert_eq!(t["reviewed"], false);
        assert!(t["id"].as_str().is_some_and(|id| id.contains('~')));
    }
    // The originals keep their shape: no reviewed/source keys were added to them.
    assert!(tasks[0].get("reviewed").is_none(), "{}", tasks[0]);
    let lint = mf_in(dir.path())
        .args(["tasks", "lint", "--suite", "m.yaml", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(lint.status.code(), Some(0), "{}", show(&lint));
    let report = stdout_json(&lint);
    assert_eq!(report["summary"]["errors"], 0, "{report}");
}

#[tokio::test]
async fn generate_refuses_a_plan_over_its_request_cap_with_every_reason() {
    let server = MockServer::start().await;
    let dir = tempfile::tempdir().expect("tmp");
    tools(dir.path());
    let out = mf_in(dir.path())
        .args([
            "tasks",
            "generate",
            "tools.json",
            "--models",
            "openai-compatible:m",
        ])
        .args([
            "--base-url",
            &format!("{}/v1", server.uri()),
            "--out",
            "d.json",
        ])
        .args(["--max-requests", "2", "--max-input-tokens", "10"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let plan = String::from_utf8_lossy(&out.stdout);
    assert!(plan.contains("over --max-requests 2"), "{plan}");
    assert!(plan.contains("over --max-input-tokens 10"), "{plan}");
    assert!(!dir.path().join("d.json").exists());
    assert_eq!(server.received_requests().await.map_or(0, |r| r.len()), 0);
    let offline = mf_in(dir.path())
        .args([
            "tasks",
            "generate",
            "tools.json",
            "--models",
            "lexical",
            "--out",
            "d.json",
        ])
        .output()
        .expect("runs");
    assert_eq!(offline.status.code(), Some(1), "{}", show(&offline));
    assert!(String::from_utf8_lossy(&offline.stderr).contains("offline models cannot draft"));
}
