//! Surfaces at a git revision (`mf compare main:tools.json tools.json`, `mf ci`): a file or
//! folder as it is at a commit, loaded exactly like the working tree, without executing anything
//! from the repository.
//!
//! # How
//! 1. The system `git` is run with hooks and fsmonitor off (`-c core.hooksPath=/dev/null
//!    -c core.fsmonitor=false`), literal pathspecs, no terminal prompt, no optional locks, and
//!    the caller's `GIT_DIR`-style variables removed, so it reads the repository it is pointed at.
//! 2. The revision is resolved once to a commit id (`git rev-parse --verify REV^{commit}`); every
//!    later step reads that id, so a moving ref cannot change what is read halfway.
//! 3. `git ls-tree -r -l -z` lists the path at that commit: absent, a file, a folder, or
//!    something that cannot be read (a symlink, a submodule).
//! 4. `git archive --format=tar` writes the path (and the `.gitignore`/`.ignore` files of the
//!    folders above it, so the scan ignores what the working tree's scan ignores) and the tar is
//!    unpacked here, into a temporary directory. Entries with an absolute path or a `..`
//!    component are refused; symlinks and hard links are not created (the scan never follows
//!    links anyway); files over the loader's size cap are created empty at their full size, so
//!    the loader and the scan report them as they do in the working tree.
//! 5. `git archive` applies `.gitattributes`: smudge filters would run programs, and
//!    `export-ignore` would leave files out. Every filter driver configured (any scope) is
//!    neutralized on the command line (`filter.NAME.smudge=`, `.process=`, `.required=false`),
//!    so no filter runs; files the archive left out (export-ignore) are read as raw blobs
//!    (`git cat-file --batch`).
//! 6. A folder is scanned ([`scan`]) and a file is loaded ([`formats::load_path`]) with origins
//!    relative to the directory given (the repository root, or a folder of the work tree), the
//!    way the working tree's are when mf runs there, so an unchanged file has unchanged origins.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

use crate::surface::Surface;
use crate::surface::formats::{self, LoadError, MAX_FILE_BYTES};
pub(crate) use crate::surface::git_cmd::base_command;
use crate::surface::scan::{ScanError, ScanOptions, scan};

