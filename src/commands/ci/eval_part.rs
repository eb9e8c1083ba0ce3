//! The eval half of `mf ci`: whether it may run (free reasons), the `mf eval` settings both
//! sides share, the head eval, the base eval (the suite file at the merge base, the surface at
//! the merge base, a stored base scorecard reused when one matches) and the comparison.

use std::path::Path;
use std::time::Instant;

use clap::Parser;

use super::{FoundSuite, Head, repo_and_path, short};
use crate::Error;
use crate::cli::ci::CiArgs;
use crate::cli::eval::EvalArgs;
use crate::compare::eval::{DEFAULT_GATED, comparability, compare, overall};
use crate::eval::cache;
use crate::github::base::{self as gbase, BaseCache, BaseKey};
use crate::report::ci::CiEvent;
use crate::report::compare::{COMPARE_VERSION, CompareReport, GateSettings, Pairing, Side};
use crate::report::scorecard::{Scorecard, Status};
use crate::suite::Suite;
use crate::surface::Surface;
use crate::surface::fingerprint::surface_fingerprint;

use super::super::eval::{self as engine, EvalOutcome};

/// Significance level of the regression gate.
const ALPHA: f64 = 0.05;

/// `mf eval`'s flags, parsed from the argument list `mf ci` builds, so every setting `mf ci`
/// does not name keeps `mf eval`'s default.
#[derive(Debug, Parser)]
#[command(name = "mf-ci-eval")]
struct EvalCommand {
    #[command(flatten)]
    eval: EvalArgs,
}

/// What the eval part produced.
#[derive(Default)]
pub(super) struct EvalPart {
    pub(super) head: Option<Scorecard>,
    pub(super) base: Option<Scorecard>,
    pub(super) base_reused: bool,
    pub(super) compare: Option<CompareReport>,
    /// Gate failures found while running it (context budget, incomparable runs).
    pub(super) failures: Vec<String>,
    /// The head eval could not run at all (exit 1).
    pub(super) error: Option<String>,
}

/// Why the run is free-only, or `None` for a full run. A model list that does not resolve is
/// an error.
pub(super) fn free_reason(
    args: &CiArgs,
    event: &CiEvent,
    found: Option<&FoundSuite>,
) -> Result<Option<String>, Error> {
    let untrusted_event = matches!(
        event.name.as_deref(),
        Some("pull_request" | "pull_request_target")
    );
    if event.fork && untrusted_event {
        return Ok(Some(
            "fork pull request: GitHub gives a fork's pull_request run no secrets and a \
             read-only token, so only the free checks ran (for an eval of fork pull requests, \
             use the workflow_run pattern)"
                .to_owned(),
        ));
    }
    let Some(found) = found else {
        return Ok(Some(
            "no suite: give --suite FILE, or add mf.suite.json or mf.suite.yaml (`mf scan` \
             drafts one)"
                .to_owned(),
        ));
    };
    let models = models(args, &found.suite);
    if models.is_empty() {
        return Ok(Some(format!(
            "no models: give --models (e.g. openai:gpt-4.1-mini, or lexical, which needs no \
             key), or name models in {}",
            found.display
        )));
    }
    let eval_args = eval_args(args, found, &models, None)?;
    let specs = engine::resolve_models(&eval_args, &found.suite)?;
    let mut missing = Vec::new();
    for spec in &specs {
        let Some(var) = spec.key_env() else { continue };
        let set = std::env::var_os(&var).is_some_and(|v| !v.is_empty());
        if spec.provider.key_required() && !set {
            missing.push(format!("{var} (for {})", spec.label));
        }
    }
    if !missing.is_empty() {
        return Ok(Some(format!(
            "no key: {} not set, so only the free checks ran",
            missing.join(", ")
        )));
    }
    Ok(None)
}

/// `--models`, else the suite's named models.
fn models(args: &CiArgs, suite: &Suite) -> Vec<String> {
    if args.models.is_empty() {
        suite.models.keys().cloned().collect()
    } else {
        args.models.clone()
    }
}

/// The `mf eval` settings of both sides (`min_accuracy` only for head).
fn eval_args(
    args: &CiArgs,
    found: &FoundSuite,
    models: &[String],
    min_accuracy: Option<f64>,
) -> Result<EvalArgs, Error> {
    let mut argv: Vec<String> = vec![
        "mf-ci-eval".into(),
        "--suite".into(),
        found.path.to_string_lossy().into_owned(),
        "--models".into(),
        models.join(","),
        "--repeat".into(),
        args.repeat.to_string(),
        "--max-trials".into(),
        args.max_trials.to_string(),
        "--max-tools".into(),
        args.max_tools.to_string(),
    ];
    if let Some(dir) = &args.cache_dir {
        argv.push("--cache-dir".into());
        argv.push(dir.to_string_lossy().into_owned());
    }
    if let Some(v) = min_accuracy {
        argv.push("--min-accuracy".into());
        argv.push(v.to_string());
    }
    let parsed = EvalCommand::try_parse_from(&argv)
        .map_err(|e| Error::Usage(format!("the eval settings do not parse: {e}")))?;
    engine::validate_flags(&parsed.eval)?;
    Ok(parsed.eval)
}

