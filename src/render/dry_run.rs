//! `mf eval --dry-run` as text: the plan, the token lower bound, each model's cost, the wall
//! time and the budget verdict ([`crate::eval::dry_run::DryRun`]).

use crate::eval::dry_run::{Cost, DryRun};
use crate::eval::plan::BudgetError;
use crate::render::text::{plural, power_lines};

/// The plan as `mf eval --dry-run` prints it.
pub fn text(plan: &DryRun) -> String {
    let mut s = String::new();
    if plan.parts.is_empty() {
        s.push_str(&format!(
            "plan: {} × {} × {} = {}; {} offered in a shuffled order per trial (seed {}, {})\n",
            plural(plan.cases, "case", "cases"),
            plural(plan.repeat as usize, "repeat", "repeats"),
            plural(plan.models.len(), "model", "models"),
            plural(
                (plan.trials_per_model * plan.models.len() as u64) as usize,
                "trial",
                "trials"
            ),
            plural(plan.tools, "tool", "tools"),
            plan.seed,
            plan.permutation,
        ));
    } else {
        s.push_str(&format!(
            "plan: {} runs, {} per model × {} = {}, each in a shuffled tool order (seed {}, {}):\n",
            plan.parts.len(),
            plural(plan.trials_per_model as usize, "trial", "trials"),
            plural(plan.models.len(), "model", "models"),
            plural(
                (plan.trials_per_model * plan.models.len() as u64) as usize,
                "trial",
                "trials"
            ),
            plan.seed,
            plan.permutation,
        ));
        for p in &plan.parts {
            s.push_str(&format!(
                "  {}: {}, {}, {} per model\n",
                p.label,
                plural(p.cases, "case", "cases"),
                plural(p.tools, "tool", "tools"),
                plural(p.trials_per_model as usize, "trial", "trials"),
            ));
        }
    }
    s.push_str(&format!(
        "prompt tokens (lower bound, {}): {} per model, {}–{} per trial\n",
        plan.tokenizer,
        plan.prompt_tokens_per_model,
        plan.prompt_tokens_per_trial.0,
        plan.prompt_tokens_per_trial.1,
    ));
    for model in &plan.models {
        let cost = match &model.cost {
            Cost::Free => "free (offline)".to_owned(),
            Cost::AtLeast { amount, currency } => {
                format!("≥ {amount:.4} {currency} (input tokens only; output adds more)")
            }
            Cost::Unknown => "unknown (no price configured for this model)".to_owned(),
        };
        s.push_str(&format!(
            "  {:<40} {} trials  cost {}\n",
            model.label, plan.trials_per_model, cost
        ));
    }
    if let Some(sp) = &plan.shard {
        let sizes: Vec<String> = sp
            .sizes
            .iter()
            .enumerate()
            .map(|(i, (trials, tokens))| {
                format!(
                    "{}/{} {trials} trials ({tokens} tokens)",
                    i + 1,
                    sp.shard.count
                )
            })
            .collect();
        s.push_str(&format!(
            "shards (mf-shard-v1, by case × model, balanced by prompt tokens × repeats): {}; this run sends shard {} only, the budgets below are the whole plan's\n",
            sizes.join(" · "),
            sp.shard
        ));
    }
    if let Some(w) = &plan.wall {
        s.push_str(&format!(
            "wall time: about {:.0} s for paid requests ({} waves of {} at {} s)\n",
            w.seconds, w.waves, w.concurrency, w.seconds_per_trial
        ));
    }
    if plan.refusals.is_empty() {
        let input = match plan.max_input_tokens {
            Some(max) => format!(
                ", {} input tokens of --max-input-tokens {max}",
                plan.prompt_tokens_per_model * plan.paid_models
            ),
            None => String::new(),
        };
        s.push_str(&format!(
            "budget: ok ({} paid trials of --max-trials {}, {} tools of --max-tools {}{input})\n",
            plan.paid_trials, plan.max_trials, plan.tools, plan.max_tools
        ));
    } else {
        for e in &plan.refusals {
            let what = match e {
                BudgetError::MissingKey { .. } => "key",
                _ => "budget",
            };
            s.push_str(&format!("{what}: REFUSED — {e}\n"));
        }
    }
    for line in power_lines(&plan.power) {
        s.push_str(&format!("power: {line}\n"));
    }
    s.push_str("dry run: nothing was sent\n");
    s
}
