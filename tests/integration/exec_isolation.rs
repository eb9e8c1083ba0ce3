//! What `mf exec`'s isolation stops, engine by engine, on the fixture repository of
//! `exec_cli.rs`: a read outside the allowed folders (Node's permission model, bubblewrap,
//! Landlock; the plain engine says it cannot), the network for a tool that declares `read`, the
//! timeout killing the whole group and a helper that left it, the memory and output caps, and a
//! tool dying with mf. `MF_REQUIRE_BWRAP=1` makes a machine without bubblewrap fail.

use std::time::{Duration, Instant};

use crate::exec_cli::{SUITES, exec, notes_repo, processes_mentioning, require_bwrap};
use crate::support::{mf_in, show, stdout_json};

/// `mf sandbox check`'s entry for the Landlock engine.
fn landlock_engine(root: &std::path::Path) -> serde_json::Value {
    let out = mf_in(root)
        .args(["sandbox", "check", "--format", "json"])
        .output()
        .expect("runs");
    stdout_json(&out)["engines"]
        .as_array()
        .and_then(|e| e.iter().find(|e| e["name"] == "landlock"))
        .cloned()
        .expect("landlock probed")
}

/// A local port that accepts (and drops) every connection, for `phone_home`.
fn accepting_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for s in listener.incoming() {
            drop(s);
        }
    });
    port
}

#[test]
fn a_hung_tool_is_killed_at_the_timeout_and_no_process_is_left() {
    let (_tmp, root) = notes_repo();
    let marker = root.to_string_lossy().into_owned();
    let runs: [(&str, &str, &[&str]); 4] = [
        ("mf.suite.json", "wait_forever", &[]),
        ("python.suite.json", "wait_forever", &[]),
        // A helper that left the process group (its own session) goes too.
        (
            "python.suite.json",
            "wait_with_helper",
            &["--engine", "plain"],
        ),
        ("python.suite.json", "wait_with_helper", &[]),
    ];
    for (suite, tool, extra) in runs {
        let started = Instant::now();
        let (r, code) = exec(
            &root,
            suite,
            tool,
            "{}",
            &[&["--timeout", "2"], extra].concat(),
        );
        let took = started.elapsed();
        assert_eq!(code, 4, "{suite} {tool} {extra:?}: {r}");
        assert_eq!(r["status"], "timeout");
        assert_eq!(r["error"]["type"], "Timeout");
        assert!(
            took >= Duration::from_secs(2) && took < Duration::from_secs(8),
            "{took:?}"
        );
        let left = processes_mentioning(&marker);
        assert!(left.is_empty(), "{suite} {tool} {extra:?} left: {left:?}");
        let helpers: Vec<String> = processes_mentioning("sleep 313")
            .into_iter()
            .filter(|p| !p.contains("pgrep"))
            .collect();
        assert!(
            helpers.is_empty(),
            "{suite} {tool} {extra:?} left helpers: {helpers:?}"
        );
    }
}

#[test]
fn a_read_outside_the_allowed_folders_fails() {
    let (_tmp, root) = notes_repo();
    let (r, code) = exec(&root, "mf.suite.json", "read_secret", "{}", &[]);
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["status"], "error");
    assert_eq!(r["error"]["code"], "ERR_ACCESS_DENIED", "{r}");
    assert!(!r.to_string().contains("launch code"), "{r}");
    // Allowed by name, the same read works.
    let secret = root.join("secret.txt");
    let (r, code) = exec(
        &root,
        "mf.suite.json",
        "read_secret",
        "{}",
        &["--allow-read", secret.to_str().expect("utf8")],
    );
    assert_eq!(code, 0, "{r}");
    assert!(
        r["result"]
            .as_str()
            .is_some_and(|s| s.contains("launch code")),
        "{r}"
    );

    let (r, code) = exec(&root, "python.suite.json", "read_secret", "{}", &[]);
    let engine = r["isolation"]["engine"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    if require_bwrap() {
        assert_eq!(engine, "bubblewrap", "{r}");
    }
    if engine == "plain" {
        // Said honestly: a plain process cannot stop the read.
        assert_eq!(r["isolation"]["filesystem"], "not-enforced", "{r}");
    } else {
        assert_eq!(code, 1, "{r}");
        assert!(
            matches!(
                r["error"]["type"].as_str(),
                Some("FileNotFoundError" | "PermissionError")
            ),
            "{r}"
        );
        assert!(!r["result"].to_string().contains("launch code"), "{r}");
    }
    // The plain engine, asked for, says it does not isolate the file system.
    let (r, _) = exec(
        &root,
        "python.suite.json",
        "read_secret",
        "{}",
        &["--engine", "plain"],
    );
    assert_eq!(r["isolation"]["engine"], "plain");
    assert_eq!(r["isolation"]["filesystem"], "not-enforced");
}