/// Why a surface at a revision (or a merge base) could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// The `git` program could not be started.
    #[error("cannot run git: {0}; install git and put it on PATH")]
    Unavailable(#[source] std::io::Error),
    /// The directory is not inside a git repository (or git refuses to read it).
    #[error(
        "cannot read {repo} as a git repository: {detail}; run mf from the repository or pass its root"
    )]
    NotARepository {
        /// The directory as given.
        repo: String,
        /// What git said.
        detail: String,
    },
    /// The revision does not name a commit in this repository.
    #[error(
        "unknown revision `{rev}` ({detail}); if it exists on the remote, fetch it first (`git fetch origin`, or `git fetch --unshallow` in a shallow clone)"
    )]
    UnknownRevision {
        /// The revision as given.
        rev: String,
        /// What git said.
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
    /// A git command failed for another reason.
    #[error("`git {command}` failed: {detail}")]
    Failed {
        /// The subcommand and its arguments.
        command: String,
        /// What git said.
        detail: String,
    },
    /// The archive git wrote holds an entry mf refuses to unpack.
    #[error("refusing archive entry `{entry}` of {rev}: {reason}")]
    UnsafeEntry {
        /// The revision as given.
        rev: String,
        /// The entry's path as written in the archive.
        entry: String,
        /// Why it was refused.
        reason: String,
    },
    /// Reading git's output or writing the temporary copy failed.
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
    let tree = match (git.prefix.is_empty(), rel.is_empty()) {
        (true, _) => rel.clone(),
        (false, true) => git.prefix.clone(),
        (false, false) => format!("{}/{rel}", git.prefix),
    };
    let listing = git.list(&commit, &tree)?;
    let target = classify(&listing, &tree, rev, path)?;

    let tmp = tempfile::Builder::new()
        .prefix("mf-git-")
        .tempdir()
        .map_err(io("cannot create a temporary directory"))?;
    let mut specs = vec![if tree.is_empty() {
        ".".to_owned()
    } else {
        tree.clone()
    }];
    if target == Target::Folder {
        specs.extend(ancestor_ignore_files(&tree).filter(|f| listing.contains_key(f)));
    }
    let written = git.archive(&commit, &specs, tmp.path(), rev)?;
    // What the archive left out (export-ignore): the path's files, and for a folder the ignore
    // files above it too (`.gitignore export-ignore` is common).
    let missing: Vec<(&String, &Entry)> = listing
        .iter()
        .filter(|(p, e)| {
            e.is_regular()
                && (target == Target::Folder || in_scope(p, &tree))
                && !written.contains(*p)
        })
        .collect();
    if !missing.is_empty() {
        git.read_blobs(&missing, tmp.path(), rev)?;
    }

    let root = tmp.path().join(&tree);
    let mut warnings = Vec::new();
    let surface = match target {
        Target::File => {
            let loaded = formats::load_path(&root, &rel)?;
            warnings.extend(loaded.warnings);
            loaded.surface
        }
        Target::Folder => {
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

/// The best common ancestor of `a` and `b` (`git merge-base`), as a full commit id.
pub fn merge_base(repo: &Path, a: &str, b: &str) -> Result<String, GitError> {
    let git = Git::open(repo)?;
    let (ca, cb) = (git.resolve(a)?, git.resolve(b)?);
    let out = git.run(&["merge-base", &ca, &cb])?;
    if out.status.success() {
        let base = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if !base.is_empty() {
            return Ok(base);
        }
    }
    if out.status.code() != Some(1) {
        return Err(failed(&["merge-base", a, b], &out.stderr));
    }
    let shallow = git
        .run(&["rev-parse", "--is-shallow-repository"])
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "true");
    Err(GitError::NoMergeBase {
        a: a.to_owned(),
        b: b.to_owned(),
        hint: if shallow {
            "; this is a shallow clone: fetch more history (`git fetch --unshallow`, or `fetch-depth: 0` in CI)".into()
        } else {
            String::new()
        },
    })
}

/// What the path is at the revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    File,
    Folder,
}

/// One `git ls-tree -l` entry.
#[derive(Debug, Clone)]
struct Entry {
    mode: String,
    kind: String,
    oid: String,
    size: Option<u64>,
}

impl Entry {
    fn is_regular(&self) -> bool {
        self.kind == "blob" && (self.mode == "100644" || self.mode == "100755")
    }
}

/// `git`, pointed at one repository, with everything that could run a program switched off.
#[derive(Debug)]
struct Git {
    /// The repository root (the work tree's top, or the repository itself when bare).
    dir: PathBuf,
    /// Where the directory mf was pointed at sits in the tree (`sub/dir`, `""` at the root).
    prefix: String,
    /// `-c` settings neutralizing every configured filter driver.
    filters: Vec<String>,
}

impl Git {
    fn open(repo: &Path) -> Result<Git, GitError> {
        let display = repo.display().to_string();
        let not_repo = |detail: String| GitError::NotARepository {
            repo: display.clone(),
            detail,
        };
        let bare = output(base_command(repo).args(["rev-parse", "--is-bare-repository"]))?;
        if !bare.status.success() {
            return Err(not_repo(detail(&bare.stderr)));
        }
        let (dir, prefix) = if String::from_utf8_lossy(&bare.stdout).trim() == "true" {
            (repo.to_path_buf(), String::new())
        } else {
            let top =
                output(base_command(repo).args(["rev-parse", "--show-toplevel", "--show-prefix"]))?;
            if !top.status.success() {
                return Err(not_repo(detail(&top.stderr)));
            }
            let text = String::from_utf8_lossy(&top.stdout).into_owned();
            let mut lines = text.lines();
            let dir = PathBuf::from(lines.next().unwrap_or_default());
            let prefix = lines.next().unwrap_or_default().trim_end_matches('/');
            (dir, prefix.to_owned())
        };
        let mut git = Git {
            dir,
            prefix,
            filters: Vec::new(),
        };
        git.filters = git.filter_overrides()?;
        Ok(git)
    }

    fn command(&self) -> Command {
        let mut c = base_command(&self.dir);
        for setting in &self.filters {
            c.arg("-c").arg(setting);
        }
        c
    }

    fn run(&self, args: &[&str]) -> Result<std::process::Output, GitError> {
        output(self.command().args(args))
    }

    /// `-c` settings that switch off every filter driver any configuration scope defines.
    fn filter_overrides(&self) -> Result<Vec<String>, GitError> {
        let args = ["config", "-z", "--name-only", "--get-regexp", r"^filter\."];
        let out = output(base_command(&self.dir).args(args))?;
        // Exit 1: no such variable.
        if !out.status.success() && out.status.code() != Some(1) {
            return Err(failed(&args, &out.stderr));
        }
        let names: BTreeSet<String> = out
            .stdout
            .split(|b| *b == 0)
            .filter_map(|k| {
                let k = String::from_utf8_lossy(k);
                let rest = k.strip_prefix("filter.")?;
                let (name, _) = rest.rsplit_once('.')?;
                Some(name.to_owned())
            })
            .collect();
        let mut settings = Vec::new();
        for name in names {
            if name.contains('=') {
                return Err(GitError::Failed {
                    command: "config".into(),
                    detail: format!(
                        "filter driver `{name}` has `=` in its name and cannot be switched off safely; rename it in your git config"
                    ),
                });
            }
            settings.push(format!("filter.{name}.smudge="));
            settings.push(format!("filter.{name}.process="));
            settings.push(format!("filter.{name}.required=false"));
        }
        Ok(settings)
    }

    /// The full commit id `rev` names.
    fn resolve(&self, rev: &str) -> Result<String, GitError> {
        let unknown = |detail: String| GitError::UnknownRevision {
            rev: rev.to_owned(),
            detail,
        };
        if rev.is_empty() || rev.starts_with('-') || rev.contains(['\0', '\n']) {
            return Err(unknown("not a revision name".into()));
        }
        let out = self.run(&[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ])?;
        let id = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if !out.status.success() || id.is_empty() {
            let said = detail(&out.stderr);
            return Err(unknown(if said.is_empty() {
                "no commit by that name in this repository".into()
            } else {
                said
            }));
        }
        Ok(id)
    }

    /// Every entry under `rel` at `commit` (recursively), and the ignore files of the folders
    /// above it, by path.
    fn list(&self, commit: &str, rel: &str) -> Result<BTreeMap<String, Entry>, GitError> {
        let mut args = vec!["ls-tree", "-r", "-l", "-z", commit, "--"];
        let ignores: Vec<String> = ancestor_ignore_files(rel).collect();
        args.push(if rel.is_empty() { "." } else { rel });
        args.extend(ignores.iter().map(String::as_str));
        let out = self.run(&args)?;
        if !out.status.success() {
            return Err(failed(&args, &out.stderr));
        }
        let mut entries = BTreeMap::new();
        for record in out.stdout.split(|b| *b == 0).filter(|r| !r.is_empty()) {
            let record = String::from_utf8_lossy(record);
            let Some((meta, path)) = record.split_once('\t') else {
                continue;
            };
            let mut fields = meta.split_whitespace();
            let (Some(mode), Some(kind), Some(oid), size) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            entries.insert(
                path.to_owned(),
                Entry {
                    mode: mode.to_owned(),
                    kind: kind.to_owned(),
                    oid: oid.to_owned(),
                    size: size.and_then(|s| s.parse().ok()),
                },
            );
        }
        Ok(entries)
    }

    /// `git archive` the pathspecs at `commit` and unpack into `dest`; returns the regular files
    /// written (repository-relative, `/`-separated).
    fn archive(
        &self,
        commit: &str,
        specs: &[String],
        dest: &Path,
        rev: &str,
    ) -> Result<BTreeSet<String>, GitError> {
        let mut cmd = self.command();
        cmd.args(["archive", "--format=tar", commit, "--"])
            .args(specs)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(GitError::Unavailable)?;
        let stderr = child.stderr.take().map(|mut e| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = e.read_to_end(&mut buf);
                buf
            })
        });
        let unpacked = match child.stdout.take() {
            Some(stdout) => unpack(stdout, dest, rev),
            None => Ok(BTreeSet::new()),
        };
        let status = child.wait().map_err(io("cannot wait for git archive"))?;
        let said = stderr.and_then(|h| h.join().ok()).unwrap_or_default();
        let written = unpacked?;
        if !status.success() {
            let mut args = vec!["archive", "--format=tar", commit, "--"];
            args.extend(specs.iter().map(String::as_str));
            return Err(failed(&args, &said));
        }
        Ok(written)
    }

    /// Write raw blobs (no filters) at their paths under `dest`.
    fn read_blobs(
        &self,
        files: &[(&String, &Entry)],
        dest: &Path,
        rev: &str,
    ) -> Result<(), GitError> {
        // Oversized files are created empty at their size so the loader reports them; their
        // bytes are never read.
        let (large, files): (Vec<_>, Vec<_>) = files
            .iter()
            .partition(|(_, e)| e.size.is_some_and(|n| n > MAX_FILE_BYTES));
        for (path, entry) in large {
            let target = safe_join(dest, path, rev)?;
            make_parent(&target)?;
            std::fs::File::create_new(&target)
                .and_then(|f| f.set_len(entry.size.unwrap_or_default()))
                .map_err(io(format!("cannot write {}", target.display())))?;
        }
        if files.is_empty() {
            return Ok(());
        }
        let mut child = self
            .command()
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(GitError::Unavailable)?;
        let request: String = files.iter().map(|(_, e)| format!("{}\n", e.oid)).collect();
        let writer = child.stdin.take().map(|mut stdin| {
            std::thread::spawn(move || {
                let _ = stdin.write_all(request.as_bytes());
            })
        });
        let mut out = Vec::new();
        if let Some(mut stdout) = child.stdout.take() {
            stdout
                .read_to_end(&mut out)
                .map_err(io("cannot read git cat-file output"))?;
        }
        if let Some(w) = writer {
            let _ = w.join();
        }
        let status = child.wait().map_err(io("cannot wait for git cat-file"))?;
        if !status.success() {
            return Err(failed(&["cat-file", "--batch"], b""));
        }
        let mut rest = out.as_slice();
        for (path, entry) in &files {
            let bad = || GitError::Failed {
                command: "cat-file --batch".into(),
                detail: format!("unexpected output for {path}"),
            };
            let nl = rest.iter().position(|b| *b == b'\n').ok_or_else(bad)?;
            let header = String::from_utf8_lossy(&rest[..nl]).into_owned();
            let mut fields = header.split(' ');
            let (Some(oid), Some("blob"), Some(size)) =
                (fields.next(), fields.next(), fields.next())
            else {
                return Err(bad());
            };
            let size: usize = size.parse().map_err(|_| bad())?;
            if oid != entry.oid || rest.len() < nl + 1 + size + 1 {
                return Err(bad());
            }
            let body = &rest[nl + 1..nl + 1 + size];
            rest = &rest[nl + 1 + size + 1..];
            let target = safe_join(dest, path, rev)?;
            make_parent(&target)?;
            std::fs::File::create_new(&target)
                .and_then(|mut f| f.write_all(body))
                .map_err(io(format!("cannot write {}", target.display())))?;
        }
        Ok(())
    }
}

