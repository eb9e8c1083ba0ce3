//! `mf exec` and `mf sandbox check` on a real repository of Node and Python tool
//! implementations (`tests/fixtures/exec/notes-repo`, copied per test): read tools print their
//! results, the write tool is refused (exit 3, nothing written), a hung tool is killed at the
//! timeout with every process it started (exit 4, none left), a read outside the allowed folders
//! fails (tests/integration/exec_isolation.rs has the isolation and limits), and the sandbox
//! check parses.
//!
//! `MF_REQUIRE_BWRAP=1` (set by `.ci/run`, which installs bubblewrap) makes a machine without a
//! working bubblewrap fail the Python isolation tests instead of testing a weaker engine.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{fixture, mf_in, show, stdout_json};

/// A fresh copy of the fixture repository.
pub fn notes_repo() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    let root = dir.path().join("notes-repo");
    copy_dir(&fixture("exec/notes-repo"), &root);
    (dir, root)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("ls") {
        let e = e.expect("entry");
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

pub(crate) const SUITES: [(&str, &str); 2] =
    [("node", "mf.suite.json"), ("python", "python.suite.json")];

pub(crate) fn exec(
    root: &Path,
    suite: &str,
    tool: &str,
    input: &str,
    extra: &[&str],
) -> (Value, i32) {
    let out = mf_in(root)
        .args(["exec", "--suite", suite, "--tool", tool, "--input", input])
        .args(["--format", "json"])
        .args(extra)
        .output()
        .expect("runs");
    let code = out.status.code().expect("exit code");
    let doc = stdout_json(&out);
    assert_schema("exec-result.schema.json", &doc);
    (doc, code)
}

/// Fails listing every way `doc` breaks `schemas/NAME`.
pub fn assert_schema(name: &str, doc: &Value) {
    let v = crate::report_schemas::linked_validator(name);
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:?}\n{doc}");
}

pub(crate) fn require_bwrap() -> bool {
    std::env::var_os("MF_REQUIRE_BWRAP").is_some_and(|v| v == "1")
}

/// Processes whose command line mentions `needle` (Linux `/proc`).
pub(crate) fn processes_mentioning(needle: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
        else {
            continue;
        };
        let Ok(cmd) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = state
            .rsplit_once(") ")
            .is_some_and(|(_, r)| r.starts_with('Z'));
        if cmd.contains(needle) && !zombie {
            out.push(format!("{pid}: {cmd}"));
        }
    }
    out
}

