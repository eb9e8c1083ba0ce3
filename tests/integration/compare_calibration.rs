//! `mf compare --calibration` end to end with the scripted model: a head that breaks 7 of 10
//! cases (or 6 of 24) fails the calibrated gate with the metric and its effect named; without
//! calibration the verdict says what would decide; and a provider that redraws a quarter of
//! the cases on every run, with identical surfaces, is rarely called regressed.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::rng::Rng;
use crate::support::{chat_server, mf_in, text};

/// The five tools of the chat server, in the order the cases cycle through them.
const TOOLS: [&str; 5] = [
    "issue_refund",
    "search_tickets",
    "get_ticket",
    "lookup_order",
    "get_invoice",
];

fn expected(i: usize) -> &'static str {
    TOOLS[i % TOOLS.len()]
}

fn wrong(i: usize) -> &'static str {
    TOOLS[(i + 1) % TOOLS.len()]
}

/// Write tools.json and a suite of `n` cases into `dir`.
fn setup(dir: &Path, n: usize) {
    chat_server::write_tools(dir);
    let cases: Vec<Value> = (0..n)
        .map(|i| json!({"id": format!("case-{i}"), "input": format!("request {i}"), "expectedTool": expected(i)}))
        .collect();
    std::fs::write(
        dir.join("suite.json"),
        json!({"name": "calibration", "cases": cases}).to_string(),
    )
    .expect("suite");
}

/// Run `mf eval` with a script answering case `i` correctly when `good[i]`.
fn eval(dir: &Path, out: &str, good: &[bool]) {
    let script: serde_json::Map<String, Value> = good
        .iter()
        .enumerate()
        .map(|(i, &ok)| {
            (
                format!("request {i}"),
                json!(if ok { expected(i) } else { wrong(i) }),
            )
        })
        .collect();
    let file = "script.json".to_owned();
    std::fs::write(dir.join(&file), Value::Object(script).to_string()).expect("script");
    let o = mf_in(dir)
        .args(["eval", "tools.json", "--suite", "suite.json"])
        .args(["--models", &format!("scripted:{file}")])
        .args(["--no-cache", "--format", "json", "--json-out", out])
        .output()
        .expect("eval");
    assert!(o.status.success(), "{}", text(&o));
}

fn compare(dir: &Path, extra: &[&str]) -> (Option<i32>, Value, String) {
    let json = mf_in(dir)
        .args(["compare", "base.json", "head.json", "--format", "json"])
        .args(extra)
        .output()
        .expect("compare");
    let report: Value =
        serde_json::from_slice(&json.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&json)));
    let terminal = mf_in(dir)
        .args(["compare", "base.json", "head.json"])
        .args(extra)
        .output()
        .expect("compare");
    (json.status.code(), report, text(&terminal))
}

fn selection(report: &Value) -> &Value {
    &report["eval"]["models"][0]["metrics"][0]
}

/// base 8 of 10 right; head breaks 7 of them and fixes one: 80% → 20%, cases 1↑ 7↓ 2=.
fn seven_of_ten(dir: &Path) {
    setup(dir, 10);
    let base: Vec<bool> = (0..10).map(|i| i < 8).collect();
    let head: Vec<bool> = (0..10).map(|i| i == 7 || i == 8).collect();
    eval(dir, "base.json", &base);
    eval(dir, "base2.json", &base);
    eval(dir, "head.json", &head);
}

#[test]
fn seven_broken_cases_of_ten_fail_the_calibrated_gate_with_the_effect_named() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path();
    seven_of_ten(d);
    let (code, report, terminal) =
        compare(d, &["--calibration", "base2.json", "--fail-on-regression"]);
    assert_eq!(code, Some(2), "{terminal}");
    assert_eq!(report["verdict"], "regressed");
    assert_eq!(report["eval"]["gate"]["pairing"], "calibrated");
    let m = selection(&report);
    assert_eq!(m["metric"], "selection-accuracy");
    assert_eq!(m["verdict"], "regressed");
    assert_eq!(m["calibrated"]["worse"], 7);
    assert_eq!(m["calibrated"]["aaFlipped"], 0);
    let effect = &m["effect"];
    assert!((effect["difference"].as_f64().expect("difference") + 0.6).abs() < 1e-12);
    assert!(effect["ci95"][0].as_f64().expect("lower") < -0.6);
    assert!(effect["ci95"][1].as_f64().expect("upper") < 0.0);
    assert!(
        terminal.contains("selection-accuracy") && terminal.contains("−60.0 pts ["),
        "{terminal}"
    );
    assert!(terminal.contains("REGRESSED"), "{terminal}");
}

