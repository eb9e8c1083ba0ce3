//! The exact two-sided sign test over paired cases (BEHAVIOR §4), the paired counts it is fed
//! with, and what a non-significant split would need to become significant.

use std::f64::consts::LN_2;

use super::binomial::{ln_pmf_half, lower_tail_ratio};

/// The largest number of discordant pairs [`pairs_needed`] plans for; beyond it the answer is
/// `None` ("not within reach").
const MAX_PLANNED_PAIRS: u64 = 1_000_000_000;

/// Within this many pairs of the observed count, [`pairs_needed`] scans every total instead of
/// trusting bisection on its saw-toothed p-value.
const LINEAR_SCAN_PAIRS: u64 = 1000;

/// The result of an exact two-sided sign test. See [`sign_test`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignTest {
    /// Pairs where head did better than base.
    pub improved: u64,
    /// Pairs where head did worse than base.
    pub regressed: u64,
    /// Discordant pairs, `improved + regressed` (ties are not counted).
    pub n: u64,
    /// Two-sided p-value, `min(1, 2·P[X ≤ k])` with `X ~ Binomial(n, ½)`, `k = min(improved,
    /// regressed)`; `1` when `n = 0`.
    pub p: f64,
    /// Two-sided mid-p value, `min(1, 2·(P[X < k] + ½·P[X = k]))`; `1` when `n = 0`.
    pub mid_p: f64,
}

/// The exact two-sided sign test of `improved` against `regressed` discordant pairs.
///
/// Ties are dropped by the caller (see [`paired_counts`]). With `X ~ Binomial(n, ½)`:
///
/// ```text
/// n     = improved + regressed
/// k     = min(improved, regressed)
/// p     = min(1, 2·P[X ≤ k])                    = min(1, 2^(1−n)·Σ_{i=0}^{k} C(n, i))
/// mid_p = min(1, 2·(P[X < k] + ½·P[X = k]))     = p − P[X = k]   (while p < 1)
/// n = 0 → p = mid_p = 1
/// ```
///
/// This is SciPy's `binomtest(k, n, 0.5, alternative="two-sided")` (for `p = ½` its "as or
/// less likely" rule gives exactly `2·P[X ≤ k]`), checked in `tests/stats_reference.rs`.
///
/// Computed in log space, so it neither overflows nor loses precision for any `n`:
/// `P[X ≤ k] = P[X = k] · Σ_{i ≤ k} P[X = i]/P[X = k]`, where `ln P[X = k]` comes from Loader's
/// saddle-point expansion and the sum runs from `i = k` downwards with the exact ratio
/// `C(n, i−1)/C(n, i) = i/(n − i + 1)` (`O(√n)` steps at worst). Exact to about `1e-13`
/// relative wherever the result is a normal `f64`; `k = 0` gives `p = 2^(1−n)` exactly. A
/// p-value below `f64`'s smallest subnormal (about `4.9e-324`, e.g. `k = 0` with
/// `n > 1075`) is returned as `0`, the nearest `f64`.
///
/// `n` saturates at `u64::MAX` (unreachable for counts of pairs).
pub fn sign_test(improved: u64, regressed: u64) -> SignTest {
    let n = improved.saturating_add(regressed);
    let k = improved.min(regressed);
    let (p, mid_p) = two_sided(n, k);
    SignTest {
        improved,
        regressed,
        n,
        p,
        mid_p,
    }
}

/// `(p, mid_p)` of the two-sided test for `k` of `n` (see [`sign_test`]).
fn two_sided(n: u64, k: u64) -> (f64, f64) {
    if n == 0 {
        return (1.0, 1.0);
    }
    let k = k.min(n - k);
    if k == 0 {
        // P[X ≤ 0] = P[X = 0] = 2⁻ⁿ: p = 2^(1−n), mid-p = 2⁻ⁿ, both exact powers of two.
        let nf = n as f64;
        return ((1.0 - nf).exp2().min(1.0), (-nf).exp2());
    }
    // Here 1 ≤ k ≤ n/2, so 2k + 1 cannot overflow.
    if 2 * k == n {
        // P[X ≤ n/2] = ½ + ½·P[X = n/2] and P[X < n/2] = ½ − ½·P[X = n/2].
        return (1.0, 1.0);
    }
    if 2 * k + 1 == n {
        // P[X ≤ k] = ½ exactly, and P[X < k] + ½·P[X = k] = ½ − ½·P[X = k].
        return (1.0, 1.0 - ln_pmf_half(n, k).exp());
    }
    let ln_pmf = ln_pmf_half(n, k);
    let ratio = lower_tail_ratio(n, k);
    // 2·P[X ≤ k] = 2·P[X = k]·S and 2·(P[X ≤ k] − ½·P[X = k]) = 2·P[X = k]·(S − ½), S ≥ 1.
    let p = (LN_2 + ln_pmf + ratio.ln()).exp();
    let mid_p = (LN_2 + ln_pmf + (ratio - 0.5).ln()).exp();
    (p.min(1.0), mid_p.min(1.0))
}

