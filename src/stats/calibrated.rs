//! The calibrated test: did head's cases fall more often than two identical runs of base
//! disagree? Reads three runs of the same cases — base, base again (the A/A run, same settings,
//! fresh requests) and head — and asks, per case, whether head is the one run that came out
//! worst.
//!
//! Why this is sound whatever the drift. If head's change did nothing, the three runs of a case
//! are three draws from the same provider on the same input: exchangeable (any order of the
//! three is equally likely), and independent across cases. Fix each case's three outcomes as a
//! multiset. Head is then equally likely to hold any of the three, so when exactly one of the
//! three is strictly lowest, head is that one with probability exactly ⅓, and when no single
//! run is lowest (all equal, or two tie at the bottom) head cannot be "uniquely worst" at all.
//! The number of cases where head is uniquely worst is therefore, under the null,
//! `Binomial(m, ⅓)` with `m` the cases that have a unique lowest run — an exact randomization
//! test, conditional on the observed outcomes, that needs no estimate of the drift: a provider
//! that redraws many cases produces many cases with a unique lowest run (`m` grows) of which a
//! third fall on head by chance, and the tail accounts for it; a stable provider (base and base
//! again agree) produces `m` ≈ the cases head broke, and `k` of `k` at `⅓` each is
//! `p = 3⁻ᵏ`. The A/A run *is* the drift estimate; its uncertainty is carried by conditioning
//! on it rather than by a plug-in bound.
//!
//! Assumption it rests on: base, base again and head are drawn from the same provider under the
//! same conditions. A provider that changed between the base pair and head (a silent model
//! update) breaks it, as it breaks every comparison of runs taken at different times.

use statrs::distribution::{Binomial, DiscreteCDF};

/// The calibrated test of one metric. See [`calibrated_test`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CalibratedTest {
    /// Cases measured in all three runs.
    pub cases: u64,
    /// Cases where base and base again differ (the drift the A/A pair shows).
    pub aa_flipped: u64,
    /// Cases with a unique lowest run (`m` of the worse tail).
    pub informative_worse: u64,
    /// Cases where head is the unique lowest run.
    pub worse: u64,
    /// Cases with a unique highest run (`m` of the better tail).
    pub informative_better: u64,
    /// Cases where head is the unique highest run.
    pub better: u64,
    /// `P[Binomial(informative_worse, ⅓) ≥ worse]`.
    pub p_worse: f64,
    /// `P[Binomial(informative_better, ⅓) ≥ better]`.
    pub p_better: f64,
    /// Two-sided: `min(1, 2·min(p_worse, p_better))`.
    pub p: f64,
}

/// `P[X ≥ k]` for `X ~ Binomial(n, p)`: `1` for `k = 0`, `0` for `k > n`, else statrs'
/// `Binomial::sf(k − 1)` (the regularized incomplete beta `I_p(k, n − k + 1)`); SciPy
/// `binom.sf(k − 1, n, p)` in the reference test.
pub fn binomial_at_least(n: u64, p: f64, k: u64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    match Binomial::new(p, n) {
        Ok(b) => b.sf(k - 1),
        Err(_) => f64::NAN,
    }
}

