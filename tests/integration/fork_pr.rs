//! Regression tests for the hardening issue, fork-pull-request items: what a pull request's
//! author controls (every byte of the tree) must not reach a key, the runner's workflow-command
//! parser, past the scan, or outlive the run. Each test is named after the defect it pins.

use std::time::Duration;

use serde_json::json;

use crate::support::{chat_server, mf_in, show};

const PLANTED: &str = "sk-PLANTED-fork-pr-key";

/// A folder with tools.json and a suite whose `models` is `models`.
fn repo_with_suite_models(models: serde_json::Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    chat_server::write_tools(dir.path());
    let suite = json!({"name": "s", "cases": [
        {"id": "a", "input": "x [call issue_refund]", "expectedTool": "issue_refund"}
    ], "models": models});
    std::fs::write(dir.path().join("mf.suite.json"), suite.to_string()).expect("suite");
    dir
}

fn eval_in(dir: &std::path::Path, models: &str) -> assert_cmd::Command {
    let mut cmd = mf_in(dir);
    cmd.args([
        "eval",
        "tools.json",
        "--suite",
        "mf.suite.json",
        "--models",
        models,
    ])
    .args([
        "--repeat",
        "1",
        "--no-cache",
        "--no-progress",
        "--format",
        "json",
    ]);
    cmd
}

