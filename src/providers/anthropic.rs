//! Anthropic Messages wire format (`POST {base}/messages`, `anthropic-version: 2023-06-01`):
//! `{name, description, input_schema}` tools in, `tool_use` content blocks out.

use serde_json::{Map, Value, json};

use super::wire::{call_from_arguments, clip, malformed, parse_object, tool_parameters};
use super::{ErrorKind, Reply, TrialError, TrialRequest, Usage, WireFormat, WireRequest};

/// The API version header value this format is written against.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// The Anthropic Messages API (`anthropic`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Anthropic;

impl WireFormat for Anthropic {
    fn id(&self) -> &'static str {
        "anthropic"
    }

    fn request(&self, req: &TrialRequest<'_>) -> WireRequest {
        let tools: Vec<Value> = req
            .tools
            .iter()
            .map(|tool| {
                let mut t = Map::new();
                t.insert("name".into(), json!(tool.name));
                if let Some(d) = &tool.description {
                    t.insert("description".into(), json!(d));
                }
                t.insert("input_schema".into(), tool_parameters(tool));
                Value::Object(t)
            })
            .collect();
        let mut body = Map::new();
        body.insert("model".into(), json!(req.model));
        body.insert("max_tokens".into(), json!(req.max_output_tokens));
        body.insert(
            "messages".into(),
            json!([{ "role": "user", "content": req.input }]),
        );
        if !tools.is_empty() {
            body.insert("tools".into(), Value::Array(tools));
        }
        if let Some(t) = req.temperature {
            body.insert("temperature".into(), json!(t));
        }
        WireRequest {
            path: "/messages",
            body: Value::Object(body),
        }
    }

    fn auth_headers(&self, key: Option<&str>) -> Vec<(String, String)> {
        let mut headers = Vec::with_capacity(2);
        if let Some(k) = key {
            headers.push(("x-api-key".to_owned(), k.to_owned()));
        }
        headers.push(("anthropic-version".to_owned(), ANTHROPIC_VERSION.to_owned()));
        headers
    }

    fn parse(&self, body: &[u8]) -> Result<Reply, TrialError> {
        let root = parse_object(body)?;
        if root.get("type").and_then(Value::as_str) == Some("error") {
            let m = self
                .error_message(body)
                .unwrap_or_else(|| "error without a message".to_owned());
            return Err(TrialError::new(ErrorKind::Http, m));
        }
        match root.get("stop_reason").and_then(Value::as_str) {
            Some(r @ ("max_tokens" | "model_context_window_exceeded")) => {
                return Err(TrialError::new(
                    ErrorKind::Truncated,
                    format!("output hit the token limit (stop_reason: {r})"),
                ));
            }
            Some("refusal") => {
                return Err(TrialError::new(
                    ErrorKind::Refusal,
                    "the model refused (stop_reason: refusal)",
                ));
            }
            _ => {}
        }
        let content = root
            .get("content")
            .and_then(Value::as_array)
            .ok_or_else(|| malformed("no `content` array"))?;
        let mut reply = Reply::default();
        let mut texts: Vec<&str> = Vec::new();
        for (i, block) in content.iter().enumerate() {
            let block = block
                .as_object()
                .ok_or_else(|| malformed(format!("content[{i}] is not an object")))?;
            match block.get("type").and_then(Value::as_str) {
                Some("tool_use") => {
                    let name = block.get("name").and_then(Value::as_str).map(str::to_owned);
                    reply
                        .calls
                        .push(call_from_arguments(name, block.get("input")));
                }
                Some("text") => {
                    if let Some(t) = block.get("text").and_then(Value::as_str) {
                        texts.push(t);
                    }
                }
                // Thinking blocks and server tools are not the answer.
                _ => {}
            }
        }
        let text = texts.concat();
        if !text.is_empty() {
            reply.text = Some(text);
        }
        reply.usage = root.get("usage").and_then(|u| {
            Some(Usage {
                input_tokens: u.get("input_tokens")?.as_u64()?,
                output_tokens: u.get("output_tokens")?.as_u64()?,
            })
        });
        Ok(reply)
    }

    fn error_message(&self, body: &[u8]) -> Option<String> {
        let v: Value = serde_json::from_slice(body).ok()?;
        let error = v.get("error")?;
        let message = error.get("message").and_then(Value::as_str)?;
        Some(match error.get("type").and_then(Value::as_str) {
            Some(t) => clip(&format!("{t}: {message}"), 300),
            None => clip(message, 300),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::Call;
    use crate::providers::wire::test_support::{fixture, two_tools};

    fn parse(name: &str) -> Result<Reply, TrialError> {
        Anthropic.parse(&fixture("anthropic", name))
    }

    #[test]
    fn request_uses_input_schema_without_tool_choice() {
        let tools = two_tools();
        let req = TrialRequest {
            model: "claude-sonnet-4-5",
            input: "reset my password",
            tools: tools.iter().collect(),
            temperature: Some(1.0),
            max_output_tokens: 512,
        };
        let wire = Anthropic.request(&req);
        assert_eq!(wire.path, "/messages");
        assert_eq!(
            wire.body,
            json!({
                "model": "claude-sonnet-4-5",
                "max_tokens": 512,
                "messages": [{"role": "user", "content": "reset my password"}],
                "tools": [
                    {"name": "search_docs",
                     "description": "Search the product documentation.",
                     "input_schema": tools[0].input_schema.clone().expect("schema")},
                    {"name": "create_ticket",
                     "input_schema": {"type": "object", "properties": {}}}
                ],
                "temperature": 1.0
            })
        );
    }

    #[test]
    fn auth_headers_carry_key_and_version() {
        assert_eq!(
            Anthropic.auth_headers(Some("k")),
            vec![
                ("x-api-key".to_owned(), "k".to_owned()),
                ("anthropic-version".to_owned(), "2023-06-01".to_owned())
            ]
        );
        assert_eq!(Anthropic.auth_headers(None).len(), 1);
    }

    #[test]
    fn parses_single_and_multiple_calls_in_order() {
        let one = parse("single_call.json").expect("reply");
        assert_eq!(
            one.calls,
            vec![Call {
                name: Some("search_docs".into()),
                arguments: Some(json!({"query": "reset password", "limit": 5})),
                raw_arguments: None,
            }]
        );
        assert_eq!(one.text.as_deref(), Some("I'll search the docs for that."));
        assert_eq!(
            one.usage,
            Some(Usage {
                input_tokens: 478,
                output_tokens: 71
            })
        );
        let two = parse("multiple_calls.json").expect("reply");
        let names: Vec<_> = two.calls.iter().map(|c| c.name.as_deref()).collect();
        assert_eq!(names, vec![Some("search_docs"), Some("create_ticket")]);
    }

    #[test]
    fn text_only_reply_has_no_calls() {
        let r = parse("no_call.json").expect("reply");
        assert!(r.calls.is_empty());
        assert_eq!(r.text.as_deref(), Some("Hi! My name is Claude."));
    }

    #[test]
    fn refusal_and_truncation_are_errors() {
        assert_eq!(
            parse("refusal.json").expect_err("refusal").kind,
            ErrorKind::Refusal
        );
        assert_eq!(
            parse("truncated.json").expect_err("max_tokens").kind,
            ErrorKind::Truncated
        );
    }

    #[test]
    fn string_input_that_is_not_json_is_kept_raw() {
        let r = parse("malformed_arguments.json").expect("reply");
        assert_eq!(r.calls[0].arguments, None);
        assert_eq!(
            r.calls[0].raw_arguments.as_deref(),
            Some("{\"query\": \"refund policy\", limit: 5")
        );
    }

    #[test]
    fn nameless_call_and_bad_shapes() {
        let r = Anthropic
            .parse(br#"{"content":[{"type":"tool_use","id":"t","input":{}}],"stop_reason":"tool_use"}"#)
            .expect("reply");
        assert_eq!(r.calls[0].name, None);
        for bad in [&b"{"[..], br#"{"content": {}}"#, br#"{"content": ["x"]}"#] {
            assert_eq!(
                Anthropic.parse(bad).expect_err("malformed").kind,
                ErrorKind::Malformed
            );
        }
    }

    #[test]
    fn error_message_names_type_and_message() {
        assert_eq!(
            Anthropic
                .error_message(&fixture("anthropic", "error.json"))
                .as_deref(),
            Some("overloaded_error: Overloaded")
        );
    }
}