#[test]
fn read_tools_print_their_result_with_duration_and_peak_memory() {
    let (_tmp, root) = notes_repo();
    for (runtime, suite) in SUITES {
        let (r, code) = exec(&root, suite, "read_note", r#"{"name": "todo"}"#, &[]);
        assert_eq!(code, 0, "{runtime}: {r}");
        assert_eq!(r["kind"], "exec");
        assert_eq!(r["status"], "ok");
        assert_eq!(r["ok"], true);
        assert_eq!(r["runtime"], runtime);
        assert_eq!(r["result"]["text"], "buy milk and bread", "{runtime}");
        assert!(r["peakRssMB"].as_f64().is_some_and(|m| m > 1.0), "{r}");
        assert!(
            r["durationMs"].is_u64() && r["wallMs"].as_u64() > Some(0),
            "{r}"
        );
        // What the tool printed is kept apart from its result.
        assert!(
            r["logs"]
                .as_str()
                .is_some_and(|l| l.contains("reading todo")),
            "{r}"
        );
    }
    // The terminal form says the same to people.
    let out = mf_in(&root)
        .args([
            "exec",
            "--tool",
            "count_words",
            "--input",
            r#"{"text": "a b c d"}"#,
        ])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", show(&out));
    assert!(
        text.contains("mf exec count_words: ok") && text.contains("    4"),
        "{text}"
    );
    assert!(text.contains("isolation: node-permission"), "{text}");
}

#[test]
fn the_write_tool_is_refused_with_exit_3_and_nothing_is_written() {
    let (_tmp, root) = notes_repo();
    let notes = root.join("tools/notes");
    for (runtime, suite) in SUITES {
        let (r, code) = exec(
            &root,
            suite,
            "save_note",
            r#"{"name": "todo", "text": "gone"}"#,
            &[],
        );
        assert_eq!(code, 3, "{runtime}: {r}");
        assert_eq!(r["status"], "refused");
        assert!(
            r["reasons"][0]
                .as_str()
                .is_some_and(|m| m.contains("sideEffects: write") && m.contains("--allow-write")),
            "{r}"
        );
        assert!(
            r["isolation"].is_null() && r["durationMs"] == 0,
            "nothing ran: {r}"
        );
    }
    let listing: Vec<_> = std::fs::read_dir(&notes)
        .expect("ls")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(listing.len(), 1, "{listing:?}");
    assert_eq!(
        std::fs::read_to_string(notes.join("todo.txt")).expect("read"),
        "buy milk and bread\n"
    );
    // The terminal form names the reason too.
    let out = mf_in(&root)
        .args([
            "exec",
            "--tool",
            "save_note",
            "--input",
            r#"{"name": "a", "text": "b"}"#,
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("refused, nothing ran"),
        "{}",
        show(&out)
    );
}

#[test]
fn with_allow_write_the_write_tool_writes_only_where_allowed() {
    let (_tmp, root) = notes_repo();
    let notes = root.join("tools/notes");
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir(&elsewhere).expect("mkdir");
    for (runtime, suite) in SUITES {
        if runtime == "python" && !require_bwrap() && !bwrap_works() {
            continue;
        }
        // Allowed somewhere else: the admission passes, the sandbox still denies the write.
        let (r, code) = exec(
            &root,
            suite,
            "save_note",
            r#"{"name": "n", "text": "x"}"#,
            &["--allow-write", elsewhere.to_str().expect("utf8")],
        );
        assert_eq!(code, 1, "{runtime}: {r}");
        assert_eq!(r["status"], "error", "{runtime}: {r}");
        assert!(
            !notes.join("n.txt").exists(),
            "{runtime} wrote outside --allow-write"
        );
        let (r, code) = exec(
            &root,
            suite,
            "save_note",
            &format!(r#"{{"name": "{runtime}", "text": "saved by {runtime}"}}"#),
            &["--allow-write", notes.to_str().expect("utf8")],
        );
        assert_eq!(code, 0, "{runtime}: {r}");
        assert_eq!(
            std::fs::read_to_string(notes.join(format!("{runtime}.txt"))).expect("written"),
            format!("saved by {runtime}")
        );
    }
}

fn bwrap_works() -> bool {
    std::process::Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "--unshare-all", "true"])
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn the_input_is_validated_against_the_schema_before_anything_runs() {
    let (_tmp, root) = notes_repo();
    for (_, suite) in SUITES {
        let (r, code) = exec(
            &root,
            suite,
            "read_note",
            r#"{"name": 3, "extra": true}"#,
            &[],
        );
        assert_eq!(code, 1, "{r}");
        assert_eq!(r["status"], "invalid-input");
        let reasons = r["reasons"].as_array().expect("reasons");
        assert_eq!(reasons.len(), 2, "{r}");
        assert!(
            reasons
                .iter()
                .any(|m| m.as_str().is_some_and(|m| m.starts_with("/name:"))),
            "{r}"
        );
        assert!(r["isolation"].is_null(), "nothing ran: {r}");
    }
    let out = mf_in(&root)
        .args(["exec", "--tool", "nope"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no tool \"nope\""),
        "{}",
        show(&out)
    );
}

#[test]
fn only_named_variables_reach_the_tool() {
    let (_tmp, root) = notes_repo();
    std::fs::write(
        root.join("tools/env.mjs"),
        "export function show_env() { return Object.keys(process.env).sort(); }\n",
    )
    .expect("write");
    let run = |extra: &[&str]| {
        mf_in(&root)
            .args(["exec", "--tool", "count_words", "--entry", "tools/env.mjs"])
            .args(["--input", r#"{"text": "x"}"#, "--format", "json"])
            .args(extra)
            .env("OPENAI_API_KEY", "sk-planted-exec")
            .env("MF_EXEC_PASSED", "yes")
            .output()
            .expect("runs")
    };
    // count_words is not in env.mjs: a clear lookup failure, not a crash of mf.
    let out = run(&[]);
    let r = stdout_json(&out);
    assert_eq!(r["status"], "crashed", "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("count_words")),
        "{r}"
    );
    std::fs::write(
        root.join("tools/env.mjs"),
        "export function count_words() { return Object.keys(process.env).sort(); }\n",
    )
    .expect("write");
    let r = stdout_json(&run(&["--env", "MF_EXEC_PASSED"]));
    let keys: Vec<&str> = r["result"]
        .as_array()
        .expect("keys")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        keys.contains(&"MF_EXEC_PASSED") && keys.contains(&"PATH"),
        "{keys:?}"
    );
    assert!(!keys.contains(&"OPENAI_API_KEY"), "{keys:?}");
    assert!(!r.to_string().contains("sk-planted-exec"));
}

#[test]
fn sandbox_check_json_parses_and_names_every_engine() {
    let (_tmp, root) = notes_repo();
    let out = mf_in(&root)
        .args(["sandbox", "check", "--format", "json"])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", show(&out));
    let r = stdout_json(&out);
    assert_schema("sandbox-check.schema.json", &r);
    assert_eq!(r["kind"], "sandbox-check");
    let names: Vec<&str> = r["engines"]
        .as_array()
        .expect("engines")
        .iter()
        .filter_map(|e| e["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "node-permission",
            "bubblewrap",
            "landlock",
            "seccomp",
            "plain"
        ]
    );
    let runtimes: Vec<&str> = r["runtimes"]
        .as_array()
        .expect("runtimes")
        .iter()
        .filter_map(|e| e["runtime"].as_str())
        .collect();
    assert_eq!(runtimes, ["node", "python"]);
    let node = &r["runtimes"][0];
    assert!(
        node["engine"]
            .as_str()
            .is_some_and(|e| e.starts_with("node-permission")),
        "{r}"
    );
    // Node 20–23.4 take --experimental-permission; later ones --permission.
    assert!(
        matches!(
            node["isolation"]["flag"].as_str(),
            Some("--permission" | "--experimental-permission")
        ),
        "{r}"
    );
    if require_bwrap() {
        assert_eq!(r["engines"][1]["available"], true, "{r}");
        assert_eq!(r["runtimes"][1]["engine"], "bubblewrap", "{r}");
    }
    let text = mf_in(&root)
        .args(["sandbox", "check"])
        .output()
        .expect("runs");
    let t = String::from_utf8_lossy(&text.stdout);
    assert!(
        t.contains("mf sandbox check:") && t.contains("python:"),
        "{t}"
    );
}

#[test]
fn a_fork_pull_request_run_executes_nothing() {
    let (_tmp, root) = notes_repo();
    let payload = root.join("event.json");
    std::fs::write(
        &payload,
        r#"{"pull_request": {"number": 7, "head": {"sha": "a", "repo": {"full_name": "evil/fork"}},
            "base": {"sha": "b", "repo": {"full_name": "org/notes"}}}}"#,
    )
    .expect("write");
    let same_repo = root.join("same.json");
    std::fs::write(
        &same_repo,
        r#"{"pull_request": {"number": 8, "head": {"sha": "a", "repo": {"full_name": "org/notes"}},
            "base": {"sha": "b", "repo": {"full_name": "org/notes"}}}}"#,
    )
    .expect("write");
    let missing = root.join("missing.json");
    let runs: [(&str, &Path, bool); 4] = [
        ("pull_request", &payload, false),
        ("pull_request_target", &payload, false),
        ("pull_request", &missing, false),
        ("pull_request", &same_repo, true),
    ];
    for (event, path, allowed) in runs {
        for args in [
            vec![
                "exec",
                "--tool",
                "read_note",
                "--input",
                r#"{"name": "todo"}"#,
            ],
            vec![
                "eval",
                "--suite",
                "mf.suite.json",
                "--models",
                "lexical",
                "--execute",
                "--no-cache",
                "--repeat",
                "1",
            ],
        ] {
            let out = mf_in(&root)
                .args(&args)
                .env("GITHUB_ACTIONS", "true")
                .env("GITHUB_EVENT_NAME", event)
                .env("GITHUB_EVENT_PATH", path)
                .output()
                .expect("runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            if allowed {
                assert!(
                    !stderr.contains("refused"),
                    "{event} {args:?}: {}",
                    show(&out)
                );
            } else {
                assert_eq!(
                    out.status.code(),
                    Some(1),
                    "{event} {args:?}: {}",
                    show(&out)
                );
                assert!(stderr.contains("never executes a fork"), "{}", show(&out));
                assert!(
                    !String::from_utf8_lossy(&out.stdout).contains("milk"),
                    "{}",
                    show(&out)
                );
            }
        }
    }
}

