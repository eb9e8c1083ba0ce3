//! `mf merge` flags.

use std::path::PathBuf;

use clap::Args;

use super::eval::EvalFormat;

/// Join the parts of one sharded eval (`mf eval --shard K/N --json-out …`, one per CI job) into
/// the scorecard a single run would have written: every metric, gate and the status computed
/// again from the joined trials. Refuses (exit 1, naming the problem) parts of different plans,
/// a shard given twice, or a set with shards missing (unless --allow-partial). Exits like
/// `mf eval`: 2 a gate failed, 5 unhealthy.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf merge part-1.json part-2.json part-3.json --json-out scorecard.json
  mf merge parts/*.json --allow-partial --format json")]
pub struct MergeArgs {
    /// The parts (scorecards written by `mf eval --shard K/N`), in any order.
    #[arg(value_name = "PART.json", required = true)]
    pub parts: Vec<PathBuf>,
    /// Merge even when shards are missing; the scorecard is marked `partial` and its figures
    /// cover only the trials given.
    #[arg(long)]
    pub allow_partial: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EvalFormat::Terminal)]
    pub format: EvalFormat,
    /// Also write the merged scorecard JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json_out: Option<PathBuf>,
}
