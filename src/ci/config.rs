//! The validated settings of one `mf ci` run ([`CiConfig`]), built once from the flags (or the
//! Action's inputs) by `cli::ci`. The eval settings both sides share are an [`EvalConfig`]
//! template: `mf ci` fills in the models and, for head only, `--min-accuracy`.

use std::path::PathBuf;

use crate::eval::EvalConfig;
use crate::report::ci::FindingScope;
use crate::report::lint::Severity;

/// Everything `mf ci` does, validated.
#[derive(Debug, Clone)]
pub struct CiConfig {
    /// The surface: a folder to scan or a tool file.
    pub path: String,
    /// `--suite`; `None` = the default suite in PATH, else here.
    pub suite: Option<PathBuf>,
    /// `--models`; empty = the suite's named models.
    pub models: Vec<String>,
    /// The eval settings of both sides (models empty; filled per run).
    pub eval: EvalConfig,
    /// Fail on lint findings at this severity or worse; `None` = never.
    pub fail_on: Option<Severity>,
    /// Accepted lint findings.
    pub baseline: Option<PathBuf>,
    /// Which findings `fail_on` judges: new ones (absent at the merge base) or all.
    pub gate_findings: FindingScope,
    /// Fail on a significant regression of a gated metric.
    pub fail_on_regression: bool,
    /// When to run the A/A calibration (base evaluated again, fresh requests).
    pub calibrate: Calibrate,
    /// Head's lowest passing selection accuracy.
    pub min_accuracy: Option<f64>,
    /// The revision to compare with; `None` = the pull request's base.
    pub base_ref: Option<String>,
    /// The pull request number when the event does not carry it.
    pub pull_request: Option<u64>,
    /// The sticky PR comment.
    pub comment: CommentMode,
    /// Write the job summary.
    pub summary: bool,
    /// The variable holding the GitHub token.
    pub github_token_env: String,
    /// Report files to write.
    pub files: ReportFiles,
    /// Custom templates (read and checked before anything runs).
    pub templates: Templates,
    /// The final job of a matrix (`--merge DIR`): merge the shard jobs' parts under DIR instead
    /// of evaluating. (A shard job is `eval.shard`.)
    pub merge: Option<PathBuf>,
    /// Where a shard job writes its parts (`--parts-dir`).
    pub parts_dir: PathBuf,
    /// `--live`: check every snapshot declared in PATH/mf.toml against its running server.
    pub live: bool,
}

/// When `mf ci` evaluates the base a second time (the A/A run) to measure how often cases flip
/// between identical runs, so the compare can use the calibrated gate. Stored with the base
/// scorecard, so it is paid once per base commit and settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Calibrate {
    /// When a base eval ran (or came from the cache) and the run's budget has room: the A/A run
    /// is stored, free (offline models), or the base came from the cache, or the base and its
    /// A/A run together fit `--max-trials` and `--max-input-tokens`.
    #[default]
    Auto,
    /// Whenever a base eval ran (each eval within its own budget).
    Always,
    /// Never: the case-level gate decides.
    Never,
}

/// When the sticky comment is posted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentMode {
    /// Always (skipped with a note when impossible).
    On,
    /// Never.
    Off,
    /// For pull requests, except a fork's `pull_request` run.
    Auto,
}

/// The report files `mf ci` writes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReportFiles {
    /// JUnit XML.
    pub junit: Option<PathBuf>,
    /// SARIF 2.1.0.
    pub sarif: Option<PathBuf>,
    /// The CI report JSON; `None` = `$RUNNER_TEMP/mf-ci.json` in Actions.
    pub json: Option<PathBuf>,
    /// Self-contained HTML.
    pub html: Option<PathBuf>,
    /// The badge (shields endpoint JSON, or SVG for a `.svg` path).
    pub badge: Option<PathBuf>,
}

/// Custom minijinja templates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Templates {
    /// The job summary.
    pub summary: Option<PathBuf>,
    /// The PR comment.
    pub comment: Option<PathBuf>,
    /// The HTML report.
    pub html: Option<PathBuf>,
}
