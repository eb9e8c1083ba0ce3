//! Live-client failure modes against `tests/fake_mcp_server/server.js`: each ends within its
//! timeout with its own message, and no process of the server's group is left running.
#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use mf::surface::SourceFormat;
use mf::surface::formats::load_path;
use mf::surface::live::{LiveError, LiveOptions, Phase};
use mf::surface::target::{Target, child_env, load_target};

use crate::support::fake_mcp_server;

fn opts() -> LiveOptions {
    LiveOptions {
        timeout_start: Duration::from_secs(5),
        timeout_init: Duration::from_secs(3),
        timeout_list: Duration::from_secs(10),
        ..LiveOptions::default()
    }
}

/// Whether a pid is a live (not zombie) process.
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(") ")
            .and_then(|(_, rest)| rest.chars().next())
            .is_some_and(|s| s != 'Z' && s != 'X'),
        Err(_) => false,
    }
}

/// Run the fake server in `mode`; return the outcome, the time it took, and the pids it wrote.
fn run(
    mode: &str,
    opts: &LiveOptions,
) -> (
    Result<mf::surface::formats::Loaded, mf::surface::error::InputError>,
    Duration,
    Vec<u32>,
) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pidfile = dir.path().join("pids");
    let target = Target::Stdio {
        program: "node".into(),
        args: vec![
            fake_mcp_server(),
            mode.into(),
            pidfile.to_string_lossy().into_owned(),
        ],
        name: format!("fake-{mode}"),
        env_names: vec![],
    };
    let start = Instant::now();
    let result = load_target(&target, opts);
    let took = start.elapsed();
    let pids: Vec<u32> = std::fs::read_to_string(&pidfile)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect();
    (result, took, pids)
}

