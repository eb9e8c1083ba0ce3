//! `mf eval` and `mf cache` flags.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::exec::EngineArg;
use super::exec::{ImplementationArgs, PolicyArgs};
use super::target::LiveArgs;
use crate::eval::config::{self, EvalConfig, EvalConfigError, EvalGates};
use crate::eval::execute::ExecuteConfig;
use crate::eval::plan::Budgets;
use crate::suite::Selection;

/// Ask models which tool they would call for each case: many trials with shuffled tool order,
/// accuracy with Wilson 95% intervals, confusion, over-trigger, argument accuracy, latency, cost.
/// Offline models (`mock`, `lexical`, `scripted:FILE`) need no key.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf eval --models lexical                         the default suite, offline, no key
  mf eval --suite mf.suite.yaml --models openai:gpt-4.1-mini --dry-run
  mf eval --models openai:gpt-4.1-mini --json-out scorecard.json
  mf eval --models openai:gpt-4.1-mini --shard 2/3 --json-out part-2.json")]
pub struct EvalArgs {
    /// The tools to offer (files, folders to scan, http(s):// MCP endpoints). Default: the
    /// suite's `tools[]`, or the task set's `surface`.
    #[arg(value_name = "PATH|URL")]
    pub paths: Vec<String>,
    /// The suite with the cases (mf.suite.json, YAML, or a task set). Default: ./mf.suite.json.
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// Live servers (`--stdio`, `--server`) and their options.
    #[command(flatten)]
    pub live: LiveArgs,
    /// Score the suite's mount groups: `all` (every group of `profiles`) or one NAME. Each
    /// group runs mounted alone over its cases besides the run with every tool; the scorecard's
    /// `profiles` gives per group mounted, allInOne, delta, lifted and jammed.
    #[arg(long, value_name = "all|NAME")]
    pub profile: Option<String>,
    /// With --profile NAME: offer only that group's tools, one run, no comparison with every
    /// tool (all cases must expect its tools or none).
    #[arg(long, requires = "profile")]
    pub mounted_only: bool,

