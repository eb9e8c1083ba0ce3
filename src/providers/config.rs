//! Which models to ask: `--models` entries and named models from `mf.toml` (or the suite).
//!
//! A `--models` entry is one of
//! - `mock`, `lexical`, `scripted:FILE` — offline, no key;
//! - `PROVIDER:MODEL`, e.g. `openai:gpt-4.1-mini`, `anthropic:claude-sonnet-4-5`,
//!   `openrouter:meta-llama/llama-3.3-70b-instruct`, `ollama:qwen3:8b` (everything after the
//!   first `:` is the model id);
//! - a NAME defined under `[models.NAME]` in the config file.
//!
//! Keys are never read from a file: a config names the *variable* (`api_key_env`).

use std::collections::BTreeMap;
use std::path::PathBuf;

pub use super::presets::Wire;
pub use crate::suite::models::{ConfigFile, ModelConfig, Price, ProviderKind};

/// A model to evaluate, fully resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSpec {
    /// How the user named it (`openai:gpt-4.1-mini`, `internal-ds`, `lexical`); the report key.
    pub label: String,
    /// The provider.
    pub provider: ProviderKind,
    /// Provider model id (`lexical` for the offline router).
    pub model: String,
    /// Base URL for HTTP providers.
    pub base_url: Option<String>,
    /// Environment variable holding the key.
    pub api_key_env: Option<String>,
    /// Header the key goes in as-is; `None` = `Authorization: Bearer` (or `x-api-key` for Anthropic).
    pub api_key_header: Option<String>,
    /// Extra fixed headers.
    pub headers: BTreeMap<String, String>,
    /// Price, when known.
    pub price: Option<Price>,
    /// Temperature override.
    pub temperature: Option<f64>,
    /// Output cap override.
    pub max_output_tokens: Option<u32>,
    /// Script file for `scripted:FILE`.
    pub script: Option<PathBuf>,
    /// Send `tool_choice: "auto"` with the tools.
    pub tool_choice_auto: bool,
}

/// A config problem: what and what to do.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// Read `mf.toml`. Errors name the file, line and key.
pub fn read_config(path: &std::path::Path) -> Result<ConfigFile, ConfigError> {
    let display = path.display();
    // Through the safe-open: regular file, size-capped, never blocking on a FIFO.
    let text = crate::surface::formats::read_text(
        path,
        &display.to_string(),
        crate::surface::formats::MAX_FILE_BYTES,
    )
    .map_err(|e| ConfigError(e.to_string()))?;
    toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        match line {
            Some(l) => ConfigError(format!("{display}:{l}: {}", e.message())),
            None => ConfigError(format!("{display}: {}", e.message())),
        }
    })
}

impl ModelSpec {
    fn from_config(label: &str, c: &ModelConfig) -> ModelSpec {
        ModelSpec {
            label: label.to_owned(),
            provider: c.provider,
            model: c.model.clone(),
            base_url: c.base_url.clone(),
            api_key_env: c.api_key_env.clone(),
            api_key_header: c.api_key_header.clone(),
            headers: c.headers.clone(),
            price: c.price.clone(),
            temperature: c.temperature,
            max_output_tokens: c.max_output_tokens,
            script: None,
            tool_choice_auto: c.tool_choice_auto,
        }
    }

    fn bare(label: &str, provider: ProviderKind, model: &str) -> ModelSpec {
        ModelSpec {
            label: label.to_owned(),
            provider,
            model: model.to_owned(),
            base_url: None,
            api_key_env: None,
            api_key_header: None,
            headers: BTreeMap::new(),
            price: None,
            temperature: None,
            max_output_tokens: None,
            script: None,
            tool_choice_auto: false,
        }
    }

    /// The base URL to use: explicit, else the provider default.
    pub fn endpoint(&self) -> Option<String> {
        self.base_url
            .clone()
            .or_else(|| self.provider.default_base_url().map(str::to_owned))
            .map(|u| u.trim_end_matches('/').to_owned())
    }

    /// The key variable to read: explicit, else the provider default.
    pub fn key_env(&self) -> Option<String> {
        self.api_key_env
            .clone()
            .or_else(|| self.provider.default_key_env().map(str::to_owned))
    }
}