/// The calibrated test over `(base, base_again, head)` counts of good trials per case (the same
/// trials in all three runs, so counts compare directly).
///
/// ```text
/// unique_min(c)      = exactly one of the three counts equals their minimum
/// informative_worse  = #{c : unique_min(c)}                   = m↓
/// worse              = #{c : head_c < min(base_c, again_c)}   = k↓
/// p_worse            = P[Binomial(m↓, ⅓) ≥ k↓]
/// (better, p_better: the same with the maximum)
/// p                  = min(1, 2·min(p_worse, p_better))
/// ```
///
/// Exact under the null that the three runs of each case are exchangeable (see the module
/// docs); the two directions are Bonferroni-combined, so each is read at `α/2`, like the two
/// tails of the sign test. Checked against SciPy `binom.sf` in
/// `tests/integration/stats_reference.rs` (`calibrated_test_matches_scipy`).
pub fn calibrated_test(triples: &[(u64, u64, u64)]) -> CalibratedTest {
    let mut t = CalibratedTest {
        cases: triples.len() as u64,
        aa_flipped: 0,
        informative_worse: 0,
        worse: 0,
        informative_better: 0,
        better: 0,
        p_worse: 1.0,
        p_better: 1.0,
        p: 1.0,
    };
    for &(a, b, h) in triples {
        t.aa_flipped += u64::from(a != b);
        let low = a.min(b).min(h);
        if [a, b, h].iter().filter(|&&x| x == low).count() == 1 {
            t.informative_worse += 1;
            t.worse += u64::from(h == low);
        }
        let high = a.max(b).max(h);
        if [a, b, h].iter().filter(|&&x| x == high).count() == 1 {
            t.informative_better += 1;
            t.better += u64::from(h == high);
        }
    }
    t.p_worse = binomial_at_least(t.informative_worse, 1.0 / 3.0, t.worse);
    t.p_better = binomial_at_least(t.informative_better, 1.0 / 3.0, t.better);
    t.p = (2.0 * t.p_worse.min(t.p_better)).min(1.0);
    t
}

/// The fewest cases head must break (each case stable in the A/A pair otherwise) for the
/// calibrated test to call a regression at `alpha`, when the A/A pair showed `aa_flipped`
/// cases that differ: the smallest `k` with `2·P[Binomial(k + aa_flipped, ⅓) ≥ k] ≤ alpha`.
/// (`aa_flipped` counts every A/A flip as a case with a unique lowest run, the most it can
/// add to `m`, so this is an upper bound on what is needed.) `None` past 10 000.
pub fn calibrated_min_fall(aa_flipped: u64, alpha: f64) -> Option<u64> {
    (1..=10_000).find(|&k| 2.0 * binomial_at_least(k + aa_flipped, 1.0 / 3.0, k) <= alpha)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_base_and_k_broken_cases_give_three_to_the_minus_k() {
        let mut triples = vec![(5, 5, 0); 7];
        triples.extend([(5, 5, 5), (0, 0, 0), (3, 3, 3)]);
        let t = calibrated_test(&triples);
        assert_eq!(
            (t.cases, t.aa_flipped, t.informative_worse, t.worse),
            (10, 0, 7, 7)
        );
        assert!((t.p_worse - 3f64.powi(-7)).abs() < 1e-15);
        assert!((t.p - 2.0 * 3f64.powi(-7)).abs() < 1e-15);
        // (5, 5, 0): the top is a tie of the two base runs, so no case has a unique best run.
        assert_eq!((t.informative_better, t.better, t.p_better), (0, 0, 1.0));
    }

    #[test]
    fn ties_at_the_bottom_are_not_informative() {
        let t = calibrated_test(&[(5, 0, 0), (0, 5, 0), (5, 5, 5), (2, 2, 2)]);
        assert_eq!((t.informative_worse, t.worse), (0, 0));
        // (5, 0, 0) and (0, 5, 0): the unique highest is a base run.
        assert_eq!((t.informative_better, t.better, t.aa_flipped), (2, 0, 2));
        assert_eq!(t.p, 1.0);
    }

    #[test]
    fn binomial_tail_edges() {
        assert_eq!(binomial_at_least(0, 0.3, 0), 1.0);
        assert_eq!(binomial_at_least(3, 0.3, 4), 0.0);
        assert!((binomial_at_least(4, 0.5, 4) - 1.0 / 16.0).abs() < 1e-15);
    }

    #[test]
    fn min_fall_grows_with_drift() {
        assert_eq!(calibrated_min_fall(0, 0.05), Some(4));
        assert_eq!(calibrated_min_fall(1, 0.05), Some(5));
        let mut last = 0;
        for f in 0..20 {
            let k = calibrated_min_fall(f, 0.05).expect("reachable");
            assert!(k >= last);
            last = k;
        }
    }
}
