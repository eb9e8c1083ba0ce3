//! `mf cluster` flags.

use std::path::PathBuf;

use clap::Args;

use super::check::SimpleFormat;
use super::input::SurfaceArgs;

/// Group confusable tools: clusters linked at a pair score, the riskiest pairs, name families
/// split across clusters, and for each confusable group what tells its tools apart.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf cluster tools.json
  mf cluster . --out mf.suite.json                 write the clusters as suite profiles")]
pub struct ClusterArgs {
    /// What to cluster.
    #[command(flatten)]
    pub input: SurfaceArgs,
    /// Pair score (of the confusable-pair scorer lint uses; every pair scores ≥ 0.5) that links
    /// two tools.
    #[arg(long, default_value_t = 0.5)]
    pub threshold: f64,
    /// Largest cluster; bigger groups are split at their weakest links.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub max_size: usize,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = SimpleFormat::Terminal)]
    pub format: SimpleFormat,
    /// Write the clusters into this suite file as `profiles` (created if missing).
    #[arg(long, value_name = "SUITE")]
    pub out: Option<PathBuf>,
}
