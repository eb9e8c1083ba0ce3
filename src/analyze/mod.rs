//! Analyses of a surface that need no model: similarity, lint, cluster, the install gate and
//! coverage. They read a [`crate::surface::Surface`] and return plain data; they never print.

pub mod baseline;
pub mod check;
pub mod cluster;
pub mod confusable;
pub mod coverage;
pub mod lint;
pub mod similarity;
