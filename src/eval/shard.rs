//! Shards: one plan split across N jobs (`mf eval --shard K/N`), and the fingerprint that tells
//! `mf merge` which parts belong together.
//!
//! Assignment `mf-shard-v1` (SCHEMA.md "Shards and merge"): the unit is one (model, case) pair —
//! all its repeats go to the same shard. A unit's expected cost is `promptTokens × repeat` (the
//! tools and the input of every repeat, o200k_base lower bound: what a trial costs in money and,
//! roughly, in time). Units are sorted by cost, largest first, ties in plan order (model index,
//! then case index); each goes to the shard with the smallest total cost so far, ties to the
//! lowest shard number (greedy longest-processing-time). Every trial lands in exactly one shard,
//! the assignment depends only on the plan, and a trial's tool order is the one an unsharded run
//! draws (the permutation never sees the shard).

use std::collections::BTreeSet;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::report::scorecard::{Scorecard, TrialKey};
use crate::surface::fingerprint::canonical_json;

/// The version of the assignment rule, written into every part.
pub const ASSIGNMENT_VERSION: &str = "mf-shard-v1";

/// Most shards a plan may be split into.
pub const MAX_SHARDS: u32 = 256;

/// Shard K of N (1-based K).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// K, 1 ≤ K ≤ N.
    pub index: u32,
    /// N, 1 ≤ N ≤ [`MAX_SHARDS`].
    pub count: u32,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N`, e.g. `2/3`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "a shard is K/N with 1 ≤ K ≤ N ≤ {MAX_SHARDS} (e.g. 2/3; in a matrix: \
                 `${{{{ matrix.shard }}}}/3`), got {s:?}"
            )
        };
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if k == 0 || n == 0 || k > n || n > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { index: k, count: n })
    }
}

/// The shard (0-based) of every (model, case) unit: `result[model][case]`. `prompt_tokens` is
/// each case's lower bound (tools + input); every model costs the same per case.
pub fn assign(models: usize, prompt_tokens: &[u64], repeat: u32, count: u32) -> Vec<Vec<u32>> {
    let count = count.max(1) as usize;
    let mut units: Vec<(u64, usize, usize)> = (0..models)
        .flat_map(|m| {
            prompt_tokens
                .iter()
                .enumerate()
                .map(move |(c, t)| (t.saturating_mul(u64::from(repeat)), m, c))
        })
        .collect();
    // Largest first; ties in plan order.
    units.sort_by(|a, b| b.0.cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
    let mut load = vec![0u64; count];
    let mut out = vec![vec![0u32; prompt_tokens.len()]; models];
    for (cost, m, c) in units {
        let (shard, _) = load
            .iter()
            .enumerate()
            .min_by_key(|(i, l)| (**l, *i))
            .expect("at least one shard");
        load[shard] = load[shard].saturating_add(cost);
        out[m][c] = shard as u32;
    }
    out
}

/// The trials of shard `shard` of the plan a scorecard describes (its models, cases, prompt
/// tokens and repeat), in plan order: model → case → trial.
pub fn shard_trials(card: &Scorecard, shard: Shard) -> Vec<TrialKey> {
    let tokens: Vec<u64> = card.suite.cases.iter().map(|c| c.prompt_tokens).collect();
    let repeat = card.reproducibility.repeat;
    let assignment = assign(card.models.len(), &tokens, repeat, shard.count);
    let mut out = Vec::new();
    for (m, model) in card.models.iter().enumerate() {
        for (c, case) in card.suite.cases.iter().enumerate() {
            if assignment[m][c] + 1 == shard.index {
                out.extend((0..repeat).map(|trial| TrialKey {
                    model: model.label.clone(),
                    case: case.id.clone(),
                    trial,
                }));
            }
        }
    }
    out
}

/// The trial keys a scorecard holds, in its row order.
pub fn held_trials(card: &Scorecard) -> Vec<TrialKey> {
    card.models
        .iter()
        .flat_map(|m| {
            m.trials.iter().map(|t| TrialKey {
                model: m.label.clone(),
                case: t.case.clone(),
                trial: t.trial,
            })
        })
        .collect()
}

/// Every trial of the whole plan.
pub fn all_trials(card: &Scorecard) -> BTreeSet<TrialKey> {
    let repeat = card.reproducibility.repeat;
    card.models
        .iter()
        .flat_map(|m| {
            card.suite.cases.iter().flat_map(move |c| {
                (0..repeat).map(move |trial| TrialKey {
                    model: m.label.clone(),
                    case: c.id.clone(),
                    trial,
                })
            })
        })
        .collect()
}

/// `sha256:` of the plan a scorecard ran: the canonical JSON of its `suite`, its
/// `reproducibility`, each model's settings (everything but health, metrics and trials) and
/// each gate's name, model, threshold and kind. Two parts with the same fingerprint ran the
/// same trials with the same requests and are scored and gated the same way.
pub fn plan_fingerprint(card: &Scorecard) -> String {
    let models: Vec<Value> = card
        .models
        .iter()
        .map(|m| {
            json!({
                "label": m.label,
                "provider": m.provider,
                "wire": m.wire,
                "model": m.model,
                "endpoint": m.endpoint,
                "requestFingerprint": m.request_fingerprint,
                "temperature": m.temperature,
                "maxOutputTokens": m.max_output_tokens,
                "price": to_value(&m.price),
                "argumentAccuracyNa": m.metrics.argument_accuracy_na,
            })
        })
        .collect();
    let gates: Vec<Value> = card
        .gates
        .iter()
        .map(|g| {
            json!({
                "name": g.name,
                "model": g.model,
                "threshold": g.threshold,
                "kind": to_value(&g.kind),
            })
        })
        .collect();
    let doc = json!({
        "plan": "mf-plan-v1",
        "suite": to_value(&card.suite),
        "reproducibility": to_value(&card.reproducibility),
        "models": models,
        "gates": gates,
    });
    let digest = Sha256::digest(canonical_json(&doc).as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// A report value as JSON (these plain types always serialize).
fn to_value<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse_nonsense() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(
            " 1 / 1 ".parse::<Shard>().map(|s| s.to_string()),
            Ok("1/1".into())
        );
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "1/257", "-1/3", ""] {
            let err = bad.parse::<Shard>().expect_err(bad);
            assert!(err.contains("K/N"), "{bad}: {err}");
        }
    }

    #[test]
    fn every_unit_lands_in_exactly_one_shard_and_costs_balance() {
        // 3 models × 7 cases of uneven cost into 3 shards.
        let tokens = [900, 100, 400, 400, 250, 50, 700];
        let a = assign(3, &tokens, 5, 3);
        let mut load = [0u64; 3];
        for row in &a {
            for (c, s) in row.iter().enumerate() {
                assert!(*s < 3);
                load[*s as usize] += tokens[c] * 5;
            }
        }
        let total: u64 = load.iter().sum();
        assert_eq!(total, tokens.iter().sum::<u64>() * 5 * 3);
        let (lo, hi) = (
            load.iter().min().expect("3 shards"),
            load.iter().max().expect("3 shards"),
        );
        // LPT is within 4/3 of optimal; here the biggest unit (4,500) bounds the spread.
        assert!(hi - lo <= 4500, "{load:?}");
        // Deterministic.
        assert_eq!(a, assign(3, &tokens, 5, 3));
        // One shard takes everything; more shards than units leave some empty.
        assert!(assign(2, &tokens, 5, 1).iter().flatten().all(|s| *s == 0));
        let many = assign(1, &[10, 10], 1, 5);
        assert_eq!(many, vec![vec![0, 1]]);
    }

    #[test]
    fn equal_costs_spread_round_robin_in_plan_order() {
        // All units cost the same (an offline suite): they alternate shards in plan order.
        let a = assign(2, &[5, 5, 5], 1, 3);
        assert_eq!(a, vec![vec![0, 1, 2], vec![0, 1, 2]]);
    }
}
