//! Nearest-rank percentiles (latency p50/p95).

/// The `p`-th percentile of `sorted` (ascending) by the nearest-rank method.
///
/// ```text
/// rank = max(1, ⌈p/100 · n⌉)          (1-based)
/// percentile = sorted[rank − 1]
/// ```
///
/// The result is always one of the observed values (no interpolation), so a p95 latency is a
/// latency some trial actually had. `p` is clamped to `[0, 100]`; `p = 0` gives the minimum
/// and `p = 100` the maximum. Returns `None` for an empty slice or a NaN `p`. The slice must be
/// sorted ascending; an unsorted slice gives a value from the slice but not the percentile.
pub fn percentile(sorted: &[u64], p: f64) -> Option<u64> {
    if sorted.is_empty() || p.is_nan() {
        return None;
    }
    debug_assert!(sorted.is_sorted(), "percentile needs an ascending slice");
    let n = sorted.len();
    let p = p.clamp(0.0, 100.0);
    // p·n first, then /100: for integer p this is exact, so ⌈95·20/100⌉ = 19, not 20.
    let rank = (p * n as f64 / 100.0).ceil() as usize;
    let index = rank.clamp(1, n) - 1;
    sorted.get(index).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_is_none() {
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(percentile(&[1, 2], f64::NAN), None);
    }

    #[test]
    fn nearest_rank_on_one_to_twenty() {
        let values: Vec<u64> = (1..=20).collect();
        assert_eq!(percentile(&values, 50.0), Some(10));
        assert_eq!(percentile(&values, 95.0), Some(19));
        assert_eq!(percentile(&values, 100.0), Some(20));
        assert_eq!(percentile(&values, 0.0), Some(1));
        assert_eq!(percentile(&values, 5.0), Some(1));
        assert_eq!(percentile(&values, 5.1), Some(2));
    }

    #[test]
    fn small_samples_pick_observed_values() {
        // Wikipedia's nearest-rank example: 15, 20, 35, 40, 50.
        let values = [15, 20, 35, 40, 50];
        assert_eq!(percentile(&values, 5.0), Some(15));
        assert_eq!(percentile(&values, 30.0), Some(20));
        assert_eq!(percentile(&values, 40.0), Some(20));
        assert_eq!(percentile(&values, 50.0), Some(35));
        assert_eq!(percentile(&values, 100.0), Some(50));
        assert_eq!(percentile(&[7], 50.0), Some(7));
        assert_eq!(percentile(&[7], 95.0), Some(7));
    }

    #[test]
    fn out_of_range_p_is_clamped() {
        assert_eq!(percentile(&[1, 2, 3], -5.0), Some(1));
        assert_eq!(percentile(&[1, 2, 3], 250.0), Some(3));
    }
}
