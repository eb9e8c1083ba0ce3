//! One trial's outcome as the scorecard records it: the tool calls a model made, the tokens it
//! used and, when there was no answer, why. Providers produce these values; the report owns
//! their shape (SCHEMA.md "Scorecard", `trials[]`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// The JSON name of an error kind (`no-key`, `timeout`, …).
pub fn error_kind_name(kind: ErrorKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{kind:?}").to_lowercase())
}
