//! Compare: base vs head. Comparability, pairing and verdicts for two scorecards ([`eval`]);
//! the free surface diff ([`surface_diff`]); the compare document of either ([`report`]).
//! Surfaces at a git revision are read by [`crate::surface::git`].

pub mod ablate;
pub mod eval;
pub mod profiles;
pub mod report;
pub mod snapshot;
pub mod surface_diff;
