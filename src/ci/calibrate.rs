//! The A/A calibration of `mf ci`: base evaluated a second time with identical settings and
//! fresh requests (the trial cache off), so the compare can measure how often cases flip between
//! identical runs and test head's changes against that (the calibrated gate, SCHEMA.md
//! "Calibration"). The A/A scorecard is stored next to the base scorecard (same key + `.aa`), so
//! it is paid once per base commit and settings; the next push reads both from the cache.
//!
//! When it runs (`--calibrate`, Action input `calibrate`):
//! - `never`: not at all;
//! - `always`: whenever a base scorecard exists (evaluated or reused), each eval within its own
//!   budget as usual;
//! - `auto` (default): when a base scorecard exists and the budget allows — the A/A scorecard is
//!   stored (nothing to spend), or every model is offline (free), or the base came from the base
//!   cache (the A/A run is then this run's only spend on the base commit, within the budget every
//!   eval has), or the base and its A/A run *together* fit `--max-trials` and
//!   `--max-input-tokens`. Otherwise it is skipped with a note saying what to raise.

use std::time::Instant;

use super::base::BaseCache;
use crate::compare::eval::calibration_reasons;
use crate::eval::{self as engine, EvalConfig, EvalOutcome, LoadedSuite, Observer};
use crate::report::scorecard::{Scorecard, Status};
use crate::surface::Surface;

use super::Calibrate;

/// The A/A scorecard and whether it came from the cache.
#[derive(Debug)]
pub struct AaRun {
    /// Base evaluated again.
    pub card: Box<Scorecard>,
    /// Read from the base cache (no request sent).
    pub reused: bool,
}

/// What the A/A run needs from the base eval.
#[derive(Debug)]
pub struct AaRequest<'a> {
    /// `--calibrate`.
    pub mode: Calibrate,
    /// The base eval's settings (the A/A run turns the trial cache off).
    pub settings: &'a EvalConfig,
    /// The base suite, as evaluated.
    pub suite: &'a LoadedSuite,
    /// The base surface.
    pub surface: &'a Surface,
    /// The label of the A/A scorecard's surface.
    pub label: &'a str,
    /// The base scorecard's cache key.
    pub key: &'a str,
    /// The base cache.
    pub store: &'a BaseCache,
    /// The base scorecard.
    pub base: &'a Scorecard,
    /// The base scorecard came from the base cache.
    pub base_reused: bool,
}

/// How the A/A step ended.
#[derive(Debug)]
pub enum AaOutcome {
    /// A usable A/A scorecard.
    Card(AaRun),
    /// Not run (the reason is in the notes, or calibration is off).
    Skipped,
    /// Ctrl-C during the A/A eval.
    Interrupted,
}

/// The cache key of the A/A scorecard of the base scorecard stored under `base_key`.
pub fn aa_key(base_key: &str) -> String {
    format!("{base_key}.aa")
}

/// Run (or reuse) the A/A eval under the rule in the module docs.
pub fn calibrate(
    req: &AaRequest<'_>,
    notes: &mut Vec<String>,
    observer: &mut dyn Observer,
) -> AaOutcome {
    if req.mode == Calibrate::Never {
        return AaOutcome::Skipped;
    }
    let key = aa_key(req.key);
    if let Some(card) = req.store.load(&key)
        && calibration_reasons(req.base, &card).is_empty()
    {
        return AaOutcome::Card(AaRun {
            card: Box::new(card),
            reused: true,
        });
    }
    let mut settings = req.settings.clone();
    settings.cache_dir = None;
    if req.mode == Calibrate::Auto
        && !req.base_reused
        && let Some(why) = over_budget(&settings, req)
    {
        notes.push(format!(
            "calibration skipped: {why}; the case-level gate decided (raise the budget, or set \
             --calibrate always / Action input `calibrate: always`)"
        ));
        return AaOutcome::Skipped;
    }
    let outcome = engine::evaluate(
        &settings,
        Instant::now(),
        req.suite,
        req.surface.clone(),
        req.label,
        observer,
    );
    match outcome {
        Ok(EvalOutcome::Card(card)) => {
            let reasons = calibration_reasons(req.base, &card);
            if !reasons.is_empty() {
                notes.push(format!(
                    "the A/A run cannot calibrate: {}; the case-level gate decided",
                    reasons.join("; ")
                ));
                return AaOutcome::Skipped;
            }
            if card.status == Status::Unhealthy {
                notes.push(
                    "the A/A run is unhealthy (too many errored trials); the case-level gate \
                     decided"
                        .to_owned(),
                );
                return AaOutcome::Skipped;
            }
            if let Err(e) = req.store.store(&key, &card) {
                observer.note(&format!("warning: cannot store the A/A scorecard: {e}"));
            }
            AaOutcome::Card(AaRun {
                card,
                reused: false,
            })
        }
        Ok(EvalOutcome::Interrupted(kept)) => {
            observer.note(&kept.to_string());
            AaOutcome::Interrupted
        }
        Ok(EvalOutcome::OverContext(refusals)) => {
            notes.push(format!(
                "calibration refused: {}; the case-level gate decided",
                refusals
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
            AaOutcome::Skipped
        }
        Ok(EvalOutcome::DryRun(_)) => AaOutcome::Skipped,
        Err(e) => {
            notes.push(format!(
                "the A/A run could not run: {e}; the case-level gate decided"
            ));
            AaOutcome::Skipped
        }
    }
}

/// Why a fresh base plus its A/A run would not fit the budget together, if so (`None` also
/// when every model is offline).
fn over_budget(settings: &EvalConfig, req: &AaRequest<'_>) -> Option<String> {
    let mut plan_settings = settings.clone();
    plan_settings.dry_run = true;
    let Ok(EvalOutcome::DryRun(plan)) = engine::evaluate(
        &plan_settings,
        Instant::now(),
        req.suite,
        req.surface.clone(),
        req.label,
        &mut engine::evaluate::Silent,
    ) else {
        return None; // the real run reports what is wrong
    };
    if plan.paid_trials == 0 {
        return None;
    }
    let trials = plan.paid_trials.saturating_mul(2);
    if trials > settings.budgets.max_trials {
        return Some(format!(
            "base and its A/A run would be {trials} paid trials together, over --max-trials {}",
            settings.budgets.max_trials
        ));
    }
    let tokens = plan
        .prompt_tokens_per_model
        .saturating_mul(plan.paid_models)
        .saturating_mul(2);
    match settings.budgets.max_input_tokens {
        Some(max) if tokens > max => Some(format!(
            "base and its A/A run would send at least {tokens} input tokens together, over \
             --max-input-tokens {max}"
        )),
        _ => None,
    }
}
