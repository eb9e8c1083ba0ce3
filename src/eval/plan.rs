//! The plan: selected cases × repeat × models, each trial with its own tool order, and the
//! budgets checked before anything is sent.
//!
//! Tool order (permutation `mf-perm-v1`, documented in SCHEMA.md): for (seed, case id, trial
//! index) a byte stream is drawn from SHA-256 in counter mode,
//! `block_i = SHA-256(key ‖ i as u64 LE)` with
//! `key = SHA-256("mf-perm-v1" ‖ 0x00 ‖ seed as u64 LE ‖ case id UTF-8 ‖ 0x00 ‖ trial as u32 LE)`,
//! read as little-endian u64 words. A Fisher–Yates shuffle of the surface order `0..n` takes,
//! for `i = n-1 down to 1`, `j = w mod (i+1)` from the next word `w` that is below
//! `2^64 - (2^64 mod (i+1))` (rejection keeps it unbiased) and swaps `i` and `j`. The model is
//! not part of the key, so every model sees the same order for the same trial.

use sha2::{Digest, Sha256};

use crate::util::counter_stream::CounterStream;

/// The version of the permutation algorithm, written into every scorecard.
pub const PERMUTATION_VERSION: &str = "mf-perm-v1";

/// Hard cap on `--max-trials`.
pub const HARD_MAX_TRIALS: u64 = 1000;
/// Hard cap on `--max-tools`.
pub const HARD_MAX_TOOLS: usize = 1000;

/// The stream of one trial's tool order: keyed by `mf-perm-v1`, the seed, the case id and the
/// trial index (module docs).
fn stream(seed: u64, case_id: &str, trial: u32) -> CounterStream {
    let mut h = Sha256::new();
    h.update(PERMUTATION_VERSION.as_bytes());
    h.update([0]);
    h.update(seed.to_le_bytes());
    h.update(case_id.as_bytes());
    h.update([0]);
    h.update(trial.to_le_bytes());
    CounterStream::new(h.finalize().into())
}

/// The tool order for one trial: a permutation of `0..n` (indices into the surface order).
pub fn permutation(seed: u64, case_id: &str, trial: u32, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut stream = stream(seed, case_id, trial);
    for i in (1..n).rev() {
        let j = stream.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    order
}

/// One planned trial.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedTrial {
    /// Index into the plan's models.
    pub model: usize,
    /// Index into the plan's cases.
    pub case: usize,
    /// 0-based repeat index.
    pub trial: u32,
    /// Tool indices in the order they are sent.
    pub order: Vec<usize>,
}

/// Budgets checked before any call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budgets {
    /// Most trials a run may send (over all models).
    pub max_trials: u64,
    /// Most tools a surface may have.
    pub max_tools: usize,
    /// Most input tokens (lower bound, o200k_base) the paid trials of a run may send in all:
    /// the money guard (tools × tokens × trials).
    pub max_input_tokens: Option<u64>,
    /// Most prompt tokens (lower bound) one trial may need.
    pub max_context_tokens: Option<u64>,
}

