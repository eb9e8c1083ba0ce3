//! What a suite can reveal before it is run, and what a compare of it could reveal: the power
//! plan (`report::compare::PowerPlan`) `mf eval --dry-run`, `mf compare` and `mf ci` state.

use crate::report::compare::{Pairing, PowerPlan, PowerTarget};
use crate::stats::{calibrated_min_fall, cases_for_power, min_pairs_for_significance, power};

/// The significance level of `mf compare`'s default gate (`--alpha`).
pub const DEFAULT_ALPHA: f64 = 0.05;

/// The drops the power figures are stated for.
pub const POWER_DROPS: &[f64] = &[0.15, 0.30, 0.60];

/// What a suite of `cases` × `repeats` can reveal under `pairing` (SCHEMA.md "Power"): the
/// cases that must fall for the gate, the same for the calibrated gate (with `aa_flipped`
/// cases of measured drift, or none), and per drop in [`POWER_DROPS`] the power and the cases
/// needed for 80% power. Stable-provider figures: drift lowers them.
pub fn power_plan(
    cases: u64,
    repeats: u64,
    pairing: Pairing,
    alpha: f64,
    aa_flipped: Option<u64>,
) -> PowerPlan {
    let sign_min = min_pairs_for_significance(alpha);
    let calibrated_min = calibrated_min_fall(aa_flipped.unwrap_or(0), alpha);
    let min_fall = match pairing {
        Pairing::Case | Pairing::Both => Some(sign_min),
        Pairing::Calibrated => calibrated_min.or(Some(sign_min)),
        Pairing::Trial => None,
    };
    // The trial-level gate does not count cases; its targets are stated for the case-level one.
    let k = min_fall.unwrap_or(sign_min);
    let targets = POWER_DROPS
        .iter()
        .map(|&drop| PowerTarget {
            drop,
            power: Some(power(cases, drop, k)),
            cases_for_80: cases_for_power(drop, k, 0.8),
            calibrated_cases_for_80: calibrated_min.and_then(|k| cases_for_power(drop, k, 0.8)),
        })
        .collect();
    PowerPlan {
        cases,
        repeats,
        pairing,
        min_fall,
        aa_flipped,
        calibrated_min_fall: calibrated_min,
        targets,
    }
}
