//! `mf lint` flags.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::input::SurfaceArgs;

/// Find what will confuse a model: duplicate and near-identical tools, missing or thin
/// descriptions, invalid schemas, naming drift, MCP annotation mistakes, prompt-injection-like
/// text, token budget. Free and offline.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf lint tools.json               what will confuse a model (exit 2 on an error)
  mf lint . --format sarif > mf.sarif
  mf lint --explain description-identical")]
pub struct LintArgs {
    /// What to lint.
    #[command(flatten)]
    pub input: SurfaceArgs,
    /// Print the documentation of one rule code (what it means, an example, the fix) and exit.
    #[arg(long, value_name = "CODE", exclusive = true)]
    pub explain: Option<String>,
    /// List every rule code and exit.
    #[arg(long, exclusive = true)]
    pub list_rules: bool,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = LintFormat::Terminal)]
    pub format: LintFormat,
    /// Also write SARIF 2.1.0 to FILE (for GitHub code scanning).
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// Also write JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Also write a markdown summary to FILE.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Also write the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub json_out: Option<PathBuf>,
    /// Exit 2 when a finding at this severity or worse remains after the baseline.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Accepted findings: only findings not in this file count.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write every current finding to FILE as a baseline (then exit 0).
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Warn when the surface has more tools than this (default 20: OpenAI recommends fewer
    /// than about 20 functions for accuracy). Not the eval budget (`mf eval --max-tools`).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub max_tools: usize,
    /// Report only these rule codes or families (comma-separated; old codes are aliases).
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub select: Vec<String>,
    /// Drop these rule codes or families (comma-separated; old codes are aliases).
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Terminal output: print each finding's message and fix under its line.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Error when the surface's tools take more tokens than this (without it: a warning above
    /// 20,000).
    #[arg(long, value_name = "N")]
    pub max_context_tokens: Option<usize>,
    /// Warn when one tool takes more tokens than this (default 2,000).
    #[arg(long, value_name = "N")]
    pub max_tool_tokens: Option<usize>,
}

/// Lint output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    /// Readable text (colour on a terminal).
    Terminal,
    /// The JSON report (SCHEMA.md §Lint report), byte-identical across runs.
    Json,
    /// SARIF 2.1.0.
    Sarif,
    /// JUnit XML.
    Junit,
    /// GitHub-flavoured markdown.
    Markdown,
}

/// Which findings fail the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Errors only.
    Error,
    /// Warnings and errors.
    Warn,
    /// Never fail on findings.
    Never,
}

impl FailOn {
    /// The least severity that fails; `None` = nothing fails.
    pub fn severity(self) -> Option<crate::report::lint::Severity> {
        use crate::report::lint::Severity;
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warn => Some(Severity::Warn),
            FailOn::Never => None,
        }
    }
}
