//! `mf ci` as a library: [`run`] takes a validated [`CiConfig`] and the GitHub context and
//! returns the CI report; [`publish`] writes it where the config and the context say. The
//! command (`commands/ci.rs`) only prints and maps the outcome to an exit code.
//!
//! Steps, in order:
//! 1. Find the suite ([`suite`]).
//! 2. Free: load the surface at PATH and lint it (suite profiles and suppressions, `--baseline`).
//! 3. Free: the base revision (`--base-ref`, else the pull request's base), its merge base with
//!    PATH's `HEAD`, the surface at the merge base (read from git, nothing executed), the surface
//!    diff ([`base`]). Skipped with a note without a base, or when history is too shallow.
//! 4. Mode: free on a fork's `pull_request`/`pull_request_target` run, without a suite, without
//!    models, or when a model's key variable is unset; full otherwise ([`eval::free_reason`]).
//! 5. Full: eval head with the eval engine; eval base (the surface and the suite file at the
//!    merge base) with identical settings, reusing a stored base scorecard when one matches;
//!    the A/A run (base again, fresh requests, stored with the base scorecard) under
//!    `--calibrate` ([`calibrate`]); compare when the two are comparable, with the calibrated
//!    gate when there is a usable A/A run ([`eval`]). In a matrix ([`shard`]): a shard job
//!    (`--shard K/N`) evaluates its shard of both sides (no A/A run) and skips the comparison;
//!    the final job (`--merge DIR`) merges the parts instead of evaluating.
//! 6. Status and reasons ([`verdict`]).
//! 7. Outputs ([`publish`]): SARIF, JUnit, HTML and badge; the sticky PR comment; the job
//!    summary; the CI report JSON; the step outputs.

pub mod base;
pub mod calibrate;
pub mod config;
pub mod eval;
pub mod live;
pub mod publish;
pub mod shard;
pub mod suite;
pub mod verdict;

pub use config::{Calibrate, CiConfig, CommentMode, ReportFiles, Templates};

use std::path::PathBuf;

use crate::analyze::baseline::{Baseline, BaselineError};
use crate::analyze::lint::LintOptions;
use crate::analyze::lint::report::lint_report;
use crate::compare::surface_diff::diff;
use crate::eval::{EvalError, Observer};
use crate::github::event::Context;
use crate::report::ci::{CI_VERSION, CiMode, CiReport, CiStatus, Files, FindingScope, LintGate};
use crate::suite::SuiteError;
use crate::suite::input::ResolveError;
use crate::surface::Surface;
use crate::surface::error::InputError;
use crate::surface::input::{self, InputSpec};

