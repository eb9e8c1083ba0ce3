//! Surfaces at a git revision (`mf compare main:tools.json tools.json`, `mf ci`): a file or
//! folder as it is at a commit, loaded exactly like the working tree, without executing anything
//! from the repository and without a `git` binary.
//!
//! # How
//! 1. The repository is opened in-process with gitoxide ([`crate::surface::git_repo`]):
//!    isolated from the environment and from system and global git configuration; no program is
//!    run, so no hook, filter or fsmonitor can be.
//! 2. The revision is resolved once to a commit id (revision syntax as git's `rev-parse`, peeled
//!    to a commit); every later step reads that id, so a moving ref cannot change what is read
//!    halfway.
//! 3. The tree at that commit is listed under the path: absent, a file, a folder, or something
//!    that cannot be read (a symlink, a submodule).
//! 4. The path's regular files, and the `.gitignore`/`.ignore` files of the folders above it (so
//!    the scan ignores what the working tree's scan ignores), are written as their raw blobs into
//!    a temporary directory: `.gitattributes` is never applied, so no smudge filter runs and no
//!    `export-ignore` leaves a file out. Entries whose path is absolute or has a `..` component
//!    are refused (a crafted tree object could hold them); symlinks and submodules are not
//!    created (the scan never follows links); files over the loader's size cap are created
//!    empty at their full size without reading the blob, so the loader and the scan report
//!    them as they do in the working tree.
//! 5. A folder is scanned ([`scan`]) and a file is loaded ([`formats::load_path`]) with origins
//!    relative to the directory given (the repository root, or a folder of the work tree), the
//!    way the working tree's are when mf runs there, so an unchanged file has unchanged origins.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

use gix::object::tree::EntryKind;

use crate::surface::Surface;
use crate::surface::formats::{self, LoadError, MAX_FILE_BYTES};
use crate::surface::git_repo::{self, in_scope};
use crate::surface::scan::{ScanError, ScanOptions, scan};

