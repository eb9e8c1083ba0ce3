//! `--execute` against the commands merged beside it: a shard part, mount-group scoring and
//! `mf ablate` refuse it (each names the conflicting flag), `mf ablate --help` does not offer
//! it, and `mf merge` refuses a part that holds executions instead of dropping them.

use std::path::Path;

use serde_json::Value;

use crate::exec_cli::notes_repo;
use crate::support::{mf_in, show};

fn eval(root: &Path, extra: &[&str]) -> std::process::Output {
    mf_in(root)
        .args(["eval", "--suite", "mf.suite.json", "--models", "lexical"])
        .args(["--repeat", "1", "--no-cache", "--no-progress"])
        .args(extra)
        .output()
        .expect("runs")
}

fn refused_naming(out: &std::process::Output, words: &[&str]) {
    assert_eq!(out.status.code(), Some(1), "{}", show(out));
    let err = String::from_utf8_lossy(&out.stderr);
    for w in words {
        assert!(err.contains(w), "stderr lacks {w:?}: {}", show(out));
    }
}

#[test]
fn execute_is_refused_with_shard_mount_groups_and_ablate() {
    let (_tmp, root) = notes_repo();
    refused_naming(
        &eval(&root, &["--execute", "--shard", "1/2"]),
        &["--execute", "--shard"],
    );
    refused_naming(
        &eval(&root, &["--execute", "--profile", "all"]),
        &["--execute", "--profile all|NAME"],
    );
    let ablate = mf_in(&root)
        .args(["ablate", "--suite", "mf.suite.json", "--models", "lexical"])
        .args(["--tool", "read_note", "--execute", "--no-cache"])
        .output()
        .expect("runs");
    refused_naming(&ablate, &["mf ablate", "--execute"]);
    assert!(!root.join("cache").exists());
    let help = |cmd: &str| {
        let o = mf_in(&root).args([cmd, "--help"]).output().expect("runs");
        assert_eq!(o.status.code(), Some(0), "{}", show(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let (eval_help, ablate_help) = (help("eval"), help("ablate"));
    for flag in [
        "--execute",
        "--execute-model-args",
        "--min-execution",
        "--exec-timeout",
        "--allow-net",
    ] {
        assert!(eval_help.contains(flag), "mf eval --help lacks {flag}");
        assert!(
            !ablate_help.contains(flag),
            "mf ablate --help offers {flag}:\n{ablate_help}"
        );
    }
}

#[test]
fn merge_refuses_a_part_that_holds_executions() {
    let (_tmp, root) = notes_repo();
    for k in ["1", "2"] {
        let out = eval(
            &root,
            &[
                "--shard",
                &format!("{k}/2"),
                "--json-out",
                &format!("p{k}.json"),
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    }
    let executed = eval(
        &root,
        &["--execute", "--min-execution", "0", "--json-out", "x.json"],
    );
    assert_eq!(executed.status.code(), Some(0), "{}", show(&executed));
    let read = |f: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(root.join(f)).expect("read")).expect("json")
    };
    let execution = read("x.json")["suite"]["execution"].clone();
    assert!(
        execution.is_object(),
        "the --execute run records suite.execution"
    );
    // The control: the two parts as written merge.
    let merged = mf_in(&root)
        .args(["merge", "p1.json", "p2.json", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(merged.status.code(), Some(0), "{}", show(&merged));
    // A part carrying executions is refused, naming it, rather than merged without them.
    let mut part = read("p1.json");
    part["suite"]["execution"] = execution;
    std::fs::write(root.join("p1.json"), part.to_string()).expect("write");
    let out = mf_in(&root)
        .args(["merge", "p1.json", "p2.json", "--json-out", "merged.json"])
        .output()
        .expect("runs");
    refused_naming(&out, &["p1.json", "holds executions"]);
    assert!(!root.join("merged.json").exists());
}