/// Resolve one `--models` entry against the named models.
pub fn resolve_model(
    entry: &str,
    named: &BTreeMap<String, ModelConfig>,
) -> Result<ModelSpec, ConfigError> {
    let entry = entry.trim();
    if let Some(c) = named.get(entry) {
        return Ok(ModelSpec::from_config(entry, c));
    }
    match entry {
        "mock" => return Ok(ModelSpec::bare(entry, ProviderKind::Mock, "mock")),
        "lexical" => return Ok(ModelSpec::bare(entry, ProviderKind::Lexical, "lexical")),
        _ => {}
    }
    let Some((prefix, rest)) = entry.split_once(':') else {
        let known: Vec<&str> = named.keys().map(String::as_str).collect();
        return Err(ConfigError(format!(
            "unknown model {entry:?}: write PROVIDER:MODEL (e.g. openai:gpt-4.1-mini), mock, \
             lexical, scripted:FILE, or a name from [models] in mf.toml{}",
            if known.is_empty() {
                String::new()
            } else {
                format!(" (defined: {})", known.join(", "))
            }
        )));
    };
    let Some(&(_, kind)) = ProviderKind::ALL.iter().find(|(id, _)| *id == prefix) else {
        let ids: Vec<&str> = ProviderKind::ALL.iter().map(|(id, _)| *id).collect();
        return Err(ConfigError(format!(
            "unknown provider {prefix:?} in {entry:?}; providers: {}",
            ids.join(", ")
        )));
    };
    if rest.is_empty() {
        return Err(ConfigError(format!(
            "{entry:?} names no model: write {prefix}:MODEL"
        )));
    }
    let mut spec = ModelSpec::bare(entry, kind, rest);
    if kind == ProviderKind::Scripted {
        spec.script = Some(PathBuf::from(rest));
        spec.model = "scripted".to_owned();
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_resolve_to_providers_and_model_ids() {
        let named = BTreeMap::new();
        let m = resolve_model("ollama:qwen3:8b", &named).expect("ok");
        assert_eq!(m.provider, ProviderKind::Ollama);
        assert_eq!(m.model, "qwen3:8b");
        assert_eq!(m.endpoint().as_deref(), Some("http://127.0.0.1:11434/v1"));
        assert_eq!(
            resolve_model("anthropic:claude-x", &named)
                .expect("ok")
                .key_env()
                .as_deref(),
            Some("ANTHROPIC_API_KEY")
        );
        assert!(resolve_model("nope:x", &named).is_err());
        assert!(resolve_model("openai:", &named).is_err());
        assert!(resolve_model("gpt-4", &named).is_err());
        assert_eq!(
            resolve_model("lexical", &named).expect("ok").provider,
            ProviderKind::Lexical
        );
    }

    #[test]
    fn named_models_come_from_toml_with_line_numbers_on_error() {
        let dir = tempfile::tempdir().expect("tmp");
        let p = dir.path().join("mf.toml");
        std::fs::write(
            &p,
            "[models.internal-ds]\nprovider = \"openai-compatible\"\nmodel = \"ds-v3\"\n\
             base_url = \"https://llm.internal/v1\"\napi_key_env = \"INTERNAL_KEY\"\n\
             price = { input = 0.27, output = 1.1, currency = \"USD\" }\n",
        )
        .expect("write");
        let cfg = read_config(&p).expect("parse");
        let m = resolve_model("internal-ds", &cfg.models).expect("named");
        assert_eq!(m.key_env().as_deref(), Some("INTERNAL_KEY"));
        assert_eq!(m.endpoint().as_deref(), Some("https://llm.internal/v1"));
        assert_eq!(m.price.as_ref().map(|p| p.input), Some(0.27));
        std::fs::write(
            &p,
            "[models.x]\nprovider = \"openai\"\nmodel = \"m\"\napi_key = \"sk-1\"\n",
        )
        .expect("write");
        let err = read_config(&p)
            .expect_err("api_key is not a field")
            .to_string();
        assert!(err.contains(":4:") && err.contains("api_key"), "{err}");
    }
}
