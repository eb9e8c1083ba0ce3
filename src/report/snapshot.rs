//! The snapshot document (`mf snapshot --json`, SCHEMA.md "Snapshot report"): for each server
//! declared in `mf.toml`, what it serves now against its committed snapshot.

use serde::{Deserialize, Serialize};

/// Snapshot report format version.
pub const SNAPSHOT_VERSION: u32 = 1;

/// `mf snapshot --json` (and `snapshots` in the CI report with `--live`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotReport {
    /// Format version; 1.
    pub version: u32,
    /// Always `"snapshot"`.
    pub kind: String,
    /// `write` (`mf snapshot`) or `check` (`--check`, `mf ci --live`).
    pub mode: SnapshotMode,
    /// The `mf.toml` the servers were declared in.
    pub config: String,
    /// `true` when every server was listed and (check) every snapshot is fresh.
    pub ok: bool,
    /// One entry per server, in `mf.toml`'s order of names.
    pub servers: Vec<ServerSnapshot>,
}

/// What the command was asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SnapshotMode {
    /// Write each snapshot.
    Write,
    /// Compare each snapshot with the server, write nothing.
    Check,
}

/// One server's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SnapshotStatus {
    /// (write) The file was written: new, or its content changed.
    Written,
    /// (write) The file already held exactly this listing.
    Unchanged,
    /// (check) The committed snapshot is what the server serves.
    Fresh,
    /// (check) The server serves something else.
    Stale,
    /// (check) There is no committed snapshot yet.
    Missing,
    /// The server could not be listed (or the file could not be written).
    Failed,
}

/// A tool served under the same name on both sides whose definition changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangedTool {
    /// The tool's name.
    pub name: String,
    /// The top-level fields that differ (`description`, `inputSchema`, `annotations`, …).
    pub fields: Vec<String>,
    /// JSON pointers (from the tool object) of the values that differ.
    pub pointers: Vec<String>,
}

/// One declared server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerSnapshot {
    /// The `[servers.NAME]` name.
    pub name: String,
    /// The snapshot file, as declared (relative to `mf.toml`'s folder).
    pub snapshot: String,
    /// The outcome.
    pub status: SnapshotStatus,
    /// Tools the server serves now (absent when it could not be listed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<usize>,
    /// Tools served now and not in the committed snapshot, by name.
    #[serde(default)]
    pub added: Vec<String>,
    /// Tools in the committed snapshot and no longer served, by name.
    #[serde(default)]
    pub removed: Vec<String>,
    /// Tools whose definition changed.
    #[serde(default)]
    pub changed: Vec<ChangedTool>,
    /// Why the server failed, or why the committed file could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}