/// Why a surface at a revision (or a merge base) could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// The directory is not inside a git repository (or its repository cannot be opened).
    #[error(
        "cannot read {repo} as a git repository: {detail}; run mf from the repository or pass its root"
    )]
    NotARepository {
        /// The directory as given.
        repo: String,
        /// Why it cannot be opened.
        detail: String,
    },
    /// The revision does not name a commit in this repository.
    #[error(
        "unknown revision `{rev}` ({detail}); if it exists on the remote, fetch it first (`git fetch origin`, or `git fetch --unshallow` in a shallow clone)"
    )]
    UnknownRevision {
        /// The revision as given.
        rev: String,
        /// Why it does not resolve.
        detail: String,
    },
    /// The path does not exist at the revision: every tool it defines now is added.
    #[error("`{path}` does not exist at {rev}: every tool in it is added")]
    PathAbsent {
        /// The revision as given.
        rev: String,
        /// The path, relative to the repository root.
        path: String,
    },
    /// The path exists at the revision but is neither a file nor a folder mf reads.
    #[error("`{path}` at {rev} is {what}; mf reads files and folders only")]
    Unreadable {
        /// The revision as given.
        rev: String,
        /// The path, relative to the repository root.
        path: String,
        /// What it is (`a symlink`, `a submodule`).
        what: String,
    },
    /// The path is not a relative path inside the repository.
    #[error("`{path}`: {reason}; give a path relative to the repository root")]
    InvalidPath {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The two revisions have no common ancestor (or the clone is too shallow to see one).
    #[error("{a} and {b} have no common ancestor{hint}")]
    NoMergeBase {
        /// First revision as given.
        a: String,
        /// Second revision as given.
        b: String,
        /// A hint (e.g. for shallow clones), empty or starting with `; `.
        hint: String,
    },
    /// Reading the repository's objects failed (a corrupt or incomplete repository).
    #[error("cannot read {command} from the repository: {detail}")]
    Failed {
        /// What was being read (`the tree of abc123`, `the merge base of a and b`).
        command: String,
        /// What gitoxide said.
        detail: String,
    },
    /// A tree at the revision holds an entry mf refuses to write.
    #[error("refusing tree entry `{entry}` of {rev}: {reason}")]
    UnsafeEntry {
        /// The revision as given.
        rev: String,
        /// The entry's path as written in the tree.
        entry: String,
        /// Why it was refused.
        reason: String,
    },
    /// Writing the temporary copy failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The file at the revision is not a tool surface.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The folder at the revision could not be scanned.
    #[error(transparent)]
    Scan(#[from] ScanError),
}

/// `path` (a file or a folder, relative to `repo`: the repository root, or a folder inside the
/// work tree) as it is at revision `rev` of the repository containing `repo`, loaded like the
/// working tree: a folder is scanned, a file goes through the surface loader, and origins read
/// as they do when mf runs in `repo` and is given `path`. Returns the surface and the problems
/// that did not stop loading, in the working tree's form (`file:line: message`, no revision:
/// callers label them). Nothing from the repository is executed (see the module docs).
pub fn surface_at_ref(
    repo: &Path,
    rev: &str,
    path: &str,
) -> Result<(Surface, Vec<String>), GitError> {
    let rel = clean_path(path)?;
    let git = Git::open(repo)?;
    let commit = git.resolve(rev)?;
    // The path in the tree; `rel` stays what origins and messages show.
    let tree = git_repo::join(&git.opened.prefix, &rel);
    let listing = git.list(commit, &tree)?;
    let target = classify(&listing, &tree, rev, path)?;

    let tmp = tempfile::Builder::new()
        .prefix("mf-git-")
        .tempdir()
        .map_err(io("cannot create a temporary directory"))?;
    // The path's files, and for a folder the ignore files above it too.
    let files: Vec<(&String, &Entry)> = listing
        .iter()
        .filter(|(p, e)| e.is_regular() && (target == Target::Folder || in_scope(p, &tree)))
        .collect();
    git.write_blobs(&files, tmp.path(), rev)?;

    let root = tmp.path().join(&tree);
    let mut warnings = Vec::new();
    let surface = match target {
        Target::File => {
            let loaded = formats::load_path(&root, &rel)?;
            warnings.extend(loaded.warnings);
            loaded.surface
        }
        Target::Folder => {
            std::fs::create_dir_all(&root)
                .map_err(io(format!("cannot create {}", root.display())))?;
            let result = scan(&root, &ScanOptions::default())?;
            let prefix = |file: String| {
                if rel.is_empty() {
                    file
                } else {
                    format!("{rel}/{file}")
                }
            };
            warnings.extend(result.warnings.into_iter().map(|w| {
                let file = prefix(w.file);
                match w.line {
                    Some(l) => format!("{file}:{l}: {}", w.message),
                    None => format!("{file}: {}", w.message),
                }
            }));
            let mut surface = Surface {
                tools: result.tools,
                skills: result.skills,
                unread: result
                    .unread
                    .into_iter()
                    .map(|mut u| {
                        u.file = prefix(u.file);
                        u
                    })
                    .collect(),
            };
            for t in &mut surface.tools {
                t.origin.file = t.origin.file.take().map(prefix);
            }
            for s in &mut surface.skills {
                s.origin.file = s.origin.file.take().map(prefix);
            }
            surface
        }
    };
    Ok((surface, warnings))
}

/// The best common ancestor of `a` and `b` (what `git merge-base` prints), as a full commit id.
pub fn merge_base(repo: &Path, a: &str, b: &str) -> Result<String, GitError> {
    let git = Git::open(repo)?;
    let (ca, cb) = (git.resolve(a)?, git.resolve(b)?);
    match git.opened.repo.merge_base(ca, cb) {
        Ok(Some(id)) => Ok(id.detach().to_string()),
        Ok(None) => Err(GitError::NoMergeBase {
            a: a.to_owned(),
            b: b.to_owned(),
            hint: if git.opened.repo.is_shallow().unwrap_or(false) {
                "; this is a shallow clone: fetch more history (`git fetch --unshallow`, or `fetch-depth: 0` in CI)".into()
            } else {
                String::new()
            },
        }),
        Err(e) => Err(GitError::Failed {
            command: format!("the merge base of {a} and {b}"),
            detail: e.to_string(),
        }),
    }
}

/// The bytes of the regular file `path` (relative to `repo`, a folder of the work tree or the
/// root) at `commit`: `None` when it is absent or not a regular file there; an error when it is
/// over `max_bytes` (its blob is then not read) or the repository cannot be read.
pub fn file_at(
    repo: &Path,
    commit: &str,
    path: &str,
    max_bytes: u64,
) -> Result<Option<Vec<u8>>, GitError> {
    let rel = clean_path(path)?;
    let git = Git::open(repo)?;
    let id = git.resolve(commit)?;
    let full = git_repo::join(&git.opened.prefix, &rel);
    let listing = git.list(id, &full)?;
    let Some(entry) = listing.get(&full).filter(|e| e.is_regular()) else {
        return Ok(None);
    };
    if entry.size > max_bytes {
        return Err(GitError::Load(LoadError::TooLarge {
            file: rel,
            bytes: entry.size,
            limit: max_bytes,
        }));
    }
    git.blob(entry.oid).map(Some)
}

/// What the path is at the revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    File,
    Folder,
}

