//! README.md works as written: every command in its `sh` code blocks runs, in order, on a copy
//! of the repository's `examples/` with the `mf` under test first on `PATH`. Paid models are
//! swapped for the offline `lexical` router. Commands that need a key, the network, a build or
//! an install, or that name illustrative files the repository does not have, are skipped —
//! each by the reason in [`SKIP`], printed with `--nocapture`. A command passes when it exits
//! 0, or 2 (a gate failed: the examples carry lint errors on purpose); 1 means the README is
//! wrong (an unknown flag, a missing file).

use std::path::Path;
use std::process::Command;

use crate::support::root;

/// Commands left out (matched by substring), and why.
const SKIP: &[(&str, &str)] = &[
    (
        "scripts/install-test-servers.sh",
        "installs npm packages (network); .ci/run runs it",
    ),
    ("cargo test", "the test suite itself"),
    (
        "cargo install",
        "installs into ~/.cargo; the binary under test stands in",
    ),
    ("npx ", "downloads an MCP server from npm (network)"),
    ("fs.json", "reads the snapshot the npx command above saves"),
    ("OPENAI_API_KEY=", "a paid run: needs a key"),
    (
        "--suite mf.suite.json",
        "illustrative: your own suite at the repository root",
    ),
    (
        "--suite mf.suite.yaml",
        "illustrative: your own suite at the repository root",
    ),
    (
        "base.json head.json",
        "reads the scorecards of the paid runs above",
    ),
    (
        "servers/",
        "illustrative: your own repository's servers folder",
    ),
    ("old.tools.json", "illustrative: two snapshots of your own"),
    (
        "mf snapshot",
        "starts the servers your own mf.toml declares; snapshot_cli.rs runs it against a real server",
    ),
    (
        "scripts/install-bfcl.sh",
        "installs bfcl-eval from PyPI (network); .ci/run runs it",
    ),
    (
        "BFCL",
        "reads bfcl-eval's data from target/bfcl; bfcl_conformance.rs runs the import and the dry run",
    ),
    (
        "bfcl-multiple.suite.json",
        "the suite the BFCL import above writes; bfcl_conformance.rs runs this dry run",
    ),
];

/// The commands of README.md's `sh` blocks: continuation lines joined, comments dropped.
fn readme_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        if !in_sh || line.trim_start().starts_with('#') || line.trim().is_empty() {
            continue;
        }
        // A comment starts at "  #" outside the command (the README's commands quote no "#").
        let code = line.split("  #").next().unwrap_or_default().trim_end();
        if let Some(head) = code.strip_suffix('\\') {
            pending.push_str(head);
            continue;
        }
        pending.push_str(code);
        out.push(std::mem::take(&mut pending).trim().to_owned());
    }
    out
}

/// `command` as it runs here: `cargo run --release --` is the binary under test, paid models
/// are the offline router.
fn offline(command: &str) -> String {
    let mut c = command.replace("cargo run --release -- ", "mf ");
    for paid in ["openai:gpt-4.1-mini", "anthropic:claude-sonnet-4-5"] {
        c = c.replace(paid, "lexical");
    }
    c
}

fn copy_dir(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-R")
        .arg(from)
        .arg(to)
        .status()
        .expect("cp");
    assert!(status.success(), "cp -R {}", from.display());
}

#[test]
#[allow(clippy::print_stdout)]
fn readme_commands_run_as_written() {
    let text = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let commands = readme_commands(&text);
    assert!(commands.len() >= 10, "found only {commands:?}");
    let dir = tempfile::tempdir().expect("tmp");
    let work = dir.path().join("repo");
    std::fs::create_dir_all(&work).expect("mkdir");
    copy_dir(&root().join("examples"), &work.join("examples"));
    let home = dir.path().join("home");
    // The completions example writes where bash-completion looks; the folder exists there.
    std::fs::create_dir_all(home.join(".local/share/bash-completion/completions")).expect("mkdir");
    let bin = assert_cmd::cargo::cargo_bin("mf");
    let path = format!(
        "{}:{}",
        bin.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for command in &commands {
        if let Some((_, why)) = SKIP.iter().find(|(s, _)| command.contains(s)) {
            println!("skip: {command}\n      ({why})");
            continue;
        }
        let c = offline(command);
        println!("run:  {c}");
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(&c).current_dir(&work);
        for k in crate::support::machine_ci_vars() {
            cmd.env_remove(k);
        }
        let out = cmd
            .env("PATH", &path)
            .env("HOME", &home)
            .env("NO_COLOR", "1")
            .output()
            .expect("sh");
        let code = out.status.code();
        assert!(
            matches!(code, Some(0 | 2)),
            "README command failed ({code:?}): {c}\n{}",
            crate::support::show(&out)
        );
        ran += 1;
    }
    assert!(ran >= 8, "only {ran} README commands ran");
    // What the commands wrote, where the README says.
    assert!(
        work.join("mf-ci.json").is_file(),
        "mf ci --json-out mf-ci.json"
    );
    assert!(
        work.join("report.html").is_file(),
        "mf report … --out report.html"
    );
    assert!(
        work.join("examples/acme-support/mf.scan.json").is_file(),
        "mf scan writes mf.scan.json"
    );
}
