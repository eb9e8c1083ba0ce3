//! Holm–Bonferroni adjusted p-values, so that many per-tool and per-pair tests are not read as
//! many independent chances to call a regression (BEHAVIOR §4).

/// Holm–Bonferroni step-down adjusted p-values, in the order of the input.
///
/// With the `m` p-values sorted ascending, `p_(0) ≤ p_(1) ≤ … ≤ p_(m−1)` (0-based):
///
/// ```text
/// adj_(i) = max_{j ≤ i} min(1, (m − j)·p_(j))
/// ```
///
/// and each adjusted value is written back at its input's position. Rejecting every test
/// whose adjusted value is `≤ alpha` controls the family-wise error rate at `alpha` under any
/// dependence between the tests (Holm 1979). The adjusted values are `≥` the raw ones, `≤ 1`,
/// and in the same order as the raw ones (tied raw values get the same adjusted value). This
/// is statsmodels' `multipletests(p, method="holm")[1]`, checked in `tests/stats_reference.rs`.
///
/// Inputs are expected in `[0, 1]`; a value outside is clamped to it, and NaN (a test that
/// produced no p-value) is taken as `1`, the conservative choice, still counting towards `m`.
/// An empty slice gives an empty vector.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let clean: Vec<f64> = p
        .iter()
        .map(|&value| {
            if value.is_nan() {
                1.0
            } else {
                value.clamp(0.0, 1.0)
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| clean[a].total_cmp(&clean[b]));
    let mut adjusted = vec![0.0; m];
    let mut running = 0.0_f64;
    for (j, &index) in order.iter().enumerate() {
        let scaled = ((m - j) as f64 * clean[index]).min(1.0);
        running = running.max(scaled);
        adjusted[index] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_in_empty_out() {
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn one_test_is_unadjusted() {
        assert_eq!(holm(&[0.03]), vec![0.03]);
    }

    #[test]
    fn step_down_by_hand() {
        // Sorted 0.01, 0.02, 0.04 with m = 3: 0.03, max(0.03, 0.04) = 0.04, max(0.04, 0.04).
        // Input order is kept.
        let adjusted = holm(&[0.04, 0.01, 0.02]);
        assert!((adjusted[0] - 0.04).abs() < 1e-15);
        assert!((adjusted[1] - 0.03).abs() < 1e-15);
        assert!((adjusted[2] - 0.04).abs() < 1e-15);
    }

    #[test]
    fn capped_at_one_and_monotone() {
        assert_eq!(holm(&[0.5, 0.6, 0.9]), vec![1.0, 1.0, 1.0]);
        assert_eq!(holm(&[0.001, 0.8]), vec![0.002, 0.8]);
    }

    #[test]
    fn nan_and_out_of_range_inputs_are_conservative() {
        assert_eq!(holm(&[f64::NAN, 0.01]), vec![1.0, 0.02]);
        assert_eq!(holm(&[-0.5, 7.0]), vec![0.0, 1.0]);
    }
}
