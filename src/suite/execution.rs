//! The suite's `execution` block, a tool's `sideEffects` and a case's `expect` (SCHEMA v1 of the
//! original mf, compat): how `mf exec` and `mf eval --execute` run a tool implementation, what a
//! tool may touch, and what its result must satisfy. Data only; the engine is `exec/`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The language a suite's tool implementations are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Runtime {
    /// An ES module (or CommonJS file) run by `node`.
    Node,
    /// A Python module run by `python3` (or `execution.python`).
    Python,
}

impl Runtime {
    /// `node` / `python`.
    pub fn as_str(self) -> &'static str {
        match self {
            Runtime::Node => "node",
            Runtime::Python => "python",
        }
    }
}

/// `execution`: where the implementations are and the default policy. Command-line flags
/// override every field. Paths are relative to the suite file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Execution {
    /// `node` or `python`.
    pub runtime: Runtime,
    /// The module holding the implementations (`tools/index.mjs`, `tools/impl.py`).
    pub entry: String,
    /// The Python interpreter (default `python3` on PATH).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub python: Option<String>,
    /// Node: the exported object whose methods are the tools (default: one export per tool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub export: Option<String>,
    /// Per-call timeout in milliseconds (default 10,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Extra paths the tool may read (inside the suite's folder).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow_read: Vec<String>,
    /// Paths the tool may write (inside the suite's folder).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow_write: Vec<String>,
    /// Whether the tool may use the network.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_net: bool,
}

/// What a tool may touch (`tools[].sideEffects`), the basis of exec admission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SideEffects {
    /// Pure computation.
    None,
    /// Reads files or state.
    Read,
    /// Writes files or state: needs `--allow-write PATH`.
    Write,
    /// Talks to the outside world: needs `--allow-net`.
    External,
}

impl SideEffects {
    /// `none`, `read`, `write`, `external`.
    pub fn as_str(self) -> &'static str {
        match self {
            SideEffects::None => "none",
            SideEffects::Read => "read",
            SideEffects::Write => "write",
            SideEffects::External => "external",
        }
    }
}

/// `expect.contains`: one substring or several (all must occur).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Contains {
    /// One substring.
    One(String),
    /// Every one of these.
    All(Vec<String>),
}

impl Contains {
    /// The substrings.
    pub fn items(&self) -> Vec<&str> {
        match self {
            Contains::One(s) => vec![s.as_str()],
            Contains::All(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// A case's `expect`: what the executed tool's result must satisfy. Every field is optional;
/// `{}` only asks that the call ran (within the timeout and caps).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Expect {
    /// `true`: the call returned; `false`: it threw (raised).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    /// Substring(s) of the result as JSON text (a string result: the string itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contains: Option<Contains>,
    /// The result, as JSON, equals this value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<Value>,
    /// The thrown error's type (`TypeError`, `PermissionError`) or code (`ERR_ACCESS_DENIED`,
    /// `ENOENT`); implies `ok: false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_type: Option<String>,
    /// The call took at most this many milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(rename = "maxDurationMs")]
    pub max_duration_ms: Option<u64>,
    /// The process's peak resident memory stayed at or under this many MiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(rename = "maxPeakRssMB")]
    pub max_peak_rss_mb: Option<f64>,
}
