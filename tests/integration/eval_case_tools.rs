//! Per-case tool sets and parallel-call cases through `mf eval` (issue 21): each case is
//! offered its own tools (the order each trial sends is a permutation of that set), a
//! parallel-call case (`expectedCalls`) is scored as an exact call set with its own metric and
//! confusion row, and a suite naming a tool the case does not offer is refused before anything
//! runs.

use serde_json::{Value, json};

use crate::support::mf_in;

fn suite() -> Value {
    json!({
        "name": "case-tools",
        "tools": [{"name": "search_docs", "description": "Search the docs.",
                   "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}],
        "cases": [
            {"id": "search", "input": "find the install guide", "expectedTool": "search_docs",
             "expectedArgs": {"q": {"$oneOf": ["install guide"], "$normalize": true}}},
            {"id": "weather", "input": "weather in Paris and Rome",
             "tools": [{"name": "get_weather", "description": "Weather for a city.",
                        "parameters": {"type": "object",
                                       "properties": {"city": {"type": "string"},
                                                      "unit": {"type": "string"}},
                                       "required": ["city"]}},
                       "search_docs"],
             "expectedCalls": [
                 {"tool": "get_weather", "args": {"city": "Paris", "unit": {"$optional": true, "$oneOf": ["C"]}}},
                 {"tool": "get_weather", "args": {"city": "Rome"}}]},
        ]
    })
}

fn script() -> Value {
    json!({"$cases": {
        "search": [{"calls": [{"name": "search_docs", "arguments": {"q": "Install-Guide"}}]}],
        "weather": [
            // 0: both calls, in the other order, one optional omitted → exact set
            {"calls": [{"name": "get_weather", "arguments": {"city": "Rome"}},
                       {"name": "get_weather", "arguments": {"city": "Paris", "unit": "C"}}]},
            // 1: one call missing
            {"calls": [{"name": "get_weather", "arguments": {"city": "Rome"}}]},
            // 2: an extra call
            {"calls": [{"name": "get_weather", "arguments": {"city": "Rome"}},
                       {"name": "get_weather", "arguments": {"city": "Paris"}},
                       {"name": "search_docs", "arguments": {}}]},
            // 3: the right tools, a wrong city
            {"calls": [{"name": "get_weather", "arguments": {"city": "Rome"}},
                       {"name": "get_weather", "arguments": {"city": "Lyon"}}]},
        ]
    }})
}

#[test]
fn cases_with_their_own_tools_and_call_sets_are_planned_and_scored() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("s.json"), suite().to_string()).expect("suite");
    std::fs::write(dir.path().join("script.json"), script().to_string()).expect("script");
    let out = mf_in(dir.path())
        .args([
            "eval",
            "--suite",
            "s.json",
            "--models",
            "scripted:script.json",
        ])
        .args(["--repeat", "4", "--format", "json"])
        .output()
        .expect("run");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let card: Value = serde_json::from_slice(&out.stdout).expect("scorecard");
    let cases = &card["suite"]["cases"];
    assert_eq!(cases[1]["tools"], json!(["get_weather", "search_docs"]));
    assert_eq!(cases[1]["expectedTool"], "get_weather ×2");
    assert_eq!(
        cases[1]["expectedCalls"],
        json!(["get_weather", "get_weather"])
    );
    assert_eq!(
        card["suite"]["tools"],
        json!(["search_docs", "get_weather"])
    );
    let m = &card["models"][0];
    let trials = m["trials"].as_array().expect("trials");
    for t in trials.iter().filter(|t| t["case"] == "weather") {
        let mut order: Vec<&str> = t["order"]
            .as_array()
            .expect("order")
            .iter()
            .map(|n| n.as_str().expect("name"))
            .collect();
        order.sort_unstable();
        assert_eq!(order, ["get_weather", "search_docs"], "the case's own set");
    }
    let weather: Vec<(&str, bool)> = trials
        .iter()
        .filter(|t| t["case"] == "weather")
        .map(|t| {
            (
                t["verdict"].as_str().expect("verdict"),
                t["args"]["ok"] == true,
            )
        })
        .collect();
    assert_eq!(
        weather,
        [
            ("correct", true),
            ("wrong-tool", false),
            ("unexpected-additional-calls", false),
            ("correct", false),
        ]
    );
    // Trial 3's problem names the expected call no call matched.
    let problems = &trials
        .iter()
        .filter(|t| t["case"] == "weather")
        .nth(3)
        .expect("t3")["args"]["problems"];
    assert!(
        problems[0]
            .as_str()
            .is_some_and(|p| p.starts_with("expectedCalls[0] (get_weather)")),
        "{problems}"
    );
    let metrics = &m["metrics"];
    assert_eq!(
        metrics["callSetAccuracy"]["numerator"], 1,
        "{}",
        metrics["callSetAccuracy"]
    );
    assert_eq!(metrics["callSetAccuracy"]["denominator"], 4);
    // The normalized $oneOf accepted "Install-Guide" on every search trial.
    assert_eq!(metrics["argumentAccuracy"]["numerator"], 5);
    assert_eq!(metrics["argumentAccuracy"]["denominator"], 6);
    let rows = metrics["confusion"]["rows"].as_array().expect("rows");
    assert!(rows.contains(&json!("get_weather ×2")), "{rows:?}");
    let pairs = metrics["confusionPairs"].as_array().expect("pairs");
    assert!(
        pairs
            .iter()
            .any(|p| p["expected"] == "get_weather ×2" && p["picked"] == "get_weather"),
        "a missing call shows as its own cell: {pairs:?}"
    );
}

#[test]
fn a_call_set_naming_a_tool_the_case_does_not_offer_is_refused_before_running() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut s = suite();
    s["cases"][1]["expectedCalls"][1]["tool"] = json!("get_wether");
    s["cases"][1]["tools"][1] = json!("search_doc");
    std::fs::write(dir.path().join("s.json"), s.to_string()).expect("suite");
    let out = mf_in(dir.path())
        .args(["eval", "--suite", "s.json", "--models", "lexical"])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("case \"weather\": tools names \"search_doc\", which is not a tool")
            && err.contains("did you mean \"search_docs\""),
        "{err}"
    );
    s["cases"][1]["tools"][1] = json!("search_docs");
    std::fs::write(dir.path().join("s.json"), s.to_string()).expect("suite");
    let out = mf_in(dir.path())
        .args(["eval", "--suite", "s.json", "--models", "lexical"])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "case \"weather\": expectedCalls[1].tool \"get_wether\" is not a tool of its tools \
             (did you mean \"get_weather\"?)"
        ),
        "{err}"
    );
}
