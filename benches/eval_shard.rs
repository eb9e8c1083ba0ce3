//! Sharding pays off when a provider caps concurrency per key: one plan of 1,000 trials against
//! a local OpenAI-compatible server that answers after 100 ms, at `--concurrency 4` (a
//! rate-limited key), run (a) as one `mf eval` and (b) as three `mf eval --shard K/3` processes
//! at once (three CI jobs, three keys' worth of concurrency) followed by `mf merge`. Prints both
//! wall times, their ratio (ideal 3.0: the shards are balanced by cost, so the slowest shard
//! holds about a third), the merge's own time and how evenly the shards split; and checks that
//! the merged scorecard equals the single run's except for timing.
//!
//! Run: `cargo bench --bench eval_shard` (add `--profile dev` to skip the release build).

#![allow(clippy::print_stdout)]

#[path = "../tests/support/chat_server.rs"]
mod chat_server;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

const LATENCY_MS: u64 = 100;
const CASES: usize = 100;
const REPEAT: &str = "10";

fn eval(dir: &Path, uri: &str, cache: &str, extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mf"));
    cmd.current_dir(dir)
        .args(["eval", "tools.json", "--suite", "suite.json"])
        .args(["--models", "openai-compatible:bench"])
        .args(["--base-url", &format!("{uri}/v1")])
        .args([
            "--repeat",
            REPEAT,
            "--max-trials",
            "1000",
            "--concurrency",
            "4",
        ])
        .args(["--format", "json", "--no-progress", "--cache-dir", cache])
        .args(extra);
    cmd
}

fn check(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn without_timing(mut card: Value) -> Value {
    card.as_object_mut().expect("card").remove("timing");
    for m in card["models"].as_array_mut().expect("models") {
        m["metrics"]
            .as_object_mut()
            .expect("metrics")
            .remove("latencyMs");
        for t in m["trials"].as_array_mut().expect("trials") {
            t.as_object_mut().expect("trial").remove("latencyMs");
        }
    }
    card
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let server = rt.block_on(chat_server::start(Duration::from_millis(LATENCY_MS), false));
    let uri = server.uri();
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    chat_server::write_tools(dir);
    std::fs::write(
        dir.join("suite.json"),
        chat_server::suite_json(CASES).to_string(),
    )
    .expect("suite");

    let started = Instant::now();
    let single = eval(dir, &uri, "cache-single", &[]).output().expect("mf");
    let single_s = started.elapsed().as_secs_f64();
    check(&single);

    let started = Instant::now();
    let children: Vec<_> = (1..=3)
        .map(|k| {
            eval(
                dir,
                &uri,
                "cache-shards",
                &[
                    "--shard",
                    &format!("{k}/3"),
                    "--json-out",
                    &format!("part-{k}.json"),
                ],
            )
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn")
        })
        .collect();
    for child in children {
        check(&child.wait_with_output().expect("wait"));
    }
    let shards_s = started.elapsed().as_secs_f64();
    let merge_started = Instant::now();
    let merged = Command::new(env!("CARGO_BIN_EXE_mf"))
        .current_dir(dir)
        .args([
            "merge",
            "part-1.json",
            "part-2.json",
            "part-3.json",
            "--format",
            "json",
        ])
        .output()
        .expect("mf merge");
    let merge_s = merge_started.elapsed().as_secs_f64();
    check(&merged);
    let sharded_s = shards_s + merge_s;

    let sizes: Vec<usize> = (1..=3)
        .map(|k| {
            let text = std::fs::read_to_string(dir.join(format!("part-{k}.json"))).expect("part");
            let part: Value = serde_json::from_str(&text).expect("json");
            part["shard"]["trials"].as_array().map_or(0, Vec::len)
        })
        .collect();
    let one: Value = serde_json::from_slice(&single.stdout).expect("scorecard");
    let joined: Value = serde_json::from_slice(&merged.stdout).expect("merged");
    let equal = without_timing(one) == without_timing(joined);
    println!(
        "{} trials, {LATENCY_MS} ms per answer, concurrency 4 per process",
        CASES * 10
    );
    println!("  one run:            {single_s:.2} s");
    println!(
        "  3 shards at once:   {shards_s:.2} s (+ merge {merge_s:.2} s = {sharded_s:.2} s); shard sizes {sizes:?}"
    );
    println!(
        "  speed-up:           {:.2}× (ideal 3.00×); merged == single but timing: {equal}",
        single_s / sharded_s
    );
    assert!(equal, "the merged scorecard differs from the single run");
}
