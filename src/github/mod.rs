//! GitHub I/O only: reading the run's context and writing to GitHub's sinks. What goes where is
//! decided by the `mf ci` pipeline (`ci::publish`); nothing here computes a figure.
//!
//! - [`event`]: the run's context from `GITHUB_*` variables and the event payload (pull request,
//!   base and head commits, fork or not, run URL).
//! - [`summary`]: the job summary (`$GITHUB_STEP_SUMMARY`, kept under 1 MiB).
//! - [`outputs`]: step outputs (`$GITHUB_OUTPUT`, multi-line values delimited).
//! - [`annotations`]: `::error`/`::warning` workflow commands for the worst findings and
//!   regressions, at most 10 per level.
//! - [`comment`]: the sticky pull request comment (a few REST calls over reqwest), found by its marker and edited in
//!   place.

pub mod annotations;
pub mod comment;
pub mod event;
pub mod outputs;
pub mod summary;