    /// Models, comma-separated or repeated: PROVIDER:MODEL (openai, openai-chat, anthropic,
    /// openrouter, together, deepseek, vllm, ollama, openai-compatible), a name from mf.toml,
    /// or offline: mock, lexical, scripted:FILE.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        required = true,
        help_heading = "Models"
    )]
    pub models: Vec<String>,
    /// Config file with named models (`[models.NAME]`). Default: ./mf.toml when present.
    #[arg(long, value_name = "FILE", help_heading = "Models")]
    pub config: Option<PathBuf>,
    /// Base URL for models that have none configured (openai-compatible, vllm, ollama, …).
    #[arg(long, value_name = "URL", help_heading = "Models")]
    pub base_url: Option<String>,
    /// Allow a named model (suite, mf.toml) to read its key from variable NAME: a name outside
    /// the provider-key allow-list (built-in key variables and NAME_API_KEY), or a built-in key
    /// variable sent to the model's own base_url. Repeatable. Only the command line can allow
    /// this; files in the repository cannot.
    #[arg(
        long,
        value_name = "NAME",
        value_delimiter = ',',
        help_heading = "Models"
    )]
    pub allow_key_env: Vec<String>,
    /// Sampling temperature (not sent when absent: the provider's default).
    #[arg(long, value_name = "T", help_heading = "Models")]
    pub temperature: Option<f64>,
    /// Send `tool_choice: "auto"` with the tools (lets the model choose; forces nothing). For
    /// servers that ignore tools without it, such as llama-cpp-python's function calling.
    #[arg(long, help_heading = "Models")]
    pub tool_choice_auto: bool,
    /// Output token cap per request.
    #[arg(
        long,
        value_name = "N",
        default_value_t = config::DEFAULT_MAX_OUTPUT_TOKENS,
        help_heading = "Models"
    )]
    pub max_output_tokens: u32,

    /// Only these case ids (comma-separated or repeated).
    #[arg(
        long,
        value_name = "IDS",
        value_delimiter = ',',
        help_heading = "Cases"
    )]
    pub cases: Vec<String>,
    /// Only cases with one of these tags.
    #[arg(
        long,
        value_name = "TAG",
        value_delimiter = ',',
        help_heading = "Cases"
    )]
    pub only: Vec<String>,
    /// Leave out cases with one of these tags.
    #[arg(
        long,
        value_name = "TAG",
        value_delimiter = ',',
        help_heading = "Cases"
    )]
    pub skip: Vec<String>,

    /// Trials per case and model.
    #[arg(
        long,
        value_name = "N",
        default_value_t = config::DEFAULT_REPEAT,
        help_heading = "Plan and budget"
    )]
    pub repeat: u32,
    /// Seed of the per-trial tool order.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        help_heading = "Plan and budget"
    )]
    pub seed: u64,
    /// Run only shard K of N of the plan (e.g. `2/3`, one per CI job) and write a part that
    /// `mf merge` joins with the others into the scorecard one run would write. Every (model,
    /// case) goes to one shard, balanced by cost; the budgets are checked for the whole plan.
    #[arg(long, value_name = "K/N", help_heading = "Plan and budget")]
    pub shard: Option<crate::eval::shard::Shard>,
    /// Most paid trials a run may send (hard cap 1000). Offline models are not counted.
    #[arg(
        long,
        value_name = "N",
        default_value_t = config::DEFAULT_MAX_TRIALS,
        help_heading = "Plan and budget"
    )]
    pub max_trials: u64,
    /// Refuse a paid run when the surface has more tools than this (hard cap 1000).
    #[arg(
        long,
        value_name = "N",
        default_value_t = config::DEFAULT_MAX_TOOLS,
        help_heading = "Plan and budget"
    )]
    pub max_tools: usize,
    /// Refuse a paid run whose trials would send more input tokens than this in all (o200k_base
    /// lower bound: tools × tokens × trials; the money guard). `0` = no limit.
    #[arg(
        long,
        value_name = "N",
        default_value_t = config::DEFAULT_MAX_INPUT_TOKENS,
        help_heading = "Plan and budget"
    )]
    pub max_input_tokens: u64,
    /// Refuse when a trial's prompt (tools + input, o200k_base) is over this many tokens.
    #[arg(long, value_name = "N", help_heading = "Plan and budget")]
    pub max_context_tokens: Option<u64>,
    /// Print the plan, token lower bound and estimated cost; call nothing.
    #[arg(long, help_heading = "Plan and budget")]
    pub dry_run: bool,
    /// With --dry-run: estimate wall time from this many seconds per request.
    #[arg(long, value_name = "SECS", help_heading = "Plan and budget")]
    pub seconds_per_trial: Option<f64>,

    /// Requests in flight at once (max 64).
    #[arg(long, value_name = "N", default_value_t = config::DEFAULT_CONCURRENCY, help_heading = "Running")]
    pub concurrency: usize,
    /// Seconds allowed per request (the whole response).
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = config::DEFAULT_TIMEOUT_SECS,
        help_heading = "Running"
    )]
    pub timeout: u64,
    /// Extra attempts for 429, 5xx and timeouts (honours Retry-After). Default: none.
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Running")]
    pub retries: u32,
    /// Do not read or write the trial cache.
    #[arg(long, help_heading = "Running")]
    pub no_cache: bool,
    /// Cache directory (default: $MF_CACHE_DIR, $XDG_CACHE_HOME/mf or ~/.cache/mf).
    #[arg(long, value_name = "DIR", help_heading = "Running")]
    pub cache_dir: Option<PathBuf>,
    /// Plain progress lines even on a terminal (CI logs).
    #[arg(long, help_heading = "Running")]
    pub no_progress: bool,

    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = EvalFormat::Terminal, help_heading = "Output")]
    pub format: EvalFormat,
    /// Also write the scorecard JSON to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub json_out: Option<PathBuf>,

    /// Exit 2 when a model's selection accuracy is below this (0–1). Alias: --fail-under.
    #[arg(
        long,
        alias = "fail-under",
        value_name = "RATE",
        help_heading = "Gates"
    )]
    pub min_accuracy: Option<f64>,
    /// Exit 2 when a model's over-trigger rate is above this (0–1).
    #[arg(long, value_name = "RATE", help_heading = "Gates")]
    pub max_over_trigger: Option<f64>,
    /// Exit 5 (unhealthy run) when more than this share of trials ended in errors.
    #[arg(
        long,
        value_name = "RATE",
        default_value_t = config::DEFAULT_MAX_ERROR_RATE,
        help_heading = "Gates"
    )]
    pub max_error_rate: f64,
    /// Exit 5 (unhealthy run) when a model has fewer scored trials than this.
    #[arg(long, value_name = "N", default_value_t = config::DEFAULT_MIN_SCORED, help_heading = "Gates")]
    pub min_scored: u64,
    /// With --execute: exit 2 when a model's share of passing executions is below this (0–1,
    /// default 1: every execution must meet its case's `expect`).
    #[arg(
        long,
        value_name = "RATE",
        requires = "execute",
        help_heading = "Gates"
    )]
    pub min_execution: Option<f64>,

    /// After the model picks the expected tool, run its implementation (the suite's
    /// `execution` block) with the case's `toolInput` and check `expect`. Executes repository
    /// code, isolated; never done by the free checks or by `mf ci`.
    #[arg(long, help_heading = "Execution")]
    pub execute: bool,
    /// With --execute: run cases without `toolInput` with the model's own arguments.
    #[arg(long, requires = "execute", help_heading = "Execution")]
    pub execute_model_args: bool,
    /// With --execute: seconds before a call is killed (default: the suite's `timeoutMs`, else
    /// 10).
    #[arg(
        long,
        value_name = "SECS",
        requires = "execute",
        help_heading = "Execution"
    )]
    pub exec_timeout: Option<f64>,
    /// With --execute: pass environment variable NAME to the tool (repeatable).
    #[arg(
        long,
        value_name = "NAME",
        requires = "execute",
        help_heading = "Execution"
    )]
    pub exec_env: Vec<String>,
    /// With --execute: what the tool may touch.
    #[command(flatten)]
    pub exec_policy: PolicyArgs,
    /// With --execute: where the implementation is.
    #[command(flatten)]
    pub exec_implementation: ImplementationArgs,
}

