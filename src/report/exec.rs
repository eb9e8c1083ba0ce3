//! The execution documents (SCHEMA.md "Exec result", "Sandbox check", "Execution in the
//! scorecard"): one tool call's result from `mf exec`, the machine's isolation engines from
//! `mf sandbox check`, and the execution part of an eval scorecard.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::metrics::Rate;

/// Exec result format version.
pub const EXEC_VERSION: u32 = 1;

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExecStatus {
    /// The tool returned a value (`ok: true`).
    Ok,
    /// The tool threw or raised (`ok: false`, `error` says what).
    Error,
    /// Refused by admission before anything ran (exit 3).
    Refused,
    /// The arguments do not satisfy the tool's input schema; nothing ran (exit 1).
    InvalidInput,
    /// Killed at the timeout with its whole process group (exit 4).
    Timeout,
    /// Killed over the memory cap.
    MemoryExceeded,
    /// Killed over the output cap.
    OutputExceeded,
    /// The process died without a result (a crash, a bad entry, a missing function).
    Crashed,
}

impl ExecStatus {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ExecStatus::Ok => "ok",
            ExecStatus::Error => "error",
            ExecStatus::Refused => "refused",
            ExecStatus::InvalidInput => "invalid-input",
            ExecStatus::Timeout => "timeout",
            ExecStatus::MemoryExceeded => "memory-exceeded",
            ExecStatus::OutputExceeded => "output-exceeded",
            ExecStatus::Crashed => "crashed",
        }
    }
}

/// What a tool threw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecError {
    /// The error's class (`Error`, `TypeError`, `PermissionError`, `FileNotFoundError`), or mf's
    /// own (`Timeout`, `MemoryExceeded`, `OutputExceeded`, `Crashed`, `Refused`, `InvalidInput`).
    #[serde(rename = "type")]
    pub kind: String,
    /// Its code when it has one (`ERR_ACCESS_DENIED`, `ENOENT`, errno names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Its message (at most 2,000 characters).
    pub message: String,
}

/// How strongly a call was isolated, said honestly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Isolation {
    /// `node-permission`, `bubblewrap`, `landlock` or `plain`.
    pub engine: String,
    /// The Node permission flag used (`--permission`, `--experimental-permission`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// File reads outside the allow list: `denied` or `not-enforced`.
    pub filesystem: String,
    /// The network: `denied`, `allowed` or `not-enforced`.
    pub network: String,
    /// Resource limits applied (`timeout`, `memory`, `output`, `file-size`, `no-core`).
    pub limits: Vec<String>,
    /// What this engine does not cover, and what a stronger one would need.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// `mf exec --format json`: one call's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecReport {
    /// Format version (1).
    pub version: u32,
    /// Always `"exec"`.
    pub kind: String,
    /// The tool.
    pub tool: String,
    /// `node` or `python`.
    pub runtime: String,
    /// The entry module, as written in the suite (or `--entry`).
    pub entry: String,
    /// How it ended.
    pub status: ExecStatus,
    /// True when the tool returned a value.
    pub ok: bool,
    /// The returned value (JSON), when `ok`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// What went wrong, when not `ok`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ExecError>,
    /// Why admission refused the call (`status: refused`), or every schema violation
    /// (`status: invalid-input`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// The tool call's own time in milliseconds, as the harness measured it around the call
    /// (the process's wall time when the harness could not say; 0 when nothing ran).
    pub duration_ms: u64,
    /// Wall time of the whole process (interpreter start and sandbox set-up included).
    pub wall_ms: u64,
    /// Peak resident memory of the process in MiB; `null` when nothing ran or it was not
    /// measured.
    #[serde(rename = "peakRssMB")]
    pub peak_rss_mb: Option<f64>,
    /// The last lines the tool wrote on stdout/stderr besides its result (at most 4 KiB).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub logs: String,
    /// The isolation the call ran under (`null` when nothing ran).
    pub isolation: Option<Isolation>,
}

/// One isolation engine as `mf sandbox check` found it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EngineProbe {
    /// `node-permission`, `bubblewrap`, `landlock`, `seccomp`, `plain`.
    pub name: String,
    /// Whether it works on this machine (probed by running it, not by version alone).
    pub available: bool,
    /// Whether `mf exec` uses it when available.
    pub used: bool,
    /// The version, flag or ABI found (`--experimental-permission`, `0.8.0`, `abi 6`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Why not, or what it covers.
    pub note: String,
}

/// What a runtime's call would run under here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimePlan {
    /// `node` or `python`.
    pub runtime: String,
    /// The interpreter found (`node v20.20.2`, `/usr/bin/python3 3.11.7`); `null` when none.
    pub interpreter: Option<String>,
    /// The engine a call gets, best first among those available; `null` when the runtime is
    /// missing.
    pub engine: Option<String>,
    /// The engines it would fall back to, in order, when the first is unavailable.
    pub fallback: Vec<String>,
    /// The isolation it gets (as in an exec result).
    pub isolation: Option<Isolation>,
}

/// `mf sandbox check --format json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SandboxReport {
    /// Format version (1).
    pub version: u32,
    /// Always `"sandbox-check"`.
    pub kind: String,
    /// `linux`, `macos`, `windows`, …
    pub platform: String,
    /// Every engine mf knows, probed.
    pub engines: Vec<EngineProbe>,
    /// Node and Python: what a call would run under.
    pub runtimes: Vec<RuntimePlan>,
}

/// `suite.execution` in a scorecard: which implementation ran, so `mf compare` can refuse runs
/// of different ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecutionInfo {
    /// `node` or `python`.
    pub runtime: String,
    /// The engine Python/Node calls ran under.
    pub engine: String,
    /// The entry module as written.
    pub entry: String,
    /// `sha256:` of the entry file's bytes.
    pub hash: String,
    /// `toolInput` (the case's arguments) or `model-args` (the model's, where `toolInput` is
    /// absent).
    pub inputs: String,
}

/// One trial's execution (`trials[].execution`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialExecution {
    /// Every expectation held.
    pub passed: bool,
    /// How the call ended.
    pub status: ExecStatus,
    /// The expectations that failed, one sentence each (`contains "pdf": not in the result`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
    /// The result or error as text, cut to 300 characters.
    pub output: String,
    /// Wall time in milliseconds.
    pub duration_ms: u64,
    /// Peak resident memory in MiB.
    #[serde(rename = "peakRssMB")]
    pub peak_rss_mb: Option<f64>,
}

/// One case's executions for one model (`models[].execution.cases[]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseExecution {
    /// Case id.
    pub case: String,
    /// The tool that ran.
    pub tool: String,
    /// Executions (trials that picked the expected tool).
    pub executed: u64,
    /// Executions whose expectations all held.
    pub passed: u64,
    /// Trials of the case that did not run anything, and why (`picked search_docs`, `no call`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<String>,
    /// The first failing execution's failed expectations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
    /// The first failing (else the first) execution's output excerpt.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub output: String,
}

/// `models[].execution`: the execution metric of one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelExecution {
    /// Executions that passed / executions run, with its Wilson interval.
    pub rate: Rate,
    /// Per case with `expect` (or `toolInput`), in suite order.
    pub cases: Vec<CaseExecution>,
}
