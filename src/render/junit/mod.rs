//! JUnit XML (quick-junit) for CI test reporters: [`lint`](mod@lint) (findings as testcases,
//! failing at `--fail-on`) and [`eval`] (a scorecard's cases, a compare's metrics, and a ci
//! run's lint, eval and compare suites together). Re-exported here by document:
//! `junit::lint`, `junit::scorecard`, `junit::compare`, `junit::ci`.

pub mod eval;
pub mod lint;

pub use eval::{ci, compare, junit as scorecard};
pub use lint::{SUITE_NAME, lint};
