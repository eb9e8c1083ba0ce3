//! OpenAI Chat Completions wire format (`POST {base}/chat/completions`), spoken by OpenAI and the
//! compatible presets (OpenRouter, Together, DeepSeek, vLLM, Ollama, any compatible server).

use serde_json::{Map, Value, json};

use super::config::ProviderKind;
use super::wire::{
    call_from_arguments, clip, malformed, openai_error_message, parse_object, tool_parameters,
};
use super::{ErrorKind, Reply, TrialError, TrialRequest, Usage, WireFormat, WireRequest};

/// The Chat Completions format (`openai-chat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenaiChat {
    /// The body field carrying the output cap: `max_completion_tokens` for OpenAI itself,
    /// `max_tokens` for compatible servers (which often ignore or reject the newer name).
    pub max_tokens_field: &'static str,
}

impl OpenaiChat {
    /// The format as `kind` expects it: OpenAI's own API gets `max_completion_tokens`, every
    /// compatible preset `max_tokens`.
    pub fn for_provider(kind: ProviderKind) -> OpenaiChat {
        let max_tokens_field = match kind {
            ProviderKind::Openai | ProviderKind::OpenaiChat => "max_completion_tokens",
            _ => "max_tokens",
        };
        OpenaiChat { max_tokens_field }
    }
}

