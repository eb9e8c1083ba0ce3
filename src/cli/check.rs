//! `mf check` flags.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// The install gate: compare a new capability with what is installed. Pure and offline; the
/// verdict is `pass` or `warn` (exit 0 either way) unless `--fail-on-warn`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf check --manifest new-server.json --installed tools.json")]
pub struct CheckArgs {
    /// The new capability: JSON with a `name` and its `tools` in any supported shape, or one
    /// tool definition.
    #[arg(long, value_name = "FILE")]
    pub manifest: PathBuf,
    /// What is installed: surface files, folders to scan or http(s):// MCP endpoints
    /// (repeatable). Live servers can also be given with `--stdio` / `--server`.
    #[arg(long, value_name = "PATH|URL", required_unless_present_any = ["stdio", "server"])]
    pub installed: Vec<String>,
    /// Installed live servers (`--stdio`, `--server`) and their options.
    #[command(flatten)]
    pub live: super::target::LiveArgs,
    /// Pair score at which a new tool competes with an installed one.
    #[arg(long, default_value_t = 0.5)]
    pub threshold: f64,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = SimpleFormat::Terminal)]
    pub format: SimpleFormat,
    /// Exit 2 on a `warn` verdict (the gate itself never fails).
    #[arg(long)]
    pub fail_on_warn: bool,
}

/// Formats for reports without SARIF/JUnit forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SimpleFormat {
    /// Readable text.
    Terminal,
    /// JSON (SCHEMA.md), byte-identical across runs.
    Json,
    /// GitHub-flavoured markdown.
    Markdown,
}
