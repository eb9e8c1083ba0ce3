//! Model providers: what one trial sends and what comes back.
//!
//! Every HTTP wire format is a pure [`WireFormat`] (build a body, parse a body); the shared
//! transport in [`http`] sends it (timeout, retries, `Retry-After`, body cap, redaction).
//! Offline models ([`offline`]) answer in-process and never touch the network.

pub mod anthropic;
pub mod config;
pub mod http;
pub mod offline;
pub mod openai_chat;
pub mod openai_responses;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::surface::Tool;

/// What one trial asks a model: the case input as a single user message and the tools, as
/// served, in this trial's order. No forced tool choice.
#[derive(Debug, Clone)]
pub struct TrialRequest<'a> {
    /// Provider model id (e.g. `gpt-4.1-mini`).
    pub model: &'a str,
    /// The user message.
    pub input: &'a str,
    /// The tools in trial order.
    pub tools: Vec<&'a Tool>,
    /// Sampling temperature; `None` = the provider's default (not sent).
    pub temperature: Option<f64>,
    /// Output token cap sent with the request.
    pub max_output_tokens: u32,
}

/// One tool call in a reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Call {
    /// The tool name the model called; `None` when the call had no name (a phantom call).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The arguments when they parsed as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
    /// The arguments as sent, kept only when they were not valid JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_arguments: Option<String>,
}

impl Call {
    /// A call from a name and an argument string as the wire carries it: JSON when it parses,
    /// kept raw otherwise. An empty string or `null` means no arguments (`{}`).
    pub fn from_wire(name: Option<String>, arguments: &str) -> Call {
        let trimmed = arguments.trim();
        // Empty and `null` both mean "no arguments".
        if trimmed.is_empty() || trimmed == "null" {
            return Call {
                name,
                arguments: Some(Value::Object(serde_json::Map::new())),
                raw_arguments: None,
            };
        }
        match serde_json::from_str::<Value>(trimmed) {
            Ok(v) => Call {
                name,
                arguments: Some(v),
                raw_arguments: None,
            },
            Err(_) => Call {
                name,
                arguments: None,
                raw_arguments: Some(arguments.to_owned()),
            },
        }
    }
}

/// Token usage the provider reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Prompt (input) tokens.
    pub input_tokens: u64,
    /// Completion (output) tokens.
    pub output_tokens: u64,
}

/// A model's answer to one trial.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reply {
    /// Every tool call in the turn, in the order the model made them.
    #[serde(default)]
    pub calls: Vec<Call>,
    /// Text the model wrote, if any (kept short in reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Usage, when the provider reported it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
}

/// Why a trial has no answer. These are errors for the trial, never wrong answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    /// The model refused (a refusal item or `stop_reason: refusal`).
    Refusal,
    /// The output hit the token limit (`length`, `max_tokens`, `incomplete`).
    Truncated,
    /// The body was not the provider's response shape.
    Malformed,
    /// An HTTP error status (after any retries).
    Http,
    /// No complete response within the request timeout (after any retries).
    Timeout,
    /// The response body exceeded the cap (16 MiB).
    TooLarge,
    /// Connection-level failure (DNS, TLS, reset).
    Transport,
    /// The key variable is not set.
    NoKey,
    /// Cancelled (Ctrl-C) before an answer.
    Cancelled,
}

impl ErrorKind {
    /// Whether a later run should try this trial again instead of reusing a cached answer.
    /// Model answers (refusal, truncation, malformed content) are cached; transport trouble is not.
    pub fn is_model_answer(self) -> bool {
        matches!(
            self,
            ErrorKind::Refusal | ErrorKind::Truncated | ErrorKind::Malformed
        )
    }
}

/// A trial error: what kind, a redacted message, and the HTTP status when there was one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialError {
    /// The kind.
    pub kind: ErrorKind,
    /// What happened, redacted (no keys, no Authorization values).
    pub message: String,
    /// HTTP status, when the provider answered with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
}

impl TrialError {
    /// An error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> TrialError {
        TrialError {
            kind,
            message: message.into(),
            status: None,
        }
    }
}

/// An HTTP request a wire format wants sent (the transport adds auth headers and sends it).
#[derive(Debug, Clone, PartialEq)]
pub struct WireRequest {
    /// Path appended to the base URL, e.g. `/chat/completions`.
    pub path: &'static str,
    /// JSON body.
    pub body: Value,
}

/// One provider wire format: pure functions from a trial to a request body and from a response
/// body to a [`Reply`]. No I/O here; [`http::HttpProvider`] does the sending.
pub trait WireFormat: Send + Sync + std::fmt::Debug {
    /// The format's id as written in reports: `openai`, `openai-chat`, `anthropic`.
    fn id(&self) -> &'static str;
    /// Build the request for one trial.
    fn request(&self, req: &TrialRequest<'_>) -> WireRequest;
    /// Headers that carry the key (e.g. `Authorization: Bearer …` or `x-api-key`), plus any
    /// fixed headers the format requires (e.g. `anthropic-version`). Values are secret.
    fn auth_headers(&self, key: Option<&str>) -> Vec<(String, String)>;
    /// Parse a 2xx body. Refusals and truncation are `Err` with their kind.
    fn parse(&self, body: &[u8]) -> Result<Reply, TrialError>;
    /// The provider's error message from a non-2xx body, if the body has one.
    fn error_message(&self, body: &[u8]) -> Option<String>;
}
