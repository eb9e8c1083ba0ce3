//! `mf report` flags.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// Re-render a saved scorecard (`mf eval --json-out`), compare (`mf compare --json-out`) or ci
/// document in another format, without running anything again.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf report mf-ci.json --format html --out report.html
  mf report scorecard.json --format junit")]
pub struct ReportArgs {
    /// The saved JSON document.
    #[arg(value_name = "RUN.json")]
    pub input: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Terminal)]
    pub format: ReportFormat,
    /// Use this minijinja template instead of the built-in one (markdown, summary, comment and
    /// html formats; see templates/ in the mf repository for the built-in ones).
    #[arg(long, value_name = "FILE")]
    pub template: Option<PathBuf>,
    /// Write to FILE (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `mf report` output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Readable summary.
    Terminal,
    /// The document itself, re-serialized.
    Json,
    /// GitHub-flavoured markdown, every section (summary.md.j2, not cut).
    Markdown,
    /// The PR comment: hidden marker first, under 60,000 characters.
    Comment,
    /// The job summary: under 1 MiB.
    Summary,
    /// One self-contained HTML file with inline SVG charts.
    Html,
    /// JUnit XML: one testcase per case (lint findings and compare verdicts too for ci).
    Junit,
    /// shields.io endpoint JSON.
    BadgeJson,
    /// A small SVG badge.
    BadgeSvg,
}

impl ReportFormat {
    /// Whether `--template` applies to this format.
    pub fn takes_template(self) -> bool {
        matches!(
            self,
            ReportFormat::Markdown
                | ReportFormat::Comment
                | ReportFormat::Summary
                | ReportFormat::Html
        )
    }
}
