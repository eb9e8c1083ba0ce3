//! Which suite `mf ci` uses: `--suite`, else the first default suite in PATH (a folder), else
//! here; a hand-written one before a draft. A default suite that cannot be read is a note (the
//! run goes on free); an explicit one is an error.

use std::path::{Path, PathBuf};

use super::CiConfig;
use crate::suite::{Suite, SuiteError, discover, read_suite_any};

/// The suite `mf ci` found, as read (for lint) — not yet checked for eval.
#[derive(Debug, Clone)]
pub struct FoundSuite {
    /// Its path.
    pub path: PathBuf,
    /// Its path as shown.
    pub display: String,
    /// The suite.
    pub suite: Suite,
}

/// The suite of this run, if any.
pub fn find(config: &CiConfig, notes: &mut Vec<String>) -> Result<Option<FoundSuite>, SuiteError> {
    let read = |path: &Path| {
        let display = path.to_string_lossy().replace('\\', "/");
        read_suite_any(path, &display).map(|suite| FoundSuite {
            path: path.to_path_buf(),
            display,
            suite,
        })
    };
    if let Some(path) = &config.suite {
        return Ok(Some(read(path)?));
    }
    let mut dirs = Vec::new();
    let path = Path::new(&config.path);
    if path.is_dir() && path != Path::new(".") {
        dirs.push(path.to_path_buf());
    }
    dirs.push(PathBuf::new());
    let candidates: Vec<PathBuf> = dirs.iter().flat_map(|d| discover::defaults_in(d)).collect();
    let mut drafts = Vec::new();
    for candidate in candidates {
        match read(&candidate) {
            Ok(found) if found.suite.draft => drafts.push(found),
            Ok(found) => return Ok(Some(found)),
            Err(e) => notes.push(format!("{e}; it is not used")),
        }
    }
    Ok(drafts.into_iter().next())
}
