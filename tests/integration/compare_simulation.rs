//! How often would `mf compare` call a regression that is not there, and how often does it find
//! one that is — under provider drift? A seeded simulation through the same decision functions
//! `mf compare` uses (`compare::eval::decide` and `decide_calibrated`).
//!
//! The model (a provider that answers each case the same way run after run, except that it
//! "redraws" some cases on each run):
//! - each case has a success rate `p_c ~ U[0.35, 0.95]` and a fixed uniform `u_c`; its stable
//!   outcome is `u_c < p_c` in base and `u_c < p_c − drop` in head, so a true drop of `d`
//!   points breaks each case with probability `d` (accuracy falls by `d` on average);
//! - on every run (base, base again, head) each case is redrawn with probability `drift`: its
//!   outcome that run is a fresh `Bernoulli(rate)` (`p_c`, or `p_c − drop` in head);
//! - all 5 repeats of a case share the run's outcome (a whole-case flip, the worst case for the
//!   trial-level test).
//!
//! Drift 0%, 5%, 20%, 40%; suites of 10, 20, 50 cases; drops 0 (false regressions), 15, 30 and
//! 60 points; gates case-level, trial-level, both, and calibrated (base vs base again vs head).
//! A "call" is the verdict `regressed` (what `--fail-on-regression` fails on).
//!
//! The test runs 1,000 replications per cell (a few seconds in debug) and asserts that the
//! default gates (case-level without calibration, calibrated with it) keep false regressions
//! ≤ 5% at every drift level, and that the calibrated gate has ≥ 80% power at a 30-point drop on
//! 20 cases with drift ≤ 5%. `cargo test --test integration compare_simulation:: -- --ignored
//! --nocapture` runs 10,000 per cell (about 20 s in debug) and prints the tables in SCHEMA.md.

#![allow(clippy::print_stdout)]

use mf::compare::eval::{decide, decide_calibrated};
use mf::report::compare::{Pairing, Verdict};

use crate::support::rng::Rng;

const REPEATS: u64 = 5;
const DRIFTS: [f64; 4] = [0.0, 0.05, 0.20, 0.40];
const SUITES: [usize; 3] = [10, 20, 50];
const DROPS: [f64; 3] = [0.15, 0.30, 0.60];

/// Share of replications each gate calls `regressed`, in the order of [`GATES`].
fn simulate(cases: usize, drift: f64, drop: f64, replications: usize, seed: u64) -> [f64; 4] {
    let mut rng = Rng(seed);
    let mut called = [0usize; 4];
    for _ in 0..replications {
        let mut pairs = Vec::with_capacity(cases);
        let mut triples = Vec::with_capacity(cases);
        for _ in 0..cases {
            let p = 0.35 + 0.6 * rng.unit();
            let q = (p - drop).max(0.0);
            let u = rng.unit();
            let mut run = |rate: f64, stable: bool| {
                if rng.bern(drift) {
                    rng.bern(rate)
                } else {
                    stable
                }
            };
            let base = run(p, u < p);
            let again = run(p, u < p);
            let head = run(q, u < q);
            pairs.push(vec![(base, head); REPEATS as usize]);
            let count = |x: bool| if x { REPEATS } else { 0 };
            triples.push((count(base), count(again), count(head)));
        }
        for (i, pairing) in [Pairing::Case, Pairing::Trial, Pairing::Both]
            .into_iter()
            .enumerate()
        {
            if decide(&pairs, pairing, 0.05).2 == Verdict::Regressed {
                called[i] += 1;
            }
        }
        if decide_calibrated(&pairs, &triples, 0.05).3 == Verdict::Regressed {
            called[3] += 1;
        }
    }
    called.map(|c| c as f64 / replications as f64)
}

/// `false[d][s]` and `power[d][s][k]`: drift d, suite s, drop k.
struct Tables {
    false_regressions: Vec<Vec<[f64; 4]>>,
    power: Vec<Vec<Vec<[f64; 4]>>>,
}

