//! Where a suite is when none is named: `mf.suite.json`, `mf.suite.yaml`, `mf.suite.yml` in a
//! folder, a hand-written one before a `draft: true` scan output.

use std::path::{Path, PathBuf};

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
