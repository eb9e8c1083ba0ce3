//! The fair-coin binomial distribution, Binomial(n, ½), in log space, for the sign test.
//!
//! Two pieces, both accurate to a few units in the last place for every `n` a run can reach:
//!
//! - [`ln_pmf_half`]: `ln P[X = x]` by Loader's saddle-point expansion (Loader 2000, "Fast and
//!   accurate computation of binomial probabilities"; the algorithm of R's `dbinom`), which
//!   never forms `C(n, x)` or `2ⁿ` and so cannot overflow, and avoids the cancellation of
//!   `ln Γ(n+1) − ln Γ(x+1) − ln Γ(n−x+1)` that loses ~`n·ε` absolute.
//! - [`lower_tail_ratio`]: `Σ_{i ≤ k} P[X = i] / P[X = k]`, summed downwards from `i = k` with
//!   the exact ratio `C(n, i−1)/C(n, i) = i/(n − i + 1)`, so the tail is
//!   `P[X ≤ k] = exp(ln_pmf_half(n, k)) · lower_tail_ratio(n, k)` with neither factor
//!   underflowing before the final `exp`.

use std::f64::consts::{LN_2, PI};

/// `stirlerr(n) = ln n! − ln(√(2πn)·(n/e)ⁿ)` for `n = 0..=30`, computed with mpmath at 50
/// digits and rounded to the nearest `f64`. (`stirlerr(0)` is set to 0; it is never used.)
#[rustfmt::skip]
const STIRLERR_TABLE: [f64; 31] = [
    0.0,
    0.08106146679532726,
    0.0413406959554093,
    0.02767792568499834,
    0.020790672103765093,
    0.016644691189821193,
    0.013876128823070748,
    0.01189670994589177,
    0.010411265261972096,
    0.009255462182712733,
    0.00833056343336287,
    0.007573675487951841,
    0.00694284010720953,
    0.006408994188004207,
    0.0059513701127588475,
    0.005554733551962801,
    0.0052076559196096404,
    0.004901395948434738,
    0.004629153749334028,
    0.004385560249232324,
    0.004166319691996922,
    0.00396795421864086,
    0.0037876180684444346,
    0.0036229602246830948,
    0.003472021382978767,
    0.003333155636728093,
    0.003204970228055038,
    0.0030862786826087773,
    0.002976063983550409,
    0.0028734493623524663,
    0.0027776749297526936,
];

/// Stirling's error term `stirlerr(n) = ln n! − ½ ln(2πn) − n ln n + n`.
///
/// Table for `n ≤ 30`; above, the asymptotic series
/// `1/(12n) − 1/(360n³) + 1/(1260n⁵) − 1/(1680n⁷) + 1/(1188n⁹)`, whose next term is below
/// `1e-19` for `n > 30` (Loader 2000, eq. 3).
fn stirlerr(n: u64) -> f64 {
    const S0: f64 = 1.0 / 12.0;
    const S1: f64 = 1.0 / 360.0;
    const S2: f64 = 1.0 / 1260.0;
    const S3: f64 = 1.0 / 1680.0;
    const S4: f64 = 1.0 / 1188.0;
    if let Some(&value) = usize::try_from(n)
        .ok()
        .and_then(|index| STIRLERR_TABLE.get(index))
    {
        return value;
    }
    let x = n as f64;
    let xx = x * x;
    (S0 - (S1 - (S2 - (S3 - S4 / xx) / xx) / xx) / xx) / x
}

/// The deviance term `bd0(x, μ) = x·ln(x/μ) + μ − x` (Loader 2000, eq. 5), for `x ≥ 0`, `μ > 0`.
///
/// Near `x = μ` the direct formula cancels; there the series
/// `bd0 = (x − μ)·v + 2x·Σ_{j≥1} v^{2j+1}/(2j+1)` with `v = (x − μ)/(x + μ)` is used, summed
/// until a term no longer changes the sum.
fn bd0(x: f64, mu: f64) -> f64 {
    if x == 0.0 {
        return mu;
    }
    let diff = x - mu;
    if diff.abs() < 0.1 * (x + mu) {
        let v = diff / (x + mu);
        let v2 = v * v;
        let mut sum = diff * v;
        let mut power = 2.0 * x * v;
        // |v| < 0.1, so each term shrinks by at least 100×: ~8 terms reach ε. The bound on j
        // only guards against a NaN input.
        for j in 1..64 {
            power *= v2;
            let next = sum + power / f64::from(2 * j + 1);
            if next == sum {
                break;
            }
            sum = next;
        }
        sum
    } else {
        x * (x / mu).ln() + mu - x
    }
}

