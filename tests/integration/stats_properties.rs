//! Properties of mf's statistics over many deterministic inputs: ranges, symmetry,
//! monotonicity, agreement with exact integer arithmetic for small n, and the guarantees the
//! compare gate leans on (no split of 5 pairs or fewer is significant; Holm never makes a
//! p-value smaller). Reference values from SciPy/statsmodels are in `tests/integration/stats_reference.rs`.

use mf::stats::{holm, min_pairs_for_significance, paired_counts, pairs_needed, sign_test, wilson};

use crate::support::rng::Rng;

/// Counts of discordant pairs to test at: every n up to 300, then larger ones up to 10⁷.
fn sample_ns() -> Vec<u64> {
    let mut ns: Vec<u64> = (0..=300).collect();
    ns.extend([
        511, 512, 997, 1000, 1001, 4096, 10_000, 99_991, 100_000, 1_000_000, 10_000_001, 10_000_000,
    ]);
    ns
}

/// Minority counts `k ≤ n/2` to test at: all of them for small `n`, about 200 (always
/// including 0, 1, the centre and the values next to it) for large `n`.
fn sample_ks(n: u64) -> Vec<u64> {
    let half = n / 2;
    let step = (half / 200).max(1);
    let mut ks: Vec<u64> = (0..=half)
        .step_by(usize::try_from(step).expect("fits"))
        .collect();
    ks.extend([1, half.saturating_sub(1), half]);
    // Near the centre, where the p-value moves fastest for large n.
    let sd = (n as f64).sqrt() as u64;
    for d in [1, 2, 3, 5] {
        ks.push(half.saturating_sub(d * sd / 2));
    }
    ks.retain(|&k| k <= half);
    ks.sort_unstable();
    ks.dedup();
    ks
}

/// `(p, mid_p)` of the two-sided sign test with exact integers, for `n ≤ 120`.
fn exact_sign(n: u64, k: u64) -> (f64, f64) {
    let mut c: u128 = 1;
    let mut below: u128 = 0; // Σ_{i<k} C(n, i)
    for i in 0..k {
        below += c;
        c = c * u128::from(n - i) / u128::from(i + 1);
    }
    let scale = 2f64.powi(i32::try_from(n).expect("small n"));
    // Integers below 2^121 round once to f64; dividing by a power of two is exact.
    let p = ((2 * (below + c)) as f64 / scale).min(1.0);
    let mid_p = ((2 * below + c) as f64 / scale).min(1.0);
    (p, mid_p)
}

#[test]
fn sign_test_matches_exact_integers_for_every_split_up_to_120() {
    for n in 0..=120u64 {
        for k in 0..=n {
            let test = sign_test(k, n - k);
            let (p, mid_p) = exact_sign(n, k.min(n - k));
            assert!(
                (test.p - p).abs() <= 1e-13 * p,
                "p({k}, {}) = {}, exact {p}",
                n - k,
                test.p
            );
            assert!(
                (test.mid_p - mid_p).abs() <= 1e-13 * mid_p,
                "mid-p({k}, {}) = {}, exact {mid_p}",
                n - k,
                test.mid_p
            );
        }
    }
}

#[test]
fn sign_test_p_and_mid_p_are_probabilities_with_mid_p_at_most_p() {
    for n in sample_ns() {
        for k in sample_ks(n) {
            let test = sign_test(n - k, k);
            assert_eq!(test.n, n);
            assert!((0.0..=1.0).contains(&test.p), "p = {} for {k}/{n}", test.p);
            assert!(
                (0.0..=1.0).contains(&test.mid_p),
                "mid-p = {} for {k}/{n}",
                test.mid_p
            );
            assert!(test.mid_p <= test.p, "mid-p above p for {k}/{n}: {test:?}");
        }
    }
}

#[test]
fn sign_test_is_symmetric_in_improved_and_regressed() {
    for n in sample_ns() {
        for k in sample_ks(n) {
            let a = sign_test(n - k, k);
            let b = sign_test(k, n - k);
            assert_eq!((a.p, a.mid_p), (b.p, b.mid_p), "{k}/{n}");
            assert_eq!((a.improved, a.regressed), (b.regressed, b.improved));
        }
    }
}

