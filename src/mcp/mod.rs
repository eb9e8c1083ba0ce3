//! `mf mcp`: mf as an MCP server over stdio, for agents that build tool surfaces and want to
//! ask mf themselves. The tools ([`tools`]) call the same engines as the commands
//! ([`handlers`]: scan, suite, coverage, authoring, lint, cluster, check, compare; [`eval`]:
//! run_eval) under limits only the operator sets ([`limits`]); the rmcp server side lives in
//! [`server`] alone.

pub mod args;
pub mod eval;
pub mod handlers;
pub mod limits;
pub mod server;
pub mod tools;

pub use limits::{Limits, LimitsError, LimitsInput};
pub use server::{ServeError, serve};