impl EvalArgs {
    /// The validated settings of this run (every range and combination checked).
    pub fn config(&self) -> Result<EvalConfig, EvalConfigError> {
        let config = EvalConfig {
            models: self.models.clone(),
            config_file: self.config.clone(),
            base_url: self.base_url.clone(),
            allow_key_env: self.allow_key_env.clone(),
            temperature: self.temperature,
            tool_choice_auto: self.tool_choice_auto,
            max_output_tokens: self.max_output_tokens,
            profile: self.profile.clone().filter(|_| self.mounted_only),
            mount_groups: match (&self.profile, self.mounted_only) {
                (Some(p), false) if p == "all" => Some(config::MountGroups::All),
                (Some(p), false) => Some(config::MountGroups::One(p.clone())),
                _ => None,
            },
            without: Vec::new(),
            selection: Selection {
                ids: self.cases.clone(),
                only: self.only.clone(),
                skip: self.skip.clone(),
            },
            repeat: self.repeat,
            seed: self.seed,
            budgets: Budgets {
                max_trials: self.max_trials,
                max_tools: self.max_tools,
                max_input_tokens: (self.max_input_tokens > 0).then_some(self.max_input_tokens),
                max_context_tokens: self.max_context_tokens,
            },
            dry_run: self.dry_run,
            seconds_per_trial: self.seconds_per_trial,
            concurrency: self.concurrency,
            timeout: std::time::Duration::from_secs(self.timeout),
            retries: self.retries,
            cache_dir: (!self.no_cache).then(|| {
                self.cache_dir
                    .clone()
                    .unwrap_or_else(crate::eval::cache::default_dir)
            }),
            gates: EvalGates {
                min_accuracy: self.min_accuracy,
                max_over_trigger: self.max_over_trigger,
                max_error_rate: self.max_error_rate,
                min_scored: self.min_scored,
            },
            execute: self.execute_config()?,
            shard: self.shard,
        };
        if self.mounted_only && self.profile.as_deref() == Some("all") {
            return Err(EvalConfigError(
                "--mounted-only offers one group's tools: give --profile NAME, not all".into(),
            ));
        }
        config.validate()?;
        Ok(config)
    }
}

impl EvalArgs {
    /// `--execute` and its flags; the policy flags alone are a usage error.
    fn execute_config(&self) -> Result<Option<ExecuteConfig>, EvalConfigError> {
        let p = &self.exec_policy;
        let i = &self.exec_implementation;
        if !self.execute {
            let policy_given = !p.allow_read.is_empty()
                || !p.allow_write.is_empty()
                || p.allow_net
                || p.max_memory_mb.is_some()
                || p.max_output_bytes.is_some()
                || p.engine != EngineArg::Auto
                || i.runtime.is_some()
                || i.entry.is_some()
                || i.export.is_some()
                || i.python.is_some();
            if policy_given {
                return Err(EvalConfigError(
                    "--allow-read/--allow-write/--allow-net/--max-memory-mb/--max-output-bytes/\
                     --engine/--runtime/--entry/--export/--python apply to --execute: add \
                     --execute, or drop them"
                        .into(),
                ));
            }
            return Ok(None);
        }
        let min_rate = self.min_execution.unwrap_or(1.0);
        if !(0.0..=1.0).contains(&min_rate) {
            return Err(EvalConfigError(format!(
                "--min-execution {min_rate}: give a rate between 0 and 1"
            )));
        }
        let flags = p
            .flags(i, self.exec_timeout, &self.exec_env)
            .map_err(EvalConfigError)?;
        Ok(Some(ExecuteConfig {
            flags,
            model_args: self.execute_model_args,
            min_rate,
        }))
    }
}

/// Eval output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvalFormat {
    /// Readable summary.
    Terminal,
    /// The JSON document (the scorecard, or the ablation report; SCHEMA.md).
    Json,
    /// GitHub-flavoured markdown.
    Markdown,
}

/// `mf cache`: the eval trial cache.
#[derive(Debug, Args)]
pub struct CacheArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: CacheAction,
    /// Cache directory (default: $MF_CACHE_DIR, $XDG_CACHE_HOME/mf or ~/.cache/mf).
    #[arg(long, value_name = "DIR", global = true)]
    pub cache_dir: Option<PathBuf>,
}

/// Cache actions.
#[derive(Debug, Clone, Copy, Subcommand)]
pub enum CacheAction {
    /// Where the cache is, how many trials it holds and their size.
    Info,
    /// Delete every cached trial.
    Clear,
}
