//! Interrupt a 200-trial run half-way, run it again, and check that the second run sends
//! exactly the missing requests and that the final scorecard equals an uninterrupted run's.
//! Also: the planted key appears in no output and no cache file.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::chat_server;

const SECRET: &str = "sk-test-PLANTED-SECRET-7f3a";

fn eval_cmd(dir: &Path, uri: &str, cache: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mf"));
    cmd.current_dir(dir)
        .args(["eval", "tools.json", "--suite", "suite.json"])
        .args(["--models", "openai-compatible:test-model"])
        .args(["--base-url", &format!("{uri}/v1")])
        .args(["--repeat", "10", "--max-trials", "200", "--max-tools", "5"])
        .args(["--concurrency", "4", "--format", "json", "--no-progress"])
        .arg("--cache-dir")
        .arg(cache)
        .env("MF_PROVIDER_API_KEY", SECRET)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn cache_entries(dir: &Path) -> usize {
    walk(dir).len()
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    out
}

/// The scorecard without what legitimately differs between a resumed and a straight run.
fn comparable(mut card: Value) -> Value {
    card["timing"] = Value::Null;
    for m in card["models"].as_array_mut().expect("models") {
        m["health"]["requests"] = Value::Null;
        m["metrics"]["cached"] = Value::Null;
        m["metrics"]["latencyMs"] = Value::Null;
        for t in m["trials"].as_array_mut().expect("trials") {
            t["cached"] = Value::Null;
            t["latencyMs"] = Value::Null;
        }
    }
    card
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_run_resumes_paying_only_for_missing_trials() {
    let server = chat_server::start(Duration::from_millis(50), true).await;
    let dir = tempfile::tempdir().expect("tmp");
    chat_server::write_tools(dir.path());
    std::fs::write(
        dir.path().join("suite.json"),
        chat_server::suite_json(20).to_string(),
    )
    .expect("suite");
    let cache = dir.path().join("cache");

    // First run: interrupt after ~100 requests.
    let child = eval_cmd(dir.path(), &server.uri(), &cache)
        .spawn()
        .expect("spawn");
    let started = Instant::now();
    loop {
        let n = server.received_requests().await.map_or(0, |r| r.len());
        if n >= 100 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "only {n} requests in 60 s"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .expect("SIGINT");
    let first = child.wait_with_output().expect("wait");
    let first_err = String::from_utf8_lossy(&first.stderr).into_owned();
    assert_eq!(first.status.code(), Some(130), "{first_err}");
    assert!(first_err.contains("interrupted"), "{first_err}");
    let sent_first = server.received_requests().await.expect("recorded").len();
    let kept = cache_entries(&cache);
    assert!(
        (90..200).contains(&kept),
        "{kept} trials kept after the interrupt ({sent_first} requests sent)"
    );
    assert!(sent_first >= kept, "every kept trial was sent once");

    // Second run: only the missing trials are sent.
    let second = eval_cmd(dir.path(), &server.uri(), &cache)
        .output()
        .expect("second run");
    let second_err = String::from_utf8_lossy(&second.stderr).into_owned();
    assert_eq!(second.status.code(), Some(0), "{second_err}");
    let sent_second = server.received_requests().await.expect("recorded").len() - sent_first;
    assert_eq!(
        sent_second,
        200 - kept,
        "the second run pays only for the rest"
    );
    assert_eq!(cache_entries(&cache), 200);
    let resumed: Value = serde_json::from_slice(&second.stdout).expect("scorecard");
    assert_eq!(resumed["models"][0]["metrics"]["cached"], kept as u64);

    // A straight run with a fresh cache gives the same scorecard.
    let fresh = dir.path().join("cache-fresh");
    let straight = eval_cmd(dir.path(), &server.uri(), &fresh)
        .output()
        .expect("straight run");
    assert_eq!(straight.status.code(), Some(0));
    let straight_card: Value = serde_json::from_slice(&straight.stdout).expect("scorecard");
    assert_eq!(
        straight_card["models"][0]["trials"]
            .as_array()
            .map(Vec::len),
        Some(200)
    );
    assert_eq!(comparable(resumed), comparable(straight_card));

    // The key is nowhere: not in outputs, not in the cache, not in the requests' bodies.
    for out in [
        &first.stdout,
        &first.stderr,
        &second.stdout,
        &second.stderr,
        &straight.stdout,
        &straight.stderr,
    ] {
        assert!(!String::from_utf8_lossy(out).contains(SECRET));
    }
    for file in walk(&cache).into_iter().chain(walk(&fresh)) {
        let text = std::fs::read_to_string(&file).expect("entry");
        assert!(!text.contains(SECRET), "{}", file.display());
    }
    let requests = server.received_requests().await.expect("recorded");
    for r in &requests {
        assert!(!String::from_utf8_lossy(&r.body).contains(SECRET));
        assert!(!r.url.as_str().contains(SECRET));
        assert_eq!(
            r.headers.get("authorization").and_then(|v| v.to_str().ok()),
            Some(format!("Bearer {SECRET}").as_str()),
            "the key travels only in the Authorization header"
        );
    }
}
