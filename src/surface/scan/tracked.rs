//! The files git tracks under the scan root. In a git repository what is tracked is checked:
//! `.gitignore` / `.ignore` rules only skip *untracked* files, so a pull request cannot hide its
//! own tool files from the gate by listing them in an ignore file.
//!
//! The list is the repository's index (what `git ls-files --cached` prints), read in-process
//! by [`crate::surface::git_repo`]: no `git` runs, and no filter, hook or pager exists on the
//! way. Not a repository, a bare one, or an unreadable index: `None`, and the walk alone decides.

use std::path::{Path, PathBuf};

use crate::surface::git_repo;

/// Most tracked paths read (a bound on memory for a giant monorepo index).
const MAX_TRACKED: usize = 2_000_000;

/// Tracked paths under `root`, relative to it; `None` outside a git work tree.
pub fn tracked_files(root: &Path) -> Option<Vec<PathBuf>> {
    let opened = git_repo::open(root).ok()?;
    git_repo::tracked(&opened, MAX_TRACKED)
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
