//! Every row of SCHEMA.md's exit-code table, pinned on the real binary: 0 ok (help and
//! version too), 1 usage and input errors (clap's own included — never 2), 2 a gate failed,
//! 3 nothing found (scan and ci), 5 an unhealthy run, 130 interrupted. Exit 4 (`exec` timed
//! out) is reserved for a command not built yet.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{mf, mf_in, root, server_arg, show};

fn code(cmd: &mut assert_cmd::Command) -> i32 {
    let out = cmd.output().expect("runs");
    out.status
        .code()
        .unwrap_or_else(|| panic!("killed: {}", show(&out)))
}

#[test]
fn zero_when_the_job_is_done_and_for_help_and_version() {
    assert_eq!(code(mf().args(["--help"])), 0);
    assert_eq!(code(mf().args(["--version"])), 0);
    assert_eq!(code(mf().args(["lint", "--help"])), 0);
    assert_eq!(
        code(mf().args(["lint", &server_arg("memory"), "--fail-on", "never"])),
        0
    );
}

#[test]
fn one_for_every_usage_error_clap_finds() {
    for args in [
        vec!["scna"],
        vec!["lint", "--fial-on", "warn", "."],
        vec![],
        vec!["lint", "--fail-on", "sometimes"],
        vec!["eval"],
        vec!["eval", "--models", "lexical", "--shard", "4/3"],
        vec!["merge"],
        vec!["ci", "--shard", "1/2", "--merge", "parts"],
    ] {
        let out = mf().args(&args).output().expect("runs");
        assert_eq!(out.status.code(), Some(1), "mf {args:?}: {}", show(&out));
        assert!(!out.stderr.is_empty(), "mf {args:?} says why");
    }
}

#[test]
fn one_for_input_errors() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("bad.json"), "{\"tools\": [").expect("write");
    assert_eq!(code(mf_in(dir.path()).args(["lint", "bad.json"])), 1);
    assert_eq!(code(mf_in(dir.path()).args(["lint", "missing.json"])), 1);
}

#[test]
fn two_when_a_gate_fails() {
    // The corpus's word server has lint warnings (the reference memory server, used before,
    // has none since the recalibrated defaults).
    let word = root().join("tests/fixtures/real/word.tools.json");
    assert_eq!(code(mf().args(["lint", "--fail-on", "warn"]).arg(&word)), 2);
}

#[test]
fn three_when_nothing_is_found() {
    let dir = tempfile::tempdir().expect("tmp");
    assert_eq!(code(mf_in(dir.path()).args(["scan", ".", "--json"])), 3);
    let out = mf_in(dir.path()).args(["ci", "."]).output().expect("runs");
    assert_eq!(out.status.code(), Some(3), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("no tool or skill found in ."),
        "{}",
        show(&out)
    );
}

#[test]
fn five_when_the_run_is_unhealthy() {
    let suite = root().join("examples/acme-support/mf.suite.yaml");
    let out = mf()
        .args(["eval", "--models", "mock", "--suite"])
        .arg(&suite)
        .args(["--min-scored", "100000"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(5), "{}", show(&out));
}

#[test]
fn one_hundred_thirty_when_interrupted() {
    // A stdio server that never answers; Ctrl-C (SIGINT) while mf waits for it.
    let bin = assert_cmd::cargo::cargo_bin("mf");
    let child = Command::new(bin)
        .args([
            "--color=never",
            "lint",
            "--stdio",
            "sleep 60",
            "--timeout-init",
            "60",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    std::thread::sleep(Duration::from_millis(800));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let started = Instant::now();
    let out = child.wait_with_output().expect("waits");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "mf did not stop on SIGINT"
    );
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
