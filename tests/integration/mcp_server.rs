//! `mf mcp` (issue 17) driven by a real MCP client: the official Python SDK (`mcp` on PyPI,
//! installed into target/mcp-sdk by scripts/install-mcp-sdk.sh) runs tests/mcp_client/client.py,
//! which lists the tools, scans, lists the suite, runs an offline eval, adds a case, is refused
//! what the operator did not allow, and cancels a slow paid eval mid-way. The script only
//! observes; this file asserts. Also: `mf lint --stdio "mf mcp"` finds nothing to warn about.
//!
//! Without the SDK the client test says so and passes, unless `MF_REQUIRE_MCP_SDK=1` (set by
//! `.ci/run`), when it fails.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{chat_server, mf, root, show};

fn mf_bin() -> String {
    assert_cmd::cargo::cargo_bin("mf")
        .to_string_lossy()
        .into_owned()
}

/// The SDK's python: `MF_MCP_PYTHON`, else the venv of scripts/install-mcp-sdk.sh.
#[allow(clippy::print_stderr)] // the visible skip line
fn sdk_python() -> Option<PathBuf> {
    let python = std::env::var_os("MF_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/mcp-sdk/venv/bin/python"));
    let works = Command::new(&python)
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .is_ok_and(|o| o.status.success());
    if works {
        return Some(python);
    }
    let msg = format!(
        "the MCP Python SDK is not installed at {} (run scripts/install-mcp-sdk.sh)",
        python.display()
    );
    if std::env::var("MF_REQUIRE_MCP_SDK").is_ok_and(|v| v == "1") {
        panic!("MF_REQUIRE_MCP_SDK=1: {msg}");
    }
    eprintln!("skipping: {msg}");
    None
}

/// `acme/`, a copy of the acme-support example, and `slow/mf.suite.json`: five inline tools,
/// twelve cases and a model served by `base` (an OpenAI-compatible server that answers slowly).
fn workdir(base: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let status = Command::new("cp")
        .arg("-r")
        .arg(root().join("examples/acme-support"))
        .arg(dir.path().join("acme"))
        .status()
        .expect("cp");
    assert!(status.success());
    let tools: Vec<Value> = chat_server::tools_json()["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| json!({"name": t["name"], "description": t["description"], "parameters": t["inputSchema"]}))
        .collect();
    let mut suite = chat_server::suite_json(12);
    suite["version"] = json!(1);
    suite["tools"] = json!(tools);
    suite["models"] = json!({"slow": {"provider": "openai-compatible", "model": "m", "base_url": format!("{base}/v1")}});
    std::fs::create_dir(dir.path().join("slow")).expect("mkdir");
    std::fs::write(dir.path().join("slow/mf.suite.json"), suite.to_string()).expect("suite");
    dir
}

fn get<'a>(v: &'a Value, key: &str) -> &'a Value {
    v.get(key).unwrap_or_else(|| panic!("no {key} in {v}"))
}