/// The smallest number of discordant pairs at which a perfectly lopsided split (`n` to `0`)
/// reaches `p ≤ alpha`: `6` for `alpha = 0.05`, so with 5 pairs or fewer no split can be
/// significant ("insufficient data").
///
/// ```text
/// p(n, 0) = 2^(1−n)   ⇒   result = min{ n ≥ 1 : 2^(1−n) ≤ alpha } = 1 + ⌈−log₂ alpha⌉  (alpha < 1)
/// ```
///
/// `alpha ≥ 1` gives `1`. `alpha ≤ 0` or NaN can never be reached and gives `u64::MAX`.
pub fn min_pairs_for_significance(alpha: f64) -> u64 {
    if alpha.is_nan() || alpha <= 0.0 {
        return u64::MAX;
    }
    if alpha >= 1.0 {
        return 1;
    }
    // −log₂ alpha is in (0, 1075) for a positive f64 below 1; the loops only fix rounding of
    // the logarithm, comparing against the exact powers of two sign_test returns.
    let mut n = 1 + (-alpha.log2()).ceil() as u64;
    while n > 1 && (2.0 - n as f64).exp2() <= alpha {
        n -= 1;
    }
    while (1.0 - n as f64).exp2() > alpha {
        n += 1;
    }
    n
}

/// A planning estimate: how many more discordant pairs, split in the observed ratio, until
/// the sign test would reach `p ≤ alpha`.
///
/// With `d = improved + regressed` observed pairs and minority `m = min(improved, regressed)`,
/// a total of `N ≥ d` pairs is projected to split as `k(N) = round(N·m/d)` (halves rounded
/// up, towards the even split) against `N − k(N)`, and `p(N) = sign_test(N − k(N), k(N)).p`:
///
/// ```text
/// p(d) ≤ alpha                          → Some(0)      (already there)
/// d = 0, improved = regressed,
///   alpha ≤ 0 or NaN                    → None         (no ratio, or an even one: never)
/// otherwise                             → Some(N − d)  with p(N) ≤ alpha < p(N − 1)
/// N would exceed 10⁹                    → None         (not within reach)
/// ```
///
/// `N` is found by doubling and then bisecting on `p(N)`. Because `k(N)` is rounded to whole
/// pairs, `p(N)` is saw-toothed rather than monotone; when bisection lands within 1000 pairs
/// of `d`, the pairs in between are scanned so the answer is the first `N` that reaches
/// `alpha`, otherwise it may be a few pairs late.
///
/// This is an estimate, not a promise: future pairs will not keep the observed ratio. Use it
/// to say "about 16 more pairs at this split", never to decide significance.
pub fn pairs_needed(improved: u64, regressed: u64, alpha: f64) -> Option<u64> {
    if alpha.is_nan() || alpha <= 0.0 {
        return None;
    }
    let observed = improved.checked_add(regressed)?;
    if sign_test(improved, regressed).p <= alpha {
        return Some(0);
    }
    if observed == 0 || improved == regressed || observed >= MAX_PLANNED_PAIRS {
        return None;
    }
    let minority = improved.min(regressed);
    let p_at = |total: u64| {
        // round(total·m/d) = ⌊(2·total·m + d) / (2d)⌋, in u128 so it cannot overflow; the
        // result is at most total/2 because m/d < ½.
        let k = (2 * u128::from(total) * u128::from(minority) + u128::from(observed))
            / (2 * u128::from(observed));
        two_sided(total, u64::try_from(k).unwrap_or(u64::MAX)).0
    };
    // Invariant: p_at(below) > alpha ≥ p_at(above).
    let mut below = observed;
    let mut above = observed.saturating_mul(2).min(MAX_PLANNED_PAIRS);
    while p_at(above) > alpha {
        if above >= MAX_PLANNED_PAIRS {
            return None;
        }
        below = above;
        above = above.saturating_mul(2).min(MAX_PLANNED_PAIRS);
    }
    while above - below > 1 {
        let middle = below + (above - below) / 2;
        if p_at(middle) <= alpha {
            above = middle;
        } else {
            below = middle;
        }
    }
    if above - observed <= LINEAR_SCAN_PAIRS {
        // p(above) ≤ alpha, so the scan always finds a total; `above` is the fallback only
        // to avoid an unwrap.
        let first = (observed + 1..above)
            .find(|&total| p_at(total) <= alpha)
            .unwrap_or(above);
        return Some(first - observed);
    }
    Some(above - observed)
}

