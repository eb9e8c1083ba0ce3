//! Exec settings: the suite's `execution` block merged with the command line's flags (flags win)
//! into one validated [`ExecSetup`]. Paths a suite names (entry, `allowRead`, `allowWrite`) must
//! stay inside the suite's folder: a repository cannot grant itself `~/.ssh`. Paths given on the
//! command line are the user's own choice and may be anywhere; they must exist.

use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::ExecError;
use crate::suite::Suite;
use crate::suite::execution::Runtime;

/// Default per-call timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// Default memory cap (MiB).
pub const DEFAULT_MEMORY_MB: u64 = 512;
/// Default cap on what a call may write on stdout (bytes).
pub const DEFAULT_OUTPUT_BYTES: u64 = 1024 * 1024;
/// The largest file a call may write (`RLIMIT_FSIZE`).
pub const FILE_SIZE_CAP: u64 = 64 * 1024 * 1024;

/// Which engine a Python call runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// The strongest available: bubblewrap, then Landlock, then plain.
    #[default]
    Auto,
    /// bubblewrap (fails when unavailable).
    Bubblewrap,
    /// Landlock through the exec shim (fails when unavailable).
    Landlock,
    /// A plain process: scrubbed environment, fresh temp folder, resource limits.
    Plain,
}

/// What the command line says (every field optional except the caps).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecFlags {
    /// `--runtime`.
    pub runtime: Option<Runtime>,
    /// `--entry` (relative to the current folder).
    pub entry: Option<PathBuf>,
    /// `--export`.
    pub export: Option<String>,
    /// `--python`.
    pub python: Option<String>,
    /// `--timeout` (seconds, as a duration).
    pub timeout: Option<Duration>,
    /// `--allow-read`.
    pub allow_read: Vec<PathBuf>,
    /// `--allow-write`.
    pub allow_write: Vec<PathBuf>,
    /// `--allow-net`.
    pub allow_net: bool,
    /// `--env NAME`: variables passed through by name.
    pub env: Vec<String>,
    /// `--max-memory-mb` (None = default).
    pub max_memory_mb: Option<u64>,
    /// `--max-output-bytes` (None = default).
    pub max_output_bytes: Option<u64>,
    /// `--engine`.
    pub engine: EngineChoice,
}

/// Everything a call needs, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecSetup {
    /// The runtime.
    pub runtime: Runtime,
    /// The entry file (absolute, canonical).
    pub entry: PathBuf,
    /// The entry as written (for reports).
    pub entry_display: String,
    /// `sha256:` of the entry's bytes.
    pub entry_hash: String,
    /// Node: the export holding the tools.
    pub export: Option<String>,
    /// The Python interpreter to resolve.
    pub python: String,
    /// Per-call timeout.
    pub timeout: Duration,
    /// Extra readable paths (absolute, canonical).
    pub allow_read: Vec<PathBuf>,
    /// Writable paths (absolute, canonical).
    pub allow_write: Vec<PathBuf>,
    /// Network allowed.
    pub allow_net: bool,
    /// Variables passed by name.
    pub env: Vec<String>,
    /// Memory cap in bytes.
    pub max_memory_bytes: u64,
    /// Stdout cap in bytes.
    pub max_output_bytes: u64,
    /// The engine asked for.
    pub engine: EngineChoice,
}

fn canonical(p: &Path, what: &str) -> Result<PathBuf, ExecError> {
    std::fs::canonicalize(p).map_err(|e| {
        ExecError::Config(format!(
            "{what} {}: {e} (it must exist; create the folder first)",
            p.display()
        ))
    })
}

/// A path the suite names, resolved against its folder and required to stay inside it.
fn inside_suite(
    base: &Path,
    rel: &str,
    field: &str,
    suite_display: &str,
) -> Result<PathBuf, ExecError> {
    let joined = base.join(rel);
    let path = canonical(&joined, &format!("{suite_display}: execution.{field}"))?;
    if !path.starts_with(base) {
        return Err(ExecError::Config(format!(
            "{suite_display}: execution.{field} {rel:?} is outside the suite's folder; a suite may \
             only name paths inside it (give outside paths on the command line)"
        )));
    }
    Ok(path)
}

