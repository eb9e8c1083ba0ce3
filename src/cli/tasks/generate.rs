//! `mf tasks generate` flags.

use std::path::PathBuf;

use clap::Args;

use super::super::target::LiveArgs;
use crate::eval::config::{DEFAULT_MAX_INPUT_TOKENS, DEFAULT_TIMEOUT_SECS, EvalConfig};
use crate::generate::{
    DEFAULT_MAX_REQUESTS, GenerateConfig, GenerateConfigError, HARD_MAX_REQUESTS,
};

/// Let a model draft a task set: cases per tool, must-not-call near misses, and boundary cases
/// for each confusable pair `mf cluster` finds. One request per tool and per pair, budgeted
/// like eval (dry run, request and token caps, key rules); every task is `reviewed: false`,
/// `source: generate`. Without the key it prints what it would send and stops. Refuses to
/// overwrite FILE without --force. Review the drafts, then commit them; do not regenerate on
/// every run.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf tasks generate tools.json --models openai:gpt-4.1-mini --out drafts.tasks.yaml --dry-run
  mf tasks generate tools.json --models ollama:qwen3:8b --out drafts.tasks.yaml
  mf tasks lint tools.json --suite drafts.tasks.yaml")]
pub struct GenerateArgs {
    /// The tools to draft cases for (files, folders to scan, http(s):// MCP endpoints).
    /// Default: the suite's tools.
    #[arg(value_name = "PATH|URL")]
    pub paths: Vec<String>,
    /// A suite whose tools (when no PATH is given) and named models apply.
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// Live servers (`--stdio`, `--server`) and their options.
    #[command(flatten)]
    pub live: LiveArgs,
    /// Where to write the task set (`.yaml`/`.yml` → YAML, else JSON).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Overwrite FILE when it exists.
    #[arg(long)]
    pub force: bool,

    /// The model that drafts: PROVIDER:MODEL or a name from mf.toml (one entry).
    #[arg(long, value_name = "MODEL", help_heading = "Models")]
    pub models: String,
    /// Config file with named models (`[models.NAME]`). Default: ./mf.toml when present.
    #[arg(long, value_name = "FILE", help_heading = "Models")]
    pub config: Option<PathBuf>,
    /// Base URL for a model that has none configured.
    #[arg(long, value_name = "URL", help_heading = "Models")]
    pub base_url: Option<String>,
    /// Allow a named model to read its key from variable NAME (as `mf eval --allow-key-env`).
    #[arg(
        long,
        value_name = "NAME",
        value_delimiter = ',',
        help_heading = "Models"
    )]
    pub allow_key_env: Vec<String>,
    /// Sampling temperature (not sent when absent).
    #[arg(long, value_name = "T", help_heading = "Models")]
    pub temperature: Option<f64>,
    /// Send `tool_choice: "auto"` (for servers that ignore tools without it).
    #[arg(long, help_heading = "Models")]
    pub tool_choice_auto: bool,
    /// Output token cap per request.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2000,
        help_heading = "Models"
    )]
    pub max_output_tokens: u32,

    /// Cases to ask for per tool.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 3,
        help_heading = "What to draft"
    )]
    pub per_tool: usize,
    /// Must-not-call near misses to ask for per tool.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        help_heading = "What to draft"
    )]
    pub must_not_call: usize,
    /// Boundary cases to ask for per tool of each confusable pair.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        help_heading = "What to draft"
    )]
    pub boundary: usize,
    /// Most confusable pairs to draft boundary cases for (strongest first).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10,
        help_heading = "What to draft"
    )]
    pub max_pairs: usize,

    /// Refuse when the plan needs more requests than this (hard cap 1000).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_REQUESTS, help_heading = "Plan and budget")]
    pub max_requests: u64,
    /// Refuse when the requests would send more input tokens than this in all (o200k_base
    /// lower bound).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_INPUT_TOKENS, help_heading = "Plan and budget")]
    pub max_input_tokens: u64,
    /// Print every request it would send and its token lower bound; send nothing, write nothing.
    #[arg(long, help_heading = "Plan and budget")]
    pub dry_run: bool,
    /// Seconds before a request times out.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_TIMEOUT_SECS, help_heading = "Running")]
    pub timeout: u64,
    /// Extra attempts for 429, 5xx and timeouts (honours Retry-After).
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Running")]
    pub retries: u32,
}

impl GenerateArgs {
    /// Validate once into the engine's configuration.
    pub fn config(&self) -> Result<GenerateConfig, GenerateConfigError> {
        let config = GenerateConfig {
            model: EvalConfig {
                models: vec![self.models.clone()],
                config_file: self.config.clone(),
                base_url: self.base_url.clone(),
                allow_key_env: self.allow_key_env.clone(),
                temperature: self.temperature,
                tool_choice_auto: self.tool_choice_auto,
                max_output_tokens: self.max_output_tokens,
                timeout: std::time::Duration::from_secs(self.timeout),
                retries: self.retries,
                cache_dir: None,
                ..EvalConfig::default()
            },
            per_tool: self.per_tool,
            must_not_call: self.must_not_call,
            boundary: self.boundary,
            max_pairs: self.max_pairs,
            max_requests: self.max_requests,
            max_input_tokens: self.max_input_tokens,
            dry_run: self.dry_run,
        };
        if self.models.contains(',') {
            return Err(GenerateConfigError(
                "--models takes one model for tasks generate".into(),
            ));
        }
        if self.max_requests == 0 || self.max_requests > HARD_MAX_REQUESTS {
            return Err(GenerateConfigError(format!(
                "--max-requests must be between 1 and {HARD_MAX_REQUESTS}"
            )));
        }
        if self.per_tool == 0 && self.must_not_call == 0 && self.boundary == 0 {
            return Err(GenerateConfigError(
                "--per-tool, --must-not-call and --boundary are all 0: nothing to draft".into(),
            ));
        }
        Ok(config)
    }
}
