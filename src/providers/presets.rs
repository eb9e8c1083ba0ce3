//! The provider preset table: each [`ProviderKind`]'s `--models` prefix, wire format, default
//! base URL and key variable, and whether a run needs the key. The kind itself is suite data
//! ([`crate::suite::models`]); what it means on the wire is decided here.

use serde::{Deserialize, Serialize};

use crate::suite::models::ProviderKind;

/// The HTTP wire format a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Wire {
    /// `POST {base}/responses`.
    OpenaiResponses,
    /// `POST {base}/chat/completions`.
    OpenaiChat,
    /// `POST {base}/messages`.
    Anthropic,
}

impl Wire {
    /// The id written in reports and cache keys.
    pub fn id(self) -> &'static str {
        match self {
            Wire::OpenaiResponses => "openai",
            Wire::OpenaiChat => "openai-chat",
            Wire::Anthropic => "anthropic",
        }
    }
}

impl ProviderKind {
    /// Every provider with its `--models` prefix.
    pub const ALL: &'static [(&'static str, ProviderKind)] = &[
        ("openai", ProviderKind::Openai),
        ("openai-chat", ProviderKind::OpenaiChat),
        ("openrouter", ProviderKind::Openrouter),
        ("together", ProviderKind::Together),
        ("deepseek", ProviderKind::Deepseek),
        ("vllm", ProviderKind::Vllm),
        ("ollama", ProviderKind::Ollama),
        ("openai-compatible", ProviderKind::OpenaiCompatible),
        ("anthropic", ProviderKind::Anthropic),
        ("mock", ProviderKind::Mock),
        ("lexical", ProviderKind::Lexical),
        ("scripted", ProviderKind::Scripted),
    ];

    /// The `--models` prefix.
    pub fn id(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(id, _)| id)
    }

    /// The wire format; `None` for offline providers.
    pub fn wire(self) -> Option<Wire> {
        match self {
            ProviderKind::Openai => Some(Wire::OpenaiResponses),
            ProviderKind::Anthropic => Some(Wire::Anthropic),
            ProviderKind::Mock | ProviderKind::Lexical | ProviderKind::Scripted => None,
            _ => Some(Wire::OpenaiChat),
        }
    }

    /// Default base URL (without the format's path).
    pub fn default_base_url(self) -> Option<&'static str> {
        match self {
            ProviderKind::Openai | ProviderKind::OpenaiChat => Some("https://api.openai.com/v1"),
            ProviderKind::Openrouter => Some("https://openrouter.ai/api/v1"),
            ProviderKind::Together => Some("https://api.together.xyz/v1"),
            ProviderKind::Deepseek => Some("https://api.deepseek.com/v1"),
            ProviderKind::Vllm => Some("http://127.0.0.1:8000/v1"),
            ProviderKind::Ollama => Some("http://127.0.0.1:11434/v1"),
            ProviderKind::Anthropic => Some("https://api.anthropic.com/v1"),
            _ => None,
        }
    }

    /// The environment variable the key comes from by default.
    pub fn default_key_env(self) -> Option<&'static str> {
        match self {
            ProviderKind::Openai | ProviderKind::OpenaiChat => Some("OPENAI_API_KEY"),
            ProviderKind::Openrouter => Some("OPENROUTER_API_KEY"),
            ProviderKind::Together => Some("TOGETHER_API_KEY"),
            ProviderKind::Deepseek => Some("DEEPSEEK_API_KEY"),
            ProviderKind::Anthropic => Some("ANTHROPIC_API_KEY"),
            ProviderKind::Vllm | ProviderKind::Ollama | ProviderKind::OpenaiCompatible => {
                Some("MF_PROVIDER_API_KEY")
            }
            _ => None,
        }
    }

    /// Whether a run must stop when the key variable is unset (hosted APIs) or may go on without
    /// one (local servers).
    pub fn key_required(self) -> bool {
        !matches!(
            self,
            ProviderKind::Vllm
                | ProviderKind::Ollama
                | ProviderKind::OpenaiCompatible
                | ProviderKind::Mock
                | ProviderKind::Lexical
                | ProviderKind::Scripted
        )
    }
}
