//! The files git tracks under the scan root. In a git repository what is tracked is checked:
//! `.gitignore` / `.ignore` rules only skip *untracked* files, so a pull request cannot hide its
//! own tool files from the gate by listing them in an ignore file.
//!
//! The list comes from `git ls-files -z --cached` run with the hardened base command
//! ([`crate::surface::git_cmd::base_command`]: hooks and fsmonitor off, no `GIT_DIR`-style
//! variables, literal pathspecs). `ls-files` is plumbing: it reads the index and runs no filter,
//! hook or pager. No `git`, or not a repository: `None`, and the walk alone decides.

use std::path::{Path, PathBuf};

use crate::surface::git_cmd::base_command;

/// Most tracked paths read (a bound on memory for a giant monorepo index).
const MAX_TRACKED: usize = 2_000_000;

/// Tracked paths under `root`, relative to it; `None` outside a git work tree.
pub fn tracked_files(root: &Path) -> Option<Vec<PathBuf>> {
    let out = base_command(root)
        .args(["ls-files", "-z", "--cached", "--"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(
        out.stdout
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .take(MAX_TRACKED)
            .map(path_of)
            .collect(),
    )
}

#[cfg(unix)]
fn path_of(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_of(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// `root/rel` when it is a regular file reached without a symbolic link on the way (the scan
/// never follows links) and `rel` stays inside `root`.
pub fn regular_file_under(root: &Path, rel: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let mut path = root.to_path_buf();
    let mut parts = rel.components().peekable();
    while let Some(c) = parts.next() {
        let Component::Normal(part) = c else {
            return None;
        };
        path.push(part);
        let meta = std::fs::symlink_metadata(&path).ok()?;
        if meta.file_type().is_symlink() {
            return None;
        }
        if parts.peek().is_none() {
            return meta.is_file().then_some(path);
        }
        if !meta.is_dir() {
            return None;
        }
    }
    None
}
