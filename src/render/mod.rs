//! Renderers: one module per output format, each a plain function from report data to bytes.
//! A renderer never computes a statistic; it only lays out what the report holds.

pub mod json;
pub mod junit;
pub mod lint_terminal;
pub mod markdown;
pub mod sarif;
pub mod terminal;
