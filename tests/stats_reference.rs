//! mf's statistics against an independent reference.
//!
//! The expected values below were computed once by `scripts/stats_reference.py`
//! (statsmodels 0.15.0, scipy 1.17.1, numpy 2.4.6) and pasted here; re-run the script to
//! regenerate them.
//! Wilson intervals come from statsmodels `proportion_confint(k, n, method="wilson")`,
//! percentiles from NumPy `np.percentile(values, p, method="inverted_cdf")` (nearest rank).

use mf::stats::{case_level, percentile, wilson};

/// Tolerance for comparing against the reference (absolute).
const TOLERANCE: f64 = 1e-9;

/// A 95% interval `(lower, upper)`; `None` where statsmodels gives NaN (n = 0).
type Interval = Option<(f64, f64)>;

/// `(k, n, statsmodels wilson interval)`.
#[rustfmt::skip]
const WILSON: &[(u64, u64, Interval)] = &[
    (0, 0, None),
    (0, 1, Some((0.0, 0.7934506856227627))),
    (1, 1, Some((0.2065493143772374, 1.0))),
    (0, 2, Some((0.0, 0.657619772493347))),
    (1, 2, Some((0.09453120573423068, 0.9054687942657693))),
    (2, 2, Some((0.342380227506653, 1.0))),
    (1, 3, Some((0.06149194472039626, 0.7923403991979523))),
    (2, 3, Some((0.2076596008020477, 0.9385080552796037))),
    (0, 5, Some((0.0, 0.43448246478317487))),
    (1, 5, Some((0.036224108632430196, 0.6244653702374748))),
    (2, 5, Some((0.11762077423264788, 0.7692757187239871))),
    (3, 5, Some((0.2307242812760129, 0.8823792257673522))),
    (4, 5, Some((0.3755346297625252, 0.9637758913675698))),
    (5, 5, Some((0.5655175352168252, 1.0))),
    (0, 6, Some((0.0, 0.39033428790216546))),
    (1, 6, Some((0.030053369748306635, 0.5635028221864703))),
    (3, 6, Some((0.18761630648265054, 0.8123836935173494))),
    (5, 6, Some((0.43649717781352965, 0.9699466302516933))),
    (6, 6, Some((0.6096657120978346, 1.0))),
    (3, 7, Some((0.15821985525146964, 0.7495416354723428))),
    (0, 10, Some((0.0, 0.27753279986288926))),
    (7, 10, Some((0.39677814746114537, 0.8922087325936989))),
    (10, 10, Some((0.7224672001371106, 1.0))),
    (1, 20, Some((0.008881448800795402, 0.2361311934467421))),
    (19, 20, Some((0.7638688065532577, 0.9911185511992044))),
    (17, 30, Some((0.39197307000813597, 0.7262251442353348))),
    (29, 30, Some((0.8332960900859081, 0.9940914096183875))),
    (50, 100, Some((0.4038315303659956, 0.5961684696340044))),
    (95, 100, Some((0.8882495307680808, 0.9784563208456319))),
    (123, 456, Some((0.23104962756216274, 0.3122712366796905))),
    (0, 1000, Some((2.168404344971009e-19, 0.003826758485555125))),
    (1, 1000, Some((0.00017654637062607765, 0.005642558597957937))),
    (500, 1000, Some((0.4690696003681042, 0.5309303996318958))),
    (999, 1000, Some((0.9943574414020421, 0.9998234536293739))),
    (1000, 1000, Some((0.996173241514445, 1.0))),
    (0, 100000, Some((0.0, 3.841311258303965e-05))),
    (1, 100000, Some((1.7652477303783092e-06, 5.664709659040968e-05))),
    (12345, 100000, Some((0.12142561775452175, 0.12550331116056454))),
    (50000, 100000, Some((0.49690108435968966, 0.5030989156403103))),
    (99999, 100000, Some((0.9999433529034099, 0.9999982347522698))),
    (100000, 100000, Some((0.999961586887417, 1.0))),
];

/// `(p, nearest-rank percentile)` pairs for one sample.
type Percentiles = &'static [(f64, u64)];

