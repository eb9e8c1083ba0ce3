//! Why an eval could not run: its settings, its suite or surface, its models, a budget, or the
//! machinery (runtime, HTTP client, a script file).

use super::config::EvalConfigError;
use super::plan::BudgetError;
use crate::providers::config::ConfigError;
use crate::suite::SuiteError;
use crate::suite::input::ResolveError;

/// Everything that stops an eval before or instead of a scorecard.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A setting out of range.
    #[error(transparent)]
    Config(#[from] EvalConfigError),
    /// The suite could not be read or is not ready for eval.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// The surface the suite names could not be read.
    #[error(transparent)]
    Surface(#[from] ResolveError),
    /// A model does not resolve, or its key is missing.
    #[error(transparent)]
    Models(#[from] ConfigError),
    /// A budget refuses the plan (trials, tools).
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// Budgets or missing keys refuse the plan: every reason at once.
    #[error("the plan cannot run ({} reason{}):\n{}", .0.len(), if .0.len() == 1 { "" } else { "s" }, .0.iter().map(|e| format!("  - {e}")).collect::<Vec<_>>().join("\n"))]
    Refused(Vec<BudgetError>),
    /// The plan cannot be made: no tools, duplicate names, an unknown profile or case.
    #[error("{0}")]
    Plan(String),
    /// A `scripted:FILE` model's script could not be read.
    #[error("{0}")]
    Script(String),
    /// The async runtime could not start.
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}
