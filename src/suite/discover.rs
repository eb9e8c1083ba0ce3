//! Where a suite is when none is named: `mf.suite.json`, `mf.suite.yaml`, `mf.suite.yml` in a
//! folder, a hand-written one before a `draft: true` scan output.

use std::path::{Path, PathBuf};

use crate::surface::formats::{self, MAX_FILE_BYTES};
use crate::util::safe_read::ReadPolicy;

/// Suite files looked for when `--suite` is not given, in this order.
pub const DEFAULT_SUITES: &[&str] = &["mf.suite.json", "mf.suite.yaml", "mf.suite.yml"];

/// The default suite files that exist in `dir` (`""` = the current folder), in order.
pub fn defaults_in(dir: &Path) -> Vec<PathBuf> {
    DEFAULT_SUITES
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| p.is_file())
        .collect()
}

/// The first default suite in `dir`, preferring one that is not a `draft: true` scan output.
pub fn default_suite(dir: &Path) -> Option<PathBuf> {
    let found = defaults_in(dir);
    let is_draft =
        |p: &PathBuf| super::read_suite_any(p, &p.to_string_lossy()).is_ok_and(|s| s.draft);
    found
        .iter()
        .find(|p| !is_draft(p))
        .or(found.first())
        .cloned()
}

/// What sits at a default suite path, read through the safe-open (never through a symlink,
/// never blocking on a FIFO, size-capped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuiteFile {
    /// Nothing there.
    Missing,
    /// Something that is not readably a JSON document: a symlink, a folder, a FIFO, too large,
    /// not UTF-8, not JSON.
    Unreadable,
    /// A JSON document with `draft: true` (a scan's output).
    Draft,
    /// A JSON document a person owns.
    Authored,
}

/// The state of the JSON suite at `path`. `mf scan` writes over only `Missing` and `Draft`;
/// the free commands take only an `Authored` suite as their default input.
pub fn suite_file(path: &Path) -> SuiteFile {
    if std::fs::symlink_metadata(path).is_err() {
        return SuiteFile::Missing;
    }
    let policy = ReadPolicy {
        root: None,
        follow_symlinks: false,
        limit: MAX_FILE_BYTES,
    };
    let Some(doc) = formats::read_text_with(path, &path.to_string_lossy(), &policy)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
    else {
        return SuiteFile::Unreadable;
    };
    if doc.get("draft").and_then(serde_json::Value::as_bool) == Some(true) {
        SuiteFile::Draft
    } else {
        SuiteFile::Authored
    }
}

/// Where a scan writes its draft in `dir`: `mf.suite.json`, unless one exists that a person
/// owns (not a draft): then `mf.suite.draft.json`, so a scan never overwrites a hand-written
/// suite. Anything at `mf.suite.json` that is not readably a draft — not UTF-8, not JSON, a
/// symlink, a folder — is treated as the author's: only a missing file or a draft is written
/// over.
pub fn scan_suite_target(dir: &Path) -> PathBuf {
    let main = dir.join("mf.suite.json");
    match suite_file(&main) {
        SuiteFile::Missing | SuiteFile::Draft => main,
        SuiteFile::Unreadable | SuiteFile::Authored => dir.join("mf.suite.draft.json"),
    }
}