impl WireFormat for OpenaiChat {
    fn id(&self) -> &'static str {
        "openai-chat"
    }

    fn request(&self, req: &TrialRequest<'_>) -> WireRequest {
        let tools: Vec<Value> = req
            .tools
            .iter()
            .map(|tool| {
                let mut f = Map::new();
                f.insert("name".into(), json!(tool.name));
                if let Some(d) = &tool.description {
                    f.insert("description".into(), json!(d));
                }
                f.insert("parameters".into(), tool_parameters(tool));
                json!({ "type": "function", "function": Value::Object(f) })
            })
            .collect();
        let mut body = Map::new();
        body.insert("model".into(), json!(req.model));
        body.insert(
            "messages".into(),
            json!([{ "role": "user", "content": req.input }]),
        );
        // OpenAI rejects an empty `tools` array; no tools means no key.
        if !tools.is_empty() {
            body.insert("tools".into(), Value::Array(tools));
        }
        if let Some(t) = req.temperature {
            body.insert("temperature".into(), json!(t));
        }
        body.insert(self.max_tokens_field.into(), json!(req.max_output_tokens));
        WireRequest {
            path: "/chat/completions",
            body: Value::Object(body),
        }
    }

    fn auth_headers(&self, key: Option<&str>) -> Vec<(String, String)> {
        key.map(|k| vec![("authorization".to_owned(), format!("Bearer {k}"))])
            .unwrap_or_default()
    }

    fn parse(&self, body: &[u8]) -> Result<Reply, TrialError> {
        let root = parse_object(body)?;
        let Some(choice) = root
            .get("choices")
            .and_then(Value::as_array)
            .and_then(|c| c.first())
        else {
            // Some gateways answer 200 with an error object instead of choices.
            return Err(match openai_error_message(body) {
                Some(m) => malformed(format!("no choices; provider said: {m}")),
                None => malformed("no choices"),
            });
        };
        let message = choice
            .get("message")
            .and_then(Value::as_object)
            .ok_or_else(|| malformed("choices[0] has no message object"))?;
        if let Some(why) = message
            .get("refusal")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        {
            return Err(TrialError::new(ErrorKind::Refusal, clip(why, 300)));
        }
        match choice.get("finish_reason").and_then(Value::as_str) {
            Some("length") => {
                return Err(TrialError::new(
                    ErrorKind::Truncated,
                    "output hit the token limit (finish_reason: length)",
                ));
            }
            Some("content_filter") => {
                return Err(TrialError::new(
                    ErrorKind::Refusal,
                    "output withheld by the content filter (finish_reason: content_filter)",
                ));
            }
            _ => {}
        }
        let mut reply = Reply::default();
        match message.get("tool_calls") {
            None | Some(Value::Null) => {}
            Some(Value::Array(calls)) => {
                for (i, call) in calls.iter().enumerate() {
                    let function = call
                        .get("function")
                        .and_then(Value::as_object)
                        .ok_or_else(|| malformed(format!("tool_calls[{i}] has no function")))?;
                    let name = function
                        .get("name")
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    reply
                        .calls
                        .push(call_from_arguments(name, function.get("arguments")));
                }
            }
            Some(_) => return Err(malformed("tool_calls is not an array")),
        }
        // The deprecated single `function_call`, still sent by some older servers.
        if reply.calls.is_empty()
            && let Some(f) = message.get("function_call").and_then(Value::as_object)
        {
            let name = f.get("name").and_then(Value::as_str).map(str::to_owned);
            reply
                .calls
                .push(call_from_arguments(name, f.get("arguments")));
        }
        reply.text = match message.get("content") {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            // A few servers send content parts instead of a string.
            Some(Value::Array(parts)) => {
                let text: String = parts
                    .iter()
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect();
                (!text.is_empty()).then_some(text)
            }
            _ => None,
        };
        reply.usage = root.get("usage").and_then(|u| {
            Some(Usage {
                input_tokens: u.get("prompt_tokens")?.as_u64()?,
                output_tokens: u.get("completion_tokens")?.as_u64()?,
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

    const OPENAI: OpenaiChat = OpenaiChat {
        max_tokens_field: "max_completion_tokens",
    };

    fn parse(name: &str) -> Result<Reply, TrialError> {
        OPENAI.parse(&fixture("openai_chat", name))
    }

    #[test]
    fn request_nests_tools_under_function_without_tool_choice() {
        let tools = two_tools();
        let req = TrialRequest {
            model: "gpt-4.1-mini",
            input: "reset my password",
            tools: tools.iter().collect(),
            temperature: Some(0.2),
            max_output_tokens: 256,
        };
        let wire = OPENAI.request(&req);
        assert_eq!(wire.path, "/chat/completions");
        assert_eq!(
            wire.body,
            json!({
                "model": "gpt-4.1-mini",
                "messages": [{"role": "user", "content": "reset my password"}],
                "tools": [
                    {"type": "function", "function": {
                        "name": "search_docs",
                        "description": "Search the product documentation.",
                        "parameters": tools[0].input_schema.clone().expect("schema")}},
                    {"type": "function", "function": {
                        "name": "create_ticket",
                        "parameters": {"type": "object", "properties": {}}}}
                ],
                "temperature": 0.2,
                "max_completion_tokens": 256
            })
        );
        let compat = OpenaiChat::for_provider(ProviderKind::Ollama).request(&TrialRequest {
            temperature: None,
            ..req
        });
        assert_eq!(compat.body.get("max_tokens"), Some(&json!(256)));
        assert!(compat.body.get("max_completion_tokens").is_none());
        assert!(compat.body.get("temperature").is_none());
    }

    #[test]
    fn preset_max_token_fields() {
        assert_eq!(
            OpenaiChat::for_provider(ProviderKind::OpenaiChat).max_tokens_field,
            "max_completion_tokens"
        );
        for kind in [
            ProviderKind::Openrouter,
            ProviderKind::Together,
            ProviderKind::Deepseek,
            ProviderKind::Vllm,
            ProviderKind::Ollama,
            ProviderKind::OpenaiCompatible,
        ] {
            assert_eq!(
                OpenaiChat::for_provider(kind).max_tokens_field,
                "max_tokens"
            );
        }
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
                input_tokens: 82,
                output_tokens: 17
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
            Some("Hello there, how may I assist you today?")
        );
    }

    #[test]
    fn refusal_truncation_and_content_filter_are_errors() {
        let r = parse("refusal.json").expect_err("refusal");
        assert_eq!(r.kind, ErrorKind::Refusal);
        assert!(r.message.contains("cannot assist"), "{}", r.message);
        assert_eq!(
            parse("truncated.json").expect_err("length").kind,
            ErrorKind::Truncated
        );
        assert_eq!(
            parse("content_filter.json").expect_err("filter").kind,
            ErrorKind::Refusal
        );
    }

    #[test]
    fn malformed_arguments_are_kept_raw_and_object_arguments_accepted() {
        let r = parse("malformed_arguments.json").expect("reply");
        assert_eq!(r.calls[0].arguments, None);
        assert_eq!(
            r.calls[0].raw_arguments.as_deref(),
            Some("{\"query\": \"refund policy\", limit: 5")
        );
        assert_eq!(r.text, None);
        let obj = parse("arguments_object.json").expect("reply");
        assert_eq!(
            obj.calls[0].arguments,
            Some(json!({"query": "refund policy", "limit": 5}))
        );
    }

    #[test]
    fn nameless_call_and_bad_shapes() {
        let r = OPENAI
            .parse(br#"{"choices":[{"message":{"tool_calls":[{"function":{"arguments":""}}]},"finish_reason":"tool_calls"}]}"#)
            .expect("reply");
        assert_eq!(r.calls[0].name, None);
        assert_eq!(r.calls[0].arguments, Some(json!({})));
        for bad in [
            &br#"{"choices": []}"#[..],
            br#"{"object":"chat.completion"}"#,
            br#"{"choices":[{"finish_reason":"stop"}]}"#,
            b"\xff\xfe",
        ] {
            assert_eq!(
                OPENAI.parse(bad).expect_err("malformed").kind,
                ErrorKind::Malformed
            );
        }
        let e = OPENAI
            .parse(&fixture("openai_chat", "error.json"))
            .expect_err("error body in a 200");
        assert!(
            e.message
                .starts_with("no choices; provider said: Rate limit"),
            "{}",
            e.message
        );
    }

    #[test]
    fn error_message_comes_from_the_error_object() {
        let m = OPENAI
            .error_message(&fixture("openai_chat", "error.json"))
            .expect("message");
        assert!(m.starts_with("Rate limit reached"), "{m}");
    }
}