#[test]
fn a_real_mcp_client_scans_lists_evaluates_adds_is_refused_and_cancels() {
    let Some(python) = sdk_python() else { return };
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let server = runtime.block_on(chat_server::start(Duration::from_millis(400), false));
    let dir = workdir(&server.uri());
    let cache = tempfile::tempdir().expect("cache");
    let cli_scan = crate::support::mf_in(dir.path())
        .args(["scan", "acme", "--no-write", "--json"])
        .output()
        .expect("scan");
    let cli_scan: Value = serde_json::from_slice(&cli_scan.stdout).expect("scan json");
    let out = Command::new(&python)
        .arg(root().join("tests/mcp_client/client.py"))
        .args(["--mf", &mf_bin(), "--workdir"])
        .arg(dir.path())
        .arg("--cache-dir")
        .arg(cache.path())
        .env_remove("OPENAI_API_KEY")
        .output()
        .expect("python");
    assert!(out.status.success(), "{}", show(&out));
    let seen: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", show(&out)));

    // Every tool, each described, with its arguments.
    let tools = get(&seen, "tools").as_array().expect("tools");
    let names: Vec<&str> = tools
        .iter()
        .map(|t| t["name"].as_str().unwrap_or(""))
        .collect();
    for want in [
        "scan_tools",
        "list_suite",
        "coverage",
        "add_cases",
        "run_eval",
        "lint_surface",
        "cluster_surface",
        "check_install",
        "compare_runs",
    ] {
        assert!(names.contains(&want), "{want} not in {names:?}");
    }
    let run_eval = tools
        .iter()
        .find(|t| t["name"] == "run_eval")
        .expect("run_eval");
    for arg in [
        "suite",
        "models",
        "cases",
        "profile",
        "repeat",
        "failUnder",
        "maxTrials",
        "resultFile",
    ] {
        assert!(
            run_eval["properties"]
                .as_array()
                .expect("props")
                .iter()
                .any(|p| p == arg),
            "{arg}: {run_eval}"
        );
    }

    // The scan found what `mf scan` finds; the suite lists its cases.
    let scan = get(&seen, "scan");
    assert_eq!(scan["isError"], false, "{}", scan["summary"]);
    assert_eq!(
        scan["data"]["report"]["fingerprint"],
        cli_scan["report"]["fingerprint"]
    );
    assert_eq!(
        scan["data"]["report"]["summary"],
        cli_scan["report"]["summary"]
    );
    assert!(scan["data"]["report"]["summary"]["tools"].as_u64() >= Some(16));
    let list = get(&seen, "list");
    assert_eq!(list["isError"], false, "{list}");
    let cases_before = list["data"]["cases"].as_array().expect("cases").len();
    assert!(cases_before > 5, "{list}");

    // The offline eval ran, reported progress, and saved the full scorecard.
    let eval = get(&seen, "eval");
    assert_eq!(eval["isError"], false, "{eval}");
    assert_eq!(eval["data"]["models"][0]["label"], "lexical", "{eval}");
    assert!(
        eval["data"]["models"][0]["trials"]
            .as_u64()
            .expect("trials")
            > 0
    );
    assert!(
        eval["summary"]
            .as_str()
            .expect("summary")
            .contains("selection accuracy"),
        "{eval}"
    );
    assert!(
        !get(&seen, "evalProgress")
            .as_array()
            .expect("progress")
            .is_empty(),
        "{seen}"
    );
    let card: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("runs/head.json")).expect("resultFile"),
    )
    .expect("json");
    assert_eq!(card["kind"], "scorecard");
    assert_eq!(
        get(&seen, "compare")["isError"],
        false,
        "{}",
        seen["compare"]
    );

    // The added case landed unreviewed, from an agent, and the file kept what it had.
    let add = get(&seen, "add");
    assert_eq!(add["isError"], false, "{add}");
    let added = &add["data"]["cases"][0];
    assert_eq!(added["reviewed"], false);
    assert_eq!(added["source"], "agent");
    let after = get(&seen, "listAfterAdd")["data"]["cases"]
        .as_array()
        .expect("cases")
        .clone();
    assert_eq!(after.len(), cases_before + 1);
    let last = after.last().expect("last");
    assert_eq!(
        (last["input"].as_str(), last["reviewed"].as_bool()),
        (Some("Can you check where order A-2002 is?"), Some(false))
    );
    let text = std::fs::read_to_string(dir.path().join("acme/mf.suite.yaml")).expect("suite");
    let original =
        std::fs::read_to_string(root().join("examples/acme-support/mf.suite.yaml")).expect("orig");
    assert!(
        text.starts_with(&original),
        "the rest of the suite is kept byte for byte"
    );
    let unknown = get(&seen, "addUnknownTool");
    assert_eq!(unknown["isError"], true);
    assert!(
        unknown["summary"]
            .as_str()
            .expect("msg")
            .contains("\"lookup_ordr\" is not a tool"),
        "{unknown}"
    );

    // Refusals are tool errors with a message the agent can act on.
    let paid = get(&seen, "refusePaid");
    assert_eq!(paid["isError"], true, "{paid}");
    assert!(
        paid["summary"]
            .as_str()
            .expect("msg")
            .contains("--allow-paid-runs"),
        "{paid}"
    );
    // Planning a paid run sends nothing, so it is allowed; the plan says what it would cost.
    let plan = get(&seen, "paidDryRun");
    assert_eq!(plan["isError"], false, "{plan}");
    assert_eq!(plan["data"]["kind"], "eval-dry-run", "{plan}");
    assert!(plan["data"]["paidTrials"].as_u64() > Some(0), "{plan}");
    let etc = get(&seen, "refuseRoot");
    assert_eq!(etc["isError"], true, "{etc}");
    assert!(
        etc["summary"]
            .as_str()
            .expect("msg")
            .contains("working directory"),
        "{etc}"
    );
    let cap = get(&seen, "refuseMaxTrials");
    assert_eq!(cap["isError"], true, "{cap}");
    assert!(
        cap["summary"]
            .as_str()
            .expect("msg")
            .contains("above the operator's cap of 20"),
        "{cap}"
    );
    let live = get(&seen, "refuseLive");
    assert_eq!(live["isError"], true, "{live}");
    assert!(
        live["summary"]
            .as_str()
            .expect("msg")
            .contains("--allow-live-targets"),
        "{live}"
    );
    assert_eq!(get(&seen, "lint")["isError"], false, "{}", seen["lint"]);
    let typo = get(&seen, "refuseUnknownArg");
    assert_eq!(typo["isError"], true, "{typo}");
    assert!(
        typo["summary"]
            .as_str()
            .expect("msg")
            .contains("did you mean \"suite\""),
        "{typo}"
    );
    assert_eq!(get(&seen, "aliveAfterRefusals"), 9);
    let coverage = get(&seen, "coverage");
    assert_eq!(
        (
            coverage["isError"].as_bool(),
            coverage["data"]["kind"].as_str()
        ),
        (Some(false), Some("coverage")),
        "{coverage}"
    );
    let cluster = get(&seen, "cluster");
    assert_eq!(cluster["isError"], false, "{cluster}");
    assert!(cluster["data"]["clusters"].is_array(), "{cluster}");
    // writeSuite wrote the scan report and a draft next to the hand-written YAML suite.
    let wrote = get(&seen, "scanWrite")["data"]["wrote"]
        .as_array()
        .expect("wrote")
        .clone();
    assert_eq!(
        wrote,
        vec![json!("acme/mf.scan.json"), json!("acme/mf.suite.json")]
    );
    let draft: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("acme/mf.suite.json")).expect("draft"),
    )
    .expect("json");
    assert_eq!(draft["draft"], true);

    // Cancelled mid-run: the server stays up, the finished trials are cached, and the same
    // run then serves them from the cache.
    let at = get(&seen, "cancelledAt").as_f64().expect("progress");
    assert!(
        (3.0..12.0).contains(&at),
        "cancelled after {at} of 12 trials: {seen}"
    );
    assert_eq!(get(&seen, "aliveAfterCancel"), 9);
    let info = mf()
        .args(["cache", "info", "--cache-dir"])
        .arg(cache.path())
        .output()
        .expect("cache info");
    let cached: u64 = String::from_utf8_lossy(&info.stdout)
        .lines()
        .find_map(|l| {
            l.strip_prefix("trials: ")
                .and_then(|n| n.trim().parse().ok())
        })
        .expect("trials line");
    let rerun = get(&seen, "rerun");
    assert_eq!(rerun["isError"], false, "{rerun}");
    let served = rerun["data"]["models"][0]["cached"]
        .as_u64()
        .expect("cached");
    assert!(
        (3..12).contains(&served),
        "the rerun served {served} of 12 trials from the cache: {rerun}"
    );
    assert_eq!(cached, 12, "after the rerun every trial is cached");
}

#[test]
fn mf_lint_finds_nothing_to_warn_about_in_mf_mcp() {
    let out = mf()
        .args(["lint", "--format", "json", "--stdio"])
        .arg(format!("{} mcp", mf_bin()))
        .output()
        .expect("lint");
    assert!(out.status.success(), "{}", show(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["summary"]["tools"], 9, "{report}");
    let loud: Vec<&Value> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["severity"] != "info")
        .collect();
    assert!(loud.is_empty(), "{loud:#?}");
}
