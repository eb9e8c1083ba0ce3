//! The Wilson score interval for a binomial proportion.

/// The two-sided 95% normal quantile, `Φ⁻¹(0.975)`, as statsmodels and SciPy compute it.
pub const Z95: f64 = 1.959963984540054;

/// The 95% Wilson score interval for `k` successes in `n` trials, clamped to `[0, 1]`.
///
/// With `p̂ = k/n` and `z = 1.959963984540054` ([`Z95`]):
///
/// ```text
/// centre = (p̂ + z²/(2n)) / (1 + z²/n)
/// half   = z · √(p̂(1 − p̂)/n + z²/(4n²)) / (1 + z²/n)
/// [lower, upper] = [centre − half, centre + half] ∩ [0, 1]
/// ```
///
/// (Wilson 1927; the same arithmetic as statsmodels
/// `proportion_confint(k, n, method="wilson")`.) At the boundaries the interval is exact:
/// `k = 0` gives lower `0` and `k = n` gives upper `1`, without floating-point residue.
///
/// Returns `None` when `n = 0` (nothing was measured) or when `k > n` (not a proportion).
pub fn wilson(k: u64, n: u64) -> Option<(f64, f64)> {
    if n == 0 || k > n {
        return None;
    }
    // u64 → f64 is exact below 2^53 trials, far above any run mf can make.
    let nf = n as f64;
    let p = k as f64 / nf;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = Z95 * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
    let lower = if k == 0 { 0.0 } else { centre - half };
    let upper = if k == n { 1.0 } else { centre + half };
    Some((lower.clamp(0.0, 1.0), upper.clamp(0.0, 1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_impossible_are_unmeasured() {
        assert_eq!(wilson(0, 0), None);
        assert_eq!(wilson(3, 2), None);
    }

    #[test]
    fn boundaries_are_exact() {
        let (lo, hi) = wilson(0, 7).expect("n > 0");
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 1.0);
        let (lo, hi) = wilson(7, 7).expect("n > 0");
        assert_eq!(hi, 1.0);
        assert!(lo > 0.0 && lo < 1.0);
    }

    #[test]
    fn half_of_ten_is_symmetric_around_one_half() {
        let (lo, hi) = wilson(5, 10).expect("n > 0");
        assert!((lo + hi - 1.0).abs() < 1e-15);
        assert!(lo < 0.5 && hi > 0.5);
    }

    #[test]
    fn every_interval_is_inside_unit_range_and_contains_the_estimate() {
        for n in 1..=200u64 {
            for k in 0..=n {
                let (lo, hi) = wilson(k, n).expect("n > 0");
                let p = k as f64 / n as f64;
                assert!((0.0..=1.0).contains(&lo), "lower {lo} for {k}/{n}");
                assert!((0.0..=1.0).contains(&hi), "upper {hi} for {k}/{n}");
                assert!(lo <= p && p <= hi, "[{lo}, {hi}] misses {k}/{n}");
                assert!(lo < hi, "empty interval for {k}/{n}");
            }
        }
    }

    #[test]
    fn bounds_rise_with_successes() {
        for n in [1u64, 2, 5, 6, 10, 37, 100, 1000, 100_000] {
            let mut previous = (-1.0, -1.0);
            let step = (n / 500).max(1);
            let mut k = 0;
            while k <= n {
                let (lo, hi) = wilson(k, n).expect("n > 0");
                assert!(lo > previous.0, "lower not rising at {k}/{n}");
                assert!(hi > previous.1, "upper not rising at {k}/{n}");
                previous = (lo, hi);
                k += step;
            }
        }
    }

    #[test]
    fn intervals_narrow_as_trials_grow() {
        let width = |k, n| {
            let (lo, hi) = wilson(k, n).expect("n > 0");
            hi - lo
        };
        assert!(width(5, 10) > width(50, 100));
        assert!(width(50, 100) > width(500, 1000));
    }
}
