//! Plans of several runs (mount-group scoring, ablation): every run is planned (as a dry run)
//! before any is sent, the budgets are checked on the totals — paid trials and input tokens
//! over all runs — and every refusal is listed at once, as for one run.

use std::time::Instant;

use super::EvalError;
use super::config::EvalConfig;
use super::dry_run::{Cost, DryRun, PlanPart, WallEstimate};
use super::evaluate::{EvalOutcome, LoadedSuite, Silent, evaluate};
use super::plan::BudgetError;
use crate::surface::Surface;

/// One run of a batch: what it is, and its settings.
#[derive(Debug, Clone)]
pub struct BatchRun {
    /// For people: `every tool`, `group "billing" mounted alone`, `without read_graph`.
    pub label: String,
    /// Its settings.
    pub config: EvalConfig,
}

/// What planning a batch decided.
#[derive(Debug)]
pub enum BatchPlan {
    /// Within every budget: run it.
    Go,
    /// `--dry-run`: the totals, each run, and what refuses them.
    DryRun(Box<DryRun>),
    /// Only the context budget refuses (a gate: exit 2).
    OverContext(Vec<BudgetError>),
}

/// Plan every run of `runs` (none is sent) and check the budgets of `budget_of` on the totals.
/// `dry_run` returns the plan instead of a verdict.
pub fn plan(
    runs: &[BatchRun],
    budget_of: &EvalConfig,
    dry_run: bool,
    suite: &LoadedSuite,
    surface: &Surface,
    surface_label: &str,
) -> Result<BatchPlan, EvalError> {
    let mut plans: Vec<DryRun> = Vec::with_capacity(runs.len());
    for run in runs {
        let config = EvalConfig {
            dry_run: true,
            seconds_per_trial: None,
            ..run.config.clone()
        };
        match evaluate(
            &config,
            Instant::now(),
            suite,
            surface.clone(),
            surface_label,
            &mut Silent,
        )? {
            EvalOutcome::DryRun(d) => plans.push(*d),
            _ => return Err(EvalError::Plan(format!("{}: no plan came back", run.label))),
        }
    }
    let Some(first) = plans.first() else {
        return Err(EvalError::Plan("nothing to run".into()));
    };
    let paid: u64 = plans.iter().map(|d| d.paid_trials).sum();
    let input: u64 = plans
        .iter()
        .map(|d| d.prompt_tokens_per_model * d.paid_models)
        .sum();
    let mut refusals = Vec::new();
    let budgets = &budget_of.budgets;
    if paid > budgets.max_trials {
        let shares: Vec<String> = runs
            .iter()
            .zip(&plans)
            .filter(|(_, d)| d.paid_trials > 0)
            .map(|(r, d)| format!("{} {}", d.paid_trials, r.label))
            .collect();
        refusals.push(BudgetError::PlanTrials {
            planned: paid,
            runs: shares.join(" + "),
            max: budgets.max_trials,
        });
    }
    if let Some(max) = budgets.max_input_tokens
        && input > max
    {
        refusals.push(BudgetError::InputTokens {
            planned: input,
            max,
        });
    }
    // What refuses a single run besides its own totals (tools, context, keys), once each.
    for d in &plans {
        for e in &d.refusals {
            let total = matches!(
                e,
                BudgetError::Trials { .. }
                    | BudgetError::PlanTrials { .. }
                    | BudgetError::InputTokens { .. }
            );
            if !total && !refusals.contains(e) {
                refusals.push(e.clone());
            }
        }
    }
    if dry_run {
        let mut total = first.clone();
        total.paid_trials = paid;
        total.trials_per_model = plans.iter().map(|d| d.trials_per_model).sum();
        total.prompt_tokens_per_model = plans.iter().map(|d| d.prompt_tokens_per_model).sum();
        total.prompt_tokens_per_trial = (
            plans
                .iter()
                .map(|d| d.prompt_tokens_per_trial.0)
                .min()
                .unwrap_or(0),
            plans
                .iter()
                .map(|d| d.prompt_tokens_per_trial.1)
                .max()
                .unwrap_or(0),
        );
        for (i, model) in total.models.iter_mut().enumerate() {
            if let Cost::AtLeast { amount, .. } = &mut model.cost {
                *amount = plans
                    .iter()
                    .filter_map(|d| match d.models.get(i).map(|m| &m.cost) {
                        Some(Cost::AtLeast { amount, .. }) => Some(*amount),
                        _ => None,
                    })
                    .sum();
            }
        }
        total.wall = budget_of.seconds_per_trial.map(|secs| {
            let waves = paid.div_ceil(budget_of.concurrency as u64);
            WallEstimate {
                seconds: waves as f64 * secs,
                waves,
                concurrency: budget_of.concurrency,
                seconds_per_trial: secs,
            }
        });
        total.refusals = refusals;
        total.parts = runs
            .iter()
            .zip(&plans)
            .map(|(r, d)| PlanPart {
                label: r.label.clone(),
                cases: d.cases,
                tools: d.tools,
                trials_per_model: d.trials_per_model,
            })
            .collect();
        return Ok(BatchPlan::DryRun(Box::new(total)));
    }
    if !refusals.is_empty() && refusals.iter().all(BudgetError::is_gate) {
        return Ok(BatchPlan::OverContext(refusals));
    }
    if !refusals.is_empty() {
        return Err(EvalError::Refused(refusals));
    }
    Ok(BatchPlan::Go)
}