fn output(cmd: &mut Command) -> Result<std::process::Output, GitError> {
    cmd.stdin(Stdio::null())
        .output()
        .map_err(GitError::Unavailable)
}

/// What git said on stderr, without `fatal: ` / `error: ` prefixes, lines joined.
fn detail(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .map(|l| {
            l.trim()
                .trim_start_matches("fatal: ")
                .trim_start_matches("error: ")
        })
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

fn failed(args: &[&str], stderr: &[u8]) -> GitError {
    let said = detail(stderr);
    GitError::Failed {
        command: args.join(" "),
        detail: if said.is_empty() {
            "no message".into()
        } else {
            said
        },
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

/// Whether `path` is `rel` or inside it (`rel` empty: everything).
fn in_scope(path: &str, rel: &str) -> bool {
    rel.is_empty()
        || path == rel
        || path
            .strip_prefix(rel)
            .is_some_and(|rest| rest.starts_with('/'))
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
    if let Some(e) = listing.get(rel) {
        return match (e.kind.as_str(), e.mode.as_str()) {
            ("blob", "120000") => Err(GitError::Unreadable {
                rev: rev.to_owned(),
                path: path.to_owned(),
                what: "a symlink (mf does not follow links)".into(),
            }),
            ("commit", _) => Err(GitError::Unreadable {
                rev: rev.to_owned(),
                path: path.to_owned(),
                what: "a submodule".into(),
            }),
            _ if e.is_regular() => Ok(Target::File),
            _ => Err(GitError::Unreadable {
                rev: rev.to_owned(),
                path: path.to_owned(),
                what: format!("a `{}` entry with mode {}", e.kind, e.mode),
            }),
        };
    }
    if listing.keys().any(|p| in_scope(p, rel)) {
        return Ok(Target::Folder);
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

/// Unpack a tar stream into `dest`: directories and regular files only, refusing absolute
/// paths and `..`; links are skipped. Returns the regular files written, `/`-separated.
fn unpack(reader: impl Read, dest: &Path, rev: &str) -> Result<BTreeSet<String>, GitError> {
    let unsafe_entry = |entry: &str, reason: &str| GitError::UnsafeEntry {
        rev: rev.to_owned(),
        entry: entry.to_owned(),
        reason: reason.to_owned(),
    };
    let read_err = io("cannot read git archive output");
    let mut archive = tar::Archive::new(reader);
    let mut written = BTreeSet::new();
    let entries = archive.entries().map_err(read_err)?;
    for entry in entries {
        let mut entry = entry.map_err(io("cannot read git archive output"))?;
        let kind = entry.header().entry_type();
        if kind.is_pax_global_extensions() {
            continue;
        }
        let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let path = entry
            .path()
            .map_err(|_| unsafe_entry(&raw, "not a valid path"))?
            .into_owned();
        let parts = safe_parts(&path).map_err(|reason| unsafe_entry(&raw, reason))?;
        if parts.is_empty() {
            continue;
        }
        let target = parts.iter().fold(dest.to_path_buf(), |p, c| p.join(c));
        if kind.is_dir() {
            std::fs::create_dir_all(&target)
                .map_err(io(format!("cannot create {}", target.display())))?;
        } else if kind.is_file() || kind == tar::EntryType::Continuous {
            make_parent(&target)?;
            let write = io(format!("cannot write {}", target.display()));
            let mut file = match std::fs::File::create_new(&target) {
                Ok(f) => f,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    return Err(unsafe_entry(&raw, "a second entry for the same path"));
                }
                Err(e) => return Err(write(e)),
            };
            let size = entry.size();
            let done = if size > MAX_FILE_BYTES {
                // Oversized: keep the size so the loader and the scan report it, skip the bytes.
                file.set_len(size)
            } else {
                std::io::copy(&mut entry, &mut file).map(|_| ())
            };
            done.map_err(write)?;
            written.insert(parts.join("/"));
        }
        // Symlinks, hard links, devices, FIFOs: not created (the scan never follows links).
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
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

    fn tar_with_raw_name(name: &[u8]) -> Vec<u8> {
        let mut header = tar::Header::new_old();
        header.as_old_mut().name[..name.len()].copy_from_slice(name);
        header.set_size(2);
        header.set_entry_type(tar::EntryType::Regular);
        header.set_mode(0o644);
        header.set_cksum();
        let mut b = tar::Builder::new(Vec::new());
        b.append(&header, &b"{}"[..]).expect("append");
        b.into_inner().expect("tar")
    }

    #[test]
    fn unpack_refuses_parent_and_absolute_paths() {
        for name in [
            &b"../evil.json"[..],
            b"/tmp/evil.json",
            b"a/../../evil.json",
        ] {
            let dest = tempfile::tempdir().expect("tempdir");
            let err =
                unpack(&tar_with_raw_name(name)[..], dest.path(), "HEAD").expect_err("refused");
            assert!(matches!(err, GitError::UnsafeEntry { .. }), "{err}");
        }
        let dest = tempfile::tempdir().expect("tempdir");
        let written = unpack(
            &tar_with_raw_name(b"ok/tools.json")[..],
            dest.path(),
            "HEAD",
        )
        .expect("ok");
        assert_eq!(written, BTreeSet::from(["ok/tools.json".to_owned()]));
        assert_eq!(
            std::fs::read_to_string(dest.path().join("ok/tools.json")).expect("read"),
            "{}"
        );
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