/// Eval head, eval (or reuse) base, compare. `None` when interrupted.
pub(super) fn run_eval(
    args: &CiArgs,
    found: &FoundSuite,
    head: &Head,
    base: Option<(&str, &Surface)>,
    notes: &mut Vec<String>,
) -> Result<Option<EvalPart>, Error> {
    let mut part = EvalPart::default();
    let models = models(args, &found.suite);
    let head_args = eval_args(args, found, &models, args.min_accuracy)?;
    let base_args = eval_args(args, found, &models, None)?;
    let (suite, suite_display, _) = match engine::load_suite(&head_args) {
        Ok(loaded) => loaded,
        Err(e) => {
            part.error = Some(format!("the head eval could not run: {e}"));
            return Ok(Some(part));
        }
    };
    let head_card = match engine::evaluate(
        &head_args,
        Instant::now(),
        &suite,
        &suite_display,
        head.surface.clone(),
        &head.label,
    ) {
        Ok(EvalOutcome::Card(card)) => *card,
        Ok(EvalOutcome::Interrupted) => return Ok(None),
        Ok(EvalOutcome::OverContext(message)) => {
            part.failures.push(format!("head eval refused: {message}"));
            return Ok(Some(part));
        }
        Ok(EvalOutcome::DryRun { .. }) => return Ok(Some(part)),
        Err(e) => {
            part.error = Some(format!("the head eval could not run: {e}"));
            return Ok(Some(part));
        }
    };
    if let Some((commit, surface)) = base {
        match base_eval(
            &base_args,
            found,
            commit,
            surface,
            &head.label,
            args.cache_dir.as_deref(),
            notes,
        )? {
            BaseRun::Card { card, reused } => {
                part.base = Some(*card);
                part.base_reused = reused;
            }
            BaseRun::Skipped => {}
            BaseRun::Interrupted => return Ok(None),
        }
    }
    if let Some(base_card) = &part.base {
        let reasons = comparability(base_card, &head_card);
        let unhealthy =
            base_card.status == Status::Unhealthy || head_card.status == Status::Unhealthy;
        if reasons.is_empty() {
            let eval = compare(
                base_card,
                &head_card,
                GateSettings {
                    pairing: Pairing::Case,
                    alpha: ALPHA,
                    metrics: DEFAULT_GATED.iter().map(|m| (*m).to_owned()).collect(),
                },
            );
            part.compare = Some(CompareReport {
                version: COMPARE_VERSION,
                kind: "compare".into(),
                verdict: Some(overall(&eval)),
                base: Side {
                    source: base_card.suite.path.clone(),
                    kind: "scorecard".into(),
                    fingerprint: Some(base_card.suite.fingerprint.clone()),
                },
                head: Side {
                    source: head_card.suite.path.clone(),
                    kind: "scorecard".into(),
                    fingerprint: Some(head_card.suite.fingerprint.clone()),
                },
                eval: Some(eval),
                surface: None,
            });
        } else {
            notes.push(format!(
                "base and head are not comparable: {}",
                reasons.join("; ")
            ));
            if args.fail_on_regression && !unhealthy {
                part.failures.push(format!(
                    "--fail-on-regression: base and head are not comparable ({})",
                    reasons.join("; ")
                ));
            }
        }
    } else if args.fail_on_regression {
        notes.push("--fail-on-regression had no base eval to compare with".to_owned());
    }
    part.head = Some(head_card);
    Ok(Some(part))
}

enum BaseRun {
    Card { card: Box<Scorecard>, reused: bool },
    Skipped,
    Interrupted,
}