/// Count case-level pairs as `(improved, regressed, tied)` for the sign test.
///
/// Case-level pairing compares each case's success rate in base with the same case's success
/// rate in head: each item is `(base_rate, head_rate)` for one case (e.g. `successes/trials`
/// over that case's repeats). Then
///
/// ```text
/// improved  = #{c : head_c > base_c}
/// regressed = #{c : head_c < base_c}
/// tied      = #{c : head_c = base_c}     (exact equality; dropped by the sign test)
/// ```
///
/// Equality is exact on purpose: two rates computed as `successes as f64 / trials as f64` are
/// equal exactly when the fractions are (IEEE division is correctly rounded), so `2/4` ties
/// with `1/2` and nothing else does. A pair with a NaN rate (an unmeasured case) is skipped
/// and counted nowhere.
pub fn paired_counts(pairs: impl IntoIterator<Item = (f64, f64)>) -> (u64, u64, u64) {
    let (mut improved, mut regressed, mut tied) = (0u64, 0u64, 0u64);
    for (base, head) in pairs {
        if head > base {
            improved += 1;
        } else if head < base {
            regressed += 1;
        } else if head == base {
            tied += 1;
        }
    }
    (improved, regressed, tied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_pairs_is_p_one() {
        let test = sign_test(0, 0);
        assert_eq!((test.n, test.p, test.mid_p), (0, 1.0, 1.0));
    }

    #[test]
    fn small_splits_match_hand_computation() {
        // 5-0: p = 2·(1/32) = 0.0625, mid-p = 1/32.
        let test = sign_test(5, 0);
        assert_eq!((test.p, test.mid_p), (0.0625, 0.03125));
        // 6-0: p = 2/64.
        assert_eq!(sign_test(0, 6).p, 0.03125);
        // 1-0: p = 1, mid-p = ½.
        assert_eq!((sign_test(1, 0).p, sign_test(1, 0).mid_p), (1.0, 0.5));
        // 8-2: P[X ≤ 2] = (1 + 10 + 45)/1024, p = 112/1024; mid-p = p − 45/1024.
        let test = sign_test(8, 2);
        assert!((test.p - 112.0 / 1024.0).abs() < 1e-15);
        assert!((test.mid_p - 67.0 / 1024.0).abs() < 1e-15);
        // 3-3: even split.
        assert_eq!((sign_test(3, 3).p, sign_test(3, 3).mid_p), (1.0, 1.0));
        // 4-3: P[X ≤ 3] = ½ for n = 7; mid-p = 1 − C(7,3)/128.
        let test = sign_test(4, 3);
        assert_eq!(test.p, 1.0);
        assert!((test.mid_p - (1.0 - 35.0 / 128.0)).abs() < 1e-15);
    }

    #[test]
    fn extreme_splits_do_not_underflow_early() {
        // 2^(1−1000) ≈ 1.87e-301 is a normal f64 and must come back exactly.
        assert_eq!(sign_test(0, 1000).p, (-999f64).exp2());
        assert!(sign_test(1, 1000).p > 0.0);
        // Far beyond f64: 0, not NaN.
        let test = sign_test(0, 10_000_000);
        assert_eq!((test.p, test.mid_p), (0.0, 0.0));
        let test = sign_test(4_000_000, 6_000_000);
        assert_eq!(test.p, 0.0);
        assert!(!test.mid_p.is_nan());
    }

    #[test]
    fn huge_near_even_splits_are_finite_and_below_one() {
        let test = sign_test(5_000_000, 5_001_000);
        assert!(test.p > 0.0 && test.p < 1.0, "{test:?}");
        assert!(test.mid_p < test.p);
    }

    #[test]
    fn six_pairs_are_needed_at_five_percent() {
        assert_eq!(min_pairs_for_significance(0.05), 6);
        assert_eq!(min_pairs_for_significance(0.01), 8);
        assert_eq!(min_pairs_for_significance(0.0625), 5);
        assert_eq!(min_pairs_for_significance(1.0), 1);
        assert_eq!(min_pairs_for_significance(0.0), u64::MAX);
        assert_eq!(min_pairs_for_significance(f64::NAN), u64::MAX);
    }

    #[test]
    fn pairs_needed_plans_from_the_observed_ratio() {
        assert_eq!(pairs_needed(3, 0, 0.05), Some(3));
        assert_eq!(pairs_needed(6, 0, 0.05), Some(0));
        assert_eq!(pairs_needed(0, 0, 0.05), None);
        assert_eq!(pairs_needed(4, 4, 0.05), None);
        assert_eq!(pairs_needed(3, 1, 0.0), None);
        // 3:1 → 13-4 (N = 17, p ≈ 0.049) is the first projected split to reach 0.05: 12-4
        // (N = 16) gives p ≈ 0.077. Bisection alone would land on 15-5 (N = 20): 13-5 and
        // 14-5 (N = 18, 19, minority rounded up) are above 0.05 again.
        assert_eq!(pairs_needed(3, 1, 0.05), Some(13));
        assert!(sign_test(13, 4).p <= 0.05 && sign_test(12, 4).p > 0.05);
        assert!(sign_test(13, 5).p > 0.05 && sign_test(14, 5).p > 0.05);
    }

    #[test]
    fn pairs_needed_gives_up_beyond_reach() {
        // 500001:499999 would need billions of pairs.
        assert_eq!(pairs_needed(500_001, 499_999, 0.05), None);
    }

    #[test]
    fn paired_counts_compares_rates_exactly() {
        let counts = paired_counts([
            (0.5, 1.0),
            (1.0, 0.5),
            (2.0 / 4.0, 1.0 / 2.0),
            (2.0 / 3.0, 4.0 / 6.0),
            (f64::NAN, 1.0),
            (0.2, 0.4),
        ]);
        assert_eq!(counts, (2, 1, 2));
        assert_eq!(paired_counts(Vec::new()), (0, 0, 0));
    }
}
