//! OpenAI Responses wire format (`POST {base}/responses`): flat function tools in, `output[]`
//! items (`function_call`, `message`) out.

use serde_json::{Map, Value, json};

use super::wire::{
    call_from_arguments, clip, malformed, openai_error_message, parse_object, tool_parameters,
};
use super::{ErrorKind, Reply, TrialError, TrialRequest, Usage, WireFormat, WireRequest};

/// The OpenAI Responses API (`openai`).
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenaiResponses;

impl WireFormat for OpenaiResponses {
    fn id(&self) -> &'static str {
        "openai"
    }

    fn request(&self, req: &TrialRequest<'_>) -> WireRequest {
        let tools: Vec<Value> = req
            .tools
            .iter()
            .map(|tool| {
                let mut t = Map::new();
                t.insert("type".into(), json!("function"));
                t.insert("name".into(), json!(tool.name));
                if let Some(d) = &tool.description {
                    t.insert("description".into(), json!(d));
                }
                t.insert("parameters".into(), tool_parameters(tool));
                t.insert("strict".into(), json!(false));
                Value::Object(t)
            })
            .collect();
        let mut body = Map::new();
        body.insert("model".into(), json!(req.model));
        body.insert(
            "input".into(),
            json!([{ "role": "user", "content": req.input }]),
        );
        if !tools.is_empty() {
            body.insert("tools".into(), Value::Array(tools));
        }
        if let Some(t) = req.temperature {
            body.insert("temperature".into(), json!(t));
        }
        body.insert("max_output_tokens".into(), json!(req.max_output_tokens));
        // An eval prompt is a measurement, not a conversation: ask OpenAI not to keep it.
        body.insert("store".into(), json!(false));
        WireRequest {
            path: "/responses",
            body: Value::Object(body),
        }
    }

    fn auth_headers(&self, key: Option<&str>) -> Vec<(String, String)> {
        key.map(|k| vec![("authorization".to_owned(), format!("Bearer {k}"))])
            .unwrap_or_default()
    }

    fn parse(&self, body: &[u8]) -> Result<Reply, TrialError> {
        let root = parse_object(body)?;
        match root.get("status").and_then(Value::as_str) {
            Some("incomplete") => {
                let reason = root
                    .get("incomplete_details")
                    .and_then(|d| d.get("reason"))
                    .and_then(Value::as_str)
                    .unwrap_or("unknown");
                let kind = if reason == "content_filter" {
                    ErrorKind::Refusal
                } else {
                    ErrorKind::Truncated
                };
                return Err(TrialError::new(
                    kind,
                    format!("response incomplete ({})", clip(reason, 80)),
                ));
            }
            Some("failed") => {
                let message = root
                    .get("error")
                    .and_then(|e| e.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or("no error message");
                return Err(TrialError::new(
                    ErrorKind::Http,
                    format!("response failed: {}", clip(message, 300)),
                ));
            }
            _ => {}
        }
        let output = root
            .get("output")
            .and_then(Value::as_array)
            .ok_or_else(|| malformed("no `output` array"))?;
        let mut reply = Reply::default();
        let mut texts: Vec<&str> = Vec::new();
        for (i, item) in output.iter().enumerate() {
            let item = item
                .as_object()
                .ok_or_else(|| malformed(format!("output[{i}] is not an object")))?;
            match item.get("type").and_then(Value::as_str) {
                Some("function_call") => {
                    let name = item.get("name").and_then(Value::as_str).map(str::to_owned);
                    reply
                        .calls
                        .push(call_from_arguments(name, item.get("arguments")));
                }
                Some("message") => {
                    let parts = item
                        .get("content")
                        .and_then(Value::as_array)
                        .ok_or_else(|| malformed(format!("output[{i}] message has no content")))?;
                    for part in parts {
                        match part.get("type").and_then(Value::as_str) {
                            Some("output_text") => {
                                if let Some(t) = part.get("text").and_then(Value::as_str) {
                                    texts.push(t);
                                }
                            }
                            Some("refusal") => {
                                let why = part
                                    .get("refusal")
                                    .and_then(Value::as_str)
                                    .unwrap_or("refused");
                                return Err(TrialError::new(ErrorKind::Refusal, clip(why, 300)));
                            }
                            _ => {}
                        }
                    }
                }
                // Reasoning items and built-in tool calls carry no answer for us.
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
        openai_error_message(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::Call;
    use crate::providers::wire::test_support::{fixture, two_tools};

    fn parse(name: &str) -> Result<Reply, TrialError> {
        OpenaiResponses.parse(&fixture("openai_responses", name))
    }

    #[test]
    fn request_carries_tools_as_served_without_tool_choice() {
        let tools = two_tools();
        let req = TrialRequest {
            model: "gpt-4.1-mini",
            input: "reset my password",
            tools: tools.iter().collect(),
            temperature: Some(0.0),
            max_output_tokens: 256,
        };
        let wire = OpenaiResponses.request(&req);
        assert_eq!(wire.path, "/responses");
        assert_eq!(
            wire.body,
            json!({
                "model": "gpt-4.1-mini",
                "input": [{"role": "user", "content": "reset my password"}],
                "tools": [
                    {"type": "function", "name": "search_docs",
                     "description": "Search the product documentation.",
                     "parameters": tools[0].input_schema.clone().expect("schema"),
                     "strict": false},
                    {"type": "function", "name": "create_ticket",
                     "parameters": {"type": "object", "properties": {}},
                     "strict": false}
                ],
                "temperature": 0.0,
                "max_output_tokens": 256,
                "store": false
            })
        );
        let no_temp = TrialRequest {
            temperature: None,
            ..req
        };
        assert!(
            OpenaiResponses
                .request(&no_temp)
                .body
                .get("temperature")
                .is_none()
        );
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
        assert_eq!(
            one.usage,
            Some(Usage {
                input_tokens: 291,
                output_tokens: 23
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
        assert_eq!(
            r.text.as_deref(),
            Some("Hello! How can I assist you today?")
        );
    }

    #[test]
    fn refusal_truncation_and_content_filter_are_errors() {
        assert_eq!(
            parse("refusal.json").expect_err("refusal").kind,
            ErrorKind::Refusal
        );
        let t = parse("truncated.json").expect_err("truncated");
        assert_eq!(t.kind, ErrorKind::Truncated);
        assert!(t.message.contains("max_output_tokens"), "{}", t.message);
        let filtered = br#"{"status":"incomplete","incomplete_details":{"reason":"content_filter"},"output":[]}"#;
        assert_eq!(
            OpenaiResponses.parse(filtered).expect_err("filter").kind,
            ErrorKind::Refusal
        );
    }

    #[test]
    fn malformed_arguments_are_kept_raw() {
        let r = parse("malformed_arguments.json").expect("reply");
        assert_eq!(r.calls.len(), 1);
        assert_eq!(r.calls[0].arguments, None);
        assert_eq!(
            r.calls[0].raw_arguments.as_deref(),
            Some("{\"query\": \"refund policy\", limit: 5")
        );
    }

    #[test]
    fn nameless_call_and_bad_shapes() {
        let r = OpenaiResponses
            .parse(
                br#"{"status":"completed","output":[{"type":"function_call","arguments":"{}"}]}"#,
            )
            .expect("reply");
        assert_eq!(r.calls[0].name, None);
        for bad in [
            &b"not json"[..],
            b"[]",
            br#"{"output": 3}"#,
            br#"{"output": [1]}"#,
        ] {
            let e = OpenaiResponses.parse(bad).expect_err("malformed");
            assert_eq!(e.kind, ErrorKind::Malformed);
            assert!(e.message.len() < 200, "{}", e.message);
        }
    }

    #[test]
    fn error_message_comes_from_the_error_object() {
        let body = fixture("openai_responses", "error.json");
        let m = OpenaiResponses.error_message(&body).expect("message");
        assert!(m.starts_with("Incorrect API key provided"), "{m}");
        assert_eq!(OpenaiResponses.error_message(b"<html>"), None);
    }
}