/// Why a plan may not run. Each names the flag and the Action input that lift it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    /// More trials than `--max-trials`.
    #[error(
        "the plan has {planned} paid trials ({cases} cases × {repeat} repeats × {models} models), over --max-trials {max} (Action input `max-trials`); lower --repeat, select cases with --only/--cases, or raise it (hard cap {HARD_MAX_TRIALS})"
    )]
    Trials {
        /// Planned paid trials.
        planned: u64,
        /// Cases.
        cases: usize,
        /// Repeat.
        repeat: u32,
        /// Paid models.
        models: usize,
        /// The limit.
        max: u64,
    },
    /// A plan of several runs (mount groups, ablation) with more paid trials in all than
    /// `--max-trials`.
    #[error(
        "the plan has {planned} paid trials in all ({runs}), over --max-trials {max} (Action input `max-trials`); lower --repeat, select cases with --only/--cases, or raise it (hard cap {HARD_MAX_TRIALS})"
    )]
    PlanTrials {
        /// Planned paid trials over every run.
        planned: u64,
        /// Each run's share, for people.
        runs: String,
        /// The limit.
        max: u64,
    },
    /// More tools than `--max-tools`.
    #[error(
        "the surface has {tools} tools, over --max-tools {max} (Action input `max-tools`); evaluate a profile (--profile) or raise it (hard cap {HARD_MAX_TOOLS})"
    )]
    Tools {
        /// Tools on the surface.
        tools: usize,
        /// The limit.
        max: usize,
    },
    /// More input tokens in all than `--max-input-tokens`.
    #[error(
        "the paid trials would send at least {planned} input tokens (o200k_base lower bound: tools and input of every trial), over --max-input-tokens {max} (Action input `max-input-tokens`); fewer trials, a profile with fewer tools, or raise it"
    )]
    InputTokens {
        /// Planned input tokens of the paid trials (lower bound).
        planned: u64,
        /// The limit.
        max: u64,
    },
    /// A trial's prompt is over `--max-context-tokens`.
    #[error(
        "case {case:?} needs at least {tokens} prompt tokens (tools + input, o200k_base), over --max-context-tokens {max}"
    )]
    Context {
        /// The largest case.
        case: String,
        /// Its lower bound.
        tokens: u64,
        /// The limit.
        max: u64,
    },
    /// A paid model's key variable is not set.
    #[error(
        "{var} is not set (for {model}); export it, or in GitHub Actions pass it from a secret as the step's env"
    )]
    MissingKey {
        /// The variable.
        var: String,
        /// The model label.
        model: String,
    },
}

impl BudgetError {
    /// A gate (exit 2) rather than a refusal to run (exit 1): only the context budget.
    pub fn is_gate(&self) -> bool {
        matches!(self, BudgetError::Context { .. })
    }
}

/// Trials in plan order: for each model, for each case, for each repeat.
pub fn trials(
    models: usize,
    case_ids: &[&str],
    repeat: u32,
    seed: u64,
    tools: usize,
) -> Vec<PlannedTrial> {
    let mut out = Vec::with_capacity(models * case_ids.len() * repeat as usize);
    // The order does not depend on the model: compute it once per (case, trial).
    let orders: Vec<Vec<Vec<usize>>> = case_ids
        .iter()
        .map(|id| {
            (0..repeat)
                .map(|t| permutation(seed, id, t, tools))
                .collect()
        })
        .collect();
    for model in 0..models {
        for (case, per_trial) in orders.iter().enumerate() {
            for (trial, order) in per_trial.iter().enumerate() {
                out.push(PlannedTrial {
                    model,
                    case,
                    trial: trial as u32,
                    order: order.clone(),
                });
            }
        }
    }
    out
}

