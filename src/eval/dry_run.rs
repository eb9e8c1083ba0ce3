//! What a dry run shows (`mf eval --dry-run`): the plan's size, the prompt-token lower bound,
//! each model's trials and cost lower bound, the wall-time estimate and the budget verdict —
//! computed here, laid out by `render::dry_run`.

use super::config::EvalConfig;
use super::plan::{BudgetError, PERMUTATION_VERSION};
use super::power::{DEFAULT_ALPHA, power_plan};
use super::shard::{Shard, assign};
use crate::providers::config::ModelSpec;
use crate::report::compare::{Pairing, PowerPlan};
use crate::suite::Case;
use crate::surface::Tool;
use crate::surface::tokens::TOKENIZER;

/// The plan of a run that was not sent.
#[derive(Debug, Clone, PartialEq)]
pub struct DryRun {
    /// Cases selected.
    pub cases: usize,
    /// Trials per case and model.
    pub repeat: u32,
    /// Tools offered.
    pub tools: usize,
    /// Seed of the tool order.
    pub seed: u64,
    /// The tool-order algorithm.
    pub permutation: &'static str,
    /// The tokenizer of the lower bound.
    pub tokenizer: &'static str,
    /// Trials per model.
    pub trials_per_model: u64,
    /// Prompt tokens per model (lower bound).
    pub prompt_tokens_per_model: u64,
    /// Smallest and largest prompt of one trial.
    pub prompt_tokens_per_trial: (u64, u64),
    /// Each model.
    pub models: Vec<DryRunModel>,
    /// Trials that would be paid for (all paid models).
    pub paid_trials: u64,
    /// Models that send requests.
    pub paid_models: u64,
    /// `--max-trials`.
    pub max_trials: u64,
    /// `--max-tools`.
    pub max_tools: usize,
    /// With `--seconds-per-trial`: the wall-time estimate.
    pub wall: Option<WallEstimate>,
    /// Every budget (and missing key) that refuses the run.
    pub refusals: Vec<BudgetError>,
    /// `--max-input-tokens`.
    pub max_input_tokens: Option<u64>,
    /// What a compare of this suite could reveal under the default (case-level) gate, and
    /// what calibration would buy.
    pub power: PowerPlan,
    /// With `--shard K/N`: the shard this run would send and every shard's size.
    pub shard: Option<ShardPlan>,
    /// A plan of several runs (mount groups, ablation): each run; the figures above are then
    /// the totals, and `cases`/`tools`/`power` those of the first run.
    pub parts: Vec<PlanPart>,
}

/// How a sharded plan splits (`mf-shard-v1`).
#[derive(Debug, Clone, PartialEq)]
pub struct ShardPlan {
    /// The shard this run would send.
    pub shard: Shard,
    /// Per shard (K = index + 1): trials and prompt tokens (lower bound).
    pub sizes: Vec<(u64, u64)>,
}

/// One run of a plan of several.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanPart {
    /// What the run is (`every tool`, `group "billing" mounted alone`, `without read_graph`).
    pub label: String,
    /// Cases it asks.
    pub cases: usize,
    /// Tools it offers.
    pub tools: usize,
    /// Trials per model.
    pub trials_per_model: u64,
}

/// One model of a dry run.
#[derive(Debug, Clone, PartialEq)]
pub struct DryRunModel {
    /// The `--models` label.
    pub label: String,
    /// What its trials would cost.
    pub cost: Cost,
}

/// A model's cost in a dry run.
#[derive(Debug, Clone, PartialEq)]
pub enum Cost {
    /// An offline model.
    Free,
    /// Input tokens × the configured price (output adds more).
    AtLeast {
        /// The amount.
        amount: f64,
        /// Its currency.
        currency: String,
    },
    /// No price configured.
    Unknown,
}

/// The wall-time estimate of the paid requests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WallEstimate {
    /// Seconds in all.
    pub seconds: f64,
    /// Rounds of `concurrency` requests.
    pub waves: u64,
    /// Requests in flight.
    pub concurrency: usize,
    /// Seconds per request, as given.
    pub seconds_per_trial: f64,
}

/// The dry run of a plan.
pub fn dry_run(
    config: &EvalConfig,
    specs: &[ModelSpec],
    cases: &[Case],
    tools: &[Tool],
    prompt_tokens: &[u64],
    refusals: Vec<BudgetError>,
) -> DryRun {
    let per_model = cases.len() as u64 * u64::from(config.repeat);
    let shard = config.shard.map(|shard| {
        let assignment = assign(specs.len(), prompt_tokens, config.repeat, shard.count);
        let mut sizes = vec![(0u64, 0u64); shard.count as usize];
        for row in &assignment {
            for (case, k) in row.iter().enumerate() {
                let size = &mut sizes[*k as usize];
                size.0 += u64::from(config.repeat);
                size.1 += prompt_tokens[case] * u64::from(config.repeat);
            }
        }
        ShardPlan { shard, sizes }
    });
    let prompt_per_model: u64 = prompt_tokens.iter().sum::<u64>() * u64::from(config.repeat);
    let paid = specs.iter().filter(|s| s.provider.wire().is_some()).count() as u64;
    let models = specs
        .iter()
        .map(|spec| DryRunModel {
            label: spec.label.clone(),
            cost: match (&spec.price, spec.provider.wire()) {
                (_, None) => Cost::Free,
                (Some(p), Some(_)) => Cost::AtLeast {
                    amount: prompt_per_model as f64 * p.input / 1e6,
                    currency: p.currency.clone(),
                },
                (None, Some(_)) => Cost::Unknown,
            },
        })
        .collect();
    let wall = config.seconds_per_trial.map(|secs| {
        let waves = (per_model * paid).div_ceil(config.concurrency as u64);
        WallEstimate {
            seconds: waves as f64 * secs,
            waves,
            concurrency: config.concurrency,
            seconds_per_trial: secs,
        }
    });
    DryRun {
        cases: cases.len(),
        repeat: config.repeat,
        tools: tools.len(),
        seed: config.seed,
        permutation: PERMUTATION_VERSION,
        tokenizer: TOKENIZER,
        trials_per_model: per_model,
        prompt_tokens_per_model: prompt_per_model,
        prompt_tokens_per_trial: (
            prompt_tokens.iter().min().copied().unwrap_or(0),
            prompt_tokens.iter().max().copied().unwrap_or(0),
        ),
        models,
        paid_trials: per_model * paid,
        paid_models: paid,
        max_trials: config.budgets.max_trials,
        max_tools: config.budgets.max_tools,
        max_input_tokens: config.budgets.max_input_tokens,
        wall,
        refusals,
        power: power_plan(
            cases.len() as u64,
            u64::from(config.repeat),
            Pairing::Case,
            DEFAULT_ALPHA,
            None,
        ),
        shard,
        parts: Vec::new(),
    }
}
