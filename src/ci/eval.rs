//! The eval half of `mf ci`: whether it may run (free reasons), the `mf eval` settings both
//! sides share, the head eval, the base eval (the suite file at the merge base, the surface at
//! the merge base, a stored base scorecard reused when one matches) and the comparison.

use std::path::Path;
use std::time::Instant;

use super::base::{self as gbase, BaseCache, BaseKey, repo_and_path};
use super::calibrate::{AaOutcome, AaRequest, calibrate};
use super::suite::FoundSuite;
use super::{Calibrate, CiConfig, CiError, Head, short};
use crate::compare::eval::DEFAULT_GATED;
use crate::compare::report::scorecards_calibrated;
use crate::eval::power::power_plan;
use crate::eval::{self as engine, EvalConfig, EvalOutcome, LoadedSuite, Observer, models};
use crate::providers::config::ModelSpec;
use crate::render::text::power_lines;
use crate::report::ci::CiEvent;
use crate::report::compare::{CompareReport, GateSettings, Pairing};
use crate::report::scorecard::{Scorecard, Status};
use crate::suite::Suite;
use crate::surface::Surface;
use crate::surface::fingerprint::surface_fingerprint;

/// Significance level of the regression gate.
const ALPHA: f64 = 0.05;

/// What the eval part produced.
#[derive(Debug, Default)]
pub struct EvalPart {
    /// The head scorecard.
    pub head: Option<Scorecard>,
    /// The base scorecard.
    pub base: Option<Scorecard>,
    /// The base scorecard came from the base cache.
    pub base_reused: bool,
    /// Base evaluated again (the A/A run), when `--calibrate` ran or reused one.
    pub calibration: Option<Scorecard>,
    /// The A/A scorecard came from the base cache.
    pub calibration_reused: bool,
    /// Base vs head.
    pub compare: Option<CompareReport>,
    /// Gate failures found while running it (context budget, incomparable runs).
    pub failures: Vec<String>,
    /// The head eval could not run at all (exit 1).
    pub error: Option<String>,
}

