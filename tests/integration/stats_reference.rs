//! mf's statistics against an independent reference.
//!
//! The expected values below were computed once by `scripts/stats_reference.py`
//! (statsmodels 0.15.0, scipy 1.17.1, numpy 2.4.6, Python 3 `math.comb` / `fractions`) and
//! pasted here; re-run the script to regenerate them.
//! Wilson intervals come from statsmodels `proportion_confint(k, n, method="wilson")`,
//! percentiles from NumPy `np.percentile(values, p, method="inverted_cdf")` (nearest rank),
//! sign-test p-values from SciPy `binomtest(improved, n, 0.5, alternative="two-sided").pvalue`
//! and from exact integer sums (p and mid-p), Holm adjustments from statsmodels
//! `multipletests(p, method="holm")`.
//! Properties over many more inputs are in `tests/integration/stats_properties.rs`.

use mf::stats::{case_level, holm, percentile, sign_test, wilson};

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

/// `(improved, regressed, SciPy binomtest p, exact p, exact mid-p)`. SciPy's p is `None` for
/// `n = 0` (binomtest needs `n ≥ 1`; mf defines `p = mid-p = 1`). The exact values are
/// `min(1, 2·Σ_{i≤k} C(n, i)/2ⁿ)` and `min(1, (2·Σ_{i≤k} C(n, i) − C(n, k))/2ⁿ)` with integers,
/// rounded once; the script asserts SciPy agrees with them to 1e-12 (it does to ~2e-13).
/// `(0, 1060)` is subnormal and `(0, 100000)` is below every double (0 from both).
type SignRow = (u64, u64, Option<f64>, f64, f64);

#[rustfmt::skip]
const SIGN: &[SignRow] = &[
    (0, 0, None, 1.0, 1.0),
    (1, 0, Some(1.0), 1.0, 0.5),
    (0, 1, Some(1.0), 1.0, 0.5),
    (1, 1, Some(1.0), 1.0, 1.0),
    (2, 0, Some(0.5), 0.5, 0.25),
    (2, 1, Some(1.0), 1.0, 0.625),
    (3, 0, Some(0.25), 0.25, 0.125),
    (4, 0, Some(0.125), 0.125, 0.0625),
    (5, 0, Some(0.0625), 0.0625, 0.03125),
    (0, 5, Some(0.0625), 0.0625, 0.03125),
    (4, 1, Some(0.375), 0.375, 0.21875),
    (6, 0, Some(0.03125), 0.03125, 0.015625),
    (0, 6, Some(0.03125), 0.03125, 0.015625),
    (5, 1, Some(0.21875), 0.21875, 0.125),
    (3, 3, Some(1.0), 1.0, 1.0),
    (4, 3, Some(1.0), 1.0, 0.7265625),
    (3, 4, Some(1.0), 1.0, 0.7265625),
    (7, 1, Some(0.0703125), 0.0703125, 0.0390625),
    (8, 2, Some(0.109375), 0.109375, 0.0654296875),
    (2, 8, Some(0.109375), 0.109375, 0.0654296875),
    (9, 3, Some(0.14599609375), 0.14599609375, 0.09228515625),
    (10, 10, Some(1.0), 1.0, 1.0),
    (12, 5, Some(0.143463134765625), 0.143463134765625, 0.09625244140625),
    (13, 4, Some(0.049041748046875), 0.049041748046875, 0.0308837890625),
    (15, 5, Some(0.04138946533203125), 0.04138946533203125, 0.02660369873046875),
    (20, 8, Some(0.03569813817739487), 0.03569813817739487, 0.0241195447742939),
    (30, 14, Some(0.022628841205914796), 0.022628841205914796, 0.016094360031274846),
    (40, 60, Some(0.05688793364098089), 0.05688793364098079, 0.046044066929342806),
    (55, 45, Some(0.36820161732669615), 0.36820161732669626, 0.3197273207002655),
    (100, 0, Some(1.5777218104420236e-30), 1.5777218104420236e-30, 7.888609052210118e-31),
    (520, 480, Some(0.2174482932041415), 0.21744829320414094, 0.20610731083295322),
    (480, 520, Some(0.2174482932041415), 0.21744829320414094, 0.20610731083295322),
    (531, 469, Some(0.053677849645010045), 0.053677849645010205, 0.049984523502754175),
    (600, 400, Some(2.728464156065947e-10), 2.7284641560660184e-10, 2.265073348661045e-10),
    (0, 1000, Some(1.8665272370064378e-301), 1.8665272370064378e-301, 9.332636185032189e-302),
    (1000, 0, Some(1.8665272370064378e-301), 1.8665272370064378e-301, 9.332636185032189e-302),
    (1, 999, Some(1.8683937642434442e-298), 1.8683937642434442e-298, 9.351301457402253e-299),
    (999, 1, Some(1.8683937642434442e-298), 1.8683937642434442e-298, 9.351301457402253e-299),
    (10, 990, Some(4.9666775829792705e-278), 4.9666775829792705e-278, 2.5083719875284634e-278),
    (300, 750, Some(4.918506734956471e-45), 4.918506734956495e-45, 3.43863645481007e-45),
    (0, 1060, Some(1.61895e-319), 1.61895e-319, 8.095e-320),
    (4900, 5100, Some(0.04658552770494645), 0.04658552770494739, 0.04550566337551403),
    (5050, 4950, Some(0.32217419979531087), 0.322174199795312, 0.31733470465299557),
    (50500, 49500, Some(0.0015823598788515154), 0.0015823598788515956, 0.0015653597548484146),
    (49000, 51000, Some(2.5887160383468943e-10), 2.588716038346898e-10, 2.536769446248005e-10),
    (49690, 50310, Some(0.050294057354662844), 0.05029405735466363, 0.04992488601209428),
    (50000, 50000, Some(1.0), 1.0, 1.0),
    (50001, 49999, Some(0.9974768737858044), 0.9974768737858033, 0.9949537980331216),
    (0, 100000, Some(0.0), 0.0, 0.0),
    (45000, 55000, Some(8.600341645712794e-220), 8.600341645714696e-220, 7.817790211315818e-220),
    (499000, 501000, Some(0.0456082998653896), 0.04560829986538208, 0.045500317887363174),
    (500500, 499500, Some(0.3177946913633297), 0.3177946913633055, 0.3173107498336104),
];

