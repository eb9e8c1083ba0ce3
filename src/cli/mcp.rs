//! `mf mcp` flags: the operator's limits. No tool argument can raise them.

use std::path::PathBuf;

use clap::Args;

use crate::mcp::LimitsInput;

/// `mf mcp`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  claude mcp add mf -- mf mcp
  mf mcp --max-trials 200 --cache
  mf mcp --allow-paid-runs --max-trials 100 --config mf-mcp.toml

Serves MCP over stdin/stdout from the current folder; every path a tool names must resolve
inside it. Without flags: offline models only (lexical, mock), no live servers, no persistent
cache, at most 50 paid trials and 128 tools per run, repeat at most 10.")]
pub struct McpArgs {
    /// Let run_eval use models that send requests to a provider (and cost money); their keys
    /// still come from this process's environment only.
    #[arg(long)]
    pub allow_paid_runs: bool,
    /// Let tools start (stdio) or reach (url) live MCP servers, and scan_tools probe the
    /// repository's configured servers.
    #[arg(long)]
    pub allow_live_targets: bool,
    /// Keep finished trials in the persistent trial cache (default location, see `mf cache info`).
    #[arg(long)]
    pub cache: bool,
    /// The trial cache directory (turns the cache on).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Most paid trials one run_eval may send [default: 50, hard cap 1000].
    #[arg(long, value_name = "N")]
    pub max_trials: Option<u64>,
    /// Most tools a paid run may offer [default: 128, hard cap 1000].
    #[arg(long, value_name = "N")]
    pub max_tools: Option<usize>,
    /// Most trials per case and model an agent may ask for [default: 10, hard cap 100].
    #[arg(long, value_name = "N")]
    pub max_repeat: Option<u32>,
    /// Requests in flight at once during run_eval [default: 4, at most 64].
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// A TOML file with the same settings (allow-paid-runs, max-trials, …); a flag wins.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

impl McpArgs {
    /// The operator's settings, before validation against the working directory.
    pub fn limits(&self) -> LimitsInput {
        LimitsInput {
            allow_paid_runs: self.allow_paid_runs,
            allow_live_targets: self.allow_live_targets,
            cache: self.cache,
            cache_dir: self.cache_dir.clone(),
            max_trials: self.max_trials,
            max_tools: self.max_tools,
            max_repeat: self.max_repeat,
            concurrency: self.concurrency,
            config: self.config.clone(),
        }
    }
}
