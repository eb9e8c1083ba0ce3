//! Eval runner overhead: N trials against a local OpenAI-compatible server that answers after
//! 50 ms, at concurrency 16, through the release `mf eval` binary (plan, requests, cache
//! writes, scoring, JSON). Prints wall time ÷ ideal, where ideal = ceil(N / 16) × 50 ms, and
//! the peak RSS of the mf process for 250 and 1,000 trials (flat = memory does not grow with
//! the number of trials beyond the per-trial rows of the scorecard).
//!
//! The runner figure is the scorecard's `timing.runMs` (first request to last answer); the
//! process figure adds start-up (reading the surface, loading the o200k_base tokenizer) and
//! scoring.
//!
//! Run: `cargo bench --bench eval_runner` (uses /usr/bin/time for the peak RSS).

#![allow(clippy::print_stdout)]

#[path = "../tests/support/chat_server.rs"]
mod chat_server;

use std::process::Command;
use std::time::{Duration, Instant};

const LATENCY_MS: u64 = 50;
const CONCURRENCY: u64 = 16;

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let server = rt.block_on(chat_server::start(Duration::from_millis(LATENCY_MS), false));
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("tools.json"),
        chat_server::tools_json().to_string(),
    )
    .expect("tools");
    for trials in [250u64, 1000] {
        let cases = trials / 10;
        std::fs::write(
            dir.path().join("suite.json"),
            chat_server::suite_json(cases as usize).to_string(),
        )
        .expect("suite");
        let mut best: Option<(f64, f64, u64)> = None;
        for run in 0..3 {
            let cache = dir.path().join(format!("cache-{trials}-{run}"));
            let started = Instant::now();
            let out = Command::new("/usr/bin/time")
                .args(["-f", "%M"])
                .arg(env!("CARGO_BIN_EXE_mf"))
                .current_dir(dir.path())
                .args(["eval", "tools.json", "--suite", "suite.json"])
                .args(["--models", "openai-compatible:bench"])
                .args(["--base-url", &format!("{}/v1", server.uri())])
                .args(["--repeat", "10", "--max-trials", "1000", "--max-tools", "5"])
                .args(["--concurrency", &CONCURRENCY.to_string()])
                .args(["--format", "json", "--no-progress"])
                .arg("--cache-dir")
                .arg(&cache)
                .output()
                .expect("run mf");
            let wall = started.elapsed().as_secs_f64();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let card: serde_json::Value = serde_json::from_slice(&out.stdout).expect("scorecard");
            assert_eq!(
                card["models"][0]["trials"].as_array().map(Vec::len),
                Some(trials as usize)
            );
            let stderr = String::from_utf8_lossy(&out.stderr);
            let rss_kib: u64 = stderr
                .lines()
                .last()
                .and_then(|l| l.trim().parse().ok())
                .unwrap_or(0);
            let run_s = card["timing"]["runMs"].as_f64().unwrap_or(f64::NAN) / 1000.0;
            if best.is_none_or(|(w, _, _)| wall < w) {
                best = Some((wall, run_s, rss_kib));
            }
        }
        let (wall, run_s, rss) = best.expect("runs");
        let ideal = trials.div_ceil(CONCURRENCY) as f64 * LATENCY_MS as f64 / 1000.0;
        println!(
            "{trials} trials, concurrency {CONCURRENCY}, {LATENCY_MS} ms latency (best of 3): \
             runner {run_s:.3} s = {:.3} × ideal {ideal:.3} s; whole process {wall:.3} s = {:.3} × ideal; \
             peak RSS {:.1} MiB",
            run_s / ideal,
            wall / ideal,
            rss as f64 / 1024.0
        );
    }
}
