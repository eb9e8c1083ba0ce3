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
    read_config_text(path).map(|(config, _)| config)
}

/// [`read_config`], also returning the file's text (to name lines in later checks).
pub fn read_config_text(path: &std::path::Path) -> Result<(ConfigFile, String), ConfigError> {
    let display = path.display();
    // Through the safe-open: regular file, size-capped, never blocking on a FIFO.
    let text = crate::surface::formats::read_text(
        path,
        &display.to_string(),
        crate::surface::formats::MAX_FILE_BYTES,
    )
    .map_err(|e| ConfigError(e.to_string()))?;
    let config = toml::from_str(&text).map_err(|e| {
        ConfigError(crate::surface::scan::declared::toml_error(&e, &text, &display.to_string()).0)
    })?;
    Ok((config, text))
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
    // A built-in name (`mock`, `lexical`, `PROVIDER:MODEL`) always means the built-in endpoint:
    // a named model of the same name is never looked up (and [`check_model_name`] refuses it).
    if let Some(c) = named.get(entry).filter(|_| !is_builtin_name(entry)) {
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

/// Whether `name` is one `--models` resolves without any named model: `mock`, `lexical`, or
/// `PROVIDER:…` for a known provider prefix.
pub fn is_builtin_name(name: &str) -> bool {
    let name = name.trim();
    if matches!(name, "mock" | "lexical") {
        return true;
    }
    name.split_once(':')
        .is_some_and(|(prefix, _)| ProviderKind::ALL.iter().any(|(id, _)| *id == prefix))
}

/// A named model may not be named like a built-in entry (`openai:gpt-4.1-mini`, `mock`, …):
/// such a name would let a file in the repository redirect what the command line means.
/// `file` is where the name was defined (shown in the error).
pub fn check_model_name(name: &str, file: &str) -> Result<(), ConfigError> {
    if is_builtin_name(name) {
        return Err(ConfigError(format!(
            "{file}: the named model {name:?} is named like a built-in model; a named model may              not be called mock, lexical or PROVIDER:MODEL for a known provider (the built-in              entry always means the provider's own endpoint): rename it"
        )));
    }
    Ok(())
}

/// Which environment variables a model may read its key from, and which built-in key variables
/// a model defined in a file may send to an endpoint of its own.
///
/// A file (a suite, `mf.toml`) is repository content — on a pull request, the author's. So:
/// - `api_key_env` must name a provider-key-shaped variable: a built-in key variable, a name
///   ending in `_API_KEY` (`[A-Z][A-Z0-9_]*_API_KEY`), or a name given on the command line
///   (`--allow-key-env`). `GITHUB_TOKEN`, `ACTIONS_RUNTIME_TOKEN`, … are refused.
/// - a model defined in a file with its own `base_url` (not the provider's built-in one) may
///   not read a built-in key variable (`OPENAI_API_KEY`, …, `MF_PROVIDER_API_KEY`) that is set,
///   unless that variable was given with `--allow-key-env`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyPolicy {
    /// Variables allowed on the command line (`--allow-key-env NAME`).
    pub allowed: std::collections::BTreeSet<String>,
}

/// Every built-in key variable (the providers' defaults).
pub fn builtin_key_vars() -> Vec<&'static str> {
    let mut vars: Vec<&'static str> = ProviderKind::ALL
        .iter()
        .filter_map(|(_, k)| k.default_key_env())
        .collect();
    vars.sort_unstable();
    vars.dedup();
    vars
}

/// `[A-Z][A-Z0-9_]*_API_KEY`.
fn key_shaped(name: &str) -> bool {
    name.strip_suffix("_API_KEY").is_some_and(|stem| {
        let mut chars = stem.chars();
        chars.next().is_some_and(|c| c.is_ascii_uppercase())
            && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    })
}

impl KeyPolicy {
    /// A policy with these command-line allowances.
    pub fn new<I: IntoIterator<Item = S>, S: Into<String>>(allowed: I) -> KeyPolicy {
        KeyPolicy {
            allowed: allowed.into_iter().map(Into::into).collect(),
        }
    }

    /// Whether `api_key_env` may name `var`.
    pub fn allows_var(&self, var: &str) -> bool {
        self.allowed.contains(var) || builtin_key_vars().contains(&var) || key_shaped(var)
    }