/// `(sorted values, percentiles)` from NumPy's `inverted_cdf`.
#[rustfmt::skip]
const PERCENTILE: &[(&[u64], Percentiles)] = &[
    (&[15, 20, 35, 40, 50], &[(0.0, 15), (1.0, 15), (5.0, 15), (25.0, 20), (50.0, 35), (90.0, 50), (95.0, 50), (99.0, 50), (100.0, 50)]),
    (&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], &[(0.0, 1), (1.0, 1), (5.0, 1), (25.0, 5), (50.0, 10), (90.0, 18), (95.0, 19), (99.0, 20), (100.0, 20)]),
    (&[7], &[(0.0, 7), (1.0, 7), (5.0, 7), (25.0, 7), (50.0, 7), (90.0, 7), (95.0, 7), (99.0, 7), (100.0, 7)]),
    (&[3, 3, 3, 9], &[(0.0, 3), (1.0, 3), (5.0, 3), (25.0, 3), (50.0, 3), (90.0, 9), (95.0, 9), (99.0, 9), (100.0, 9)]),
    (&[120, 180, 210, 250, 260, 300, 420, 900, 1500, 8000, 12000], &[(0.0, 120), (1.0, 120), (5.0, 120), (25.0, 210), (50.0, 300), (90.0, 8000), (95.0, 12000), (99.0, 12000), (100.0, 12000)]),
];

#[test]
fn wilson_matches_statsmodels() {
    assert!(WILSON.len() >= 30, "the reference needs at least 30 pairs");
    for &(k, n, expected) in WILSON {
        let got = wilson(k, n);
        match (got, expected) {
            (None, None) => {}
            (Some((lo, hi)), Some((elo, ehi))) => {
                assert!(
                    (lo - elo).abs() <= TOLERANCE && (hi - ehi).abs() <= TOLERANCE,
                    "wilson({k}, {n}) = [{lo}, {hi}], statsmodels [{elo}, {ehi}]"
                );
            }
            _ => panic!("wilson({k}, {n}) = {got:?}, statsmodels {expected:?}"),
        }
    }
}

#[test]
fn case_level_interval_is_wilson_over_cases() {
    // Five cases of five repeats, each won by a majority: statsmodels (5, 5), whatever the
    // 22 correct trials out of 25 would say.
    let level = case_level(&[(5, 5), (4, 5), (3, 5), (5, 5), (3, 5)]);
    assert_eq!(level.cases, 5);
    assert_eq!(level.majority_correct, 5);
    let (lo, hi) = level.ci95.expect("five cases");
    assert!((lo - 0.5655175352168252).abs() <= TOLERANCE, "lower {lo}");
    assert!((hi - 1.0).abs() <= TOLERANCE, "upper {hi}");
    // 2 of 5 cases: statsmodels (2, 5).
    let level = case_level(&[(5, 5), (1, 5), (2, 5), (4, 5), (0, 5)]);
    assert_eq!(level.majority_correct, 2);
    let (lo, hi) = level.ci95.expect("five cases");
    assert!((lo - 0.11762077423264788).abs() <= TOLERANCE, "lower {lo}");
    assert!((hi - 0.7692757187239871).abs() <= TOLERANCE, "upper {hi}");
}

#[test]
fn percentile_matches_numpy_inverted_cdf() {
    for &(values, expected) in PERCENTILE {
        for &(p, q) in expected {
            assert_eq!(percentile(values, p), Some(q), "p{p} of {values:?}");
        }
    }
}

#[test]
fn wilson_properties_hold_for_many_pairs() {
    let mut ns: Vec<u64> = (1..=300).collect();
    ns.extend([997, 1000, 4096, 99_991, 100_000, 1_000_000]);
    for n in ns {
        let step = (n / 400).max(1);
        let mut previous: Option<(f64, f64)> = None;
        let mut k = 0;
        while k <= n {
            let (lo, hi) = wilson(k, n).expect("n > 0");
            let p = k as f64 / n as f64;
            assert!(
                (0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi),
                "{k}/{n}"
            );
            assert!(lo <= p && p <= hi, "[{lo}, {hi}] does not contain {k}/{n}");
            if let Some((plo, phi)) = previous {
                assert!(lo >= plo && hi >= phi, "not monotone in k at {k}/{n}");
            }
            // Symmetry: the interval of n − k failures mirrors that of k successes.
            let (mlo, mhi) = wilson(n - k, n).expect("n > 0");
            assert!((lo - (1.0 - mhi)).abs() < 1e-12 && (hi - (1.0 - mlo)).abs() < 1e-12);
            previous = Some((lo, hi));
            k += step;
        }
    }
}
