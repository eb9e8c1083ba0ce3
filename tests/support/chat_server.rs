//! A deterministic OpenAI Chat Completions server for CLI tests and benches (wiremock with a
//! responder that reads the request): the answer depends only on the request, so a cached
//! trial and a re-sent one are indistinguishable.
//!
//! The user message steers the answer:
//! - `[call NAME]` → one call to NAME with `{"q": <input>}`;
//! - `[first]` → a call to the first tool in the request's order (so answers depend on order);
//! - `[none]` → text, no call;
//! - `[prefer A,B,…]` → a call to the first of A, B, … the request offers; none offered → no
//!   call (a model that reaches for A whenever it is there: A steals the case);
//! - `[with X call Y]` → a call to Y when X is offered, else no call (a model that needs X beside
//!   Y to see that Y is meant);
//! - `[refuse]` → `message.refusal`.
//!
//! Every reply carries usage `{prompt_tokens: 1000, completion_tokens: 10}`, or
//! `prompt_tokens: 10` when the input contains `[tiny-usage]` (a server that dropped the tools).
#![allow(dead_code)]

use std::time::Duration;

use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// The responder.
pub struct ChatResponder {
    /// Delay before each response.
    pub delay: Duration,
}

impl Respond for ChatResponder {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let input = body["messages"][0]["content"].as_str().unwrap_or_default();
        let tools: Vec<&str> = body["tools"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|t| t["function"]["name"].as_str())
                    .collect()
            })
            .unwrap_or_default();
        let call = |name: &str| {
            json!({"role": "assistant", "content": null, "tool_calls": [{
                "id": "call_1", "type": "function",
                "function": {"name": name, "arguments": json!({"q": input}).to_string()}}]})
        };
        let (message, finish) = if input.contains("[refuse]") {
            (
                json!({"role": "assistant", "content": null, "refusal": "I can't help with that."}),
                "stop",
            )
        } else if input.contains("[none]") {
            (
                json!({"role": "assistant", "content": "No tool needed."}),
                "stop",
            )
        } else if let Some(rest) = input.split("[prefer ").nth(1) {
            let list = rest.split(']').next().unwrap_or_default();
            match list.split(',').map(str::trim).find(|n| tools.contains(n)) {
                Some(name) => (call(name), "tool_calls"),
                None => (
                    json!({"role": "assistant", "content": "None fits."}),
                    "stop",
                ),
            }
        } else if let Some(rest) = input.split("[with ").nth(1) {
            let spec = rest.split(']').next().unwrap_or_default();
            let (x, y) = spec.split_once(" call ").unwrap_or((spec, ""));
            if tools.contains(&x.trim()) {
                (call(y.trim()), "tool_calls")
            } else {
                (json!({"role": "assistant", "content": "Not sure."}), "stop")
            }
        } else if input.contains("[first]") {
            (call(tools.first().copied().unwrap_or("none")), "tool_calls")
        } else if let Some(rest) = input.split("[call ").nth(1) {
            let name = rest.split(']').next().unwrap_or_default();
            (call(name), "tool_calls")
        } else {
            (json!({"role": "assistant", "content": "?"}), "stop")
        };
        let prompt_tokens = if input.contains("[tiny-usage]") {
            10
        } else {
            1000
        };
        ResponseTemplate::new(200)
            .set_delay(self.delay)
            .set_body_json(json!({
                "id": "chatcmpl-test", "object": "chat.completion", "created": 1,
                "model": body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 10,
                          "total_tokens": prompt_tokens + 10}
            }))
    }
}

/// Start a server answering `POST /v1/chat/completions` after `delay`.
pub async fn start(delay: Duration, record: bool) -> MockServer {
    let builder = MockServer::builder();
    let server = if record {
        builder.start().await
    } else {
        builder.disable_request_recording().start().await
    };
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ChatResponder { delay })
        .mount(&server)
        .await;
    server
}

/// Five tools as an MCP tools/list result.
pub fn tools_json() -> Value {
    let tool = |name: &str, desc: &str| {
        json!({"name": name, "description": desc,
               "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}})
    };
    json!({"tools": [
        tool("search_tickets", "Search support tickets by keyword."),
        tool("get_ticket", "Fetch one ticket by id."),
        tool("issue_refund", "Refund a paid order."),
        tool("lookup_order", "Look up an order by number."),
        tool("get_invoice", "Fetch one invoice by id."),
    ]})
}

/// Write [`tools_json`] as `dir/tools.json`; its path.
pub fn write_tools(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("tools.json");
    std::fs::write(&path, tools_json().to_string()).expect("tools");
    path
}

/// A suite of `n` cases cycling through the answer kinds.
pub fn suite_json(n: usize) -> Value {
    let names = [
        "search_tickets",
        "get_ticket",
        "issue_refund",
        "lookup_order",
        "get_invoice",
    ];
    let cases: Vec<Value> = (0..n)
        .map(|i| {
            let expected = names[i % names.len()];
            match i % 4 {
                0 | 1 => json!({"id": format!("c{i:03}"), "input": format!("case {i} [call {expected}]"), "expectedTool": expected}),
                2 => json!({"id": format!("c{i:03}"), "input": format!("case {i} [first]"), "expectedTool": expected}),
                _ => json!({"id": format!("c{i:03}"), "input": format!("case {i} [none]"), "expectedTool": null}),
            }
        })
        .collect();
    json!({"name": "resume", "cases": cases})
}
