//! Compare: base vs head. Comparability, pairing and verdicts for two scorecards
//! ([`eval`]); the free surface diff ([`surface_diff`]) and surfaces at a git revision ([`git`]).

pub mod eval;
pub mod git;
pub mod surface_diff;