/// Why the run is free-only, or `None` for a full run. A model list that does not resolve is
/// an error.
pub fn free_reason(
    config: &CiConfig,
    event: &CiEvent,
    found: Option<&FoundSuite>,
) -> Result<Option<String>, CiError> {
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
    if config.merge.is_some() {
        // The final job of a matrix sends nothing: models and keys were the shard jobs' business.
        return Ok(None);
    }
    let models = model_list(config, &found.suite);
    if models.is_empty() {
        return Ok(Some(format!(
            "no models: give --models (e.g. openai:gpt-4.1-mini, or lexical, which needs no \
             key), or name models in {}",
            found.display
        )));
    }
    let settings = eval_config(config, models, None);
    let specs = models::resolve(&settings, &found.suite, &found.display)?;
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
fn model_list(config: &CiConfig, suite: &Suite) -> Vec<String> {
    if config.models.is_empty() {
        suite.models.keys().cloned().collect()
    } else {
        config.models.clone()
    }
}

/// The eval settings of both sides: the run's template with these models (and `min_accuracy`
/// only for head). The template was validated when the config was built.
fn eval_config(config: &CiConfig, models: Vec<String>, min_accuracy: Option<f64>) -> EvalConfig {
    let mut settings = config.eval.clone();
    settings.models = models;
    settings.gates.min_accuracy = min_accuracy;
    settings
}

/// Eval head, eval (or reuse) base, compare. `None` when interrupted.
pub fn run(
    config: &CiConfig,
    found: &FoundSuite,
    head: &Head,
    base: Option<(&str, &Surface)>,
    notes: &mut Vec<String>,
    observer: &mut dyn Observer,
) -> Result<Option<EvalPart>, CiError> {
    let mut part = EvalPart::default();
    let models = model_list(config, &found.suite);
    let head_config = eval_config(config, models.clone(), config.min_accuracy);
    let base_config = eval_config(config, models, None);
    let suite = match engine::load_suite(Some(&found.path)) {
        Ok(loaded) => loaded,
        Err(e) => {
            part.error = Some(format!("the head eval could not run: {e}"));
            return Ok(Some(part));
        }
    };
    // Before anything is spent: the smallest regression this suite can reveal under the gate.
    let plan = power_plan(
        suite.suite.cases.len() as u64,
        u64::from(config.eval.repeat),
        Pairing::Case,
        ALPHA,
        None,
    );
    for line in power_lines(&plan) {
        observer.note(&format!("power: {line}"));
    }
    let head_card = match engine::evaluate(
        &head_config,
        Instant::now(),
        &suite,
        head.surface.clone(),
        &head.label,
        observer,
    ) {
        Ok(EvalOutcome::Card(card)) => *card,
        Ok(EvalOutcome::Interrupted(kept)) => {
            observer.note(&kept.to_string());
            return Ok(None);
        }
        Ok(EvalOutcome::OverContext(refusals)) => {
            for message in refusals {
                part.failures.push(format!("head eval refused: {message}"));
            }
            return Ok(Some(part));
        }
        Ok(EvalOutcome::DryRun(_)) => return Ok(Some(part)),
        Err(e) => {
            part.error = Some(format!("the head eval could not run: {e}"));
            return Ok(Some(part));
        }
    };
    if let Some((commit, surface)) = base {
        // A shard job evaluates only its part of base: no A/A run (the merge job compares
        // case-level).
        let calibrate = if config.eval.shard.is_some() {
            super::config::Calibrate::Never
        } else {
            config.calibrate
        };
        match base_eval(
            &base_config,
            calibrate,
            found,
            commit,
            surface,
            &head.label,
            notes,
            observer,
        )? {
            BaseRun::Card {
                card,
                reused,
                again,
            } => {
                part.base = Some(*card);
                part.base_reused = reused;
                if let Some(a) = again {
                    part.calibration = Some(*a.card);
                    part.calibration_reused = a.reused;
                }
            }
            BaseRun::Skipped => {}
            BaseRun::Interrupted => return Ok(None),
        }
    }
    if config.eval.shard.is_some() {
        // A shard job: the parts are compared once merged (`mf ci --merge`).
        part.head = Some(head_card);
        return Ok(Some(part));
    }
    let source =
        base.map(|(commit, _)| format!("{} at {}, evaluated again", found.display, short(commit)));
    compare_sides(config, &mut part, &head_card, source, notes);
    part.head = Some(head_card);
    Ok(Some(part))
}

/// The eval part of the final job of a matrix: head and base merged from the shard jobs' parts
/// under `dir`, then compared like a single run's. `None` when no shard job wrote a part.
pub fn merged(
    config: &CiConfig,
    dir: &Path,
    head: &Head,
    notes: &mut Vec<String>,
) -> Result<Option<EvalPart>, CiError> {
    let Some(merged) = super::shard::merged(dir)? else {
        return Ok(None);
    };
    // Parts of another commit (a stale artifact) would judge the wrong change: the tools the
    // head parts offered must be this checkout's.
    let offered: Vec<_> = head
        .surface
        .tools
        .iter()
        .filter(|t| merged.head.suite.tools.contains(&t.name))
        .cloned()
        .collect();
    let here = surface_fingerprint(&Surface {
        tools: offered,
        skills: Vec::new(),
        unread: Vec::new(),
    });
    if here != merged.head.suite.fingerprint {
        return Err(CiError::Merge(crate::eval::merge::MergeError(vec![
            format!(
                "the head parts in {} were evaluated on other tools than {} holds here (surface \
             {} vs {here}): stale artifacts from another commit? Download the parts of this \
             run's shard jobs",
                dir.display(),
                head.label,
                merged.head.suite.fingerprint
            ),
        ])));
    }
    notes.push(merged.note);
    let mut part = EvalPart {
        base: merged.base,
        ..EvalPart::default()
    };
    compare_sides(config, &mut part, &merged.head, None, notes);
    part.head = Some(merged.head);
    Ok(Some(part))
}

/// Compare `head_card` with `part.base` when they are comparable (the gate's settings), else
/// say why not (a failure under `--fail-on-regression` unless a side is unhealthy).
fn compare_sides(
    config: &CiConfig,
    part: &mut EvalPart,
    head_card: &Scorecard,
    calibration_source: Option<String>,
    notes: &mut Vec<String>,
) {
    if let Some(base_card) = &part.base {
        let reasons = crate::compare::eval::comparability(base_card, head_card);
        let unhealthy =
            base_card.status == Status::Unhealthy || head_card.status == Status::Unhealthy;
        if reasons.is_empty() {
            let again = part
                .calibration
                .as_ref()
                .zip(calibration_source)
                .map(|(card, source)| (source, card));
            part.compare = Some(scorecards_calibrated(
                &base_card.suite.path,
                &head_card.suite.path,
                base_card,
                head_card,
                again
                    .as_ref()
                    .map(|(source, card)| (source.as_str(), *card)),
                GateSettings {
                    pairing: if again.is_some() {
                        Pairing::Calibrated
                    } else {
                        Pairing::Case
                    },
                    alpha: ALPHA,
                    metrics: DEFAULT_GATED.iter().map(|m| (*m).to_owned()).collect(),
                },
            ));
        } else {
            notes.push(format!(
                "base and head are not comparable: {}",
                reasons.join("; ")
            ));
            if config.fail_on_regression && !unhealthy {
                part.failures.push(format!(
                    "--fail-on-regression: base and head are not comparable ({})",
                    reasons.join("; ")
                ));
            }
        }
    } else if config.fail_on_regression {
        notes.push("--fail-on-regression had no base eval to compare with".to_owned());
    }
}

enum BaseRun {
    Card {
        card: Box<Scorecard>,
        reused: bool,
        again: Option<super::calibrate::AaRun>,
    },
    Skipped,
    Interrupted,
}

/// The base eval: the suite file at the merge base, the surface at the merge base, the same
/// settings; a stored scorecard when one matches. Then the A/A run ([`calibrate`]).
#[allow(clippy::too_many_arguments)]
fn base_eval(
    settings: &EvalConfig,
    mode: Calibrate,
    found: &FoundSuite,
    commit: &str,
    surface: &Surface,
    head_label: &str,
    notes: &mut Vec<String>,
    observer: &mut dyn Observer,
) -> Result<BaseRun, CiError> {
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
        .map_err(|source| CiError::Write {
            path: std::env::temp_dir(),
            source,
        })?;
    let name = Path::new(&suite_file)
        .file_name()
        .map_or_else(|| "suite.json".into(), |n| n.to_string_lossy().into_owned());
    let path = gbase::materialize(tmp.path(), &name, &bytes).map_err(|source| CiError::Write {
        path: tmp.path().join(&name),
        source,
    })?;
    let display = format!("{}@{short}", found.display);
    let suite = match crate::suite::read_suite_any(&path, &display).and_then(|s| {
        s.validate_for_eval(&display).map(|()| LoadedSuite {
            suite: s,
            display: display.clone(),
            path: path.clone(),
        })
    }) {
        Ok(s) => s,
        Err(e) => {
            notes.push(format!(
                "the base suite cannot be evaluated: {e}; no base eval"
            ));
            return Ok(BaseRun::Skipped);
        }
    };
    let specs = match models::resolve(settings, &suite.suite, &suite.display) {
        Ok(specs) => specs,
        Err(e) => {
            notes.push(format!("the base models do not resolve: {e}; no base eval"));
            return Ok(BaseRun::Skipped);
        }
    };
    let settings_key = settings_hash(settings, &specs);
    let suite_hash = gbase::sha256(&bytes);
    let surface_hash = surface_fingerprint(surface);
    let key = BaseKey {
        commit,
        settings: &settings_key,
        suite: &suite_hash,
        surface: &surface_hash,
    }
    .key();
    let store = BaseCache::new(
        &settings
            .cache_dir
            .clone()
            .unwrap_or_else(crate::eval::cache::default_dir),
    );
    let label = format!("{head_label}@{short}");
    let (card, reused) = if let Some(card) = store.load(&key) {
        (Box::new(card), true)
    } else {
        let outcome = engine::evaluate(
            settings,
            Instant::now(),
            &suite,
            surface.clone(),
            &label,
            observer,
        );
        match outcome {
            Ok(EvalOutcome::Card(card)) => {
                if let Err(e) = store.store(&key, &card) {
                    observer.note(&format!("warning: cannot store the base scorecard: {e}"));
                }
                (card, false)
            }
            Ok(EvalOutcome::Interrupted(kept)) => {
                observer.note(&kept.to_string());
                return Ok(BaseRun::Interrupted);
            }
            Ok(EvalOutcome::OverContext(refusals)) => {
                for message in refusals {
                    notes.push(format!("base eval refused: {message}"));
                }
                return Ok(BaseRun::Skipped);
            }
            Ok(EvalOutcome::DryRun(_)) => return Ok(BaseRun::Skipped),
            Err(e) => {
                notes.push(format!("the base eval could not run: {e}"));
                return Ok(BaseRun::Skipped);
            }
        }
    };
    let again_label = format!("{label} again");
    let request = AaRequest {
        mode,
        settings,
        suite: &suite,
        surface,
        label: &again_label,
        key: &key,
        store: &store,
        base: &card,
        base_reused: reused,
    };
    let again = match calibrate(&request, notes, observer) {
        AaOutcome::Card(run) => Some(run),
        AaOutcome::Skipped => None,
        AaOutcome::Interrupted => return Ok(BaseRun::Interrupted),
    };
    Ok(BaseRun::Card {
        card,
        reused,
        again,
    })
}

/// A hash of every eval setting that shapes a request or a score: mf's version, the settings
/// as `mf eval` sees them (no gates: they do not change a base scorecard's figures), the
/// resolved models, and the scripts of scripted models.
fn settings_hash(settings: &EvalConfig, specs: &[ModelSpec]) -> String {
    let mut text = format!(
        "mf {}\nrepeat {} seed {} max-trials {} max-tools {} max-context {:?} temperature {:?} \
         max-output {} profile {:?} cases {:?} only {:?} skip {:?} tool-choice-auto {} \
         base-url {:?} max-error-rate {} min-scored {} max-input-tokens {:?} shard {:?}\n{specs:?}\n",
        env!("CARGO_PKG_VERSION"),
        settings.repeat,
        settings.seed,
        settings.budgets.max_trials,
        settings.budgets.max_tools,
        settings.budgets.max_context_tokens,
        settings.temperature,
        settings.max_output_tokens,
        settings.profile,
        settings.selection.ids,
        settings.selection.only,
        settings.selection.skip,
        settings.tool_choice_auto,
        settings.base_url,
        settings.gates.max_error_rate,
        settings.gates.min_scored,
        settings.budgets.max_input_tokens,
        settings.shard.map(|s| s.to_string()),
    );
    for spec in specs {
        if let Some(script) = &spec.script {
            let bytes = std::fs::read(script).unwrap_or_default();
            text.push_str(&format!("script {}\n", gbase::sha256(&bytes)));
        }
    }
    gbase::sha256(text.as_bytes())
}
