//! `mf eval --shard K/N` + `mf merge` against a local OpenAI-compatible server (wiremock): the
//! merged scorecard equals one unsharded run in every field but timing, the shards together send
//! exactly the single run's requests (none twice), an incomplete set is refused, a re-run shard
//! is served from the cache, and every shard checks the whole plan's budget before it spends.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use serde_json::{Value, json};
use wiremock::MockServer;

use crate::support::{chat_server, mf_in, show};

const KEY: &str = "sk-test-shard";

/// Twelve cases of every answer kind, an argument check that passes and one that fails, and an
/// unreviewed case.
fn write_suite(dir: &Path) {
    chat_server::write_tools(dir);
    let mut suite = chat_server::suite_json(12);
    let cases = suite["cases"].as_array_mut().expect("cases");
    cases.push(
        json!({"id": "args-ok", "input": "refund A-1 [call issue_refund]",
        "expectedTool": "issue_refund", "expectedArgs": {"q": {"$contains": "A-1"}}}),
    );
    cases.push(
        json!({"id": "args-bad", "input": "refund B-2 [call issue_refund]",
        "expectedTool": "issue_refund", "expectedArgs": {"q": "something else"}}),
    );
    cases.push(json!({"id": "draft", "input": "draft [call get_ticket]",
        "expectedTool": "get_ticket", "reviewed": false}));
    std::fs::write(dir.join("suite.json"), suite.to_string()).expect("suite");
}

fn eval(dir: &Path, uri: &str, cache: &str, extra: &[&str]) -> Output {
    mf_in(dir)
        .args(["eval", "tools.json", "--suite", "suite.json"])
        .args([
            "--models",
            "openai-compatible:model-a,openai-compatible:model-b",
        ])
        .args(["--base-url", &format!("{uri}/v1")])
        .args(["--repeat", "3", "--concurrency", "4"])
        .args(["--no-progress", "--cache-dir", cache])
        .args(if extra.contains(&"--max-trials") {
            &[][..]
        } else {
            &["--max-trials", "200"][..]
        })
        .args(extra)
        .env("MF_PROVIDER_API_KEY", KEY)
        .output()
        .expect("runs")
}

/// Every request body the server received from index `from` on, as canonical text.
async fn bodies(server: &MockServer, from: usize) -> Vec<String> {
    let all = server.received_requests().await.expect("recording");
    all[from..]
        .iter()
        .map(|r| {
            let v: Value = serde_json::from_slice(&r.body).expect("json body");
            v.to_string()
        })
        .collect()
}

