//! How often would `mf compare` call a regression that is not there, and how often does it find
//! one that is? A seeded simulation of 20 cases × 5 repeats, 2,000 base/head pairs per
//! scenario, through the same decision function `mf compare` uses (`compare::eval::decide`).
//!
//! Scenarios:
//! - null (a): trials independent given each case's success rate (the same rates in both runs);
//! - null (b): whole cases flip between runs while staying consistent within a run — each run
//!   draws one outcome per case (success with the case's rate) and all its trials share it;
//! - drop: every case's success rate 15 points lower in head, trials independent.
//!
//! Run `cargo test --test integration compare_simulation:: -- --nocapture` to see the table (it is also in
//! SCHEMA.md "Compare report"). The test asserts that the default gate (case-level) keeps its
//! false-regression rate ≤ 5% under both nulls, and records what the trial-level gate does.

#![allow(clippy::print_stdout)]

use mf::compare::eval::decide;
use mf::report::compare::{Pairing, Verdict};

use crate::support::rng::Rng;

const CASES: usize = 20;
const REPEATS: usize = 5;
const PAIRS: usize = 2000;

#[derive(Clone, Copy, Debug)]
enum Scenario {
    NullIndependent,
    NullCaseFlips,
    Drop15,
}

fn simulate(scenario: Scenario, seed: u64) -> [f64; 3] {
    let mut rng = Rng(seed);
    let gates = [Pairing::Case, Pairing::Trial, Pairing::Both];
    let mut regressed = [0usize; 3];
    for _ in 0..PAIRS {
        let rates: Vec<f64> = (0..CASES).map(|_| 0.35 + 0.6 * rng.unit()).collect();
        let cases: Vec<Vec<(bool, bool)>> = rates
            .iter()
            .map(|&p| match scenario {
                Scenario::NullIndependent => {
                    (0..REPEATS).map(|_| (rng.bern(p), rng.bern(p))).collect()
                }
                Scenario::NullCaseFlips => {
                    let (b, h) = (rng.bern(p), rng.bern(p));
                    vec![(b, h); REPEATS]
                }
                Scenario::Drop15 => {
                    let q = (p - 0.15).max(0.0);
                    (0..REPEATS).map(|_| (rng.bern(p), rng.bern(q))).collect()
                }
            })
            .collect();
        for (i, &g) in gates.iter().enumerate() {
            if decide(&cases, g, 0.05).2 == Verdict::Regressed {
                regressed[i] += 1;
            }
        }
    }
    regressed.map(|r| r as f64 / PAIRS as f64)
}

#[test]
fn the_default_gate_does_not_cry_wolf() {
    let a = simulate(Scenario::NullIndependent, 1);
    let b = simulate(Scenario::NullCaseFlips, 2);
    let power = simulate(Scenario::Drop15, 3);
    println!(
        "{CASES} cases × {REPEATS} repeats, {PAIRS} base/head pairs per scenario, α = 0.05\n\
         {:<22} {:>14} {:>14} {:>14}\n\
         {:<22} {:>13.1}% {:>13.1}% {:>13.1}%\n\
         {:<22} {:>13.1}% {:>13.1}% {:>13.1}%\n\
         {:<22} {:>13.1}% {:>13.1}% {:>13.1}%",
        "gate",
        "case (default)",
        "trial",
        "both",
        "false regr. null (a)",
        a[0] * 100.0,
        a[1] * 100.0,
        a[2] * 100.0,
        "false regr. null (b)",
        b[0] * 100.0,
        b[1] * 100.0,
        b[2] * 100.0,
        "power, 15-pt drop",
        power[0] * 100.0,
        power[1] * 100.0,
        power[2] * 100.0,
    );
    assert!(a[0] <= 0.05, "case-level under (a): {}", a[0]);
    assert!(b[0] <= 0.05, "case-level under (b): {}", b[0]);
    // The reason the default is case-level: whole-case flips make trial pairs move in blocks
    // of five, and the trial-level test counts each block as five independent pairs.
    assert!(
        b[1] > 0.05,
        "trial-level under (b) should over-count: {}",
        b[1]
    );
    assert!(a[1] <= 0.05, "trial-level under (a): {}", a[1]);
    // Power is the price of that robustness (20 cases is a small suite); a broken test would
    // have next to none.
    assert!(power[0] > 0.3, "case-level power: {}", power[0]);
    assert!(power[1] >= power[0], "trial-level counts more pairs");
}
