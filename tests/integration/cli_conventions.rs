//! CLI conventions: shell completions, `--quiet`, a `wrote FILE` line per file written, colour
//! forced by `FORCE_COLOR` / `CLICOLOR_FORCE` and refused by `NO_COLOR`, `mf scan` laid out for
//! `$COLUMNS`, and `mf.toml` found above the current folder up to the repository root.

use std::process::{Command, Output};

use crate::support::{chat_server, fixture, git::git, machine_ci_vars, show};

/// The binary with nothing from this machine's environment that changes its output.
fn bare(dir: &std::path::Path) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("mf"));
    cmd.current_dir(dir);
    for k in machine_ci_vars() {
        cmd.env_remove(k);
    }
    for k in ["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "COLUMNS"] {
        cmd.env_remove(k);
    }
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("mf runs")
}

#[test]
fn completions_print_a_script_for_each_shell() {
    let dir = tempfile::tempdir().expect("tmp");
    for (shell, needle) in [
        ("bash", "complete"),
        ("zsh", "#compdef mf"),
        ("fish", "complete -c mf"),
    ] {
        let out = run(bare(dir.path()).args(["completions", shell]));
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(needle), "{shell}: {text}");
        assert!(text.contains("lint"), "{shell} completes the commands");
    }
}

#[test]
fn every_file_written_is_named_and_quiet_names_none() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::copy(fixture("ci/tools.json"), dir.path().join("tools.json")).expect("copy");
    let out = run(bare(dir.path()).args(["scan", ".", "--json"]));
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("wrote ./mf.scan.json"), "{err}");
    assert!(err.contains("wrote ./mf.suite.json"), "{err}");
    let out = run(bare(dir.path()).args(["--quiet", "scan", ".", "--json"]));
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(out.stderr.is_empty(), "{}", show(&out));
    // The flag is global: after the command too.
    let out = run(bare(dir.path()).args(["scan", ".", "--json", "-q"]));
    assert!(out.stderr.is_empty(), "{}", show(&out));
}

#[test]
fn force_color_colours_a_pipe_and_no_color_wins() {
    let tools = fixture("ci/tools.json");
    let dir = tempfile::tempdir().expect("tmp");
    let colour = |envs: &[(&str, &str)]| {
        let mut cmd = bare(dir.path());
        cmd.args(["lint", "--fail-on", "never"]).arg(&tools);
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let out = run(&mut cmd);
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        String::from_utf8_lossy(&out.stdout).contains('\u{1b}')
    };
    assert!(!colour(&[]), "a pipe is not coloured");
    assert!(colour(&[("FORCE_COLOR", "1")]));
    assert!(colour(&[("CLICOLOR_FORCE", "1")]));
    assert!(!colour(&[("FORCE_COLOR", "0")]));
    assert!(!colour(&[("FORCE_COLOR", "1"), ("NO_COLOR", "1")]));
}

#[test]
fn scan_fits_the_terminal_width() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::copy(fixture("ci/tools.json"), dir.path().join("tools.json")).expect("copy");
    for columns in [60usize, 100] {
        let out = run(bare(dir.path())
            .args(["scan", ".", "--no-write"])
            .env("COLUMNS", columns.to_string()));
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        let text = String::from_utf8_lossy(&out.stdout);
        let tools: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != "Tools")
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert!(tools.len() >= 10, "{text}");
        for l in &tools {
            assert!(l.chars().count() <= columns, "{columns}: {l:?}");
        }
        assert!(
            tools.iter().any(|l| l.contains('…')),
            "descriptions are cut: {text}"
        );
    }
}

#[test]
fn mf_toml_is_found_above_the_current_folder_up_to_the_repository_root() {
    let dir = tempfile::tempdir().expect("tmp");
    let repo = dir.path().join("repo");
    let sub = repo.join("a/b");
    std::fs::create_dir_all(&sub).expect("mkdir");
    git(&repo, &["init", "-q"]);
    std::fs::write(
        repo.join("mf.toml"),
        "[models.team-baseline]\nprovider = \"lexical\"\nmodel = \"lexical\"\n",
    )
    .expect("toml");
    let tools = chat_server::write_tools(&sub);
    std::fs::write(
        sub.join("suite.json"),
        r#"{"name": "t", "cases": [{"id": "a", "input": "refund a paid order", "expectedTool": "issue_refund"}]}"#,
    )
    .expect("suite");
    let eval = |cwd: &std::path::Path| {
        run(bare(cwd)
            .arg("eval")
            .arg(&tools)
            .arg("--suite")
            .arg(sub.join("suite.json"))
            .args([
                "--models",
                "team-baseline",
                "--no-cache",
                "--format",
                "json",
            ]))
    };
    let out = eval(&sub);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let card: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(card["models"][0]["provider"], "lexical");
    // Outside the repository the file is not read.
    let outside = dir.path().join("elsewhere");
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::copy(repo.join("mf.toml"), dir.path().join("mf.toml")).expect("copy");
    git(&outside, &["init", "-q"]);
    let out = eval(&outside);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
}

#[test]
fn mf_ci_says_wrote_for_every_report_it_writes() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::copy(
        crate::support::server("memory"),
        dir.path().join("tools.json"),
    )
    .expect("copy");
    let mut cmd = crate::support::mf_in(dir.path());
    for k in crate::support::machine_ci_vars() {
        cmd.env_remove(k);
    }
    let out = cmd
        .args([
            "ci",
            ".",
            "--comment",
            "off",
            "--json-out",
            "ci.json",
            "--sarif",
            "ci.sarif",
        ])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    for f in ["ci.json", "ci.sarif"] {
        assert!(dir.path().join(f).is_file(), "{f} not written: {err}");
        assert!(
            err.lines().any(|l| l == format!("wrote {f}")),
            "no `wrote {f}`: {err}"
        );
    }
}
