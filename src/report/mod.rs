//! The serde data model of every JSON document mf writes. SCHEMA.md is its prose twin.

pub mod scan;
