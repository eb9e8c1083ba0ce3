//! The models of a run: `--models` entries resolved against the suite's and `mf.toml`'s named
//! models ([`resolve`]), then made ready to answer ([`build`]): an HTTP provider per paid model
//! (one shared client, redirects refused) or an offline one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::EvalError;
use super::config::EvalConfig;
use super::run::{Backend, RunModel};
use crate::providers::config::{self, KeyPolicy, ModelConfig, ModelSpec, ProviderKind};
use crate::providers::http::HttpOptions;
use crate::providers::offline::{Offline, Script};
use crate::providers::provider::HttpProvider;
use crate::suite::Suite;

/// `config.models` resolved against the suite's and the config file's named models (the file's
/// win), with `--base-url` and `--tool-choice-auto` applied. `suite_file` names the suite in
/// errors.
///
/// Named models are repository content: a name like a built-in entry (`openai:…`, `mock`) is
/// refused, and each named model's key variable is checked against the command line's
/// [`KeyPolicy`] before anything is sent (see SCHEMA.md, "Limits and threat model of the free path").
pub fn resolve(
    config: &EvalConfig,
    suite: &Suite,
    suite_file: &str,
) -> Result<Vec<ModelSpec>, EvalError> {
    let mut named: BTreeMap<String, ModelConfig> = BTreeMap::new();
    let mut origin: BTreeMap<String, String> = BTreeMap::new();
    for (name, model) in &suite.models {
        config::check_model_name(name, suite_file)?;
        named.insert(name.clone(), model.clone());
        origin.insert(name.clone(), suite_file.to_owned());
    }
    let config_path = config.config_file.clone().or_else(find_config);
    if let Some(p) = config_path {
        let display = p.to_string_lossy().replace('\\', "/");
        for (name, model) in config::read_config(&p)?.models {
            config::check_model_name(&name, &display)?;
            origin.insert(name.clone(), display.clone());
            named.insert(name, model);
        }
    }
    let policy = KeyPolicy::new(config.allow_key_env.iter().cloned());
    let is_set = |var: &str| std::env::var_os(var).is_some_and(|v| !v.is_empty());
    let mut specs = Vec::new();
    let mut labels = BTreeSet::new();
    for entry in &config.models {
        let mut spec = config::resolve_model(entry, &named)?;
        if !labels.insert(spec.label.clone()) {
            return Err(EvalError::Models(config::ConfigError(format!(
                "--models lists {:?} twice",
                spec.label
            ))));
        }
        let defined_in = (!config::is_builtin_name(entry))
            .then(|| origin.get(entry.trim()))
            .flatten();
        policy.check(&spec, defined_in.map(String::as_str), &is_set)?;
        if spec.base_url.is_none()
            && let Some(url) = &config.base_url
            && spec.provider.wire().is_some()
        {
            spec.base_url = Some(url.clone());
        }
        spec.tool_choice_auto |= config.tool_choice_auto;
        if spec.provider == ProviderKind::OpenaiCompatible && spec.endpoint().is_none() {
            return Err(EvalError::Models(config::ConfigError(format!(
                "{entry}: openai-compatible needs --base-url (or base_url in mf.toml)"
            ))));
        }
        specs.push(spec);
    }
    Ok(specs)
}

/// The `mf.toml` that applies here: in the current folder, else the nearest one above it, up
/// to the repository root (the first folder holding `.git`); none outside.
pub fn find_config() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    for dir in cwd.ancestors() {
        let p = dir.join("mf.toml");
        if p.is_file() {
            // Relative to the current folder when it is the current folder, so messages stay short.
            return Some(if dir == cwd {
                PathBuf::from("mf.toml")
            } else {
                p
            });
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    None
}

/// Make each resolved model ready to answer.
pub fn build(config: &EvalConfig, specs: Vec<ModelSpec>) -> Result<Vec<RunModel>, EvalError> {
    let options = HttpOptions {
        timeout: config.timeout,
        retries: config.retries,
        ..HttpOptions::default()
    };
    let mut client = None;
    let mut out = Vec::new();
    for spec in specs {
        let backend = match spec.provider {
            ProviderKind::Mock => Backend::Offline(Offline::Mock),
            ProviderKind::Lexical => Backend::Offline(Offline::Lexical),
            ProviderKind::Scripted => {
                let path = spec.script.clone().unwrap_or_default();
                Backend::Offline(Offline::Scripted(
                    Script::read(&path).map_err(EvalError::Script)?,
                ))
            }
            _ => {
                if client.is_none() {
                    client = Some(http_client()?);
                }
                let c = client.clone().unwrap_or_default();
                Backend::Http(Box::new(HttpProvider::new(&spec, options.clone(), c)?))
            }
        };
        out.push(RunModel {
            temperature: spec.temperature.or(config.temperature),
            max_output_tokens: spec.max_output_tokens.unwrap_or(config.max_output_tokens),
            spec,
            backend,
        });
    }
    Ok(out)
}

fn http_client() -> Result<reqwest::Client, EvalError> {
    crate::util::http::client_builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("mf/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| EvalError::Client(e.to_string()))
}