async fn requests(server: &wiremock::MockServer) -> usize {
    server.received_requests().await.map_or(0, |r| r.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defect7_a_suite_cannot_redefine_openai_gpt_4_1_mini() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let base = format!("{}/v1", server.uri());
    let dir = repo_with_suite_models(json!({"openai:gpt-4.1-mini": {
        "provider": "openai-chat", "model": "gpt-4.1-mini", "base_url": base
    }}));
    let out = eval_in(dir.path(), "openai:gpt-4.1-mini")
        .env("OPENAI_API_KEY", PLANTED)
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        err.contains("mf.suite.json") && err.contains("named like a built-in"),
        "names the file and the reason: {err}"
    );
    // `mf ci` runs the suite's models by default: the same refusal.
    let ci = mf_in(dir.path())
        .args(["ci", ".", "--comment", "off", "--summary", "off"])
        .env("OPENAI_API_KEY", PLANTED)
        .output()
        .expect("ci");
    assert_eq!(ci.status.code(), Some(1), "{}", show(&ci));
    assert!(String::from_utf8_lossy(&ci.stderr).contains("named like a built-in"));
    assert_eq!(
        requests(&server).await,
        0,
        "the suite's server got a request"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defect7_mf_toml_cannot_redefine_openai_gpt_4_1_mini() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let dir = repo_with_suite_models(json!({}));
    std::fs::write(
        dir.path().join("mf.toml"),
        format!(
            "[models.\"openai:gpt-4.1-mini\"]\nprovider = \"openai-chat\"\nmodel = \"m\"\n\
             base_url = \"{}/v1\"\n",
            server.uri()
        ),
    )
    .expect("toml");
    let out = eval_in(dir.path(), "openai:gpt-4.1-mini")
        .env("OPENAI_API_KEY", PLANTED)
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        err.contains("mf.toml") && err.contains("named like a built-in"),
        "{err}"
    );
    assert_eq!(requests(&server).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defect7_a_suite_model_with_its_own_base_url_gets_no_builtin_key_unless_allowed() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let base = format!("{}/v1", server.uri());
    let dir = repo_with_suite_models(json!({"fast": {
        "provider": "openai-chat", "model": "m", "base_url": base
    }}));
    let out = eval_in(dir.path(), "fast")
        .env("OPENAI_API_KEY", PLANTED)
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        err.contains("OPENAI_API_KEY") && err.contains("--allow-key-env OPENAI_API_KEY"),
        "{err}"
    );
    assert!(!err.contains(PLANTED));
    assert_eq!(requests(&server).await, 0);
    // The command line may allow it.
    let out = eval_in(dir.path(), "fast")
        .args(["--allow-key-env", "OPENAI_API_KEY"])
        .env("OPENAI_API_KEY", PLANTED)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(requests(&server).await > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defect7_api_key_env_github_token_is_refused_unless_allowed_on_the_command_line() {
    let server = chat_server::start(Duration::from_millis(1), true).await;
    let base = format!("{}/v1", server.uri());
    let dir = repo_with_suite_models(json!({"internal": {
        "provider": "openai-compatible", "model": "m", "base_url": base,
        "api_key_env": "GITHUB_TOKEN"
    }}));
    let out = eval_in(dir.path(), "internal")
        .env("GITHUB_TOKEN", "ghs_PLANTED")
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        err.contains("GITHUB_TOKEN") && err.contains("--allow-key-env GITHUB_TOKEN"),
        "{err}"
    );
    assert_eq!(requests(&server).await, 0);
    let ci = mf_in(dir.path())
        .args(["ci", ".", "--comment", "off", "--summary", "off"])
        .env("GITHUB_TOKEN", "ghs_PLANTED")
        .output()
        .expect("ci");
    assert_eq!(ci.status.code(), Some(1), "{}", show(&ci));
    assert_eq!(requests(&server).await, 0);
    let out = eval_in(dir.path(), "internal")
        .args(["--allow-key-env", "GITHUB_TOKEN"])
        .env("GITHUB_TOKEN", "ghs_PLANTED")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(requests(&server).await > 0);
}

// ---------------------------------------------------------------------------------------------
// Defect 5: workflow-command injection on stdout and stderr

const INJECTIONS: [&str; 4] = [
    "\n::error title=X::y",
    "\n::add-mask::secret",
    "\n  ::stop-commands::tok",
    "\r##[add-mask]legacy",
];

/// A repository whose tool names, descriptions and file names carry workflow commands.
fn repo_with_injections() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    let tools: Vec<serde_json::Value> = INJECTIONS
        .iter()
        .enumerate()
        .map(|(i, inj)| {
            json!({"name": format!("tool{i}{inj}"),
                   "description": format!("Does a thing.{inj}\n::error title=D::desc"),
                   "inputSchema": {"type": "object", "properties": {
                       format!("p{inj}"): {"type": "string"}}}})
        })
        .collect();
    std::fs::write(
        dir.path().join("tools.json"),
        json!({ "tools": tools }).to_string(),
    )
    .expect("tools");
    // A folder whose name injects, holding a file the scan warns about.
    let evil = dir.path().join("x\n::error title=F::file\n::add-mask::m");
    std::fs::create_dir_all(&evil).expect("dir");
    std::fs::write(evil.join("tools.json"), "{ not json").expect("bad file");
    std::fs::write(evil.join(".mcp.json"), "{ \"mcpServers\": 3 }").expect("bad config");
    dir
}

/// Lines the runner would execute: first non-blank characters `::`, or `##[` anywhere.
fn workflow_commands(text: &str) -> Vec<String> {
    text.split(['\n', '\r'])
        .filter(|l| l.trim_start().starts_with("::") || l.contains("##["))
        .map(str::to_owned)
        .collect()
}

/// mf's own annotations: `::error file=…,title=…::data` with the data escaped.
fn is_mf_annotation(line: &str) -> bool {
    let Some(rest) = ["::error ", "::warning ", "::notice "]
        .iter()
        .find_map(|p| line.strip_prefix(p))
    else {
        return false;
    };
    let Some((props, _data)) = rest.split_once("::") else {
        return false;
    };
    props.split(',').all(|p| {
        p.split_once('=')
            .is_some_and(|(k, _)| matches!(k, "file" | "line" | "title"))
    }) && props.contains("title=")
}

fn assert_no_injected_commands(what: &str, out: &std::process::Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        for line in workflow_commands(&text) {
            assert!(
                is_mf_annotation(&line),
                "{what} {stream}: injected workflow command {line:?}\n{text}"
            );
        }
    }
}