/// `ln P[X = x]` for `X ~ Binomial(n, ½)`; `−∞` when `x > n`.
///
/// ```text
/// x = 0 or x = n:  ln P = −n·ln 2
/// otherwise:       ln P = stirlerr(n) − stirlerr(x) − stirlerr(n − x)
///                         − bd0(x, n/2) − bd0(n − x, n/2)
///                         − ½·ln(2π·x·(n − x)/n)
/// ```
///
/// (Loader's saddle-point form of `C(n, x)·2⁻ⁿ`, exact up to the rounding of each term.)
pub(super) fn ln_pmf_half(n: u64, x: u64) -> f64 {
    if x > n {
        return f64::NEG_INFINITY;
    }
    if x == 0 || x == n {
        return -(n as f64) * LN_2;
    }
    let nf = n as f64;
    let xf = x as f64;
    let yf = (n - x) as f64;
    let half = nf / 2.0;
    let lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(xf, half) - bd0(yf, half);
    let lf = (2.0 * PI).ln() + xf.ln() + (-xf / nf).ln_1p();
    lc - 0.5 * lf
}

/// `S(n, k) = Σ_{i=0}^{k} P[X = i] / P[X = k]` for `X ~ Binomial(n, ½)` and `k ≤ n/2`, so that
/// `P[X ≤ k] = P[X = k] · S(n, k)`.
///
/// Summed from `i = k` downwards with `t_k = 1`, `t_{i−1} = t_i · i/(n − i + 1)` (the exact
/// ratio `C(n, i−1)/C(n, i)`). For `i ≤ n/2` the ratio `r_i` is below 1 and falls with `i`, so
/// the terms left after `t_i` sum to at most `t_i·r_i/(1 − r_i) = t_i·i/(n − 2i + 1)`; the sum
/// stops once that bound is below `2⁻⁶⁰` of the sum. `1 ≤ S ≤ k + 1`, so `S` never overflows,
/// and it takes `O(√n)` steps for `k` near `n/2` and fewer the further `k` is from it.
///
/// `k` above `n/2` is clamped to `⌊n/2⌋` (callers pass the smaller of the two counts).
pub(super) fn lower_tail_ratio(n: u64, k: u64) -> f64 {
    const TOLERANCE: f64 = 1.0 / (1u64 << 60) as f64;
    let k = k.min(n / 2);
    let nf = n as f64;
    let mut term = 1.0_f64;
    let mut sum = 1.0_f64;
    let mut i = k;
    while i > 0 {
        let fi = i as f64;
        // n − 2i + 1 ≥ 1 because i ≤ ⌊n/2⌋.
        let room = nf - 2.0 * fi + 1.0;
        if term * fi <= TOLERANCE * sum * room {
            break;
        }
        term *= fi / (nf - fi + 1.0);
        sum += term;
        i -= 1;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `C(n, x)·2⁻ⁿ` with exact integers (n ≤ 120 fits in u128).
    fn exact_pmf(n: u64, x: u64) -> f64 {
        let mut c: u128 = 1;
        for i in 0..x {
            c = c * u128::from(n - i) / u128::from(i + 1);
        }
        c as f64 / 2f64.powi(i32::try_from(n).expect("small n"))
    }

    #[test]
    fn stirlerr_series_matches_mpmath_past_the_table() {
        // mpmath, 50 digits: loggamma(n+1) − ½·log(2πn) − n·log(n) + n, rounded to f64.
        let reference = [
            (30, 0.0027776749297526936),
            (31, 0.002688078828531143),
            (35, 0.002380887608234112),
            (36, 0.002314755290514684),
            (80, 0.0010416612415616192),
            (81, 0.0010288013577107774),
            (500, 0.00016666664444446984),
            (501, 0.0001663339765799327),
            (1_000_000, 8.333333333333056e-08),
        ];
        for (n, want) in reference {
            let got = stirlerr(n);
            assert!(
                ((got - want) / want).abs() < 1e-14,
                "stirlerr({n}) = {got}, want {want}"
            );
        }
    }

    #[test]
    fn pmf_matches_exact_integers() {
        for n in 1..=120u64 {
            for x in 0..=n {
                let got = ln_pmf_half(n, x).exp();
                let want = exact_pmf(n, x);
                assert!(
                    ((got - want) / want).abs() < 1e-13,
                    "P[X={x}] for n={n}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn pmf_outside_support_is_zero() {
        assert_eq!(ln_pmf_half(3, 4), f64::NEG_INFINITY);
        assert_eq!(ln_pmf_half(0, 0), 0.0);
    }

    #[test]
    fn tail_ratio_is_one_at_zero_and_bounded() {
        assert_eq!(lower_tail_ratio(10, 0), 1.0);
        assert_eq!(lower_tail_ratio(0, 0), 1.0);
        // P[X ≤ 1]/P[X = 1] for n = 4: (1 + 4)/4.
        assert!((lower_tail_ratio(4, 1) - 1.25).abs() < 1e-15);
        for n in [1u64, 2, 3, 10, 1001, 1_000_000] {
            for k in [0, 1, n / 4, n / 2] {
                let s = lower_tail_ratio(n, k);
                assert!(s >= 1.0 && s <= (k + 1) as f64, "S({n}, {k}) = {s}");
            }
        }
    }
}