/// The scorecard without the timing fields (the only ones allowed to differ).
fn without_timing(mut card: Value) -> Value {
    card.as_object_mut().expect("object").remove("timing");
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

fn counts(bodies: &[String]) -> BTreeMap<&str, usize> {
    let mut out = BTreeMap::new();
    for b in bodies {
        *out.entry(b.as_str()).or_default() += 1;
    }
    out
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_shards_merged_equal_one_run_with_the_same_requests() {
    let server = chat_server::start(Duration::ZERO, true).await;
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    write_suite(dir);
    let uri = server.uri();

    // One unsharded run, fresh cache.
    let one = eval(dir, &uri, "cache-one", &["--json-out", "one.json"]);
    assert!(one.status.success(), "{}", show(&one));
    let single = bodies(&server, 0).await;
    // 15 cases × 3 repeats × 2 models.
    assert_eq!(single.len(), 90);

    // Three shards, another fresh cache.
    let mut sizes = Vec::new();
    for k in 1..=3 {
        let out = eval(
            dir,
            &uri,
            "cache-shards",
            &[
                "--shard",
                &format!("{k}/3"),
                "--json-out",
                &format!("part-{k}.json"),
            ],
        );
        assert!(out.status.success(), "{}", show(&out));
        let part = read(&dir.join(format!("part-{k}.json")));
        assert_eq!(part["shard"]["index"], k);
        assert_eq!(part["shard"]["count"], 3);
        assert!(
            part["shard"]["plan"]
                .as_str()
                .expect("plan")
                .starts_with("sha256:")
        );
        sizes.push(part["shard"]["trials"].as_array().expect("keys").len());
    }
    let sharded = bodies(&server, single.len()).await;
    assert_eq!(
        sharded.len(),
        single.len(),
        "the same total number of requests"
    );
    assert!(
        counts(&sharded).values().all(|n| *n == 1),
        "no request was sent twice"
    );
    assert_eq!(
        counts(&sharded),
        counts(&single),
        "the shards sent exactly the single run's requests (same tool orders)"
    );
    assert_eq!(sizes.iter().sum::<usize>(), 90, "{sizes:?}");
    assert!(sizes.iter().all(|n| *n > 0 && *n % 3 == 0), "{sizes:?}");

    let merged = mf_in(dir)
        .args(["merge", "part-3.json", "part-1.json", "part-2.json"])
        .args(["--format", "json", "--json-out", "merged.json"])
        .output()
        .expect("runs");
    assert!(merged.status.success(), "{}", show(&merged));
    let merged = read(&dir.join("merged.json"));
    let single_card = read(&dir.join("one.json"));
    // The merged scorecard is a plain scorecard: no shard, not partial, per-part timing.
    assert!(merged.get("shard").is_none() && merged.get("partial").is_none());
    assert_eq!(merged["timing"]["parts"].as_array().map(Vec::len), Some(3));
    // Metrics are not trivial: some arguments fail, some trials are wrong, one case unreviewed.
    let m = &single_card["models"][0]["metrics"];
    assert!(
        m["argumentAccuracy"]["numerator"].as_u64() < m["argumentAccuracy"]["denominator"].as_u64()
    );
    assert!(m["selectionAccuracy"]["value"].as_f64().expect("measured") < 1.0);
    assert!(!m["unreviewed"].is_null());
    assert_eq!(
        without_timing(merged.clone()),
        without_timing(single_card.clone()),
        "the merged scorecard equals the single run but for timing"
    );

    // `mf report` and `mf compare` take the merged scorecard like any other.
    let report = mf_in(dir)
        .args(["report", "merged.json", "--format", "markdown"])
        .output()
        .expect("runs");
    assert!(report.status.success(), "{}", show(&report));
    let compare = mf_in(dir)
        .args(["compare", "one.json", "merged.json", "--format", "json"])
        .output()
        .expect("runs");
    assert!(compare.status.success(), "{}", show(&compare));
    let cmp: Value = serde_json::from_slice(&compare.stdout).expect("compare json");
    assert_eq!(cmp["verdict"], "unchanged", "{cmp}");
    // A part is not a whole run: compare names the fix.
    let part_vs = mf_in(dir)
        .args(["compare", "one.json", "part-1.json"])
        .output()
        .expect("runs");
    assert_eq!(part_vs.status.code(), Some(1), "{}", show(&part_vs));
    assert!(String::from_utf8_lossy(&part_vs.stderr).contains("mf merge"));

    // Two of three parts: refused, naming the missing shard; --allow-partial marks the result.
    let two = mf_in(dir)
        .args(["merge", "part-1.json", "part-2.json"])
        .output()
        .expect("runs");
    assert_eq!(two.status.code(), Some(1), "{}", show(&two));
    let err = String::from_utf8_lossy(&two.stderr);
    assert!(
        err.contains("3/3") && err.contains("--allow-partial"),
        "{err}"
    );
    let partial = mf_in(dir)
        .args([
            "merge",
            "part-1.json",
            "part-2.json",
            "--allow-partial",
            "--format",
            "json",
        ])
        .args(["--json-out", "partial.json"])
        .output()
        .expect("runs");
    let card: Value = serde_json::from_slice(&partial.stdout).expect("json");
    assert_eq!(card["partial"]["missing"], json!([3]), "{}", show(&partial));
    assert_eq!(
        card["partial"]["missingTrials"].as_u64(),
        Some(sizes[2] as u64)
    );
    let held: usize = card["models"]
        .as_array()
        .expect("models")
        .iter()
        .map(|m| m["trials"].as_array().expect("trials").len())
        .sum();
    assert_eq!(held, sizes[0] + sizes[1]);

    // Every rendering says what a part or a partial merge covers.
    for (file, says) in [
        ("part-1.json", "part: shard 1/3"),
        ("partial.json", "partial: shard 3/3 missing ("),
    ] {
        for format in ["markdown", "terminal", "html"] {
            let out = mf_in(dir)
                .args(["report", file, "--format", format])
                .output()
                .expect("runs");
            assert!(out.status.success(), "{}", show(&out));
            // (HTML escapes the slash.)
            let text = String::from_utf8_lossy(&out.stdout)
                .to_lowercase()
                .replace("&#x2f;", "/");
            assert!(text.contains(says), "{file} {format}: {text}");
        }
    }

    // A shard twice: refused.
    let dup = mf_in(dir)
        .args([
            "merge",
            "part-1.json",
            "part-2.json",
            "part-2.json",
            "part-3.json",
        ])
        .output()
        .expect("runs");
    assert_eq!(dup.status.code(), Some(1), "{}", show(&dup));
    assert!(String::from_utf8_lossy(&dup.stderr).contains("given twice"));

    // Re-running a shard resumes from the cache: zero new requests, every trial cached.
    let before = server.received_requests().await.expect("recording").len();
    let again = eval(
        dir,
        &uri,
        "cache-shards",
        &["--shard", "2/3", "--json-out", "part-2-again.json"],
    );
    assert!(again.status.success(), "{}", show(&again));
    assert_eq!(
        server.received_requests().await.expect("recording").len(),
        before,
        "a retried shard pays for nothing twice"
    );
    let again = read(&dir.join("part-2-again.json"));
    for m in again["models"].as_array().expect("models") {
        assert_eq!(m["health"]["requests"], 0);
        assert!(
            m["trials"]
                .as_array()
                .expect("trials")
                .iter()
                .all(|t| t["cached"] == true)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_shard_checks_the_whole_plans_budget_and_different_plans_do_not_merge() {
    let server = chat_server::start(Duration::ZERO, true).await;
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    write_suite(dir);
    let uri = server.uri();

    // 90 trials in the plan; shard 1/3 holds ~30, under --max-trials 50, but the plan is over.
    let out = eval(
        dir,
        &uri,
        "cache",
        &["--shard", "1/3", "--max-trials", "50"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("90 paid trials") && err.contains("--max-trials 50"),
        "{err}"
    );
    assert!(
        server
            .received_requests()
            .await
            .expect("recording")
            .is_empty()
    );

    // The dry run shows how the plan splits and sends nothing.
    let out = eval(dir, &uri, "cache", &["--shard", "2/3", "--dry-run"]);
    assert!(out.status.success(), "{}", show(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("shards (mf-shard-v1"))
        .unwrap_or_else(|| panic!("{text}"));
    let sizes: Vec<u64> = line
        .split(" trials (")
        .filter_map(|chunk| chunk.rsplit(' ').next()?.parse().ok())
        .collect();
    assert_eq!(sizes.len(), 3, "{line}");
    assert_eq!(sizes.iter().sum::<u64>(), 90, "{line}");
    assert!(line.contains("sends shard 2/3 only"), "{line}");
    assert!(
        server
            .received_requests()
            .await
            .expect("recording")
            .is_empty()
    );

    // Parts of two plans (another seed) are refused, naming both files.
    for (k, seed) in [(1, "0"), (2, "7")] {
        let out = eval(
            dir,
            &uri,
            "cache",
            &[
                "--shard",
                &format!("{k}/2"),
                "--seed",
                seed,
                "--json-out",
                &format!("p{k}.json"),
            ],
        );
        assert!(out.status.success(), "{}", show(&out));
    }
    let out = mf_in(dir)
        .args(["merge", "p1.json", "p2.json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("different plans") && err.contains("p2.json"),
        "{err}"
    );
    assert!(err.contains("seed"), "names what differs: {err}");

    // A part whose settings were edited no longer matches its fingerprint.
    let mut part = read(&dir.join("p1.json"));
    part["reproducibility"]["repeat"] = json!(2);
    std::fs::write(dir.join("edited-settings.json"), part.to_string()).expect("write");
    let out = mf_in(dir)
        .args(["merge", "edited-settings.json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("does not match its content"),
        "{}",
        show(&out)
    );

    // Parts of one plan split two ways do not mix.
    let out = eval(
        dir,
        &uri,
        "cache",
        &["--shard", "2/3", "--json-out", "p2of3.json"],
    );
    assert!(out.status.success(), "{}", show(&out));
    let out = mf_in(dir)
        .args(["merge", "p1.json", "p2of3.json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("same --shard K/N split"),
        "{}",
        show(&out)
    );

    // An edited part (a trial dropped) is refused.
    let mut part = read(&dir.join("p1.json"));
    part["models"][0]["trials"]
        .as_array_mut()
        .expect("trials")
        .pop();
    std::fs::write(dir.join("edited.json"), part.to_string()).expect("write");
    let out = mf_in(dir)
        .args(["merge", "edited.json", "p1.json"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("edited.json: holds"));
}

/// A shard part's JUnit lists the cases that shard ran, and only those: across the matrix every
/// case is reported once, none as skipped for being in another shard.
#[test]
fn each_shards_junit_lists_only_its_own_cases() {
    let tmp = tempfile::tempdir().expect("tmp");
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/acme-support/mf.suite.yaml");
    let mut seen: Vec<String> = Vec::new();
    for k in 1..=3 {
        let part = tmp.path().join(format!("p{k}.json"));
        let out = crate::support::mf()
            .arg("eval")
            .arg("--suite")
            .arg(&suite)
            .args(["--models", "lexical", "--no-cache", "--no-progress"])
            .args(["--shard", &format!("{k}/3")])
            .arg("--json-out")
            .arg(&part)
            .output()
            .expect("runs");
        assert!(out.status.code().is_some_and(|c| c <= 2), "{}", show(&out));
        let out = crate::support::mf()
            .arg("report")
            .arg(&part)
            .args(["--format", "junit"])
            .output()
            .expect("runs");
        assert!(out.status.success(), "{}", show(&out));
        let doc = crate::support::junit::parse_junit(&String::from_utf8_lossy(&out.stdout));
        let suite = &doc.suites[0];
        // Skipped only for being unreviewed (the suite has one such case), never for being
        // another shard's.
        let unreviewed = shard_has_unreviewed(&part);
        assert_eq!(
            suite.skipped,
            usize::from(unreviewed),
            "shard {k}: {:?}",
            suite.cases
        );
        assert!(
            suite
                .properties
                .items
                .iter()
                .any(|p| p.name == "shard" && p.value == format!("{k}/3")),
            "shard {k}"
        );
        let shard: Value = read(&part);
        let mut ran: Vec<String> = shard["shard"]["trials"]
            .as_array()
            .expect("trials")
            .iter()
            .map(|t| t["case"].as_str().expect("case").to_owned())
            .collect();
        ran.dedup();
        let listed: Vec<String> = suite.cases.iter().map(|c| c.name.clone()).collect();
        assert_eq!(listed.len(), suite.tests);
        let mut a = listed.clone();
        a.sort();
        ran.sort();
        ran.dedup();
        assert_eq!(a, ran, "shard {k}");
        seen.extend(listed);
    }
    let n = seen.len();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), n, "a case reported by two shards");
    assert_eq!(
        n, 17,
        "every case of the suite once across the three shards"
    );
}

fn shard_has_unreviewed(part: &Path) -> bool {
    let card = read(part);
    let ran: Vec<&str> = card["shard"]["trials"]
        .as_array()
        .expect("trials")
        .iter()
        .filter_map(|t| t["case"].as_str())
        .collect();
    card["suite"]["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .any(|c| c["reviewed"] == json!(false) && ran.contains(&c["id"].as_str().unwrap_or("")))
}
