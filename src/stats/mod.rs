//! Statistics: pure functions, each citing its formula in its doc comment.
//!
//! - [`wilson`]: the 95% Wilson score interval of a proportion (BEHAVIOR §4).
//! - [`case_level`]: a case-level figure for repeated trials (per-case majority, Wilson over
//!   cases), so repeats of one case are not mistaken for evidence about new cases.
//! - [`percentile`]: nearest-rank percentiles for latency p50/p95.
//! - [`sign_test`]: the exact two-sided sign test (p and mid-p) of a paired comparison, fed by
//!   [`paired_counts`] (case-level pairing of base and head success rates), with
//!   [`min_pairs_for_significance`] and the planning estimate [`pairs_needed`].
//! - [`holm`]: Holm–Bonferroni adjusted p-values for the many per-tool and per-pair tests.
//! - [`paired_difference`]: the paired difference head − base with a case-clustered 95%
//!   interval (Miller 2024), the effect size every compared metric shows.
//! - [`calibrated_test`]: the calibrated test of base, base again (A/A) and head — an exact
//!   randomization test that head's cases fell more often than drift explains.
//! - [`power`], [`cases_for_power`], [`calibrated_min_fall`]: what a suite can reveal before
//!   it is run.
//!
//! Numerics. The distributions come from `statrs` wherever it meets the reference tests to
//! 1e-9: Student's t quantile (`StudentsT::inverse_cdf`, in [`paired_difference`], below 1000
//! degrees of freedom; above, where statrs drifts by up to 1e-5, a Cornish–Fisher expansion) and the
//! binomial tails at `p ≠ ½` (`Binomial::sf`, in [`calibrated_test`] and [`power`]). Two pieces
//! stay hand-written because statrs cannot meet them: the fair-coin sign test (`binomial.rs`,
//! `sign.rs`), computed in log space so that `p ≈ 1e-301` at `n = 1000` and subnormal p-values
//! come out right and `n = 10⁶` neither overflows nor takes `O(n)` (statrs' incomplete beta
//! loses relative precision far in the tail), and the Wilson interval's fixed `z` ([`Z95`],
//! a constant, not a quantile call).
//!
//! Every function here is checked against an independent reference (statsmodels, SciPy, exact
//! integer arithmetic) in `tests/stats_reference.rs`; the values come from
//! `scripts/stats_reference.py`. Properties over many inputs are in `tests/stats_properties.rs`.

mod binomial;
mod calibrated;
mod case_level;
mod cluster;
mod holm;
mod percentile;
mod power;
mod sign;
mod wilson;

pub use calibrated::{CalibratedTest, binomial_at_least, calibrated_min_fall, calibrated_test};
pub use case_level::{CaseLevel, case_level};
pub use cluster::{PairedDifference, paired_difference, t_quantile_975};
pub use holm::holm;
pub use percentile::percentile;
pub use power::{cases_for_power, power};
pub use sign::{SignTest, min_pairs_for_significance, paired_counts, pairs_needed, sign_test};
pub use wilson::{Z95, wilson};
