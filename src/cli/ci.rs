//! `mf ci` flags: the GitHub Action's one entry point.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::lint::FailOn;
use crate::ci::{Calibrate, CiConfig, CommentMode, ReportFiles, Templates};
use crate::eval::config::{self, EvalConfig, EvalConfigError};
use crate::eval::plan::Budgets;
use crate::report::ci::FindingScope;

/// The CI gate in one command: lint the surface at PATH, diff it against the base revision,
/// and — with a suite, models whose keys are present, and not on a fork pull request — evaluate
/// head and base with identical settings and compare them. Writes the job summary, step outputs,
/// annotations, the sticky PR comment and the requested reports; exits by the gates (2 a gate
/// failed, 5 an eval was unhealthy). Reads the GitHub context from GITHUB_* variables.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf ci                                            in GitHub Actions (what the Action runs)
  mf ci --models lexical --json-out mf-ci.json .   locally, offline
  mf report mf-ci.json --format comment            the PR comment it would post
  mf ci --shard 2/3 --parts-dir parts              one job of a matrix
  mf ci --merge parts                              the matrix's final job: merge, compare, comment")]
pub struct CiArgs {
    /// The surface: a folder to scan (default: the current one) or a tool file.
    #[arg(value_name = "PATH", default_value = ".")]
    pub path: String,