/// One tree entry under the path.
#[derive(Debug, Clone)]
struct Entry {
    kind: EntryKind,
    oid: gix::ObjectId,
    /// The blob's size (0 for other kinds).
    size: u64,
}

impl Entry {
    fn is_regular(&self) -> bool {
        matches!(self.kind, EntryKind::Blob | EntryKind::BlobExecutable)
    }
}

/// A repository opened for reading one revision.
#[derive(Debug)]
struct Git {
    opened: git_repo::Opened,
}

impl Git {
    fn open(repo: &Path) -> Result<Git, GitError> {
        let opened = git_repo::open(repo).map_err(|detail| GitError::NotARepository {
            repo: repo.display().to_string(),
            detail,
        })?;
        Ok(Git { opened })
    }

    /// The commit `rev` names.
    fn resolve(&self, rev: &str) -> Result<gix::ObjectId, GitError> {
        let unknown = |detail: String| GitError::UnknownRevision {
            rev: rev.to_owned(),
            detail,
        };
        if rev.is_empty() || rev.starts_with('-') || rev.contains(['\0', '\n']) {
            return Err(unknown("not a revision name".into()));
        }
        let id = self
            .opened
            .repo
            .rev_parse_single(rev)
            .map_err(|e| unknown(e.to_string()))?;
        let commit = id
            .object()
            .and_then(|o| o.peel_to_commit())
            .map_err(|e| unknown(format!("not a commit: {e}")))?;
        Ok(commit.id)
    }

    fn failed(what: impl Into<String>) -> impl FnOnce(gix::Error) -> GitError {
        let command = what.into();
        move |e| GitError::Failed {
            command,
            detail: e.to_string(),
        }
    }

    /// Every entry under `rel` at `commit` (recursively), and the ignore files of the folders
    /// above it, by path.
    fn list(&self, commit: gix::ObjectId, rel: &str) -> Result<BTreeMap<String, Entry>, GitError> {
        let repo = &self.opened.repo;
        let short = commit.to_hex_with_len(12).to_string();
        let root = repo
            .find_commit(commit)
            .and_then(|c| c.tree())
            .map_err(Self::failed(format!("the tree of {short}")))?;
        let mut entries = BTreeMap::new();
        let mut lookups: Vec<String> = ancestor_ignore_files(rel).collect();
        if !rel.is_empty() {
            lookups.push(rel.to_owned());
        }
        for path in lookups {
            let found = root
                .lookup_entry_by_path(&path)
                .map_err(Self::failed(format!("{path} at {short}")))?;
            if let Some(e) = found {
                let kind = e.mode().kind();
                entries.insert(path, self.entry(kind, e.object_id())?);
            }
        }
        let subtree = if rel.is_empty() {
            Some(root)
        } else {
            match entries.get(rel) {
                Some(e) if e.kind == EntryKind::Tree => Some(
                    repo.find_tree(e.oid)
                        .map_err(Self::failed(format!("the tree {rel} at {short}")))?,
                ),
                _ => None,
            }
        };
        if let Some(tree) = subtree {
            let mut recorder = gix::traverse::tree::Recorder::default();
            tree.traverse()
                .breadthfirst(&mut recorder)
                .map_err(Self::failed(format!("the tree {rel} at {short}")))?;
            for r in recorder.records {
                let kind = r.mode.kind();
                if kind == EntryKind::Tree {
                    continue;
                }
                let sub = String::from_utf8_lossy(&r.filepath).into_owned();
                entries.insert(git_repo::join(rel, &sub), self.entry(kind, r.oid)?);
            }
        }
        Ok(entries)
    }