/// The base eval: the suite file at the merge base, the surface at the merge base, the same
/// settings; a stored scorecard when one matches.
fn base_eval(
    args: &EvalArgs,
    found: &FoundSuite,
    commit: &str,
    surface: &Surface,
    head_label: &str,
    cache_dir: Option<&Path>,
    notes: &mut Vec<String>,
) -> Result<BaseRun, Error> {
    let short = short(commit);
    let (suite_repo, suite_file) = repo_and_path(&found.path.to_string_lossy());
    let bytes = match gbase::file_at(&suite_repo, commit, &suite_file) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            notes.push(format!(
                "{} is not in the base {short}: no base eval (every case is new)",
                found.display
            ));
            return Ok(BaseRun::Skipped);
        }
        Err(e) => {
            notes.push(format!("cannot read the base suite: {e}; no base eval"));
            return Ok(BaseRun::Skipped);
        }
    };
    if surface.tools.is_empty() {
        notes.push(format!(
            "the base {short} has no tools at the surface path: no base eval"
        ));
        return Ok(BaseRun::Skipped);
    }
    let tmp = tempfile::Builder::new()
        .prefix("mf-ci-base-")
        .tempdir()
        .map_err(|source| Error::Write {
            path: std::env::temp_dir(),
            source,
        })?;
    let name = Path::new(&suite_file)
        .file_name()
        .map_or_else(|| "suite.json".into(), |n| n.to_string_lossy().into_owned());
    let path = gbase::materialize(tmp.path(), &name, &bytes).map_err(|source| Error::Write {
        path: tmp.path().join(&name),
        source,
    })?;
    let display = format!("{}@{short}", found.display);
    let suite = match crate::suite::read_suite_any(&path, &display)
        .map_err(Error::from)
        .and_then(|s| {
            s.validate_for_eval(&display)
                .map(|()| s)
                .map_err(Error::from)
        }) {
        Ok(s) => s,
        Err(e) => {
            notes.push(format!(
                "the base suite cannot be evaluated: {e}; no base eval"
            ));
            return Ok(BaseRun::Skipped);
        }
    };
    let specs = match engine::resolve_models(args, &suite) {
        Ok(specs) => specs,
        Err(e) => {
            notes.push(format!("the base models do not resolve: {e}; no base eval"));
            return Ok(BaseRun::Skipped);
        }
    };
    let settings = settings_hash(args, &specs);
    let suite_hash = gbase::sha256(&bytes);
    let surface_hash = surface_fingerprint(surface);
    let key = BaseKey {
        commit,
        settings: &settings,
        suite: &suite_hash,
        surface: &surface_hash,
    }
    .key();
    let store = BaseCache::new(&cache_dir.map_or_else(cache::default_dir, Path::to_path_buf));
    if let Some(card) = store.load(&key) {
        return Ok(BaseRun::Card {
            card: Box::new(card),
            reused: true,
        });
    }
    let outcome = engine::evaluate(
        args,
        Instant::now(),
        &suite,
        &display,
        surface.clone(),
        &format!("{head_label}@{short}"),
    );
    match outcome {
        Ok(EvalOutcome::Card(card)) => {
            if let Err(e) = store.store(&key, &card) {
                super::super::note(&format!("warning: cannot store the base scorecard: {e}"));
            }
            Ok(BaseRun::Card {
                card,
                reused: false,
            })
        }
        Ok(EvalOutcome::Interrupted) => Ok(BaseRun::Interrupted),
        Ok(EvalOutcome::OverContext(message)) => {
            notes.push(format!("base eval refused: {message}"));
            Ok(BaseRun::Skipped)
        }
        Ok(EvalOutcome::DryRun { .. }) => Ok(BaseRun::Skipped),
        Err(e) => {
            notes.push(format!("the base eval could not run: {e}"));
            Ok(BaseRun::Skipped)
        }
    }
}

/// A hash of every eval setting that shapes a request or a score: mf's version, the settings
/// as `mf eval` sees them (no gates: they do not change a base scorecard's figures), the
/// resolved models, and the scripts of scripted models.
fn settings_hash(args: &EvalArgs, specs: &[crate::providers::config::ModelSpec]) -> String {
    let mut text = format!(
        "mf {}\nrepeat {} seed {} max-trials {} max-tools {} max-context {:?} temperature {:?} \
         max-output {} profile {:?} cases {:?} only {:?} skip {:?} tool-choice-auto {} \
         base-url {:?} max-error-rate {} min-scored {}\n{specs:?}\n",
        env!("CARGO_PKG_VERSION"),
        args.repeat,
        args.seed,
        args.max_trials,
        args.max_tools,
        args.max_context_tokens,
        args.temperature,
        args.max_output_tokens,
        args.profile,
        args.cases,
        args.only,
        args.skip,
        args.tool_choice_auto,
        args.base_url,
        args.max_error_rate,
        args.min_scored,
    );
    for spec in specs {
        if let Some(script) = &spec.script {
            let bytes = std::fs::read(script).unwrap_or_default();
            text.push_str(&format!("script {}\n", gbase::sha256(&bytes)));
        }
    }
    gbase::sha256(text.as_bytes())
}
