//! `mf tasks import` flags: a benchmark's files in, a suite out.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// The benchmark formats `mf tasks import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ImportFormat {
    /// The Berkeley Function Calling Leaderboard (`bfcl-eval`): `BFCL_v4_<category>.json` and
    /// `possible_answer/BFCL_v4_<category>.json`.
    Bfcl,
}

/// `mf tasks import FORMAT DATA [--answers FILE] --out SUITE`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf tasks import bfcl BFCL_v4_multiple.json --answers possible_answer/BFCL_v4_multiple.json --out multiple.suite.json
  mf tasks import bfcl BFCL_v4_irrelevance.json --out irrelevance.suite.json
  mf eval --suite multiple.suite.json --models lexical --dry-run

Every conversion (BFCL's `dict`/`float`/`tuple`/`any` types, dotted names, answer types that
widen a parameter's type) is counted on stderr; --verbose lists each one.")]
pub struct ImportArgs {
    /// The benchmark's format.
    #[arg(value_enum)]
    pub format: ImportFormat,
    /// The category file (BFCL: one JSON item per line).
    #[arg(value_name = "DATA")]
    pub data: PathBuf,
    /// The possible answers (BFCL's `possible_answer/` file of the same name); without it only
    /// `irrelevance` items (expect no call) are imported.
    #[arg(long, value_name = "FILE")]
    pub answers: Option<PathBuf>,
    /// Where to write the suite (JSON).
    #[arg(long, value_name = "SUITE")]
    pub out: PathBuf,
    /// Overwrite SUITE if it exists.
    #[arg(long)]
    pub force: bool,
    /// Keep `.` in function names (default: `.` → `_`, as OpenAI and most providers require).
    #[arg(long)]
    pub keep_dots: bool,
}
