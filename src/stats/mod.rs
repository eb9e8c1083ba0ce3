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
//!
//! Every function here is checked against an independent reference (statsmodels, SciPy, exact
//! integer arithmetic) in `tests/stats_reference.rs`; the values come from
//! `scripts/stats_reference.py`. Properties over many inputs are in `tests/stats_properties.rs`.

mod binomial;
mod case_level;
mod holm;
mod percentile;
mod sign;
mod wilson;

pub use case_level::{CaseLevel, case_level};
pub use holm::holm;
pub use percentile::percentile;
pub use sign::{SignTest, min_pairs_for_significance, paired_counts, pairs_needed, sign_test};
pub use wilson::{Z95, wilson};