    fn entry(&self, kind: EntryKind, oid: gix::ObjectId) -> Result<Entry, GitError> {
        let size = if matches!(kind, EntryKind::Blob | EntryKind::BlobExecutable) {
            self.opened
                .repo
                .find_header(oid)
                .map_err(Self::failed(format!("object {oid}")))?
                .size()
        } else {
            0
        };
        Ok(Entry { kind, oid, size })
    }

    fn blob(&self, oid: gix::ObjectId) -> Result<Vec<u8>, GitError> {
        let object = self
            .opened
            .repo
            .find_object(oid)
            .map_err(Self::failed(format!("blob {oid}")))?;
        Ok(object.detach().data)
    }

    /// Write raw blobs (no filters) at their paths under `dest`. Oversized files are created
    /// empty at their size so the loader reports them; their bytes are never read.
    fn write_blobs(
        &self,
        files: &[(&String, &Entry)],
        dest: &Path,
        rev: &str,
    ) -> Result<(), GitError> {
        for (path, entry) in files {
            let target = safe_join(dest, path, rev)?;
            make_parent(&target)?;
            let write = io(format!("cannot write {}", target.display()));
            let mut file = match std::fs::File::create_new(&target) {
                Ok(f) => f,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    return Err(GitError::UnsafeEntry {
                        rev: rev.to_owned(),
                        entry: (*path).clone(),
                        reason: "a second entry for the same path".into(),
                    });
                }
                Err(e) => return Err(write(e)),
            };
            if entry.size > MAX_FILE_BYTES {
                file.set_len(entry.size).map_err(write)?;
            } else {
                let bytes = self.blob(entry.oid)?;
                file.write_all(&bytes).map_err(write)?;
            }
        }
        Ok(())
    }
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> GitError {
    let what = what.into();
    move |source| GitError::Io { what, source }
}

/// The path, `/`-separated, without `.` components or trailing `/`; `""` for the root.
fn clean_path(path: &str) -> Result<String, GitError> {
    let invalid = |reason: &str| GitError::InvalidPath {
        path: path.to_owned(),
        reason: reason.to_owned(),
    };
    let p = path.replace('\\', "/");
    let b = p.as_bytes();
    if p.starts_with('/') || (b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic()) {
        return Err(invalid("an absolute path"));
    }
    if p.contains('\0') {
        return Err(invalid("a NUL byte in the path"));
    }
    let mut parts = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err(invalid("`..` leaves the repository")),
            other => parts.push(other),
        }
    }
    Ok(parts.join("/"))
}

/// `.gitignore` and `.ignore` of every folder strictly above `rel` (none for the root).
fn ancestor_ignore_files(rel: &str) -> impl Iterator<Item = String> {
    let mut dirs = Vec::new();
    if !rel.is_empty() {
        dirs.push(String::new());
        let parts: Vec<&str> = rel.split('/').collect();
        for i in 1..parts.len() {
            dirs.push(parts[..i].join("/"));
        }
    }
    dirs.into_iter().flat_map(|d| {
        [".gitignore", ".ignore"].map(move |f| {
            if d.is_empty() {
                f.to_owned()
            } else {
                format!("{d}/{f}")
            }
        })
    })
}

/// What the listing says `rel` is.
fn classify(
    listing: &BTreeMap<String, Entry>,
    rel: &str,
    rev: &str,
    path: &str,
) -> Result<Target, GitError> {
    if rel.is_empty() {
        return Ok(Target::Folder);
    }
    let unreadable = |what: &str| GitError::Unreadable {
        rev: rev.to_owned(),
        path: path.to_owned(),
        what: what.to_owned(),
    };
    if let Some(e) = listing.get(rel) {
        return match e.kind {
            EntryKind::Link => Err(unreadable("a symlink (mf does not follow links)")),
            EntryKind::Commit => Err(unreadable("a submodule")),
            EntryKind::Tree => Ok(Target::Folder),
            EntryKind::Blob | EntryKind::BlobExecutable => Ok(Target::File),
        };
    }
    Err(GitError::PathAbsent {
        rev: rev.to_owned(),
        path: path.to_owned(),
    })
}

fn make_parent(target: &Path) -> Result<(), GitError> {
    match target.parent() {
        Some(parent) => std::fs::create_dir_all(parent)
            .map_err(io(format!("cannot create {}", parent.display()))),
        None => Ok(()),
    }
}

