//! The GitHub layer of `mf ci`: it decides which renderings go where, and computes nothing.
//!
//! - [`event`]: the run's context from `GITHUB_*` variables and the event payload (pull request,
//!   base and head commits, fork or not, run URL).
//! - [`summary`]: the job summary (`$GITHUB_STEP_SUMMARY`, kept under 1 MiB).
//! - [`outputs`]: step outputs (`$GITHUB_OUTPUT`, multi-line values delimited).
//! - [`annotations`]: `::error`/`::warning` workflow commands for the worst findings and
//!   regressions, at most 10 per level.
//! - [`comment`]: the sticky pull request comment (octocrab), found by its marker and edited in
//!   place.
//! - [`base`]: files at the base commit and the cache of base scorecards.

pub mod annotations;
pub mod base;
pub mod comment;
pub mod event;
pub mod outputs;
pub mod summary;
