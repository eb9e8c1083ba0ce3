//! `mf compare` flags.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::report::compare::Pairing;

/// Base vs head. Two scorecards (`mf eval --json-out`): paired statistics per metric, a
/// verdict per metric and overall, refusal when the runs are not comparable. Two surfaces
/// (files, folders, URLs), or one PATH with `--base-ref`: the free surface diff — tools added,
/// removed, re-described, re-schemed, token delta, new lint findings, newly confusable pairs.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf compare base.json head.json --fail-on-regression   two scorecards: paired statistics
  mf compare tools.json --base-ref origin/main          the free surface diff")]
pub struct CompareArgs {
    /// BASE and HEAD (scorecards or surfaces); with --base-ref, the PATH to diff (default `.`).
    #[arg(value_name = "BASE HEAD", num_args = 0..=2)]
    pub inputs: Vec<String>,
    /// Diff PATH as it is at this git revision (e.g. origin/main) against the working tree.
    #[arg(long, value_name = "REV")]
    pub base_ref: Option<String>,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = CompareFormat::Terminal)]
    pub format: CompareFormat,
    /// Also write the JSON document to FILE.
    #[arg(long, value_name = "FILE")]
    pub json_out: Option<PathBuf>,
    /// Also write a markdown summary to FILE.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Exit 2 when a gated metric regressed significantly (`regressed`; a `likely-regressed`
    /// verdict, which the gate's test could not confirm, exits 0 and says what would decide).
    #[arg(long)]
    pub fail_on_regression: bool,
    /// Metrics the gate reads (comma-separated): selection-accuracy, argument-accuracy,
    /// over-trigger, multi-call, tool-accuracy, confusion-pair.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "selection-accuracy,argument-accuracy,over-trigger"
    )]
    pub gate_metrics: Vec<String>,
    /// Which paired test decides a verdict (default: `calibrated` with --calibration, else
    /// `case`).
    #[arg(long, value_enum)]
    pub pairing: Option<PairingArg>,
    /// The A/A run: base evaluated again with identical settings and fresh requests (not the
    /// cache). The calibrated test then measures how often cases flip between identical runs and
    /// tests head's changed cases against that (SCHEMA.md "Calibration").
    #[arg(long, value_name = "BASE2")]
    pub calibration: Option<String>,
    /// Significance level of the sign tests.
    #[arg(long, value_name = "ALPHA", default_value_t = 0.05)]
    pub alpha: f64,
}

/// Compare output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// Readable summary.
    Terminal,
    /// The compare document (SCHEMA.md "Compare report").
    Json,
    /// GitHub-flavoured markdown.
    Markdown,
}

/// `--pairing` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PairingArg {
    /// Per-case outcomes (default; robust when a provider flips whole cases between runs).
    Case,
    /// Per-trial outcomes (more power; over-counts when whole cases flip).
    Trial,
    /// Both tests must agree.
    Both,
    /// The calibrated test (needs --calibration).
    Calibrated,
}

impl From<PairingArg> for Pairing {
    fn from(p: PairingArg) -> Pairing {
        match p {
            PairingArg::Case => Pairing::Case,
            PairingArg::Trial => Pairing::Trial,
            PairingArg::Both => Pairing::Both,
            PairingArg::Calibrated => Pairing::Calibrated,
        }
    }
}