#[test]
fn sign_test_p_falls_as_the_split_gets_more_lopsided() {
    for n in sample_ns() {
        let mut previous: Option<(u64, f64, f64)> = None;
        // From the even split outwards: k = n/2, …, 0.
        for k in sample_ks(n).into_iter().rev() {
            let test = sign_test(n - k, k);
            if let Some((pk, p, mid_p)) = previous {
                assert!(
                    test.p <= p,
                    "p rose from {p} (k = {pk}) to {} (k = {k}), n = {n}",
                    test.p
                );
                assert!(
                    test.mid_p <= mid_p,
                    "mid-p rose from {mid_p} (k = {pk}) to {} (k = {k}), n = {n}",
                    test.mid_p
                );
            }
            previous = Some((k, test.p, test.mid_p));
        }
    }
}

#[test]
fn even_splits_have_p_one_and_near_even_odd_splits_too() {
    for half in (0..=2000u64).chain([50_000, 500_000, 5_000_000]) {
        let even = sign_test(half, half);
        assert_eq!((even.p, even.mid_p), (1.0, 1.0), "{half}-{half}");
        // n odd, k = (n − 1)/2: P[X ≤ k] = ½ exactly.
        let odd = sign_test(half + 1, half);
        assert_eq!(odd.p, 1.0, "{}-{half}", half + 1);
        assert!(odd.mid_p < 1.0, "{}-{half}: {odd:?}", half + 1);
    }
}

#[test]
fn huge_n_neither_overflows_nor_turns_into_nan() {
    for n in [
        1_000_000u64,
        9_999_999,
        10_000_000,
        10_000_001,
        100_000_000,
        1 << 40,
    ] {
        for k in [0, 1, 2, n / 3, n / 2 - 10_000, n / 2 - 1, n / 2] {
            let test = sign_test(k, n - k);
            assert!(
                test.p.is_finite() && test.mid_p.is_finite(),
                "{k}/{n}: {test:?}"
            );
            assert!((0.0..=1.0).contains(&test.p) && test.mid_p <= test.p);
        }
        // Within about one standard deviation of the centre the p-value is moderate.
        let sd = (n as f64).sqrt() as u64;
        let test = sign_test(n / 2 - sd / 2, n - (n / 2 - sd / 2));
        assert!(test.p > 0.2 && test.p < 0.5, "{n}: {test:?}");
    }
}

#[test]
fn no_split_of_five_pairs_or_fewer_is_significant_at_five_percent() {
    assert_eq!(min_pairs_for_significance(0.05), 6);
    for n in 0..=5u64 {
        for k in 0..=n {
            assert!(sign_test(k, n - k).p > 0.05, "{k}-{}", n - k);
        }
    }
    assert!(sign_test(6, 0).p <= 0.05);
}

#[test]
fn min_pairs_for_significance_is_the_first_lopsided_split_to_reach_alpha() {
    let mut rng = Rng(7);
    let mut alphas: Vec<f64> = (0..2000).map(|_| rng.unit()).collect();
    // Exact powers of two (where 2^(1−n) = alpha) and the extremes.
    alphas.extend((0..1074).map(|e| (-f64::from(e)).exp2()));
    alphas.extend([
        1e-300,
        1e-310,
        f64::MIN_POSITIVE,
        0.05,
        0.01,
        0.001,
        0.999_999,
    ]);
    for alpha in alphas {
        if alpha <= 0.0 {
            continue;
        }
        let n = min_pairs_for_significance(alpha);
        assert!(sign_test(n, 0).p <= alpha, "alpha {alpha}: {n} pairs");
        assert!(
            n == 1 || sign_test(n - 1, 0).p > alpha,
            "alpha {alpha}: {} pairs suffice",
            n - 1
        );
    }
}

#[test]
fn pairs_needed_reaches_alpha_at_the_projected_split_and_not_before() {
    let alpha = 0.05;
    for improved in 0..=40u64 {
        for regressed in 0..=40u64 {
            let observed = improved + regressed;
            let needed = pairs_needed(improved, regressed, alpha);
            assert_eq!(
                needed,
                pairs_needed(regressed, improved, alpha),
                "asymmetric at {improved}-{regressed}"
            );
            let Some(more) = needed else {
                assert!(
                    observed == 0 || improved == regressed,
                    "{improved}-{regressed} cannot get there?"
                );
                continue;
            };
            let minority = improved.min(regressed);
            let projected = |total: u64| {
                let k = (2 * total * minority + observed) / (2 * observed);
                sign_test(total - k, k).p
            };
            let total = observed + more;
            assert!(projected(total) <= alpha, "{improved}-{regressed} + {more}");
            // Answers within 1000 pairs come from a scan: nothing before them reaches alpha.
            // (Larger ones come from bisection and only guarantee the crossing below.)
            assert!(
                more == 0 || projected(total - 1) > alpha,
                "{improved}-{regressed} + {more}"
            );
            if more > 1000 {
                continue;
            }
            for earlier in observed..total {
                assert!(
                    projected(earlier) > alpha,
                    "{improved}-{regressed}: {earlier} already reaches alpha"
                );
            }
        }
    }
}

