//! The eval engine: validated settings in, a scorecard out.
//!
//! config ([`config::EvalConfig`], checked once) → suite and tools ([`evaluate::load_suite`])
//! → models ([`models`]) → plan (cases × repeat × models, seeded tool order, budgets) → run
//! (tokio, concurrency, retries, cancel, cache; progress to an [`evaluate::Observer`]) → score
//! (verdicts, argument checks) → metrics (stats) → scorecard assembly and gates ([`scorecard`]).

pub mod args;
pub mod author;
pub mod batch;
pub mod cache;
pub mod case_tools;
pub mod cases;
pub mod check_suite;
pub mod config;
pub mod dry_run;
mod error;
pub mod evaluate;
pub mod execute;
pub mod leave_out;
pub mod merge;
pub mod models;
pub mod mount;
pub mod plan;
pub mod power;
pub mod robustness;
pub mod run;
pub mod score;
mod scorecard;
pub mod shard;
pub mod task_lint;

pub use config::{EvalConfig, EvalGates};
pub use error::EvalError;
pub use evaluate::{EvalOutcome, LoadedSuite, Observer, evaluate, load_suite};

use serde::{Deserialize, Serialize};

use crate::providers::{Reply, TrialError};

/// What happened in one trial: the model's reply or the error, with timing and retries.
/// The runner produces these; scoring reads them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialRecord {
    /// The model label (`--models` entry).
    pub model: String,
    /// The case id.
    pub case_id: String,
    /// 0-based repeat index of this trial for (model, case).
    pub trial: u32,
    /// Tool names in the order they were sent.
    pub order: Vec<String>,
    /// The reply, or why there is none.
    pub outcome: Result<Reply, TrialError>,
    /// Wall time of the successful attempt in milliseconds (`None` when served from the cache
    /// without a recorded latency, or never answered).
    pub latency_ms: Option<u64>,
    /// Retries spent on this trial (0 = first attempt answered).
    pub retries: u32,
    /// Served from the cache (no request sent in this run).
    pub cached: bool,
}
