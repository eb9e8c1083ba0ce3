//! `mf scan` flags.

use std::path::PathBuf;

use clap::Args;

/// Find every tool definition in a repository: MCP client configs, tools/list snapshots,
/// OpenAI/Anthropic tool JSON, function.json, suites, SKILL.md files, and MCP servers written in
/// TypeScript/JavaScript or Python. Writes a suite draft (`mf.suite.json`) and a scan report
/// (`mf.scan.json`). Nothing from the repository is executed.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf scan                          this repository: tools, skills, MCP server configs; writes mf.scan.json and a draft mf.suite.json
  mf scan examples/acme-support --no-write
  mf scan . --json | jq '.report.summary'")]
pub struct ScanArgs {
    /// Repository root to scan.
    #[arg(default_value = ".")]
    pub root: PathBuf,
    /// Print `{report, draft}` as JSON on stdout instead of the summary.
    #[arg(long)]
    pub json: bool,
    /// Where to write `mf.suite.json` and `mf.scan.json` (default: ROOT).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Write no files; only print.
    #[arg(long)]
    pub no_write: bool,
    /// Skip files larger than this many bytes (with a warning).
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024)]
    pub max_file_size: u64,
    /// Walker threads (0 = one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Do not honour .gitignore, .ignore and git excludes (dependency folders such as
    /// node_modules are still skipped).
    #[arg(long)]
    pub no_ignore: bool,
    /// Start the MCP servers found in client configs (stdio and HTTP) and record their live
    /// tools beside the static ones. Executes commands from the repository: only use on code
    /// you trust. Without this flag nothing is executed.
    #[arg(long)]
    pub probe: bool,
    /// Seconds each probed server gets for each phase (start, initialize, tools/list).
    #[arg(long, value_name = "SECS", default_value_t = 30, requires = "probe")]
    pub probe_timeout: u64,
}