fn assert_all_gone(pids: &[u32]) {
    assert_eq!(pids.len(), 2, "the fake server did not write its pids");
    let deadline = Instant::now() + Duration::from_secs(2);
    while pids.iter().any(|p| alive(*p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for p in pids {
        assert!(
            !alive(*p),
            "process {p} of the server's group is still running"
        );
    }
}

fn live_error(
    r: Result<mf::surface::formats::Loaded, mf::surface::error::InputError>,
) -> LiveError {
    match r {
        Err(mf::surface::error::InputError::Live(e)) => e,
        Err(other) => panic!("expected a live error, got {other}"),
        Ok(l) => panic!("expected a failure, got {} tools", l.surface.tools.len()),
    }
}

#[test]
fn server_that_exits_at_once_reports_exit_and_stderr_tail() {
    let (r, took, pids) = run("exit", &opts());
    let e = live_error(r);
    let msg = e.to_string();
    assert!(
        matches!(
            e,
            LiveError::Exited {
                phase: Phase::Init,
                ..
            }
        ),
        "{msg}"
    );
    assert!(msg.contains("missing configuration FAKE_TOKEN"), "{msg}");
    assert!(msg.contains("exit status: 3"), "{msg}");
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert_all_gone(&pids);
}

#[test]
fn server_that_never_answers_times_out_in_initialize() {
    let (r, took, pids) = run("hang", &opts());
    let e = live_error(r);
    let msg = e.to_string();
    assert!(
        matches!(
            e,
            LiveError::Timeout {
                phase: Phase::Init,
                secs: 3,
                ..
            }
        ),
        "{msg}"
    );
    assert!(
        msg.contains("--timeout-init") && msg.contains("fake server starting"),
        "{msg}"
    );
    assert!(
        took >= Duration::from_secs(3) && took < Duration::from_secs(7),
        "{took:?}"
    );
    assert_all_gone(&pids);
}

#[test]
fn server_that_answers_garbage_is_malformed() {
    let (r, took, pids) = run("garbage", &opts());
    let e = live_error(r);
    let msg = e.to_string();
    assert!(matches!(e, LiveError::Malformed { .. }), "{msg}");
    assert!(
        msg.contains("non-JSON-RPC") && msg.contains("Server listening"),
        "{msg}"
    );
    assert!(took < Duration::from_secs(7), "{took:?}");
    assert_all_gone(&pids);
}

#[test]
fn repeated_cursor_is_an_error() {
    let (r, _, pids) = run("same-cursor", &opts());
    let e = live_error(r);
    assert!(
        matches!(e, LiveError::Pagination { .. })
            && e.to_string().contains("repeated cursor \"again\""),
        "{e}"
    );
    assert_all_gone(&pids);
}

#[test]
fn endless_distinct_cursors_stop_at_the_page_cap() {
    let (r, _, pids) = run("new-cursor", &opts());
    let e = live_error(r);
    assert!(
        matches!(e, LiveError::Pagination { .. }) && e.to_string().contains("more than 100 pages"),
        "{e}"
    );
    assert_all_gone(&pids);
}

#[test]
fn endless_10mb_pages_hit_the_size_cap() {
    let (r, took, pids) = run("huge", &opts());
    let e = live_error(r);
    assert!(
        matches!(
            e,
            LiveError::TooLarge {
                limit: 33_554_432,
                ..
            }
        ),
        "{e}"
    );
    assert!(took < Duration::from_secs(12), "{took:?}");
    assert_all_gone(&pids);
}

#[test]
fn server_that_exits_mid_listing_reports_the_list_phase() {
    let (r, _, pids) = run("exit-mid-list", &opts());
    let e = live_error(r);
    let msg = e.to_string();
    assert!(
        matches!(
            e,
            LiveError::Exited {
                phase: Phase::List,
                ..
            }
        ),
        "{msg}"
    );
    assert!(msg.contains("crashed while listing"), "{msg}");
    assert_all_gone(&pids);
}

#[test]
fn method_not_found_is_its_own_error() {
    let (r, _, pids) = run("no-tools", &opts());
    let e = live_error(r);
    assert!(
        matches!(e, LiveError::MethodNotFound { .. })
            && e.to_string().contains("does not implement tools/list"),
        "{e}"
    );
    assert_all_gone(&pids);
}

#[test]
fn unknown_protocol_version_is_refused() {
    let (r, _, pids) = run("bad-protocol", &opts());
    let e = live_error(r);
    assert!(
        matches!(e, LiveError::ProtocolRefused { .. }) && e.to_string().contains("1999-01-01"),
        "{e}"
    );
    assert_all_gone(&pids);
}

#[test]
fn missing_command_is_reported_as_not_found() {
    let target = Target::stdio("mf-no-such-server-binary --flag").expect("target");
    let e = live_error(load_target(&target, &opts()));
    assert!(matches!(e, LiveError::CommandNotFound { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("`mf-no-such-server-binary` not found on PATH"),
        "{e}"
    );
    assert_eq!(
        mf::Exit::from_error(&mf::Error::Live(e)),
        mf::Exit::InputError
    );
}

#[test]
fn pages_merge_and_the_snapshot_round_trips_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let snap = dir.path().join("snap.json");
    let o = LiveOptions {
        save_snapshot: Some(snap.clone()),
        ..opts()
    };
    let (r, _, pids) = run("ok", &o);
    let live = r.expect("listing");
    let names: Vec<&str> = live.surface.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["search", "fetch", "weird"]);
    for t in &live.surface.tools {
        assert_eq!(t.origin.server.as_deref(), Some("fake-ok"));
        assert_eq!(t.origin.format, SourceFormat::Live);
        assert_eq!(t.confidence, mf::surface::Confidence::High);
    }
    // The tools as served: unknown keys and odd annotation values are kept, not re-typed.
    let text = std::fs::read_to_string(&snap).expect("snapshot");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(
        doc["tools"][0]["x-extra"],
        serde_json::json!({"kept": true})
    );
    assert_eq!(
        doc["tools"][2]["annotations"],
        serde_json::json!({"readOnlyHint": "yes", "custom": 1})
    );
    let back = load_path(&snap, "snap.json").expect("load snapshot");
    assert_eq!(back.surface.tools.len(), live.surface.tools.len());
    for (a, b) in live.surface.tools.iter().zip(&back.surface.tools) {
        assert_eq!(
            (&a.name, &a.title, &a.description),
            (&b.name, &b.title, &b.description)
        );
        assert_eq!(
            (&a.input_schema, &a.output_schema, &a.annotations),
            (&b.input_schema, &b.output_schema, &b.annotations)
        );
        assert_eq!(a.wire_json(), b.wire_json());
    }
    assert_all_gone(&pids);
}

#[test]
fn children_get_a_reduced_environment_plus_named_pass_through() {
    // PATH is always there; HOSTNAME-like variables of mf's environment are not.
    let base = child_env(&[]);
    assert!(base.iter().any(|(k, _)| k == "PATH"));
    let inherited: Vec<String> = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter(|k| k == "CARGO_MANIFEST_DIR" || k == "CARGO_PKG_NAME")
        .collect();
    for k in &inherited {
        assert!(
            !base.iter().any(|(n, _)| n == k),
            "{k} leaked into the child environment"
        );
    }
    if let Some(k) = inherited.first() {
        let with = child_env(std::slice::from_ref(k));
        assert!(
            with.iter().any(|(n, _)| n == k),
            "--env {k} was not passed through"
        );
    }
}

#[test]
fn stdio_flag_is_tokenised_without_a_shell() {
    let t = Target::stdio("node 'my server.js' --root \"a b\" $HOME;rm").expect("target");
    match t {
        Target::Stdio { program, args, .. } => {
            assert_eq!(program, "node");
            assert_eq!(args, ["my server.js", "--root", "a b", "$HOME;rm"]);
        }
        other => panic!("{other:?}"),
    }
    assert!(Target::stdio("  ").is_err());
    assert!(Target::stdio("node 'unterminated").is_err());
}