fn tables(replications: usize) -> Tables {
    let mut seed = 1;
    let mut next_seed = || {
        seed += 1;
        seed
    };
    let false_regressions = DRIFTS
        .iter()
        .map(|&d| {
            SUITES
                .iter()
                .map(|&s| simulate(s, d, 0.0, replications, next_seed()))
                .collect()
        })
        .collect();
    let power = DRIFTS
        .iter()
        .map(|&d| {
            SUITES
                .iter()
                .map(|&s| {
                    DROPS
                        .iter()
                        .map(|&k| simulate(s, d, k, replications, next_seed()))
                        .collect()
                })
                .collect()
        })
        .collect();
    Tables {
        false_regressions,
        power,
    }
}

fn print(t: &Tables, replications: usize) {
    println!(
        "{replications} replications per cell, {REPEATS} repeats, α = 0.05; share called `regressed`\n"
    );
    println!("False regressions (identical surfaces):\n");
    println!("| drift | cases | case (default) | trial | both | calibrated |");
    println!("|---|---|---|---|---|---|");
    for (d, drift) in DRIFTS.iter().enumerate() {
        for (s, cases) in SUITES.iter().enumerate() {
            let r = t.false_regressions[d][s];
            println!(
                "| {:.0}% | {cases} | {:.1}% | {:.1}% | {:.1}% | {:.1}% |",
                drift * 100.0,
                r[0] * 100.0,
                r[1] * 100.0,
                r[2] * 100.0,
                r[3] * 100.0
            );
        }
    }
    println!("\nPower (true drop of 15 / 30 / 60 points):\n");
    println!("| drift | cases | case (default) | trial | both | calibrated |");
    println!("|---|---|---|---|---|---|");
    for (d, drift) in DRIFTS.iter().enumerate() {
        for (s, cases) in SUITES.iter().enumerate() {
            let cell = |g: usize| {
                t.power[d][s]
                    .iter()
                    .map(|r| format!("{:.0}", r[g] * 100.0))
                    .collect::<Vec<_>>()
                    .join(" / ")
            };
            println!(
                "| {:.0}% | {cases} | {} | {} | {} | {} |",
                drift * 100.0,
                cell(0),
                cell(1),
                cell(2),
                cell(3)
            );
        }
    }
}

fn check(t: &Tables) {
    for (d, drift) in DRIFTS.iter().enumerate() {
        for (s, cases) in SUITES.iter().enumerate() {
            let r = t.false_regressions[d][s];
            assert!(
                r[0] <= 0.05,
                "case-level false regressions at drift {drift}, {cases} cases: {}",
                r[0]
            );
            assert!(
                r[3] <= 0.05,
                "calibrated false regressions at drift {drift}, {cases} cases: {}",
                r[3]
            );
        }
    }
    // 20 cases, 30-point drop, drift 0% and 5%.
    for d in [0, 1] {
        let calibrated = t.power[d][1][1][3];
        assert!(
            calibrated >= 0.80,
            "calibrated power, 30 points, 20 cases, drift {}: {calibrated}",
            DRIFTS[d]
        );
    }
    // Why calibration is worth its run: the trial-level test cries wolf under drift, and the
    // case-level one is weaker than the calibrated one when drift is low.
    assert!(
        t.false_regressions[3][1][1] > 0.05,
        "trial-level at 40% drift"
    );
    assert!(
        t.power[0][1][1][3] > t.power[0][1][1][0],
        "calibrated beats case-level"
    );
}

#[test]
fn default_gates_stay_honest_under_drift_and_calibration_buys_power() {
    let replications = 1000;
    let t = tables(replications);
    print(&t, replications);
    check(&t);
}

#[test]
#[ignore = "the tables for SCHEMA.md: 10,000 replications per cell, about 20 s in debug"]
fn simulation_tables_for_schema() {
    let replications = 10_000;
    let t = tables(replications);
    print(&t, replications);
    check(&t);
}