#[test]
fn defect5_no_untrusted_string_starts_a_workflow_command_on_stdout_or_stderr() {
    let dir = repo_with_injections();
    let run = |args: &[&str]| {
        let mut cmd = mf_in(dir.path());
        for k in crate::support::machine_ci_vars() {
            cmd.env_remove(k);
        }
        cmd.args(args)
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", dir.path().join("summary.md"))
            .env("GITHUB_OUTPUT", dir.path().join("out.txt"))
            .env("RUNNER_TEMP", dir.path())
            .output()
            .expect("run")
    };
    for args in [
        &["scan", ".", "--no-write"][..],
        &["scan", ".", "--no-write", "--json"][..],
        &["lint", "."][..],
        &["lint", ".", "--format", "json"][..],
        &["cluster", "."][..],
        &["ci", ".", "--comment", "off"][..],
        &["lint", "x\n::error title=ARG::missing-path"][..],
    ] {
        let out = run(args);
        assert!(out.status.code().is_some(), "{args:?} ran: {}", show(&out));
        assert_no_injected_commands(&format!("{args:?}"), &out);
    }
    // mf ci did annotate in Actions (its own, escaped commands still reach the runner).
    let ci = run(&["ci", ".", "--comment", "off"]);
    let stdout = String::from_utf8_lossy(&ci.stdout);
    assert!(
        workflow_commands(&stdout)
            .iter()
            .any(|l| is_mf_annotation(l)),
        "{}",
        show(&ci)
    );
}

// ---------------------------------------------------------------------------------------------
// Defect 6: tracked files hidden by `.ignore` / `.gitignore`

#[test]
fn defect6_tracked_files_listed_in_ignore_files_are_still_linted() {
    use crate::support::git::git;
    let dir = tempfile::tempdir().expect("tmp");
    let root = dir.path();
    git(root, &["init", "-q"]);
    chat_server::write_tools(root);
    std::fs::create_dir_all(root.join("node_modules/pkg")).expect("dir");
    std::fs::write(
        root.join("node_modules/pkg/tools.json"),
        json!({"tools": [{"name": "vendored_tool", "description": "Committed dependency tool.",
                          "inputSchema": {"type": "object"}}]})
        .to_string(),
    )
    .expect("vendored");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "tools"]);
    // The pull request hides them.
    std::fs::write(root.join(".ignore"), "tools.json\n").expect("ignore");
    std::fs::write(
        root.join(".gitignore"),
        "tools.json\nnode_modules/\nlocal/\n",
    )
    .expect("gi");
    // An untracked, ignored file stays skipped.
    std::fs::create_dir_all(root.join("local")).expect("dir");
    std::fs::write(
        root.join("local/tools.json"),
        json!({"tools": [{"name": "untracked_tool", "description": "Not in the repository.",
                          "inputSchema": {"type": "object"}}]})
        .to_string(),
    )
    .expect("untracked");
    let out = mf_in(root)
        .args(["lint", ".", "--format", "json"])
        .output()
        .expect("lint");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let text = report.to_string();
    assert_eq!(
        report["summary"]["tools"].as_u64(),
        Some(6),
        "five tracked tools + the committed vendored one: {}",
        show(&out)
    );
    assert!(!text.contains("untracked_tool"), "{text}");
    let scan = mf_in(root)
        .args(["scan", ".", "--no-write", "--json"])
        .output()
        .expect("scan");
    let scan_text = String::from_utf8_lossy(&scan.stdout);
    assert!(scan_text.contains("issue_refund") && scan_text.contains("vendored_tool"));
    assert!(!scan_text.contains("untracked_tool"));
}

// ---------------------------------------------------------------------------------------------
// Defect 13: a `setsid` grandchild of a `--stdio` server outlives mf

/// Whether a pid is a live (not zombie) process.
#[cfg(target_os = "linux")]
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(") ")
            .and_then(|(_, rest)| rest.chars().next())
            .is_some_and(|s| s != 'Z' && s != 'X')
    })
}

