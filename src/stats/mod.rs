//! Statistics: pure functions, each citing its formula in its doc comment.
//!
//! - [`wilson`]: the 95% Wilson score interval of a proportion (BEHAVIOR §4).
//! - [`case_level`]: a case-level figure for repeated trials (per-case majority, Wilson over
//!   cases), so repeats of one case are not mistaken for evidence about new cases.
//! - [`percentile`]: nearest-rank percentiles for latency p50/p95.
//!
//! Every function here is checked against an independent reference (statsmodels) in
//! `tests/stats_reference.rs`; the values come from `scripts/stats_reference.py`.

mod case_level;
mod percentile;
mod wilson;

pub use case_level::{CaseLevel, case_level};
pub use percentile::percentile;
pub use wilson::{Z95, wilson};