#[test]
fn landlock_denies_the_read_where_the_kernel_has_it() {
    let (_tmp, root) = notes_repo();
    let landlock = landlock_engine(&root);
    if landlock["available"] != true {
        // Unavailable: asking for it is a clear error, not a weaker run.
        let out = mf_in(&root)
            .args([
                "exec",
                "--suite",
                "python.suite.json",
                "--tool",
                "read_secret",
                "--engine",
                "landlock",
            ])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(1));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("not available"),
            "{}",
            show(&out)
        );
        return;
    }
    let (r, code) = exec(
        &root,
        "python.suite.json",
        "read_secret",
        "{}",
        &["--engine", "landlock"],
    );
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["error"]["type"], "PermissionError", "{r}");
    let (r, code) = exec(
        &root,
        "python.suite.json",
        "read_note",
        r#"{"name": "todo"}"#,
        &["--engine", "landlock"],
    );
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["result"]["text"], "buy milk and bread");
}

#[test]
fn memory_and_output_caps_kill_the_call() {
    let (_tmp, root) = notes_repo();
    let (r, code) = exec(
        &root,
        "mf.suite.json",
        "hog_memory",
        r#"{"mb": 600}"#,
        &["--max-memory-mb", "120"],
    );
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["status"], "memory-exceeded", "{r}");
    let (r, code) = exec(
        &root,
        "python.suite.json",
        "hog_memory",
        r#"{"mb": 600}"#,
        &["--max-memory-mb", "120"],
    );
    assert_eq!(code, 1, "{r}");
    // Python meets RLIMIT_AS as a MemoryError it can report, or the watchdog kills it first.
    assert!(
        r["error"]["type"] == "MemoryError" || r["status"] == "memory-exceeded",
        "{r}"
    );
    let (r, code) = exec(
        &root,
        "mf.suite.json",
        "flood",
        r#"{"bytes": 4000000}"#,
        &["--max-output-bytes", "100000"],
    );
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["status"], "output-exceeded", "{r}");
}