    /// Check one resolved model. `defined_in` is the file a named model came from (`None` for a
    /// command-line entry, whose endpoint the command line chose). `is_set` tells whether a
    /// variable holds a key (the environment, in production).
    pub fn check(
        &self,
        spec: &ModelSpec,
        defined_in: Option<&str>,
        is_set: &dyn Fn(&str) -> bool,
    ) -> Result<(), ConfigError> {
        let Some(file) = defined_in else {
            return Ok(());
        };
        let label = &spec.label;
        if let Some(var) = &spec.api_key_env
            && !self.allows_var(var)
        {
            return Err(ConfigError(format!(
                "{file}: model {label:?} reads its key from {var}, which is not a provider key                  variable; api_key_env may name {}, a NAME_API_KEY variable, or a variable                  allowed on the command line with --allow-key-env {var}",
                builtin_key_vars().join(", ")
            )));
        }
        let Some(var) = spec.key_env() else {
            return Ok(());
        };
        let builtin = builtin_key_vars();
        if !builtin.contains(&var.as_str()) || self.allowed.contains(&var) || !is_set(&var) {
            return Ok(());
        }
        let Some(own) = spec.base_url.as_deref().map(|u| u.trim_end_matches('/')) else {
            return Ok(());
        };
        // The endpoints mf itself sends this variable to.
        let home: Vec<&str> = ProviderKind::ALL
            .iter()
            .filter(|(_, k)| k.default_key_env() == Some(var.as_str()))
            .filter_map(|(_, k)| k.default_base_url())
            .collect();
        if home.contains(&own) {
            return Ok(());
        }
        Err(ConfigError(format!(
            "{file}: model {label:?} would send the built-in key variable {var} to its own              base_url {own}; a model defined in a file may not point a built-in key at another              endpoint. Name a variable of its own with api_key_env (e.g. MY_SERVER_API_KEY), or              allow it on the command line with --allow-key-env {var}"
        )))
    }
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

    #[test]
    fn named_models_may_not_be_named_like_builtin_entries() {
        for name in [
            "openai:gpt-4.1-mini",
            "anthropic:x",
            "ollama:qwen3:8b",
            "mock",
            "lexical",
        ] {
            let err = check_model_name(name, "mf.suite.json").expect_err(name);
            assert!(err.to_string().contains("mf.suite.json"), "{err}");
        }
        check_model_name("internal-ds", "mf.toml").expect("a plain name");
        check_model_name("team:fast", "mf.toml").expect("not a provider prefix");
        // Even if one got through, the built-in entry wins.
        let mut named = BTreeMap::new();
        named.insert(
            "openai:gpt-4.1-mini".to_owned(),
            ModelConfig {
                provider: ProviderKind::OpenaiChat,
                model: "m".into(),
                base_url: Some("http://127.0.0.1:9/v1".into()),
                api_key_env: None,
                api_key_header: None,
                headers: BTreeMap::new(),
                price: None,
                temperature: None,
                max_output_tokens: None,
                tool_choice_auto: false,
            },
        );
        let m = resolve_model("openai:gpt-4.1-mini", &named).expect("builtin");
        assert_eq!(m.endpoint().as_deref(), Some("https://api.openai.com/v1"));
    }

    #[test]
    fn key_policy_allows_provider_key_shaped_variables_and_the_command_line() {
        let p = KeyPolicy::default();
        for ok in [
            "OPENAI_API_KEY",
            "MF_PROVIDER_API_KEY",
            "INTERNAL_API_KEY",
            "MF_X2_API_KEY",
        ] {
            assert!(p.allows_var(ok), "{ok}");
        }
        for bad in [
            "GITHUB_TOKEN",
            "ACTIONS_RUNTIME_TOKEN",
            "_API_KEY",
            "api_key",
            "X_API_KEYS",
        ] {
            assert!(!p.allows_var(bad), "{bad}");
        }
        assert!(KeyPolicy::new(["GITHUB_TOKEN"]).allows_var("GITHUB_TOKEN"));
    }

    #[test]
    fn key_policy_keeps_builtin_keys_on_builtin_endpoints_for_file_models() {
        let named = |base: Option<&str>, var: Option<&str>| {
            let mut m = BTreeMap::new();
            m.insert(
                "x".to_owned(),
                ModelConfig {
                    provider: ProviderKind::Openai,
                    model: "m".into(),
                    base_url: base.map(str::to_owned),
                    api_key_env: var.map(str::to_owned),
                    api_key_header: None,
                    headers: BTreeMap::new(),
                    price: None,
                    temperature: None,
                    max_output_tokens: None,
                    tool_choice_auto: false,
                },
            );
            resolve_model("x", &m).expect("named")
        };
        let set = |_: &str| true;
        let unset = |_: &str| false;
        let p = KeyPolicy::default();
        let evil = named(Some("https://evil.example/v1"), None);
        assert!(p.check(&evil, Some("s.json"), &set).is_err());
        assert!(
            p.check(&evil, Some("s.json"), &unset).is_ok(),
            "no key to leak"
        );
        assert!(
            p.check(&evil, None, &set).is_ok(),
            "the command line chose it"
        );
        assert!(
            KeyPolicy::new(["OPENAI_API_KEY"])
                .check(&evil, Some("s.json"), &set)
                .is_ok()
        );
        let home = named(Some("https://api.openai.com/v1/"), None);
        assert!(p.check(&home, Some("s.json"), &set).is_ok());
        let own = named(Some("https://llm.internal/v1"), Some("INTERNAL_API_KEY"));
        assert!(p.check(&own, Some("s.json"), &set).is_ok());
        let token = named(None, Some("GITHUB_TOKEN"));
        assert!(p.check(&token, Some("s.json"), &unset).is_err());
    }
}