    /// The suite with the cases. Default: mf.suite.json / .yaml / .yml in PATH, else here.
    #[arg(long, value_name = "FILE", help_heading = "Eval")]
    pub suite: Option<PathBuf>,
    /// Models, comma-separated or repeated (as `mf eval --models`). Default: the suite's named
    /// models. Offline models (lexical, scripted:FILE, mock) need no key.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Eval"
    )]
    pub models: Vec<String>,
    /// Allow a named model (suite, mf.toml) to read its key from variable NAME (as `mf eval
    /// --allow-key-env`). Repeatable; only the command line can allow this.
    #[arg(
        long,
        value_name = "NAME",
        value_delimiter = ',',
        help_heading = "Eval"
    )]
    pub allow_key_env: Vec<String>,
    /// Trials per case and model.
    #[arg(long, value_name = "N", default_value_t = config::DEFAULT_REPEAT, help_heading = "Eval")]
    pub repeat: u32,
    /// Most paid trials one eval may send (head and base each; hard cap 1000).
    #[arg(long, value_name = "N", default_value_t = config::DEFAULT_MAX_TRIALS, help_heading = "Eval")]
    pub max_trials: u64,
    /// Refuse a paid eval above this many tools (the money guard is --max-input-tokens).
    #[arg(long, value_name = "N", default_value_t = config::DEFAULT_MAX_TOOLS, help_heading = "Eval")]
    pub max_tools: usize,
    /// Refuse a paid eval whose trials would send more input tokens than this (head and base
    /// each; o200k_base lower bound). `0` = no limit.
    #[arg(long, value_name = "N", default_value_t = config::DEFAULT_MAX_INPUT_TOKENS, help_heading = "Eval")]
    pub max_input_tokens: u64,
    /// Trial cache directory (also holds the base scorecards). Default: $MF_CACHE_DIR,
    /// $XDG_CACHE_HOME/mf or ~/.cache/mf.
    #[arg(long, value_name = "DIR", help_heading = "Eval")]
    pub cache_dir: Option<PathBuf>,

    /// A job of a matrix: evaluate only shard K of N of head and base and write the two parts
    /// to --parts-dir (no comparison, comment, summary or reports: the final `--merge` job
    /// does those once). Exits 0 once the parts are written.
    #[arg(
        long,
        value_name = "K/N",
        help_heading = "Matrix",
        conflicts_with = "merge"
    )]
    pub shard: Option<crate::eval::shard::Shard>,
    /// Where a --shard job writes its parts (mf-head-K-of-N.json, mf-base-K-of-N.json).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "mf-parts",
        help_heading = "Matrix"
    )]
    pub parts_dir: PathBuf,
    /// The final job of a matrix: merge the parts the --shard jobs wrote (found anywhere under
    /// DIR, e.g. downloaded artifacts side by side) instead of evaluating, then compare, gate
    /// and comment once. Parts of different plans, duplicates or a missing shard: exit 1.
    #[arg(long, value_name = "DIR", help_heading = "Matrix")]
    pub merge: Option<PathBuf>,
    /// Also start every server declared in PATH/mf.toml (`[servers.NAME]`) and fail (exit 1)
    /// when its committed snapshot is stale, as `mf snapshot --check` does. Executes the
    /// repository's code: never on `pull_request_target` or other runs of untrusted code.
    #[arg(long, help_heading = "Gates")]
    pub live: bool,

    /// Exit 2 when a lint finding at this severity or worse remains.
    #[arg(long, value_enum, default_value_t = FailOn::Error, help_heading = "Gates")]
    pub fail_on: FailOn,
    /// Which lint findings --fail-on judges: `new` (absent at the merge base; pre-existing ones
    /// are counted and folded, never annotated) or `all`. Without a base every finding is new.
    #[arg(long, value_enum, default_value_t = GateFindings::New, help_heading = "Gates")]
    pub gate_findings: GateFindings,
    /// Accepted lint findings: only findings not in this file count.
    #[arg(long, value_name = "FILE", help_heading = "Gates")]
    pub baseline: Option<PathBuf>,
    /// Exit 2 when a gated metric regressed significantly against the base.
    #[arg(long, help_heading = "Gates")]
    pub fail_on_regression: bool,
    /// The A/A calibration: evaluate base a second time with fresh requests and let the
    /// calibrated gate decide. `auto`: when a base eval ran and the budget allows (the A/A run
    /// is stored, free, or fits --max-trials/--max-input-tokens together with the base);
    /// `always`: whenever a base eval ran; `never`: the case-level gate.
    #[arg(long, value_enum, default_value_t = CalibrateArg::Auto, help_heading = "Gates")]
    pub calibrate: CalibrateArg,
    /// Exit 2 when a model's head selection accuracy is below this (0–1).
    #[arg(long, value_name = "RATE", help_heading = "Gates")]
    pub min_accuracy: Option<f64>,

    /// The revision to compare with. Default: the pull request's base from the event; none on
    /// other events. The merge base of it and HEAD is what is read.
    #[arg(long, value_name = "REV", help_heading = "Base")]
    pub base_ref: Option<String>,
    /// The pull request number, when the event does not carry it (a `workflow_run` of a fork).
    #[arg(long, value_name = "N", help_heading = "Base")]
    pub pull_request: Option<u64>,

    /// The sticky PR comment: on, off, or auto (on for pull requests, except a fork's
    /// `pull_request` run, whose token is read-only).
    #[arg(long, value_enum, default_value_t = Switch3::Auto, help_heading = "GitHub")]
    pub comment: Switch3,
    /// The job summary ($GITHUB_STEP_SUMMARY).
    #[arg(long, value_enum, default_value_t = Switch::On, help_heading = "GitHub")]
    pub summary: Switch,
    /// The environment variable holding the GitHub token (never pass the token itself).
    #[arg(
        long,
        value_name = "NAME",
        default_value = "GITHUB_TOKEN",
        help_heading = "GitHub"
    )]
    pub github_token_env: String,

    /// Write JUnit XML to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Reports")]
    pub junit: Option<PathBuf>,
    /// Write SARIF 2.1.0 (lint findings) to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Reports")]
    pub sarif: Option<PathBuf>,
    /// Write the CI report JSON to FILE. Default in GitHub Actions: $RUNNER_TEMP/mf-ci.json.
    #[arg(long, value_name = "FILE", help_heading = "Reports")]
    pub json_out: Option<PathBuf>,
    /// Write the self-contained HTML report to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Reports")]
    pub html: Option<PathBuf>,
    /// Write a shields.io endpoint badge JSON to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Reports")]
    pub badge: Option<PathBuf>,
    /// Render the job summary with this minijinja template instead of templates/summary.md.j2.
    #[arg(long, value_name = "FILE", help_heading = "Reports")]
    pub template_summary: Option<PathBuf>,
    /// Render the PR comment with this template instead of templates/comment.md.j2.
    #[arg(long, value_name = "FILE", help_heading = "Reports")]
    pub template_comment: Option<PathBuf>,
    /// Render the HTML report with this template instead of templates/report.html.j2.
    #[arg(long, value_name = "FILE", help_heading = "Reports")]
    pub template_html: Option<PathBuf>,
}