#[test]
fn the_network_is_denied_by_bubblewrap_and_allowed_with_allow_net() {
    let (_tmp, root) = notes_repo();
    let port = accepting_port();
    let input = format!(r#"{{"port": {port}}}"#);
    for (runtime, suite) in SUITES {
        let (r, code) = exec(&root, suite, "phone_home", &input, &[]);
        let network = r["isolation"]["network"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if require_bwrap() {
            assert_eq!(network, "denied", "{runtime}: {r}");
        }
        if network == "denied" {
            assert_eq!(
                code, 1,
                "{runtime}: a tool that declares read reached the network: {r}"
            );
            assert_ne!(r["result"], "connected", "{runtime}: {r}");
        } else {
            // Said honestly: this engine does not stop it.
            assert_eq!(network, "not-enforced", "{runtime}: {r}");
        }
        let (r, code) = exec(&root, suite, "phone_home", &input, &["--allow-net"]);
        assert_eq!(code, 0, "{runtime}: {r}");
        assert_eq!(r["result"], "connected", "{runtime}: {r}");
        assert_eq!(r["isolation"]["network"], "allowed", "{runtime}: {r}");
    }
}

#[test]
fn landlock_denies_tcp_where_the_kernel_has_abi_4() {
    let (_tmp, root) = notes_repo();
    let landlock = landlock_engine(&root);
    let abi = landlock["detail"]
        .as_str()
        .and_then(|d| d.strip_prefix("abi "))
        .and_then(|n| n.parse::<u32>().ok());
    if abi.is_none_or(|n| n < 4) {
        // An older kernel: nothing claims TCP is denied.
        let out = mf_in(&root)
            .args(["sandbox", "check", "--format", "json"])
            .output()
            .expect("runs");
        let plan = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(!plan.contains("TCP connect and bind are denied"), "{plan}");
        return;
    }
    let port = accepting_port();
    let input = format!(r#"{{"port": {port}}}"#);
    let landlock = ["--engine", "landlock"];
    let (r, code) = exec(&root, "python.suite.json", "phone_home", &input, &landlock);
    assert_eq!(code, 1, "a read-only tool connected under Landlock: {r}");
    assert_ne!(r["result"], "connected", "{r}");
    assert_eq!(
        r["isolation"]["network"], "not-enforced",
        "UDP is not covered: {r}"
    );
    assert!(
        r["isolation"]["notes"]
            .as_array()
            .is_some_and(|n| n.iter().any(|n| n
                .as_str()
                .is_some_and(|n| n.starts_with("TCP connect and bind are denied")))),
        "{r}"
    );
    let (r, code) = exec(
        &root,
        "python.suite.json",
        "phone_home",
        &input,
        &[&landlock[..], &["--allow-net"]].concat(),
    );
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["result"], "connected", "{r}");
}

#[test]
fn a_tool_dies_with_mf() {
    let (_tmp, root) = notes_repo();
    let marker = root.to_string_lossy().into_owned();
    for (suite, engine) in [
        ("mf.suite.json", "plain"),
        ("python.suite.json", "plain"),
        ("python.suite.json", "auto"),
    ] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("mf"))
            .current_dir(&root)
            .args([
                "exec",
                "--suite",
                suite,
                "--tool",
                "wait_forever",
                "--timeout",
                "60",
            ])
            .args(["--engine", engine])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn");
        // Until the tool is running.
        let started = Instant::now();
        while processes_mentioning(&format!("{marker}/tools")).is_empty()
            && started.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(
            !processes_mentioning(&marker).is_empty(),
            "{suite} {engine}: the tool never started"
        );
        child.kill().expect("kill mf");
        child.wait().expect("reap mf");
        let gone = Instant::now();
        while !processes_mentioning(&marker).is_empty() && gone.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
        let left = processes_mentioning(&marker);
        assert!(
            left.is_empty(),
            "{suite} {engine}: left after mf was killed: {left:?}"
        );
    }
}

/// mf passes its pid to the shim: a shim whose parent is not that mf (mf died between the
/// spawn and the death signal being armed, and the shim was adopted) never runs the tool.
#[cfg(target_os = "linux")]
#[test]
fn a_shim_whose_mf_is_gone_does_not_start_the_tool() {
    let tmp = tempfile::tempdir().expect("tmp");
    let flag = tmp.path().join("ran");
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("mf"))
        .args(["__mf-exec-shim", "--parent", "1", "--", "/bin/sh", "-c"])
        .arg(format!("touch {}", flag.display()))
        .output()
        .expect("run the shim");
    assert_eq!(out.status.code(), Some(125), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("mf exited before the tool started"),
        "{out:?}"
    );
    assert!(!flag.exists(), "the tool ran");
    // With its real parent it runs.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("mf"))
        .args(["__mf-exec-shim", "--parent"])
        .arg(std::process::id().to_string())
        .args(["--", "/bin/sh", "-c"])
        .arg(format!("touch {}", flag.display()))
        .output()
        .expect("run the shim");
    assert!(out.status.success(), "{out:?}");
    assert!(flag.exists(), "the tool did not run");
}