#[test]
fn without_calibration_the_verdict_is_not_unchanged_and_says_what_would_decide() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path();
    seven_of_ten(d);
    let (code, report, terminal) = compare(d, &["--fail-on-regression"]);
    assert_eq!(
        code,
        Some(0),
        "likely regressed does not fail the gate: {terminal}"
    );
    let m = selection(&report);
    assert_eq!(m["verdict"], "likely-regressed");
    assert_eq!(report["verdict"], "likely-regressed");
    assert_eq!(
        (
            m["case"]["regressed"].clone(),
            m["case"]["improved"].clone()
        ),
        (json!(7), json!(1))
    );
    assert!(terminal.contains("likely regressed"), "{terminal}");
    assert!(terminal.contains("--calibration"), "{terminal}");
    assert!(terminal.contains("7 of 10 cases fell"), "{terminal}");
    assert!(terminal.contains("−60.0 pts ["), "{terminal}");
    // What the suite can reveal is stated.
    assert!(
        terminal.contains("needs ≥ 6 cases to fall and none to rise"),
        "{terminal}"
    );
}

#[test]
fn six_broken_cases_of_twenty_four_fail_the_calibrated_gate() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path();
    setup(d, 24);
    let base = vec![true; 24];
    let head: Vec<bool> = (0..24).map(|i| i >= 6).collect();
    eval(d, "base.json", &base);
    eval(d, "base2.json", &base);
    eval(d, "head.json", &head);
    let (code, report, terminal) =
        compare(d, &["--calibration", "base2.json", "--fail-on-regression"]);
    assert_eq!(code, Some(2), "{terminal}");
    assert_eq!(selection(&report)["verdict"], "regressed");
    assert!(terminal.contains("−25.0 pts ["), "{terminal}");
    // The same without calibration: 6 of 6 discordant cases is exactly what the case-level
    // test needs, so it regresses too.
    let (code, report, _) = compare(d, &["--fail-on-regression"]);
    assert_eq!(code, Some(2));
    assert_eq!(selection(&report)["verdict"], "regressed");
}

#[test]
fn a_cached_calibration_run_is_refused() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path();
    setup(d, 10);
    let good = vec![true; 10];
    eval(d, "base.json", &good);
    eval(d, "head.json", &good);
    eval(d, "base2.json", &good);
    // Mark one trial as served from the trial cache (an HTTP model's cache hit).
    let mut card: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("base2.json")).expect("read"))
            .expect("json");
    card["models"][0]["trials"][0]["cached"] = json!(true);
    std::fs::write(d.join("base2.json"), card.to_string()).expect("write");
    let o = mf_in(d)
        .args([
            "compare",
            "base.json",
            "head.json",
            "--calibration",
            "base2.json",
        ])
        .output()
        .expect("compare");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("cache"), "{}", text(&o));
}

#[test]
fn a_provider_that_redraws_a_quarter_of_the_cases_is_rarely_called_regressed() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path();
    setup(d, 20);
    let mut rng = Rng(2024);
    let rates: Vec<f64> = (0..20).map(|_| 0.35 + 0.6 * rng.unit()).collect();
    let stable: Vec<bool> = rates.iter().map(|&p| rng.bern(p)).collect();
    let mut called = 0;
    for _ in 0..20 {
        let mut run = |out: &str| {
            let good: Vec<bool> = rates
                .iter()
                .zip(&stable)
                .map(|(&p, &s)| if rng.bern(0.25) { rng.bern(p) } else { s })
                .collect();
            eval(d, out, &good);
        };
        run("base.json");
        run("base2.json");
        run("head.json");
        let (code, report, _) =
            compare(d, &["--calibration", "base2.json", "--fail-on-regression"]);
        if report["verdict"] == "regressed" {
            assert_eq!(code, Some(2));
            called += 1;
        }
    }
    assert!(
        called <= 2,
        "{called} of 20 identical-surface compares called a regression"
    );
}
