//! A case-level figure for repeated trials: how many distinct cases the model gets right.
//!
//! Repeats of one case measure how stable the model is on that case, not how it does on new
//! cases; an interval over trials is too narrow when the same few cases are repeated. This
//! module scores each case once (by the majority of its trials) and puts the Wilson interval
//! over cases, so its `n` is the number of distinct cases.

use super::wilson::wilson;

/// The case-level figure of a set of cases with repeated trials. See [`case_level`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CaseLevel {
    /// Cases with at least one trial (cases with zero trials are unmeasured and left out).
    pub cases: u64,
    /// Cases where strictly more than half of the trials succeeded.
    pub majority_correct: u64,
    /// Cases where exactly half of the trials succeeded (counted as not correct).
    pub ties: u64,
    /// `majority_correct / cases`; `None` when `cases = 0`.
    pub rate: Option<f64>,
    /// 95% Wilson interval of `majority_correct` out of `cases`; `None` when `cases = 0`.
    pub ci95: Option<(f64, f64)>,
}

/// Score each case by the majority of its trials, then the Wilson interval over cases.
///
/// `per_case` holds one `(successes, trials)` pair per distinct case. A case counts as correct
/// when `2·successes > trials` (a strict majority). A tie (`2·successes = trials`, possible with
/// an even number of scored trials, e.g. when one of five repeats errored) counts as **not**
/// correct: a case the model gets right only half of the time is not one it can be relied on
/// for, and counting it whole or half would make the figure depend on how errors fell. Ties are
/// reported apart so the choice is visible. Pairs with `trials = 0` are skipped; pairs with
/// `successes > trials` are clamped to `successes = trials`.
///
/// ```text
/// cases            = #{c : trials_c > 0}
/// majority_correct = #{c : 2·successes_c > trials_c}
/// rate             = majority_correct / cases
/// ci95             = wilson(majority_correct, cases)        (see `wilson`)
/// ```
///
/// Why the Wilson interval over per-case majorities rather than a cluster bootstrap: it is
/// deterministic without a seed, needs no resampling, is exact to compare against a reference,
/// and its `n` (the number of distinct cases) is what a reader should weigh the figure by.
pub fn case_level(per_case: &[(u64, u64)]) -> CaseLevel {
    let mut cases = 0u64;
    let mut majority_correct = 0u64;
    let mut ties = 0u64;
    for &(successes, trials) in per_case {
        if trials == 0 {
            continue;
        }
        let successes = successes.min(trials);
        cases += 1;
        // Compare without overflow: 2·s > t  ⇔  s > t − s.
        let failures = trials - successes;
        if successes > failures {
            majority_correct += 1;
        } else if successes == failures {
            ties += 1;
        }
    }
    let rate = (cases > 0).then(|| majority_correct as f64 / cases as f64);
    CaseLevel {
        cases,
        majority_correct,
        ties,
        rate,
        ci95: wilson(majority_correct, cases),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_cases_is_unmeasured() {
        let level = case_level(&[]);
        assert_eq!(level.cases, 0);
        assert_eq!(level.rate, None);
        assert_eq!(level.ci95, None);
        assert_eq!(case_level(&[(0, 0), (0, 0)]).cases, 0);
    }

    #[test]
    fn majority_decides_each_case_and_ties_are_not_correct() {
        // 5/5 and 3/5 are majorities; 2/5 is not; 2/4 is a tie; 0/0 is skipped.
        let level = case_level(&[(5, 5), (3, 5), (2, 5), (2, 4), (0, 0)]);
        assert_eq!(level.cases, 4);
        assert_eq!(level.majority_correct, 2);
        assert_eq!(level.ties, 1);
        assert_eq!(level.rate, Some(0.5));
        assert_eq!(level.ci95, wilson(2, 4));
    }

    #[test]
    fn interval_counts_cases_not_trials() {
        // One case repeated 1000 times is one case: the interval stays wide.
        let level = case_level(&[(1000, 1000)]);
        assert_eq!(level.cases, 1);
        let (lo, hi) = level.ci95.expect("one case");
        assert_eq!(hi, 1.0);
        assert!(
            lo < 0.25,
            "one case cannot give a narrow interval, got {lo}"
        );
    }

    #[test]
    fn huge_counts_do_not_overflow() {
        let level = case_level(&[(u64::MAX, u64::MAX), (u64::MAX / 2, u64::MAX)]);
        assert_eq!(level.majority_correct, 1);
        assert_eq!(level.ties, 0);
    }
}
