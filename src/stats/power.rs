//! Power before money: what a suite of `n` cases can reveal, and how many cases a target drop
//! needs, for a gate that calls a regression once `k` cases fall and none rise.
//!
//! The model is the one a stable provider gives (every case answers the same way run after
//! run, as on a deterministic server): a true drop of `d` points breaks each case independently
//! with probability `d` (so `d·n` cases fall on average) and none rise. Drift only adds
//! discordant cases in both directions, so under drift these figures are optimistic; the
//! simulation in `tests/integration/compare_simulation.rs` measures power under drift.

use super::calibrated::binomial_at_least;

/// The probability that a drop of `drop` (a proportion, 0.15 = 15 points) breaks at least
/// `min_fall` of `n` cases: `P[Binomial(n, drop) ≥ min_fall]` — the power of a gate that needs
/// `min_fall` fallen cases and no risen ones, on a stable provider. SciPy
/// `binom.sf(min_fall − 1, n, drop)` in `tests/integration/stats_reference.rs`
/// (`power_matches_scipy`).
pub fn power(n: u64, drop: f64, min_fall: u64) -> f64 {
    binomial_at_least(n, drop.clamp(0.0, 1.0), min_fall)
}

/// The fewest cases at which [`power`] reaches `target`:
///
/// ```text
/// min { n ≥ min_fall : P[Binomial(n, drop) ≥ min_fall] ≥ target }
/// ```
///
/// (the tail rises with `n`, so the first `n` found by scanning upwards is the answer).
/// `None` when `drop ≤ 0`, `target` is not in `(0, 1)`, or more than 100 000 cases would be
/// needed.
pub fn cases_for_power(drop: f64, min_fall: u64, target: f64) -> Option<u64> {
    let usable = drop > 0.0 && target > 0.0 && target < 1.0;
    if !usable {
        return None;
    }
    let drop = drop.min(1.0);
    // Double to bracket, then bisect (the tail is monotone in n).
    let reaches = |n: u64| power(n, drop, min_fall) >= target;
    let mut high = min_fall.max(1);
    while !reaches(high) {
        if high > 100_000 {
            return None;
        }
        high *= 2;
    }
    let mut low = min_fall.max(1) - 1;
    if low >= high {
        return Some(high);
    }
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if reaches(middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    (high <= 100_000).then_some(high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_is_a_binomial_tail() {
        assert_eq!(power(10, 0.5, 0), 1.0);
        assert_eq!(power(5, 0.5, 6), 0.0);
        assert!((power(6, 0.5, 6) - 1.0 / 64.0).abs() < 1e-15);
    }

    #[test]
    fn cases_for_power_is_the_first_n_that_reaches_the_target() {
        for (drop, k) in [(0.15, 6), (0.3, 4), (0.6, 6), (0.05, 4)] {
            let n = cases_for_power(drop, k, 0.8).expect("reachable");
            assert!(power(n, drop, k) >= 0.8);
            assert!(power(n - 1, drop, k) < 0.8, "{drop} {k} {n}");
        }
        assert_eq!(cases_for_power(0.0, 6, 0.8), None);
        assert_eq!(cases_for_power(0.3, 6, 1.0), None);
    }
}