/// Why `mf ci` could not produce a report.
#[derive(Debug, thiserror::Error)]
pub enum CiError {
    /// The surface at PATH could not be read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// An explicit `--suite` could not be read.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// The baseline could not be read.
    #[error(transparent)]
    Baseline(#[from] BaselineError),
    /// The eval settings or models are wrong.
    #[error(transparent)]
    Eval(Box<EvalError>),
    /// The shard parts of a matrix run cannot be merged.
    #[error(transparent)]
    Merge(#[from] crate::eval::merge::MergeError),
    /// A report file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
}

impl From<ResolveError> for CiError {
    fn from(e: ResolveError) -> CiError {
        match e {
            ResolveError::Suite(e) => CiError::Suite(e),
            ResolveError::Input(e) => CiError::Input(e),
        }
    }
}

/// The surface at PATH, loaded.
#[derive(Debug)]
pub struct Head {
    /// Its tools and skills.
    pub surface: Surface,
    /// What was read.
    pub label: String,
}

/// A finished `mf ci` run, before publishing.
#[derive(Debug)]
pub struct CiRun {
    /// The report (its `files` are filled in by [`publish`]).
    pub report: CiReport,
    /// The surface at PATH (annotations point at its origins).
    pub head: Head,
    /// The head eval could not run at all (exit 1).
    pub head_error: bool,
    /// PATH holds no tool and no skill: nothing was checked (exit 3).
    pub nothing_found: bool,
    /// `--live`: a declared server's snapshot is stale or missing, or the check failed (exit 1).
    pub stale_snapshots: bool,
}

/// How a run ended.
#[derive(Debug)]
pub enum CiOutcome {
    /// Every step ran.
    Done(Box<CiRun>),
    /// Ctrl-C during an eval: finished trials are cached.
    Interrupted,
}

/// Run steps 1–6. Warnings and notes for people go to `observer` as they happen.
pub fn run(
    config: &CiConfig,
    ctx: &Context,
    observer: &mut dyn Observer,
) -> Result<CiOutcome, CiError> {
    let mut event = ctx.event.clone();
    if let Some(n) = config.pull_request {
        event.pull_request = Some(n);
    }
    let mut notes = Vec::new();

    // 1–2. The suite and the lint of head.
    let found = suite::find(config, &mut notes)?;
    let head = load_head(&config.path, observer)?;
    let accepted = match &config.baseline {
        Some(p) => Some(Baseline::read(p, &p.to_string_lossy())?),
        None => None,
    };
    let options = LintOptions {
        profiles: found
            .as_ref()
            .map(|f| f.suite.profiles.clone())
            .unwrap_or_default(),
        ..LintOptions::default()
    };
    let lint = lint_report(
        &head.label,
        &head.surface,
        &options,
        accepted.as_ref(),
        found
            .as_ref()
            .map(|f| f.suite.suppressions.as_slice())
            .unwrap_or_default(),
    );

    // 2b. `--live`: the committed snapshots against their running servers.
    let snapshots = if config.live {
        if let Some(why) = live::refusal(ctx) {
            return Err(CiError::Input(InputError::Usage(why)));
        }
        match live::check(&config.path, &mut notes) {
            Ok(s) => s,
            Err(crate::surface::live::LiveError::Interrupted) => {
                return Ok(CiOutcome::Interrupted);
            }
            Err(e) => return Err(CiError::Input(InputError::Live(e))),
        }
    } else {
        None
    };

    // 3. The base revision and the surface diff.
    let base_rev = config.base_ref.clone().or_else(|| ctx.pr_base_sha.clone());
    let base = base::resolve(&config.path, base_rev.as_deref(), &mut notes, observer);
    if let Some(b) = &base {
        event.base_sha = Some(b.commit.clone());
    }
    let surface_diff = base
        .as_ref()
        .and_then(|b| b.surface.as_ref())
        .map(|s| diff(s, &head.surface));
    let lint_gate = lint_gate(config, &lint, base.as_ref(), &options);

    // 4–5. Mode, then the eval part.
    let mut part = eval::EvalPart::default();
    let mut free_reason = eval::free_reason(config, &event, found.as_ref())?;
    if free_reason.is_none()
        && let Some(dir) = &config.merge
    {
        match eval::merged(config, dir, &head, &mut notes)? {
            Some(p) => part = p,
            None => {
                free_reason = Some(format!(
                    "no eval parts in {}: the shard jobs ran the free checks only (see their \
                     logs: no key, no models or no suite)",
                    dir.display()
                ));
            }
        }
    } else if free_reason.is_none()
        && let Some(found) = &found
    {
        let base_side = base
            .as_ref()
            .and_then(|b| b.surface.as_ref().map(|s| (b.commit.as_str(), s)));
        match eval::run(config, found, &head, base_side, &mut notes, observer)? {
            Some(p) => part = p,
            None => return Ok(CiOutcome::Interrupted),
        }
    }
    if let Some(reason) = &free_reason {
        if config.min_accuracy.is_some() {
            notes.push(format!(
                "--min-accuracy was not checked: the eval did not run ({reason})"
            ));
        }
        if config.fail_on_regression {
            notes.push("--fail-on-regression was not checked: the eval did not run".to_owned());
        }
    }

    // 6. Status and reasons.
    let (mut status, mut reasons) = verdict::verdict(config, &lint, &lint_gate, &part);
    let stale_snapshots = snapshots.as_ref().is_some_and(|s| !s.ok);
    if let Some(s) = &snapshots {
        reasons.extend(live::reasons(s));
        if stale_snapshots && status == CiStatus::Pass {
            status = CiStatus::Fail;
        }
    }
    let nothing_found = head.surface.tools.is_empty() && head.surface.skills.is_empty();
    if nothing_found {
        let searched = std::fs::canonicalize(&config.path)
            .map_or_else(|_| config.path.clone(), |p| p.display().to_string());
        reasons.insert(
            0,
            format!(
                "no tool or skill found in {} (searched {searched}): nothing was checked; point \
                 the `path` input (PATH) at the folder or file that defines the tools",
                config.path
            ),
        );
        if status == CiStatus::Pass {
            status = CiStatus::Fail;
        }
    }
    let report = CiReport {
        version: CI_VERSION,
        kind: "ci".into(),
        status,
        reasons,
        event,
        mode: if free_reason.is_some() {
            CiMode::Free
        } else {
            CiMode::Full
        },
        free_reason,
        notes,
        lint,
        lint_fail_on: config.fail_on,
        lint_gate: Some(lint_gate),
        surface: surface_diff,
        head: part.head,
        base: part.base,
        base_reused: part.base_reused,
        calibration: part.calibration,
        calibration_reused: part.calibration_reused,
        compare: part.compare,
        snapshots,
        files: Files::default(),
    };
    Ok(CiOutcome::Done(Box::new(CiRun {
        report,
        head,
        head_error: part.error.is_some(),
        nothing_found,
        stale_snapshots,
    })))
}

/// Which head findings the gate counts: with a base and `--gate-findings new`, those whose
/// identity the base surface (linted with the same options) lacks.
fn lint_gate(
    config: &CiConfig,
    lint: &crate::report::lint::LintReport,
    base: Option<&base::Base>,
    options: &LintOptions,
) -> LintGate {
    let base_surface = base.and_then(|b| b.surface.as_ref().map(|s| (b.commit.clone(), s)));
    let Some((commit, surface)) =
        base_surface.filter(|_| config.gate_findings == FindingScope::New)
    else {
        return LintGate {
            scope: FindingScope::All,
            base: base.map(|b| b.commit.clone()),
            new: lint.findings.len(),
            preexisting: 0,
            preexisting_keys: Vec::new(),
        };
    };
    let at_base: std::collections::HashSet<String> = crate::analyze::lint::lint(surface, options)
        .iter()
        .map(crate::report::lint::Finding::baseline_key)
        .collect();
    let mut preexisting_keys: Vec<String> = lint
        .findings
        .iter()
        .map(crate::report::lint::Finding::baseline_key)
        .filter(|k| at_base.contains(k))
        .collect();
    preexisting_keys.sort();
    preexisting_keys.dedup();
    let preexisting = lint
        .findings
        .iter()
        .filter(|f| at_base.contains(&f.baseline_key()))
        .count();
    LintGate {
        scope: FindingScope::New,
        base: Some(commit),
        new: lint.findings.len() - preexisting,
        preexisting,
        preexisting_keys,
    }
}

fn load_head(path: &str, observer: &mut dyn Observer) -> Result<Head, CiError> {
    let input = input::load(&InputSpec::paths(&[path]))?;
    for w in &input.warnings {
        observer.note(&format!("warning: {w}"));
    }
    Ok(Head {
        surface: input.surface,
        label: input.label,
    })
}

/// The first 12 characters of a commit id.
pub fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

impl From<EvalError> for CiError {
    fn from(e: EvalError) -> CiError {
        CiError::Eval(Box::new(e))
    }
}