#[test]
fn a_suite_cannot_name_the_interpreter_by_path_or_reach_outside_its_folder() {
    let (_tmp, root) = notes_repo();
    let marker = root.join("ran.txt");
    std::fs::write(
        root.join("tools/evil.sh"),
        format!("#!/bin/sh\ntouch {}\n", marker.display()),
    )
    .expect("write");
    let mut suite: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("python.suite.json")).expect("read"),
    )
    .expect("json");
    suite["execution"]["python"] = "tools/evil.sh".into();
    std::fs::write(root.join("evil.suite.json"), suite.to_string()).expect("write");
    let out = mf_in(&root)
        .args([
            "exec",
            "--suite",
            "evil.suite.json",
            "--tool",
            "count_words",
        ])
        .args(["--input", r#"{"text": "a"}"#])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("execution.python"),
        "{}",
        show(&out)
    );
    assert!(!marker.exists(), "the suite's interpreter ran");

    suite["execution"]["python"] = Value::Null;
    suite["execution"]["allowRead"] = serde_json::json!([".."]);
    std::fs::write(root.join("evil.suite.json"), suite.to_string()).expect("write");
    let out = mf_in(&root)
        .args([
            "exec",
            "--suite",
            "evil.suite.json",
            "--tool",
            "count_words",
        ])
        .args(["--input", r#"{"text": "a"}"#])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("outside the suite's folder"),
        "{}",
        show(&out)
    );
}
