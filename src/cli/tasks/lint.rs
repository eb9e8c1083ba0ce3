//! `mf tasks lint` flags.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::super::lint::FailOn;
use super::super::target::LiveArgs;

/// Check a suite's (task set's) cases against the surface they will be asked about: expected
/// tools and argument keys that do not exist (with the closest names), duplicate ids and
/// inputs, cases per tool and the must-not-call share against the guidance, inputs that give
/// the tool's name away, unreviewed cases. Every finding has a stable code and file:line.
/// Free and offline; `mf eval` refuses the same errors before its first request.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf tasks lint --suite mf.suite.json
  mf tasks lint tools.json --suite drafts.tasks.yaml --format sarif > tasks.sarif
  mf tasks lint --explain unknown-expected-tool")]
pub struct TasksLintArgs {
    /// The tools the cases are about (files, folders, http(s):// MCP endpoints). Default: the
    /// suite's `tools[]`, or the task set's `surface`.
    #[arg(value_name = "PATH|URL")]
    pub paths: Vec<String>,
    /// The suite or task set to check.
    #[arg(long, value_name = "FILE", default_value = "mf.suite.json")]
    pub suite: PathBuf,
    /// Live servers (`--stdio`, `--server`) and their options.
    #[command(flatten)]
    pub live: LiveArgs,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = TasksLintFormat::Terminal)]
    pub format: TasksLintFormat,
    /// Also write SARIF 2.1.0 to FILE.
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// Also write the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub json_out: Option<PathBuf>,
    /// Exit 2 when a finding at this severity or worse remains.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Print the documentation of one code (what it means, the fix) and exit.
    #[arg(long, value_name = "CODE", exclusive = true)]
    pub explain: Option<String>,
    /// List every code and exit.
    #[arg(long, exclusive = true)]
    pub list_rules: bool,
}

/// Tasks lint output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TasksLintFormat {
    /// Readable text (colour on a terminal).
    Terminal,
    /// The JSON report (SCHEMA.md "Tasks lint report"), byte-identical across runs.
    Json,
    /// SARIF 2.1.0.
    Sarif,
}