impl CiArgs {
    /// The validated settings of this run: templates readable, rates in range, the token given
    /// by variable name, the eval settings checked like `mf eval`'s.
    pub fn config(&self) -> Result<CiConfig, crate::Error> {
        self.check_templates().map_err(crate::Error::Usage)?;
        if let Some(v) = self.min_accuracy
            && !(0.0..=1.0).contains(&v)
        {
            return Err(crate::Error::Usage(format!(
                "--min-accuracy is a rate between 0 and 1, got {v}"
            )));
        }
        let name = &self.github_token_env;
        if name.is_empty() || name.contains(['=', '\0']) {
            return Err(crate::Error::Usage(format!(
                "--github-token-env takes a variable NAME (the token stays in the environment), got {name:?}"
            )));
        }
        Ok(CiConfig {
            path: self.path.clone(),
            suite: self.suite.clone(),
            models: self.models.clone(),
            eval: self.eval_config()?,
            fail_on: self.fail_on.severity(),
            baseline: self.baseline.clone(),
            gate_findings: match self.gate_findings {
                GateFindings::New => FindingScope::New,
                GateFindings::All => FindingScope::All,
            },
            fail_on_regression: self.fail_on_regression,
            calibrate: match self.calibrate {
                CalibrateArg::Auto => Calibrate::Auto,
                CalibrateArg::Always => Calibrate::Always,
                CalibrateArg::Never => Calibrate::Never,
            },
            min_accuracy: self.min_accuracy,
            base_ref: self.base_ref.clone(),
            pull_request: self.pull_request,
            comment: match self.comment {
                Switch3::On => CommentMode::On,
                Switch3::Off => CommentMode::Off,
                Switch3::Auto => CommentMode::Auto,
            },
            summary: self.summary == Switch::On,
            github_token_env: self.github_token_env.clone(),
            files: ReportFiles {
                junit: self.junit.clone(),
                sarif: self.sarif.clone(),
                json: self.json_out.clone(),
                html: self.html.clone(),
                badge: self.badge.clone(),
            },
            templates: Templates {
                summary: self.template_summary.clone(),
                comment: self.template_comment.clone(),
                html: self.template_html.clone(),
            },
            merge: self.merge.clone(),
            live: self.live,
            parts_dir: self.parts_dir.clone(),
        })
    }

    /// The eval settings both sides share: `mf eval`'s defaults with this run's repeat, budgets
    /// and cache.
    fn eval_config(&self) -> Result<EvalConfig, EvalConfigError> {
        let defaults = EvalConfig::default();
        let eval = EvalConfig {
            repeat: self.repeat,
            allow_key_env: self.allow_key_env.clone(),
            budgets: Budgets {
                max_trials: self.max_trials,
                max_tools: self.max_tools,
                max_input_tokens: (self.max_input_tokens > 0).then_some(self.max_input_tokens),
                ..defaults.budgets
            },
            shard: self.shard,
            cache_dir: Some(
                self.cache_dir
                    .clone()
                    .unwrap_or_else(crate::eval::cache::default_dir),
            ),
            ..defaults
        };
        eval.validate()?;
        Ok(eval)
    }

    /// Every custom template must be a readable file before anything runs (a paid eval must not
    /// end in a missing template).
    pub fn check_templates(&self) -> Result<(), String> {
        for (flag, path) in [
            ("--template-summary", &self.template_summary),
            ("--template-comment", &self.template_comment),
            ("--template-html", &self.template_html),
        ] {
            if let Some(p) = path
                && let Err(e) = std::fs::read_to_string(p)
            {
                return Err(format!("{flag} {}: {e}", p.display()));
            }
        }
        Ok(())
    }
}

/// `--calibrate` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CalibrateArg {
    /// When a base eval ran and the budget allows.
    Auto,
    /// Whenever a base eval ran.
    Always,
    /// Never.
    Never,
}

/// `--gate-findings` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GateFindings {
    /// Findings the change introduced.
    New,
    /// Every finding.
    All,
}

/// `on` / `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    /// Do it.
    On,
    /// Do not.
    Off,
}

/// `on` / `off` / `auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch3 {
    /// Always (skipped with a note when impossible).
    On,
    /// Never.
    Off,
    /// When it makes sense (see the flag).
    Auto,
}