#[cfg(target_os = "linux")]
#[test]
fn defect13_a_setsid_grandchild_of_a_stdio_server_does_not_survive_mf() {
    let dir = tempfile::tempdir().expect("tmp");
    for (mode, tail) in [("hang", "exec sleep 300"), ("exit", "exit 0")] {
        let pids = dir.path().join(format!("pids-{mode}"));
        // The server starts a grandchild in a session of its own, then hangs (or exits).
        let script = format!(
            "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo $! > '{}'; \
             sleep 0.2; {tail}",
            pids.display()
        );
        let out = mf_in(dir.path())
            .args(["lint", "--stdio"])
            .arg(format!("sh -c \"{script}\""))
            .args(["--timeout-init", "2"])
            .output()
            .expect("run");
        assert_ne!(out.status.code(), Some(0), "{mode}: {}", show(&out));
        let pid: u32 = std::fs::read_to_string(&pids)
            .expect("the server wrote the grandchild's pid")
            .trim()
            .parse()
            .expect("pid");
        let deadline = std::time::Instant::now() + Duration::from_secs(2);
        while alive(pid) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        if alive(pid) {
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
            panic!("{mode}: the setsid grandchild {pid} survived mf");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Defect 14: `mf coverage` was quadratic in the number of cases

#[test]
fn defect14_coverage_is_linear_in_cases_pretty_and_minified() {
    let dir = tempfile::tempdir().expect("tmp");
    let n = 50_000;
    let tools: Vec<serde_json::Value> = (0..200)
        .map(|i| {
            json!({"name": format!("tool_{i}"), "description": format!("Does thing {i}."),
                        "parameters": {"type": "object"}})
        })
        .collect();
    let cases: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            json!({"id": format!("c{i}"), "input": format!("do {i}"),
                        "expectedTool": format!("tool_{}", i % 200)})
        })
        .collect();
    let suite = json!({"name": "big", "tools": tools, "cases": cases});
    for (name, text) in [
        (
            "pretty.json",
            serde_json::to_string_pretty(&suite).expect("json"),
        ),
        ("minified.json", suite.to_string()),
    ] {
        std::fs::write(dir.path().join(name), text).expect("write");
        let start = std::time::Instant::now();
        let out = mf_in(dir.path())
            .args(["coverage", "--suite", name, "--format", "json"])
            .output()
            .expect("run");
        let took = start.elapsed();
        assert_eq!(out.status.code(), Some(0), "{name}: {}", show(&out));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(report["summary"]["cases"], n);
        // Quadratic, 5 000 cases took over a minute in a debug build; linear, 50 000 take ~1 s.
        assert!(took < Duration::from_secs(30), "{name}: {took:?}");
    }
}

// Defect 14: a huge description made `mf lint` allocate a String per character trigram.
#[test]
fn defect14_lint_of_a_huge_description_is_bounded() {
    let dir = tempfile::tempdir().expect("tmp");
    let words = [
        "alpha",
        "search",
        "ticket",
        "refund",
        "Ignore",
        "previous",
        "<important>",
    ];
    let desc: Vec<&str> = (0..600_000)
        .map(|i| words[(i * 7 + i / 3) % words.len()])
        .collect();
    let tools = json!({"tools": [
        {"name": "big_tool", "description": desc.join(" "), "inputSchema": {"type": "object"}},
        {"name": "get_ticket", "description": "Fetch a ticket by id.", "inputSchema": {"type": "object"}}
    ]});
    std::fs::write(dir.path().join("tools.json"), tools.to_string()).expect("write");
    let start = std::time::Instant::now();
    let out = mf_in(dir.path())
        .args(["lint", "tools.json", "--format", "json"])
        .output()
        .expect("run");
    let took = start.elapsed();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["summary"]["tools"], 2, "{}", show(&out));
    // ~4 MiB: about 3 s in a debug build.
    assert!(took < Duration::from_secs(40), "{took:?}");
}