/// The `sha256:` of a file's bytes.
pub fn file_hash(path: &Path) -> Result<String, ExecError> {
    let bytes = std::fs::read(path)
        .map_err(|e| ExecError::Config(format!("cannot read {}: {e}", path.display())))?;
    let digest = Sha256::digest(&bytes);
    Ok(format!(
        "sha256:{}",
        digest
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    ))
}

/// Merge the suite's `execution` (at `suite_path`) with `flags` into a setup.
pub fn resolve(
    suite: &Suite,
    suite_path: &Path,
    suite_display: &str,
    flags: &ExecFlags,
) -> Result<ExecSetup, ExecError> {
    let file = suite.execution.as_ref();
    let parent = suite_path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let base = canonical(parent, "the suite's folder")?;
    let runtime = flags.runtime.or(file.map(|f| f.runtime)).ok_or_else(|| {
        ExecError::Config(format!(
            "{suite_display} has no `execution` block: add {{\"execution\": {{\"runtime\": \
                 \"node\", \"entry\": \"tools/index.mjs\"}}}} or pass --runtime and --entry"
        ))
    })?;
    let (entry, entry_display) = match (&flags.entry, file) {
        (Some(p), _) => (
            canonical(p, "--entry")?,
            p.to_string_lossy().replace('\\', "/"),
        ),
        (None, Some(f)) => (
            inside_suite(&base, &f.entry, "entry", suite_display)?,
            f.entry.clone(),
        ),
        (None, None) => {
            return Err(ExecError::Config(
                "no entry: pass --entry FILE or add execution.entry to the suite".into(),
            ));
        }
    };
    if !entry.is_file() {
        return Err(ExecError::Config(format!(
            "the entry {entry_display} is not a regular file"
        )));
    }
    let mut allow_read = Vec::new();
    let mut allow_write = Vec::new();
    if let Some(f) = file {
        for r in &f.allow_read {
            allow_read.push(inside_suite(&base, r, "allowRead", suite_display)?);
        }
        for w in &f.allow_write {
            allow_write.push(inside_suite(&base, w, "allowWrite", suite_display)?);
        }
    }
    for r in &flags.allow_read {
        allow_read.push(canonical(r, "--allow-read")?);
    }
    for w in &flags.allow_write {
        allow_write.push(canonical(w, "--allow-write")?);
    }
    allow_read.sort();
    allow_read.dedup();
    allow_write.sort();
    allow_write.dedup();
    let timeout = flags
        .timeout
        .or(file.and_then(|f| f.timeout_ms).map(Duration::from_millis))
        .unwrap_or(DEFAULT_TIMEOUT);
    if timeout.is_zero() {
        return Err(ExecError::Config("the timeout must be above 0".into()));
    }
    for name in &flags.env {
        if name.is_empty() || name.contains('=') {
            return Err(ExecError::Config(format!(
                "--env {name:?}: give a variable name (its value is read from mf's environment)"
            )));
        }
    }
    if let Some(py) = file.and_then(|f| f.python.as_deref())
        && flags.python.is_none()
        && (py.contains('/') || py.contains('\\') || py.trim().is_empty())
    {
        return Err(ExecError::Config(format!(
            "{suite_display}: execution.python {py:?} must be a command name on PATH (python3, \
             python3.12): mf runs the interpreter once to find its installation, so a path is \
             taken only from --python"
        )));
    }
    Ok(ExecSetup {
        runtime,
        entry_hash: file_hash(&entry)?,
        entry,
        entry_display,
        export: flags
            .export
            .clone()
            .or_else(|| file.and_then(|f| f.export.clone())),
        python: flags
            .python
            .clone()
            .or_else(|| file.and_then(|f| f.python.clone()))
            .unwrap_or_else(|| "python3".into()),
        timeout,
        allow_read,
        allow_write,
        allow_net: flags.allow_net || file.is_some_and(|f| f.allow_net),
        env: flags.env.clone(),
        max_memory_bytes: flags.max_memory_mb.unwrap_or(DEFAULT_MEMORY_MB) * 1024 * 1024,
        max_output_bytes: flags.max_output_bytes.unwrap_or(DEFAULT_OUTPUT_BYTES),
        engine: flags.engine,
    })
}
