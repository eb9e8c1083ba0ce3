//! `mf eval` end to end with offline models (no key) and a local provider: scorecard shape,
//! dry run, budgets, gates and exit codes, determinism, missing keys.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{assert_success, chat_server, mf, mf_in, stdout_json};

const SUITE: &str = "examples/acme-support/mf.suite.yaml";
const SURFACE: &str = "examples/acme-support";

fn without_timing(mut v: Value) -> Value {
    v["timing"] = Value::Null;
    v
}

#[test]
fn lexical_runs_the_whole_pipeline_on_the_example_without_a_key() {
    let out = mf()
        .args(["eval", SURFACE, "--suite", SUITE, "--models", "lexical"])
        .args(["--format", "json", "--no-cache"])
        .output()
        .expect("run");
    assert_success(&out);
    let card = stdout_json(&out);
    assert_eq!(card["kind"], "scorecard");
    assert_eq!(card["status"], "pass");
    assert_eq!(card["suite"]["name"], "acme-support");
    assert_eq!(card["suite"]["tools"].as_array().map(Vec::len), Some(16));
    let cases = card["suite"]["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 17);
    assert!(cases.iter().all(|c| {
        c["inputHash"]
            .as_str()
            .is_some_and(|h| h.starts_with("sha256:"))
    }));
    assert!(
        cases.iter().all(|c| c["line"].as_u64().is_some()),
        "every case has its line"
    );
    let model = &card["models"][0];
    assert_eq!(model["label"], "lexical");
    assert_eq!(model["wire"], "offline");
    let trials = model["trials"].as_array().expect("trials");
    assert_eq!(trials.len(), 17 * 5);
    let m = &model["metrics"];
    // 16 reviewed cases × 5; the unreviewed case is reported apart.
    assert_eq!(m["scored"], 80);
    assert_eq!(m["selectionAccuracy"]["denominator"], 80);
    assert!(m["selectionAccuracy"]["ci95"].is_array());
    assert_eq!(m["unreviewed"]["trials"], 5);
    assert_eq!(
        m["overTrigger"]["denominator"], 10,
        "two must-not-call cases × 5"
    );
    // The lexical router ignores order: every trial of a case has the same verdict.
    for case in cases {
        let id = case["id"].as_str().expect("id");
        let verdicts: std::collections::BTreeSet<String> = trials
            .iter()
            .filter(|t| t["case"] == id)
            .map(|t| t["verdict"].as_str().expect("verdict").to_owned())
            .collect();
        assert_eq!(verdicts.len(), 1, "{id}: {verdicts:?}");
    }
    // Orders are permutations of the surface and differ between trials.
    let first: Vec<&Value> = trials
        .iter()
        .filter(|t| t["case"] == "refund-damaged")
        .collect();
    assert_ne!(first[0]["order"], first[1]["order"]);
    let mut sorted: Vec<String> = serde_json::from_value(first[0]["order"].clone()).expect("order");
    sorted.sort();
    let mut tools: Vec<String> =
        serde_json::from_value(card["suite"]["tools"].clone()).expect("tools");
    tools.sort();
    assert_eq!(sorted, tools);
    assert_eq!(card["reproducibility"]["permutation"], "mf-perm-v1");
    assert_eq!(card["reproducibility"]["tokenizer"], "o200k_base");

    // Same command, same scorecard (timing aside).
    let again = mf()
        .args(["eval", SURFACE, "--suite", SUITE, "--models", "lexical"])
        .args(["--format", "json", "--no-cache"])
        .output()
        .expect("run");
    assert_eq!(without_timing(card), without_timing(stdout_json(&again)));
}

#[test]
fn terminal_summary_shows_rates_with_intervals() {
    let out = mf()
        .args([
            "eval",
            SURFACE,
            "--suite",
            SUITE,
            "--models",
            "lexical,mock",
            "--no-cache",
        ])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("selection accuracy"), "{text}");
    assert!(text.contains("/80 = "), "{text}");
    assert!(text.contains("mock"), "{text}");
    assert!(text.contains("status: pass"), "{text}");
}

#[test]
fn dry_run_prints_the_plan_and_sends_nothing() {
    let out = mf()
        .args([
            "eval",
            SURFACE,
            "--suite",
            SUITE,
            "--models",
            "mock",
            "--dry-run",
        ])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("17 cases × 5 repeats × 1 model = 85 trials"),
        "{text}"
    );
    assert!(
        text.contains("prompt tokens (lower bound, o200k_base)"),
        "{text}"
    );
    assert!(text.contains("nothing was sent"), "{text}");
}

