//! `mf snapshot` flags.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::compare::snapshot::SnapshotConfig;
use crate::providers::config::ConfigError;

/// Start each server declared in mf.toml (`[servers.NAME]`), list its tools and write them to
/// its committed snapshot file; `--check` compares instead and exits 1 when they differ.
/// Executes the servers' commands: run it where running the repository's code is acceptable.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf snapshot                    write every declared server's snapshot
  mf snapshot notes --check      exit 1 when the notes server serves something else now
  mf snapshot --check --json     the comparison as JSON (SCHEMA.md, \"Snapshot report\")")]
pub struct SnapshotArgs {
    /// The servers to start (names of `[servers.NAME]` tables); all when none is given.
    #[arg(value_name = "NAME")]
    pub names: Vec<String>,
    /// Compare what each server serves with its committed snapshot; write nothing. Exit 1
    /// when a snapshot is stale or missing, or a server fails to start.
    #[arg(long)]
    pub check: bool,
    /// Print the report as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// The config file. Default: mf.toml here, else in the nearest folder above (up to the
    /// repository root).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Seconds each phase (start, initialize, tools/list) may take, for servers whose table sets
    /// no `timeout`.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub timeout: u64,
}

impl SnapshotArgs {
    /// The validated run: mf.toml read, the servers named found.
    pub fn config(&self) -> Result<SnapshotConfig, ConfigError> {
        if self.timeout == 0 {
            return Err(ConfigError("--timeout must be at least 1 (seconds)".into()));
        }
        SnapshotConfig::load(
            self.config.as_deref(),
            &self.names,
            self.check,
            Duration::from_secs(self.timeout),
        )
    }
}
