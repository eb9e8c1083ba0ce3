//! A planted regression for `mf compare`: the five tools of [`chat_server::tools_json`], 20
//! cases (ten refunds, ten spread over the other tools) and scripted answers that send the
//! refunds wherever the test says, run through `mf eval` with the scripted model.
//!
//! [`chat_server::tools_json`]: super::chat_server::tools_json

use std::path::Path;

use serde_json::{Value, json};

use super::{chat_server, mf_in, text};

/// The tools other than `issue_refund`, in the order the `other-N` cases cycle through them.
const OTHERS: [&str; 4] = [
    "search_tickets",
    "get_ticket",
    "lookup_order",
    "get_invoice",
];

/// The suite `name`: `refund-0..9` expect issue_refund, `other-0..9` cycle through [`OTHERS`].
pub fn suite(name: &str) -> Value {
    let mut cases = Vec::new();
    for i in 0..10 {
        cases.push(json!({"id": format!("refund-{i}"), "input": format!("refund order {i}"), "expectedTool": "issue_refund"}));
    }
    for i in 0..10 {
        let t = OTHERS[i % OTHERS.len()];
        cases.push(json!({"id": format!("other-{i}"), "input": format!("other request {i}"), "expectedTool": t}));
    }
    json!({"name": name, "cases": cases})
}

/// A script answering every case correctly, except refunds go to `refund_tool` and `other-1`
/// (a get_ticket case) goes to `ticket_tool`.
pub fn script(refund_tool: &str, ticket_tool: &str) -> Value {
    let mut m = serde_json::Map::new();
    for i in 0..10 {
        m.insert(format!("refund order {i}"), json!(refund_tool));
        let tool = if i == 1 {
            ticket_tool
        } else {
            OTHERS[i % OTHERS.len()]
        };
        m.insert(format!("other request {i}"), json!(tool));
    }
    Value::Object(m)
}

/// Write `tools.json` and the suite `name` as `suite.json` into `dir`.
pub fn write_inputs(dir: &Path, name: &str) {
    chat_server::write_tools(dir);
    std::fs::write(dir.join("suite.json"), suite(name).to_string()).expect("suite");
}

/// Write `answers` as the scripted model and run `mf eval` in `dir` into `out`.
pub fn eval(dir: &Path, out: &str, answers: &Value, extra: &[&str]) {
    std::fs::write(dir.join("script.json"), answers.to_string()).expect("script");
    let o = mf_in(dir)
        .args([
            "eval",
            "tools.json",
            "--suite",
            "suite.json",
            "--models",
            "scripted:script.json",
        ])
        .args(["--no-cache", "--format", "json", "--json-out", out])
        .args(extra)
        .output()
        .expect("eval");
    assert!(o.status.success(), "{}", text(&o));
}
