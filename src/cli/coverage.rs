//! `mf coverage` flags.

use std::path::PathBuf;

use clap::Args;

use super::check::SimpleFormat;

/// Which tools lack test cases: reviewed cases per tool and per profile, and the share of
/// must-not-call cases (guidance: ≥ 3 per tool, ≥ 15% must-not-call).
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf coverage --suite mf.suite.json")]
pub struct CoverageArgs {
    /// The suite.
    #[arg(long, value_name = "FILE", default_value = "mf.suite.json")]
    pub suite: PathBuf,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = SimpleFormat::Terminal)]
    pub format: SimpleFormat,
    /// Exit 2 when the suite does not meet the guidance.
    #[arg(long)]
    pub fail_under_guidance: bool,
}