/// The normal components of a relative path; an absolute path or a `..` is refused.
fn safe_parts(path: &Path) -> Result<Vec<String>, &'static str> {
    let mut parts = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => return Err("a `..` component"),
            Component::RootDir | Component::Prefix(_) => return Err("an absolute path"),
        }
    }
    Ok(parts)
}

/// `dest` joined with a repository path from git's own listing, refusing `..` and absolute
/// paths (a crafted tree object could hold them).
fn safe_join(dest: &Path, path: &str, rev: &str) -> Result<PathBuf, GitError> {
    let parts = safe_parts(Path::new(path)).map_err(|reason| GitError::UnsafeEntry {
        rev: rev.to_owned(),
        entry: path.to_owned(),
        reason: reason.to_owned(),
    })?;
    Ok(parts.iter().fold(dest.to_path_buf(), |p, c| p.join(c)))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::process::Command;

    use super::*;
    use crate::surface::Origin;

    const TOOLS_V1: &str = r#"{
  "tools": [
    {
      "name": "read_file",
      "description": "Read the complete contents of a file from disk as text.",
      "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    },
    {
      "name": "list_directory",
      "description": "List the entries of a directory, each prefixed [FILE] or [DIR].",
      "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    }
  ]
}
"#;

    fn sh(dir: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    fn write(dir: &Path, rel: &str, text: &str) {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    fn commit_all(dir: &Path, message: &str) -> String {
        sh(dir, &["add", "-A"]);
        sh(dir, &["commit", "-q", "-m", message]);
        sh(dir, &["rev-parse", "HEAD"])
    }

    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        sh(dir.path(), &["init", "-q"]);
        dir
    }

    #[test]
    fn a_file_at_the_previous_commit_has_working_tree_origins() {
        let dir = repo();
        write(dir.path(), "tools.json", TOOLS_V1);
        commit_all(dir.path(), "one");
        write(
            dir.path(),
            "tools.json",
            &TOOLS_V1.replace("from disk as text", "from disk as UTF-8 text"),
        );
        commit_all(dir.path(), "two");
        let (old, warnings) = surface_at_ref(dir.path(), "HEAD~1", "tools.json").expect("old");
        assert!(warnings.is_empty(), "{warnings:?}");
        let now = formats::load_path(&dir.path().join("tools.json"), "tools.json")
            .expect("load")
            .surface;
        assert_eq!(old.tools.len(), 2);
        assert_eq!(
            old.tools[0].description.as_deref(),
            Some("Read the complete contents of a file from disk as text.")
        );
        let origins =
            |s: &Surface| -> Vec<Origin> { s.tools.iter().map(|t| t.origin.clone()).collect() };
        assert_eq!(origins(&old), origins(&now));
        assert_eq!(old.tools[0].origin.display(), "tools.json:3");
        // The same file at HEAD is the working tree's, tool for tool.
        let (head, _) = surface_at_ref(dir.path(), "HEAD", "./tools.json").expect("head");
        assert_eq!(head, now);
    }

    #[test]
    fn a_folder_is_scanned_with_repository_relative_origins() {
        let dir = repo();
        write(dir.path(), "servers/fs/tools.json", TOOLS_V1);
        write(dir.path(), "servers/generated/tools.json", TOOLS_V1);
        write(dir.path(), ".gitignore", "servers/generated/\n");
        // Release tarballs often leave `.gitignore` out; the scan still honours it.
        write(dir.path(), ".gitattributes", ".gitignore export-ignore\n");
        // Force-add the ignored copy: it is in the commit, but the scan ignores it like the
        // working tree's scan would.
        sh(dir.path(), &["add", "-f", "servers/generated/tools.json"]);
        commit_all(dir.path(), "one");
        let (s, warnings) = surface_at_ref(dir.path(), "HEAD", "servers/").expect("scan");
        assert!(warnings.is_empty(), "{warnings:?}");
        let files: BTreeSet<String> = s.tools.iter().map(|t| t.origin.display()).collect();
        assert_eq!(
            files,
            BTreeSet::from([
                "servers/fs/tools.json:3".to_owned(),
                "servers/fs/tools.json:8".to_owned()
            ])
        );
        let (root, _) = surface_at_ref(dir.path(), "HEAD", ".").expect("root");
        assert_eq!(root.tools.len(), 2);
        assert_eq!(
            root.tools[0].origin.file.as_deref(),
            Some("servers/fs/tools.json")
        );
    }

    #[test]
    fn from_a_subfolder_paths_and_origins_are_relative_to_it() {
        let dir = repo();
        write(dir.path(), "mcp/tools.json", TOOLS_V1);
        write(dir.path(), "mcp/more/tools.json", TOOLS_V1);
        commit_all(dir.path(), "one");
        let sub = dir.path().join("mcp");
        let (file, _) = surface_at_ref(&sub, "HEAD", "tools.json").expect("file");
        let now = formats::load_path(&sub.join("tools.json"), "tools.json")
            .expect("load")
            .surface;
        assert_eq!(file, now);
        let (folder, _) = surface_at_ref(&sub, "HEAD", ".").expect("folder");
        let files: BTreeSet<String> = folder
            .tools
            .iter()
            .filter_map(|t| t.origin.file.clone())
            .collect();
        assert_eq!(
            files,
            BTreeSet::from(["more/tools.json".to_owned(), "tools.json".to_owned()])
        );
        let (more, _) = surface_at_ref(&sub, "HEAD", "more").expect("nested");
        assert_eq!(
            more.tools[0].origin.file.as_deref(),
            Some("more/tools.json")
        );
    }

    #[test]
    fn clear_errors_for_no_repository_unknown_revision_and_absent_path() {
        let plain = tempfile::tempdir().expect("tempdir");
        let err = surface_at_ref(plain.path(), "HEAD", "tools.json").expect_err("no repo");
        assert!(matches!(err, GitError::NotARepository { .. }), "{err}");
        let shown = plain.path().display().to_string();
        assert!(err.to_string().contains(&shown), "{err}");

        let dir = repo();
        write(dir.path(), "tools.json", TOOLS_V1);
        commit_all(dir.path(), "one");
        let err = surface_at_ref(dir.path(), "origin/nope", "tools.json").expect_err("rev");
        assert!(matches!(err, GitError::UnknownRevision { .. }), "{err}");
        let msg = err.to_string();
        assert!(
            msg.contains("origin/nope") && msg.contains("git fetch"),
            "{msg}"
        );
        let err = surface_at_ref(dir.path(), "--output=x", "tools.json").expect_err("option");
        assert!(matches!(err, GitError::UnknownRevision { .. }), "{err}");

        let err = surface_at_ref(dir.path(), "HEAD", "mcp/tools.json").expect_err("absent");
        assert!(matches!(err, GitError::PathAbsent { .. }), "{err}");
        assert!(
            err.to_string().contains("every tool in it is added"),
            "{err}"
        );
        // A prefix of a file name is not a folder.
        let err = surface_at_ref(dir.path(), "HEAD", "tools").expect_err("absent");
        assert!(matches!(err, GitError::PathAbsent { .. }), "{err}");

        for bad in ["../tools.json", "/etc/passwd", "a/../../b"] {
            let err = surface_at_ref(dir.path(), "HEAD", bad).expect_err("invalid");
            assert!(matches!(err, GitError::InvalidPath { .. }), "{bad}: {err}");
        }
    }

    #[test]
    fn no_filter_runs_and_export_ignored_files_are_still_read() {
        let dir = repo();
        let marker = dir.path().join("filter-ran");
        write(dir.path(), "tools.json", TOOLS_V1);
        write(dir.path(), "servers/a.json", TOOLS_V1);
        write(
            dir.path(),
            ".gitattributes",
            "*.json filter=evil\nservers/a.json export-ignore\n",
        );
        commit_all(dir.path(), "one");
        // A smudge filter configured in the repository's own config (as a hostile setup would):
        // `git archive` runs smudge filters unless they are switched off.
        let cmd = format!("touch {} && cat", marker.display());
        sh(dir.path(), &["config", "filter.evil.smudge", &cmd]);
        sh(dir.path(), &["config", "filter.evil.process", &cmd]);
        sh(dir.path(), &["config", "filter.evil.required", "true"]);
        let (s, _) = surface_at_ref(dir.path(), "HEAD", "tools.json").expect("file");
        assert_eq!(s.tools.len(), 2);
        let (s, warnings) = surface_at_ref(dir.path(), "HEAD", "servers").expect("folder");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(s.tools.len(), 2, "export-ignore'd file read as a blob");
        assert_eq!(s.tools[0].origin.display(), "servers/a.json:3");
        assert!(!marker.exists(), "a filter ran");
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_not_followed() {
        let dir = repo();
        write(dir.path(), "real/tools.json", TOOLS_V1);
        std::os::unix::fs::symlink("real/tools.json", dir.path().join("link.json")).expect("ln");
        std::os::unix::fs::symlink("../real", dir.path().join("servers")).expect("ln");
        commit_all(dir.path(), "one");
        let err = surface_at_ref(dir.path(), "HEAD", "link.json").expect_err("symlink");
        assert!(matches!(err, GitError::Unreadable { .. }), "{err}");
        let (s, _) = surface_at_ref(dir.path(), "HEAD", ".").expect("root");
        let files: BTreeSet<String> = s
            .tools
            .iter()
            .filter_map(|t| t.origin.file.clone())
            .collect();
        assert_eq!(files, BTreeSet::from(["real/tools.json".to_owned()]));
    }

    #[test]
    fn oversized_files_are_reported_like_the_working_tree_without_being_read() {
        let dir = repo();
        let big = " ".repeat(usize::try_from(MAX_FILE_BYTES).expect("fits") + 1);
        write(dir.path(), "servers/big.json", &big);
        write(dir.path(), "servers/hidden/big.json", &big);
        write(dir.path(), "servers/tools.json", TOOLS_V1);
        write(
            dir.path(),
            ".gitattributes",
            "servers/hidden/** export-ignore\n",
        );
        commit_all(dir.path(), "one");
        let (s, warnings) = surface_at_ref(dir.path(), "HEAD", "servers").expect("scan");
        assert_eq!(s.tools.len(), 2);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[0].starts_with("servers/big.json: skipped:") && warnings[0].contains("limit"),
            "{warnings:?}"
        );
        assert!(warnings[1].starts_with("servers/hidden/big.json: skipped:"));
        let err = surface_at_ref(dir.path(), "HEAD", "servers/big.json").expect_err("too large");
        assert!(
            matches!(err, GitError::Load(LoadError::TooLarge { .. })),
            "{err}"
        );
        assert!(err.to_string().starts_with("servers/big.json: "), "{err}");
    }

    #[test]
    fn merge_base_finds_the_fork_point() {
        let dir = repo();
        write(dir.path(), "tools.json", TOOLS_V1);
        let fork = commit_all(dir.path(), "one");
        sh(dir.path(), &["checkout", "-q", "-b", "feature"]);
        write(
            dir.path(),
            "tools.json",
            &TOOLS_V1.replace("disk", "storage"),
        );
        commit_all(dir.path(), "feature");
        sh(dir.path(), &["checkout", "-q", "main"]);
        write(dir.path(), "other.txt", "x");
        commit_all(dir.path(), "main");
        assert_eq!(
            merge_base(dir.path(), "main", "feature").expect("base"),
            fork
        );
        let err = merge_base(dir.path(), "main", "nope").expect_err("unknown");
        assert!(
            matches!(&err, GitError::UnknownRevision { rev, .. } if rev == "nope"),
            "{err}"
        );
        // Unrelated history: no common ancestor.
        sh(dir.path(), &["checkout", "-q", "--orphan", "lonely"]);
        commit_all(dir.path(), "lonely");
        let err = merge_base(dir.path(), "main", "lonely").expect_err("unrelated");
        assert!(matches!(err, GitError::NoMergeBase { .. }), "{err}");
    }

    #[test]
    fn listed_paths_cannot_leave_the_destination() {
        let dest = Path::new("/tmp/x");
        assert_eq!(
            safe_join(dest, "a/b.json", "HEAD").expect("ok"),
            Path::new("/tmp/x/a/b.json")
        );
        for bad in ["../b.json", "a/../../b.json", "/etc/passwd"] {
            let err = safe_join(dest, bad, "HEAD").expect_err("refused");
            assert!(matches!(err, GitError::UnsafeEntry { .. }), "{bad}: {err}");
        }
    }

    #[test]
    fn paths_are_cleaned() {
        assert_eq!(clean_path("./a//b/").expect("ok"), "a/b");
        assert_eq!(clean_path(".").expect("ok"), "");
        assert_eq!(clean_path("").expect("ok"), "");
        assert!(clean_path("C:/x").is_err());
        assert_eq!(
            ancestor_ignore_files("a/b").collect::<Vec<_>>(),
            [".gitignore", ".ignore", "a/.gitignore", "a/.ignore"]
        );
        assert!(in_scope("a/b/c", "a/b") && !in_scope("a/bc", "a/b"));
    }
}