#[test]
fn dry_run_of_a_paid_model_shows_cost_wall_time_and_the_budget_refusal() {
    let dir = tempfile::tempdir().expect("tmp");
    let config = dir.path().join("mf.toml");
    std::fs::write(
        &config,
        "[models.cheap]\nprovider = \"openai-compatible\"\nmodel = \"m\"\n\
         base_url = \"http://127.0.0.1:9/v1\"\nprice = { input = 1.0, output = 2.0, currency = \"EUR\" }\n",
    )
    .expect("config");
    let out = mf()
        .args([
            "eval",
            SURFACE,
            "--suite",
            SUITE,
            "--models",
            "cheap",
            "--dry-run",
        ])
        .arg("--config")
        .arg(&config)
        .args(["--seconds-per-trial", "2", "--concurrency", "4"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "budget refused: {text}");
    assert!(text.contains("EUR"), "{text}");
    assert!(
        text.contains("wall time: about 44 s"),
        "85 trials / 4 = 22 waves × 2 s: {text}"
    );
    assert!(
        text.contains("REFUSED") && text.contains("--max-trials 50"),
        "{text}"
    );
}

#[test]
fn budgets_are_checked_before_any_key_or_call() {
    // A paid model with no key in the environment: every refusal below happens before mf
    // would read one.
    let paid = |extra: &[&str]| {
        let out = mf()
            .args([
                "eval",
                SURFACE,
                "--suite",
                SUITE,
                "--models",
                "openai:gpt-4.1-mini",
            ])
            .args(extra)
            .output()
            .expect("run");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // Every refusal at once, each with its flag and its Action input: trials and the key.
    let (code, err) = paid(&[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("--max-trials 50") && err.contains("`max-trials`"),
        "{err}"
    );
    assert!(err.contains("OPENAI_API_KEY"), "names the variable: {err}");
    assert!(err.contains("(2 reasons)"), "{err}");
    let one_case = ["--cases", "refund-damaged", "--repeat", "2"];
    let (code, err) = paid(
        &[
            &one_case[..],
            &["--max-tools", "6", "--max-input-tokens", "100"],
        ]
        .concat(),
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("16 tools") && err.contains("--max-tools 6") && err.contains("`max-tools`"),
        "{err}"
    );
    assert!(err.contains("--max-input-tokens 100"), "{err}");
    // The default tool cap no longer refuses a 16-tool surface.
    let (code, err) = paid(&one_case);
    assert_eq!(code, Some(1), "{err}");
    assert!(!err.contains("--max-tools"), "{err}");
    assert!(err.contains("OPENAI_API_KEY"), "{err}");
    // With a key, the context budget alone is a gate (exit 2), still before any request.
    let out = mf()
        .args([
            "eval",
            SURFACE,
            "--suite",
            SUITE,
            "--models",
            "openai:gpt-4.1-mini",
        ])
        .args(one_case)
        .args(["--max-context-tokens", "100"])
        .env("OPENAI_API_KEY", "sk-test-not-a-key")
        .env("OPENAI_BASE_URL", "http://127.0.0.1:9")
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "context budget is a gate: {err}"
    );
    assert!(err.contains("--max-context-tokens 100"), "{err}");
    let over_cap = mf()
        .args(["eval", SURFACE, "--suite", SUITE, "--models", "lexical"])
        .args(["--max-trials", "1001"])
        .output()
        .expect("run");
    assert_eq!(over_cap.status.code(), Some(1));
}

fn write_scripted(dir: &Path, script: &Value, suite: &Value) -> (PathBuf, PathBuf, PathBuf) {
    let tools = chat_server::write_tools(dir);
    let s = dir.join("script.json");
    std::fs::write(&s, script.to_string()).expect("script");
    let suite_path = dir.join("suite.json");
    std::fs::write(&suite_path, suite.to_string()).expect("suite");
    (tools, s, suite_path)
}

fn scripted_run(dir: &Path, script: &Value, suite: &Value, extra: &[&str]) -> Output {
    let (tools, s, suite_path) = write_scripted(dir, script, suite);
    mf().arg("eval")
        .arg(&tools)
        .arg("--suite")
        .arg(&suite_path)
        .arg("--models")
        .arg(format!("scripted:{}", s.display()))
        .args(["--format", "json", "--no-cache"])
        .args(extra)
        .output()
        .expect("run")
}

fn small_suite() -> Value {
    json!({"name": "gates", "cases": [
        {"id": "a", "input": "refund order 1", "expectedTool": "issue_refund", "expectedArgs": {"q": {"$contains": "order"}}},
        {"id": "b", "input": "find ticket", "expectedTool": "search_tickets"},
        {"id": "n", "input": "thanks", "expectedTool": null}
    ]})
}

#[test]
fn gates_fail_with_exit_2_and_unmeasured_gates_fail() {
    let dir = tempfile::tempdir().expect("tmp");
    // a: right tool, right args; b: wrong tool on trials 0,2,4…; n: calls a tool once in two.
    let script = json!({
        "refund order 1": {"calls": [{"name": "issue_refund", "arguments": {"q": "order 1"}}]},
        "find ticket": ["get_ticket", "search_tickets"],
        "thanks": [null, "get_invoice"]
    });
    let out = scripted_run(dir.path(), &script, &small_suite(), &["--repeat", "4"]);
    assert_success(&out);
    let card = stdout_json(&out);
    let m = &card["models"][0]["metrics"];
    assert_eq!(m["selectionAccuracy"]["numerator"], 4 + 2 + 2);
    assert_eq!(m["selectionAccuracy"]["denominator"], 12);
    assert_eq!(m["overTrigger"]["numerator"], 2);
    assert_eq!(
        m["argumentAccuracy"]["numerator"], 4,
        "issue_refund args pass; get_ticket/search_tickets args {{}} lack q"
    );
    let pairs = m["confusionPairs"].as_array().expect("pairs");
    assert!(
        pairs.iter().any(|p| p["expected"] == "search_tickets"
            && p["picked"] == "get_ticket"
            && p["count"] == 2),
        "{pairs:?}"
    );

    let out = scripted_run(
        dir.path(),
        &script,
        &small_suite(),
        &["--repeat", "4", "--min-accuracy", "0.9"],
    );
    assert_eq!(out.status.code(), Some(2));
    let card = stdout_json(&out);
    assert_eq!(card["status"], "fail");
    let gate = card["gates"]
        .as_array()
        .expect("gates")
        .iter()
        .find(|g| g["name"] == "min-accuracy")
        .cloned()
        .expect("gate");
    assert_eq!(gate["passed"], false);

    let out = scripted_run(
        dir.path(),
        &script,
        &small_suite(),
        &["--repeat", "4", "--max-over-trigger", "0.6"],
    );
    assert_eq!(out.status.code(), Some(0), "0.5 ≤ 0.6");

    // No must-not-call case selected: over-trigger is unmeasured, and an unmeasured gate fails.
    let out = scripted_run(
        dir.path(),
        &script,
        &small_suite(),
        &[
            "--repeat",
            "2",
            "--cases",
            "a,b",
            "--max-over-trigger",
            "0.5",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_unhealthy_run_exits_5_and_errors_are_not_wrong_answers() {
    let dir = tempfile::tempdir().expect("tmp");
    let script = json!({
        "refund order 1": [{"error": "timeout"}, "issue_refund"],
        "find ticket": {"error": "refusal"},
        "thanks": {"error": "truncated"}
    });
    let out = scripted_run(dir.path(), &script, &small_suite(), &["--repeat", "2"]);
    assert_eq!(
        out.status.code(),
        Some(5),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let card = stdout_json(&out);
    assert_eq!(card["status"], "unhealthy");
    let model = &card["models"][0];
    assert_eq!(model["metrics"]["errors"], 5);
    assert_eq!(model["metrics"]["scored"], 1);
    assert_eq!(model["metrics"]["selectionAccuracy"]["numerator"], 1);
    assert_eq!(model["health"]["errorsByKind"]["refusal"], 2);
    assert_eq!(model["health"]["healthy"], false);
    // Loosen the gate: healthy again.
    let out = scripted_run(
        dir.path(),
        &script,
        &small_suite(),
        &["--repeat", "2", "--max-error-rate", "0.9"],
    );
    assert_eq!(out.status.code(), Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_openai_compatible_server_is_scored_and_the_key_never_shows() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let dir = tempfile::tempdir().expect("tmp");
    let suite = json!({"name": "local", "cases": [
        {"id": "a", "input": "x [call issue_refund]", "expectedTool": "issue_refund"},
        {"id": "b", "input": "x [call made_up_tool]", "expectedTool": "get_ticket"},
        {"id": "c", "input": "x [refuse]", "expectedTool": "get_ticket"},
        {"id": "n", "input": "x [none]", "expectedTool": null}
    ]});
    let (tools, _, suite_path) = write_scripted(dir.path(), &json!({}), &suite);
    let secret = "sk-local-PLANTED-91";
    let run = || {
        mf_in(dir.path())
            .arg("eval")
            .arg(&tools)
            .arg("--suite")
            .arg(&suite_path)
            .args(["--models", "vllm:served-model"])
            .args(["--base-url", &format!("{}/v1", server.uri())])
            .args(["--repeat", "3", "--max-tools", "5", "--format", "json"])
            .args(["--max-error-rate", "0.5"])
            .arg("--cache-dir")
            .arg(dir.path().join("cache"))
            .env("MF_PROVIDER_API_KEY", secret)
            .output()
            .expect("run")
    };
    let out = run();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stdout.contains(secret) && !stderr.contains(secret));
    let card: Value = serde_json::from_str(&stdout).expect("json");
    let m = &card["models"][0];
    assert_eq!(m["provider"], "vllm");
    assert_eq!(m["wire"], "openai-chat");
    let v = &m["metrics"]["verdicts"];
    assert_eq!(v["correct"], 3);
    assert_eq!(v["phantom"], 3);
    assert_eq!(v["error"], 3, "refusals are errors, not wrong answers");
    assert_eq!(v["correct-abstention"], 3);
    assert_eq!(
        m["metrics"]["tokens"]["input"], 9000,
        "9 answered trials × 1000"
    );
    assert_eq!(m["health"]["requests"], 12);
    assert!(m["metrics"]["latencyMs"]["p50"].as_u64().is_some());
    assert_eq!(
        server.received_requests().await.expect("recorded").len(),
        12
    );
    // Again: everything answered comes from the cache; only the refusals… are cached too
    // (a refusal is the model's answer), so nothing is sent.
    let again = run();
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(
        server.received_requests().await.expect("recorded").len(),
        12
    );
    let card2: Value = serde_json::from_slice(&again.stdout).expect("json");
    assert_eq!(card2["models"][0]["metrics"]["cached"], 12);
}

#[test]
fn cache_info_and_clear() {
    let dir = tempfile::tempdir().expect("tmp");
    let out = mf()
        .args(["cache", "info", "--cache-dir"])
        .arg(dir.path())
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(text.contains("trials: 0"), "{text}");
    let out = mf()
        .args(["cache", "clear", "--cache-dir"])
        .arg(dir.path())
        .output()
        .expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).contains("removed 0"));
}

#[test]
fn yaml_suites_with_inline_tools_and_task_sets_with_a_surface_run() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("suite.yaml"),
        "name: inline\ntools:\n  - name: get_weather\n    description: Current weather for a city.\n    parameters: {type: object, properties: {city: {type: string}}, required: [city]}\n  - name: get_time\n    description: Current time in a city.\ncases:\n  - id: w\n    input: weather in Paris\n    expectedTool: get_weather\n",
    )
    .expect("suite");
    chat_server::write_tools(dir.path());
    std::fs::write(
        dir.path().join("tasks.yaml"),
        "version: 1\nsurface: tools.json\ntasks:\n  - id: r\n    prompt: refund the paid order\n    expected: issue_refund\n  - id: n\n    prompt: hello\n    expected: null\n",
    )
    .expect("tasks");
    for (file, tools, cases) in [("suite.yaml", 2, 1), ("tasks.yaml", 5, 2)] {
        let out = mf()
            .args([
                "eval",
                "--models",
                "lexical",
                "--repeat",
                "1",
                "--no-cache",
                "--format",
                "json",
                "--suite",
            ])
            .arg(dir.path().join(file))
            .output()
            .expect("run");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let card = stdout_json(&out);
        assert_eq!(
            card["suite"]["tools"].as_array().map(Vec::len),
            Some(tools),
            "{file}"
        );
        assert_eq!(
            card["suite"]["cases"].as_array().map(Vec::len),
            Some(cases),
            "{file}"
        );
        assert_eq!(
            card["models"][0]["metrics"]["selectionAccuracy"]["value"], 1.0,
            "{file}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_drops_the_tools_makes_the_run_unhealthy_and_tool_choice_auto_is_sent_on_request()
 {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let dir = tempfile::tempdir().expect("tmp");
    let suite = json!({"name": "dropped", "cases": [
        {"id": "a", "input": "x [tiny-usage] [none]", "expectedTool": "issue_refund"},
        {"id": "n", "input": "y [tiny-usage] [none]", "expectedTool": null}
    ]});
    let (tools, _, suite_path) = write_scripted(dir.path(), &json!({}), &suite);
    let run = |extra: &[&str]| {
        mf_in(dir.path())
            .arg("eval")
            .arg(&tools)
            .arg("--suite")
            .arg(&suite_path)
            .args([
                "--models",
                "openai-compatible:m",
                "--base-url",
                &format!("{}/v1", server.uri()),
            ])
            .args([
                "--repeat",
                "2",
                "--max-tools",
                "5",
                "--format",
                "json",
                "--no-cache",
            ])
            .args(extra)
            .output()
            .expect("run")
    };
    let out = run(&[]);
    assert_eq!(
        out.status.code(),
        Some(5),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let card = stdout_json(&out);
    assert_eq!(card["status"], "unhealthy");
    let problems = card["models"][0]["health"]["problems"].to_string();
    assert!(
        problems.contains("did not show the tools") && problems.contains("--tool-choice-auto"),
        "{problems}"
    );
    let requests = server.received_requests().await.expect("recorded");
    assert!(
        requests.iter().all(|r| {
            let body: Value = serde_json::from_slice(&r.body).expect("json");
            body.get("tool_choice").is_none()
        }),
        "no tool_choice unless asked"
    );
    let _ = run(&["--tool-choice-auto"]);
    let requests = server.received_requests().await.expect("recorded");
    let last: Value = serde_json::from_slice(&requests.last().expect("sent").body).expect("json");
    assert_eq!(last["tool_choice"], "auto");
}

/// A typo in `expectedTool` (or in an `expectedArgs` key) is caught before any request, with
/// the file:line and the closest names, for paid and offline models alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_suite_naming_a_tool_the_surface_lacks_is_refused_before_any_request() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let dir = tempfile::tempdir().expect("tmp");
    let tools = chat_server::write_tools(dir.path());
    let suite_path = dir.path().join("suite.json");
    std::fs::write(
        &suite_path,
        "{\n  \"name\": \"typos\",\n  \"cases\": [\n    {\"id\": \"a\", \"input\": \"x [call lookup_order]\", \"expectedTool\": \"lookup_order\"},\n    {\"id\": \"b\", \"input\": \"where is order 7 [call lookup_order]\", \"expectedTool\": \"lookup_ordr\"}\n  ]\n}\n",
    )
    .expect("suite");
    let run = |models: &str| {
        mf_in(dir.path())
            .arg("eval")
            .arg(&tools)
            .arg("--suite")
            .arg(&suite_path)
            .args(["--models", models])
            .args(["--base-url", &format!("{}/v1", server.uri())])
            .args(["--max-tools", "10", "--no-cache"])
            .env("MF_PROVIDER_API_KEY", "sk-local")
            .output()
            .expect("run")
    };
    for models in ["vllm:served-model", "lexical"] {
        let out = run(models);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{models}: {stderr}");
        assert!(stderr.contains("suite.json:5"), "file:line: {stderr}");
        assert!(stderr.contains("\"lookup_ordr\""), "{stderr}");
        assert!(
            stderr.contains("did you mean \"lookup_order\""),
            "the closest name: {stderr}"
        );
    }
    assert_eq!(
        server.received_requests().await.expect("recorded").len(),
        0,
        "no request was sent"
    );

    // An expectedArgs key the expected tool does not declare.
    std::fs::write(
        &suite_path,
        "{\"name\": \"typos\", \"cases\": [\n{\"id\": \"a\", \"input\": \"x\", \"expectedTool\": \"lookup_order\", \"expectedArgs\": {\"qq\": \"7\"}}\n]}\n",
    )
    .expect("suite");
    let out = run("lexical");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("suite.json:2") && stderr.contains("expectedArgs key \"qq\""),
        "{stderr}"
    );
}
