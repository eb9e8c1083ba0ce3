//! The one way mf reads a git repository: in-process with gitoxide (`gix`), never by running
//! `git`. So nothing in the repository can run a program — no hook, filter, fsmonitor, pager,
//! `core.sshCommand` or credential helper exists on this path, by construction — and mf needs
//! no `git` binary (the `FROM scratch` image has none).
//!
//! A repository is opened *isolated*: no `GIT_DIR`-style environment variables, no system or
//! global configuration; only the repository's own config file is parsed, for its format
//! (`core.bare`, `extensions.objectFormat`, worktree layout). Objects are read raw: blobs are
//! the committed bytes, `.gitattributes` is never applied. A leaf module, used by the scan
//! (tracked files), the revision loader ([`crate::surface::git`]) and `mf ci`'s base files.

use std::path::{Component, Path, PathBuf};

/// A repository found from a directory inside it.
#[derive(Debug)]
pub(crate) struct Opened {
    /// The repository.
    pub repo: gix::Repository,
    /// Where the directory mf was pointed at sits in the tree (`sub/dir`; `""` at the root
    /// of the work tree or in a bare repository).
    pub prefix: String,
}

/// Open the repository containing `dir` (searching upwards, like `git -C dir`). The error is
/// gitoxide's message.
pub(crate) fn open(dir: &Path) -> Result<Opened, String> {
    let repo = gix::discover_opts(
        dir,
        gix::discover::upwards::Options::default(),
        gix::open::Options::isolated(),
    )
    .map_err(|e| e.to_string())?;
    let prefix = match repo.workdir() {
        None => String::new(),
        Some(top) => {
            let canon =
                |p: &Path| std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()));
            let (top, here) = (canon(top)?, canon(dir)?);
            let rel = here.strip_prefix(&top).map_err(|_| {
                format!(
                    "{} is inside the repository's .git directory, not its work tree",
                    dir.display()
                )
            })?;
            slash_path(rel)
        }
    };
    Ok(Opened { repo, prefix })
}

/// A relative path's normal components joined with `/`.
fn slash_path(rel: &Path) -> String {
    rel.components()
        .filter_map(|c| match c {
            Component::Normal(p) => Some(p.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// `prefix/rel` (either may be empty).
pub(crate) fn join(prefix: &str, rel: &str) -> String {
    match (prefix.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_owned(),
        (false, true) => prefix.to_owned(),
        (false, false) => format!("{prefix}/{rel}"),
    }
}

/// Whether `path` is `dir` or inside it (`dir` empty: everything).
pub(crate) fn in_scope(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || path == dir
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The paths in the index (what `git ls-files --cached` lists) under the opened directory,
/// relative to it, each once; at most `max`. `None` in a bare repository or when the index
/// cannot be read.
pub(crate) fn tracked(opened: &Opened, max: usize) -> Option<Vec<PathBuf>> {
    opened.repo.workdir()?;
    let index = opened.repo.index_or_empty().ok()?;
    let mut out: Vec<PathBuf> = Vec::new();
    let mut last: Option<&[u8]> = None;
    for entry in index.entries() {
        let path: &[u8] = entry.path(&index);
        // Conflicted paths have one entry per stage, side by side.
        if last == Some(path) {
            continue;
        }
        last = Some(path);
        let Ok(text) = std::str::from_utf8(path) else {
            out.extend(bytes_path(path, &opened.prefix));
            continue;
        };
        if !in_scope(text, &opened.prefix) || text == opened.prefix {
            continue;
        }
        let rel = if opened.prefix.is_empty() {
            text
        } else {
            &text[opened.prefix.len() + 1..]
        };
        out.push(PathBuf::from(rel));
        if out.len() >= max {
            break;
        }
    }
    Some(out)
}

/// A non-UTF-8 index path under `prefix`, relative to it (Unix: the raw bytes).
#[cfg(unix)]
fn bytes_path(path: &[u8], prefix: &str) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let rel = if prefix.is_empty() {
        path
    } else {
        path.strip_prefix(prefix.as_bytes())?.strip_prefix(b"/")?
    };
    Some(PathBuf::from(std::ffi::OsStr::from_bytes(rel)))
}

#[cfg(not(unix))]
fn bytes_path(path: &[u8], prefix: &str) -> Option<PathBuf> {
    let text = String::from_utf8_lossy(path).into_owned();
    let rel = if prefix.is_empty() {
        text.as_str()
    } else {
        text.strip_prefix(prefix)?.strip_prefix('/')?
    };
    Some(PathBuf::from(rel))
}