/// Every budget the plan breaks, in a fixed order (trials, tools, input tokens, context).
/// `paid_models` counts models that send requests (offline models are free and not limited);
/// `prompt_tokens` is each case's lower bound (tools + input).
pub fn check_budgets(
    budgets: &Budgets,
    paid_models: usize,
    cases: usize,
    repeat: u32,
    tools: usize,
    prompt_tokens: &[(&str, u64)],
) -> Vec<BudgetError> {
    let mut out = Vec::new();
    if paid_models == 0 {
        return out;
    }
    let planned = paid_models as u64 * cases as u64 * u64::from(repeat);
    if planned > budgets.max_trials {
        out.push(BudgetError::Trials {
            planned,
            cases,
            repeat,
            models: paid_models,
            max: budgets.max_trials,
        });
    }
    if tools > budgets.max_tools {
        out.push(BudgetError::Tools {
            tools,
            max: budgets.max_tools,
        });
    }
    let input: u64 =
        prompt_tokens.iter().map(|(_, t)| *t).sum::<u64>() * u64::from(repeat) * paid_models as u64;
    if let Some(max) = budgets.max_input_tokens
        && input > max
    {
        out.push(BudgetError::InputTokens {
            planned: input,
            max,
        });
    }
    if let Some(max) = budgets.max_context_tokens
        && let Some((case, tokens)) = prompt_tokens
            .iter()
            .max_by_key(|(_, t)| *t)
            .filter(|(_, t)| *t > max)
    {
        out.push(BudgetError::Context {
            case: (*case).to_owned(),
            tokens: *tokens,
            max,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_stable_and_pinned() {
        // Pinned values: a change here changes every scorecard's tool order and must come with a
        // new PERMUTATION_VERSION.
        assert_eq!(permutation(0, "c1", 0, 6), permutation(0, "c1", 0, 6));
        // Values from scripts/permutation_reference.py, an independent implementation.
        assert_eq!(
            permutation(0, "refund-order", 0, 8),
            [3, 2, 4, 0, 6, 7, 5, 1]
        );
        assert_eq!(
            permutation(42, "ünïcode case", 4, 16),
            [4, 7, 11, 1, 8, 6, 9, 3, 14, 12, 0, 15, 13, 10, 2, 5]
        );
        assert_ne!(permutation(0, "c1", 0, 8), permutation(0, "c1", 1, 8));
        assert_ne!(permutation(0, "c1", 0, 8), permutation(1, "c1", 0, 8));
        assert_eq!(permutation(7, "x", 3, 0), Vec::<usize>::new());
        assert_eq!(permutation(7, "x", 3, 1), vec![0]);
    }

    #[test]
    fn permutations_are_uniform_enough() {
        // Position of tool 0 over 6,000 trials of 3 tools: each position ~2,000.
        let mut counts = [0u32; 3];
        for t in 0..6000 {
            let p = permutation(0, "case", t, 3);
            let pos = p.iter().position(|&i| i == 0).expect("present");
            counts[pos] += 1;
        }
        for c in counts {
            assert!((1800..2200).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn plan_order_is_model_case_trial_and_budgets_bite() {
        let t = trials(2, &["a", "b"], 3, 0, 4);
        assert_eq!(t.len(), 12);
        assert_eq!((t[0].model, t[0].case, t[0].trial), (0, 0, 0));
        assert_eq!((t[3].model, t[3].case, t[3].trial), (0, 1, 0));
        assert_eq!(t[0].order, t[6].order, "same order for every model");
        let b = Budgets {
            max_trials: 50,
            max_tools: 6,
            max_input_tokens: Some(10_000),
            max_context_tokens: Some(100),
        };
        assert!(check_budgets(&b, 1, 10, 5, 6, &[]).is_empty());
        assert!(matches!(
            check_budgets(&b, 1, 11, 5, 6, &[]).as_slice(),
            [BudgetError::Trials { planned: 55, .. }]
        ));
        assert!(matches!(
            check_budgets(&b, 1, 1, 5, 7, &[]).as_slice(),
            [BudgetError::Tools { .. }]
        ));
        assert!(matches!(
            check_budgets(&b, 1, 1, 5, 6, &[("a", 90), ("b", 101)]).as_slice(),
            [BudgetError::Context { tokens: 101, .. }]
        ));
        // 2 cases of 1,500 tokens × 5 repeats × 2 models = 30,000 > 10,000.
        assert!(matches!(
            check_budgets(&b, 2, 2, 5, 6, &[("a", 1500), ("b", 1500)]).as_slice(),
            [
                BudgetError::InputTokens {
                    planned: 30_000,
                    ..
                },
                BudgetError::Context { .. }
            ]
        ));
        // Every refusal at once.
        assert_eq!(check_budgets(&b, 1, 11, 5, 7, &[("a", 5000)]).len(), 4);
        assert!(
            check_budgets(&b, 0, 1000, 5, 60, &[("a", 1_000_000)]).is_empty(),
            "offline is free"
        );
    }
}
