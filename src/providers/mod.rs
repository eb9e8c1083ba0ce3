//! Model providers: what one trial sends and what comes back.
//!
//! Every HTTP wire format is a pure [`WireFormat`] (build a body, parse a body) using the shared
//! helpers in [`wire`]; the transport in [`http`] sends it (timeout, retries and their waits
//! from [`retry`], body cap, redaction by [`redact`]) knowing only the trait, and [`provider`]
//! picks the format for a model (`HttpProvider`). The data a trial produces (calls, usage,
//! errors) is defined in the report layer and re-exported here; the named-model data is the
//! suite's (`suite::models`), its preset table [`presets`].
//! Offline models ([`offline`]) answer in-process and never touch the network.

pub mod anthropic;
pub mod config;
pub mod http;
pub mod offline;
pub mod openai_chat;
pub mod openai_responses;
pub mod presets;
pub mod provider;
pub mod redact;
pub mod retry;
pub mod wire;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::report::trial::{Call, ErrorKind, TrialError, Usage};
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

/// An HTTP request a wire format wants sent (the transport adds auth headers and sends it).
#[derive(Debug, Clone, PartialEq)]
pub struct WireRequest {
    /// Path appended to the base URL, e.g. `/chat/completions`.
    pub path: &'static str,
    /// JSON body.
    pub body: Value,
}

/// One provider wire format: pure functions from a trial to a request body and from a response
/// body to a [`Reply`]. No I/O here; `provider::HttpProvider` sends it through
/// `http::Transport`.
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
