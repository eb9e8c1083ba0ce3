//! Named models as `mf.toml` (`[models.NAME]`) and a suite's `models` object write them: the
//! provider id, the model id, endpoint and key-variable overrides, price and sampling settings.
//! These are data only, part of the suite/mf.toml contract; resolving them into something a
//! trial can call (provider defaults, the preset table, `--models` parsing) is
//! the providers module's job.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A provider: a wire format plus its defaults (base URL, key variable).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProviderKind {
    /// OpenAI Responses API.
    Openai,
    /// OpenAI Chat Completions.
    OpenaiChat,
    /// OpenRouter (Chat Completions).
    Openrouter,
    /// Together (Chat Completions).
    Together,
    /// DeepSeek (Chat Completions).
    Deepseek,
    /// A vLLM server (Chat Completions).
    Vllm,
    /// Ollama's OpenAI-compatible endpoint (Chat Completions).
    Ollama,
    /// Any OpenAI-compatible Chat Completions server; needs a base URL.
    OpenaiCompatible,
    /// Anthropic Messages.
    Anthropic,
    /// Offline: never calls a tool.
    Mock,
    /// Offline: picks the tool whose name and description best match the input.
    Lexical,
    /// Offline: answers from a script file (tests).
    Scripted,
}

/// Price per million tokens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Price {
    /// Per million input tokens.
    pub input: f64,
    /// Per million output tokens.
    pub output: f64,
    /// ISO currency code, e.g. `USD`.
    #[serde(default = "usd")]
    pub currency: String,
}

fn usd() -> String {
    "USD".to_owned()
}

/// A named model as written in `mf.toml` (`[models.NAME]`) or a suite's `models` object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub struct ModelConfig {
    /// Provider id (`openai`, `openai-chat`, `anthropic`, a preset, …).
    pub provider: ProviderKind,
    /// Provider model id.
    pub model: String,
    /// Base URL (overrides the provider default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// The environment variable holding the key (overrides the provider default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
    /// Send the key in this header as-is instead of `Authorization: Bearer` (Azure: `api-key`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key_header: Option<String>,
    /// Extra fixed, non-secret headers.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// Price per million tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
    /// Sampling temperature for this model (overrides `--temperature`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Output token cap (overrides `--max-output-tokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u32>,
    /// Send `tool_choice: "auto"` (lets the model choose; forces nothing) for servers that
    /// ignore tools without it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tool_choice_auto: bool,
}

/// The `mf.toml` file: `[models.NAME]` and `[servers.NAME]` tables.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// Named models.
    #[serde(default)]
    pub models: BTreeMap<String, ModelConfig>,
    /// Servers whose tools are known from a committed snapshot (`mf snapshot`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub servers: BTreeMap<String, crate::surface::scan::declared::ServerConfig>,
}
