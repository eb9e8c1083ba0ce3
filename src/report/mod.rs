//! The serde data model of every JSON document mf writes. SCHEMA.md is its prose twin.

pub mod ablate;
pub mod cases;
pub mod cases_added;
pub mod check;
pub mod ci;
pub mod cluster;
pub mod compare;
pub mod coverage;
pub mod exec;
pub mod lint;
pub mod metrics;
pub mod mount;
pub mod scan;
pub mod scorecard;
pub mod snapshot;
pub mod tasks_lint;
pub mod trial;