#[test]
fn pairs_needed_shrinks_as_the_split_gets_more_lopsided() {
    // At a fixed total of 20 observed pairs, a more lopsided split needs no more pairs.
    let mut previous = 0;
    for minority in 0..10u64 {
        let more = pairs_needed(20 - minority, minority, 0.05).expect("uneven split");
        assert!(more >= previous, "{minority} of 20 needs {more}");
        previous = more;
    }
}

#[test]
fn paired_counts_add_up_and_swap_with_base_and_head() {
    let mut rng = Rng(11);
    for length in 0..200 {
        // Rates as an eval computes them: successes / trials with up to 5 trials per case.
        let pairs: Vec<(f64, f64)> = (0..length)
            .map(|_| {
                let rate = |rng: &mut Rng| {
                    let trials = 1 + rng.next() % 5;
                    (rng.next() % (trials + 1)) as f64 / trials as f64
                };
                (rate(&mut rng), rate(&mut rng))
            })
            .collect();
        let (improved, regressed, tied) = paired_counts(pairs.iter().copied());
        assert_eq!(improved + regressed + tied, length);
        let swapped = paired_counts(pairs.iter().map(|&(base, head)| (head, base)));
        assert_eq!(swapped, (regressed, improved, tied));
        let exact_ties = pairs.iter().filter(|(base, head)| base == head).count() as u64;
        assert_eq!(tied, exact_ties);
    }
}

/// Deterministic p-value vectors: uniform, tiny, with ties, with values above 1/m.
fn holm_vectors() -> Vec<Vec<f64>> {
    let mut rng = Rng(3);
    let mut vectors = vec![Vec::new(), vec![0.0], vec![1.0], vec![0.05; 7]];
    for length in 1..=60 {
        for shape in 0..4 {
            let vector = (0..length)
                .map(|_| match shape {
                    0 => rng.unit(),
                    1 => rng.unit().powi(6),
                    // Few distinct values: many ties.
                    2 => (rng.next() % 5) as f64 / 20.0,
                    _ => 0.5 + rng.unit() / 2.0,
                })
                .collect();
            vectors.push(vector);
        }
    }
    vectors
}

#[test]
fn holm_is_at_least_raw_at_most_one_and_at_most_bonferroni() {
    for raw in holm_vectors() {
        let adjusted = holm(&raw);
        assert_eq!(adjusted.len(), raw.len());
        let m = raw.len() as f64;
        for (&p, &a) in raw.iter().zip(&adjusted) {
            assert!(a >= p, "adjusted {a} below raw {p} in {raw:?}");
            assert!(a <= 1.0, "adjusted {a} above 1");
            assert!(
                a <= (m * p).min(1.0),
                "adjusted {a} above Bonferroni {}",
                m * p
            );
        }
    }
}

#[test]
fn holm_preserves_the_order_of_the_raw_p_values() {
    for raw in holm_vectors() {
        let adjusted = holm(&raw);
        for i in 0..raw.len() {
            for j in 0..raw.len() {
                if raw[i] < raw[j] {
                    assert!(adjusted[i] <= adjusted[j], "order broken in {raw:?}");
                }
                if raw[i] == raw[j] {
                    assert_eq!(adjusted[i], adjusted[j], "ties split in {raw:?}");
                }
            }
        }
    }
}

#[test]
fn holm_does_not_depend_on_the_input_order() {
    for raw in holm_vectors() {
        let adjusted = holm(&raw);
        let reversed: Vec<f64> = raw.iter().rev().copied().collect();
        let mut back = holm(&reversed);
        back.reverse();
        assert_eq!(adjusted, back, "{raw:?}");
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