/// `(raw p-values, statsmodels Holm-adjusted p-values)`.
type HolmRow = (&'static [f64], &'static [f64]);

#[rustfmt::skip]
const HOLM: &[HolmRow] = &[
];

/// Relative 1e-12, or absolute 1e-300 near zero (the subnormal range has fewer digits).
fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= (1e-12 * want.abs()).max(1e-300)
}

#[test]
fn sign_test_matches_scipy_binomtest() {
    assert!(SIGN.len() >= 30, "the reference needs at least 30 pairs");
    for &(improved, regressed, scipy_p, _, _) in SIGN {
        let test = sign_test(improved, regressed);
        assert_eq!(test.n, improved + regressed);
        match scipy_p {
            Some(want) => assert!(
                close(test.p, want),
                "sign_test({improved}, {regressed}).p = {:e}, SciPy {want:e}",
                test.p
            ),
            None => assert_eq!((test.p, test.mid_p), (1.0, 1.0), "no pairs"),
        }
    }
}

#[test]
fn sign_test_matches_exact_integer_p_and_mid_p() {
    for &(improved, regressed, _, p, mid_p) in SIGN {
        let test = sign_test(improved, regressed);
        assert!(
            close(test.p, p),
            "sign_test({improved}, {regressed}).p = {:e}, exact {p:e}",
            test.p
        );
        assert!(
            close(test.mid_p, mid_p),
            "sign_test({improved}, {regressed}).mid_p = {:e}, exact {mid_p:e}",
            test.mid_p
        );
    }
}

#[test]
fn sign_test_keeps_tiny_p_values_that_a_double_can_hold() {
    // 2^(1−1000) ≈ 1.87e-301 must not be flushed to 0 (nor 2^-1059, a subnormal).
    for &(improved, regressed, _, p, _) in SIGN {
        if p > 0.0 {
            assert!(
                sign_test(improved, regressed).p > 0.0,
                "{improved}-{regressed}"
            );
        }
    }
    assert_eq!(sign_test(0, 1000).p, 1.8665272370064378e-301);
}

#[test]
fn holm_matches_statsmodels() {
    for &(raw, want) in HOLM {
        let got = holm(raw);
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            // Same arithmetic as statsmodels ((m − j)·p, running max, cap at 1).
            assert!(
                (g - w).abs() <= 1e-15 * w.abs(),
                "holm({raw:?}) = {got:?}, statsmodels {want:?}"
            );
        }
    }
    assert!(holm(&[]).is_empty(), "empty in, empty out");
}
