//! The paired difference of a metric between base and head, with a 95% interval whose standard
//! error is clustered by case (Miller 2024, "Adding Error Bars to Evals", arXiv:2411.00640,
//! §3 "clustered standard errors" applied to paired differences, §4).
//!
//! Repeats of one case are not independent draws: a provider that gets a case wrong tends to get
//! all its repeats wrong. A standard error over trials would treat 5 repeats of 10 cases as 50
//! independent observations and give an interval about √5 times too narrow; the clustered
//! standard error sums the residuals within each case first, so its effective `n` is the number
//! of cases.

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::wilson::Z95;

/// A paired difference `head − base` with its case-clustered 95% interval. See
/// [`paired_difference`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedDifference {
    /// Mean of the per-trial differences, `d̄` (in the metric's units, e.g. −0.6 = −60 points).
    pub mean: f64,
    /// Case-clustered standard error of `d̄` (with the `G/(G−1)` small-sample factor).
    pub standard_error: f64,
    /// Degrees of freedom of the t quantile, `G − 1`.
    pub df: u64,
    /// The 95% interval `d̄ ± t₀.₉₇₅,G−1 · SE`.
    pub ci95: (f64, f64),
    /// Cases (clusters) with at least one paired trial, `G`.
    pub cases: u64,
    /// Paired trials, `N`.
    pub trials: u64,
}

/// The mean paired difference over trials and its case-clustered 95% interval.
///
/// `per_case[c]` holds the per-trial differences `d_ct = head_ct − base_ct` of case `c` (for an
/// indicator metric each is −1, 0 or 1). Cases with no trial are skipped. With `G` cases and
/// `N` trials:
///
/// ```text
/// d̄      = Σ_c Σ_t d_ct / N
/// SE²    = G/(G−1) · Σ_c (Σ_t (d_ct − d̄))² / N²        (CR1 cluster-robust variance)
/// ci95   = d̄ ± t⁻¹(0.975; G − 1) · SE
/// ```
///
/// This is the intercept-only OLS of `d` with cluster-robust covariance by case, exactly as
/// statsmodels computes it: `OLS(d, 1).fit(cov_type="cluster", cov_kwds={"groups": case},
/// use_t=True)` (its correction `G/(G−1)·(N−1)/(N−K)` is `G/(G−1)` for `K = 1`, and its t
/// has `G − 1` degrees of freedom); checked in `tests/integration/stats_reference.rs`
/// (`paired_difference_matches_statsmodels_cluster_ols`). The t quantile is statrs'
/// `StudentsT::inverse_cdf`.
///
/// `None` when fewer than 2 cases have a trial (no variance between cases can be measured).
/// When every case's residuals sum to zero (e.g. every pair tied) the interval is the point
/// `[d̄, d̄]`: nothing varied, so nothing can be said about the spread.
pub fn paired_difference(per_case: &[Vec<f64>]) -> Option<PairedDifference> {
    let clusters: Vec<&Vec<f64>> = per_case.iter().filter(|c| !c.is_empty()).collect();
    let g = clusters.len() as u64;
    if g < 2 {
        return None;
    }
    let n: usize = clusters.iter().map(|c| c.len()).sum();
    let nf = n as f64;
    let mean = clusters.iter().flat_map(|c| c.iter()).sum::<f64>() / nf;
    let meat: f64 = clusters
        .iter()
        .map(|c| {
            let s: f64 = c.iter().map(|d| d - mean).sum();
            s * s
        })
        .sum();
    let gf = g as f64;
    let variance = gf / (gf - 1.0) * meat / (nf * nf);
    let standard_error = variance.sqrt();
    let df = g - 1;
    let t = t_quantile_975(df);
    Some(PairedDifference {
        mean,
        standard_error,
        df,
        ci95: (mean - t * standard_error, mean + t * standard_error),
        cases: g,
        trials: n as u64,
    })
}

/// `t⁻¹(0.975; df)`, the two-sided 95% quantile of Student's t; SciPy `t.ppf(0.975, df)` in
/// `tests/integration/stats_reference.rs` (`t_quantile_matches_scipy`).
///
/// Below 1000 degrees of freedom, statrs' `StudentsT::inverse_cdf`. From 1000 on, statrs'
/// inverse incomplete beta loses digits (about 7e-6 off at `df = 10⁵`), so the quantile is the
/// Cornish–Fisher expansion around the normal quantile `z = Φ⁻¹(0.975)` ([`Z95`]) to `ν⁻⁴`
/// (Abramowitz & Stegun 26.7.5), whose truncation error there is below 1e-15:
///
/// ```text
/// t ≈ z + (z³ + z)/(4ν) + (5z⁵ + 16z³ + 3z)/(96ν²) + (3z⁷ + 19z⁵ + 17z³ − 15z)/(384ν³)
///       + (79z⁹ + 776z⁷ + 1482z⁵ − 1920z³ − 945z)/(92160ν⁴)
/// ```
pub fn t_quantile_975(df: u64) -> f64 {
    if df >= 1000 {
        let z = Z95;
        let v = df as f64;
        let z2 = z * z;
        let z3 = z2 * z;
        let z5 = z3 * z2;
        let z7 = z5 * z2;
        let z9 = z7 * z2;
        return z
            + (z3 + z) / (4.0 * v)
            + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
            + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v * v * v)
            + (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z)
                / (92160.0 * v * v * v * v);
    }
    match StudentsT::new(0.0, 1.0, df as f64) {
        Ok(t) => t.inverse_cdf(0.975),
        Err(_) => f64::NAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fewer_than_two_cases_has_no_interval() {
        assert_eq!(paired_difference(&[]), None);
        assert_eq!(paired_difference(&[vec![1.0, -1.0]]), None);
        assert_eq!(paired_difference(&[vec![1.0], vec![]]), None);
    }

    #[test]
    fn all_tied_is_a_point_at_zero() {
        let d = paired_difference(&[vec![0.0; 5], vec![0.0; 5]]).expect("two cases");
        assert_eq!((d.mean, d.ci95), (0.0, (0.0, 0.0)));
        assert_eq!((d.cases, d.trials, d.df), (2, 10, 1));
    }

    #[test]
    fn clustering_widens_the_interval_when_cases_move_whole() {
        // 10 cases × 5 repeats, 7 cases fell in all repeats: the clustered SE is that of 10
        // observations, not 50.
        let mut cases = vec![vec![-1.0; 5]; 7];
        cases.extend(vec![vec![0.0; 5]; 3]);
        let d = paired_difference(&cases).expect("ten cases");
        assert!((d.mean + 0.7).abs() < 1e-15);
        // Per-case means −1 (7×) and 0 (3×): SE = sd of case means / √10 = √(0.21·10/9)/√10.
        let want = (0.21_f64 / 9.0).sqrt();
        assert!(
            (d.standard_error - want).abs() < 1e-15,
            "{}",
            d.standard_error
        );
        assert!(d.ci95.0 < -0.7 && d.ci95.1 > -0.7);
    }

    #[test]
    fn t_quantile_is_close_to_the_normal_for_large_df() {
        assert!((t_quantile_975(1) - 12.706204736174698).abs() < 1e-9);
        assert!((t_quantile_975(100_000) - 1.959963984540054).abs() < 1e-4);
    }
}
