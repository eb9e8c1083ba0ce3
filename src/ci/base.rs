//! The base side of `mf ci`: the merge base and the surface there ([`resolve`]), single files
//! as they are at the base commit (the suite and the tool files it references), and the cache of
//! base scorecards.
//!
//! Files are read in-process as raw blobs ([`crate::surface::git::file_at`], gitoxide): no `git`
//! runs, so no filter, textconv or hook can. Folders at the base (a scanned surface) go through
//! [`crate::surface::git::surface_at_ref`] instead.
//!
//! A base scorecard depends only on the base commit and the eval settings, so it is stored
//! under `CACHE_DIR/ci-base/KEY.json` and reused by later runs against the same base (every push
//! to a pull request re-runs `mf ci` against the same merge base). KEY is the SHA-256 of the
//! canonical JSON of `{version, commit, settings, suite, surface}`: the base commit, a hash of
//! every eval setting that shapes a request or a score, and fingerprints of the base suite file
//! and the base surface. Only healthy scorecards are stored; an unreadable entry is a miss.

use std::path::{Component, Path, PathBuf};

use serde_json::json;
use sha2::{Digest, Sha256};

use super::short;
use crate::eval::Observer;
use crate::report::scorecard::{Scorecard, Status};
use crate::surface::Surface;
use crate::surface::fingerprint::canonical_json;
use crate::surface::formats::{LoadError, MAX_FILE_BYTES};
use crate::surface::git::{GitError, merge_base, surface_at_ref};
use crate::util::atomic::write_atomic;

/// The base of a run: the merge base, and the surface at PATH there (`None` when it could not
/// be read; every reason is a note).
#[derive(Debug)]
pub struct Base {
    /// The merge base commit (full id).
    pub commit: String,
    /// The surface at PATH at that commit.
    pub surface: Option<Surface>,
}

/// The merge base of `rev` and PATH's `HEAD`, and the surface at PATH there. `None` (with a
/// note) without a revision or when the merge base cannot be found.
pub fn resolve(
    path: &str,
    rev: Option<&str>,
    notes: &mut Vec<String>,
    observer: &mut dyn Observer,
) -> Option<Base> {
    let (repo, rel) = repo_and_path(path);
    let Some(rev) = rev else {
        notes.push(
            "no base revision (not a pull request, and no --base-ref): no surface diff and \
             no base eval"
                .to_owned(),
        );
        return None;
    };
    let commit = match merge_base(&repo, rev, "HEAD") {
        Ok(mb) => mb,
        Err(e) => {
            notes.push(format!("no base: {e}; no surface diff and no base eval"));
            return None;
        }
    };
    let surface = base_surface(&repo, &commit, &rel, path, notes, observer);
    Some(Base { commit, surface })
}

/// The git repository folder for PATH and the path inside it to read at a revision: PATH
/// itself (`.`) for a folder, the file name in its parent for a file.
pub fn repo_and_path(path: &str) -> (PathBuf, String) {
    let p = Path::new(path);
    if p.is_file()
        && let Some(name) = p.file_name()
    {
        let parent = p
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        return (parent, name.to_string_lossy().into_owned());
    }
    (p.to_path_buf(), ".".to_owned())
}

/// The surface at the merge base, or `None` (with a note) when it cannot be read. A path that
/// does not exist at the base is an empty surface: every tool is added.
fn base_surface(
    repo: &Path,
    commit: &str,
    rel: &str,
    shown: &str,
    notes: &mut Vec<String>,
    observer: &mut dyn Observer,
) -> Option<Surface> {
    let short = short(commit);
    match surface_at_ref(repo, commit, rel) {
        Ok((surface, warnings)) => {
            for w in warnings {
                observer.note(&format!("warning: {short}: {w}"));
            }
            Some(surface)
        }
        Err(GitError::PathAbsent { .. }) => {
            notes.push(format!(
                "{shown} does not exist at the base {short}: every tool in it is added"
            ));
            Some(Surface::default())
        }
        Err(e) => {
            notes.push(format!(
                "cannot read the surface at the base {short}: {e}; no surface diff and no base eval"
            ));
            None
        }
    }
}

/// Version tag of the base cache key and entry.
pub const BASE_CACHE_VERSION: &str = "mf-ci-base-v1";

/// `path` (relative to the current directory, inside the work tree) at `commit` of the
/// repository at `repo`: its bytes, or `None` when it is not a file there.
pub fn file_at(repo: &Path, commit: &str, path: &str) -> Result<Option<Vec<u8>>, String> {
    let rel = normalize(path)?;
    if commit.is_empty() || commit.starts_with('-') || commit.contains(['\0', '\n', ':']) {
        return Err(format!("{commit:?} is not a commit"));
    }
    match crate::surface::git::file_at(repo, commit, &rel, MAX_FILE_BYTES) {
        Ok(bytes) => Ok(bytes),
        Err(GitError::Load(LoadError::TooLarge { bytes, .. })) => Err(format!(
            "{rel} at {commit} is {bytes} bytes, over the {MAX_FILE_BYTES}-byte cap"
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// Write `bytes` at `rel` under `root`, creating folders (a path from [`normalize`]).
pub fn materialize(root: &Path, rel: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let dest = root.join(rel);
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(&dest, bytes)?;
    Ok(dest)
}

/// A relative path with `.` and `..` resolved lexically, `/`-separated; refused when absolute
/// or when it climbs out of the current directory.
pub fn normalize(path: &str) -> Result<String, String> {
    let mut parts: Vec<String> = Vec::new();
    for c in Path::new(path).components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err(format!("{path}: climbs out of the repository"));
                }
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(format!(
                    "{path}: an absolute path; give one relative to the repository"
                ));
            }
        }
    }
    if parts.is_empty() {
        return Err(format!("{path}: names no file"));
    }
    Ok(parts.join("/"))
}

/// `sha256:` + hex of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// What identifies a base scorecard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseKey<'a> {
    /// The base commit (full id).
    pub commit: &'a str,
    /// Hash of the eval settings ([`sha256`] of their description).
    pub settings: &'a str,
    /// [`sha256`] of the base suite file.
    pub suite: &'a str,
    /// Fingerprint of the base surface.
    pub surface: &'a str,
}

impl BaseKey<'_> {
    /// The cache key (hex).
    pub fn key(&self) -> String {
        let doc = json!({
            "version": BASE_CACHE_VERSION,
            "commit": self.commit,
            "settings": self.settings,
            "suite": self.suite,
            "surface": self.surface,
        });
        sha256(canonical_json(&doc).as_bytes())
            .trim_start_matches("sha256:")
            .to_owned()
    }
}

/// The base scorecard cache under a cache directory.
#[derive(Debug, Clone)]
pub struct BaseCache {
    dir: PathBuf,
}

impl BaseCache {
    /// The cache in `CACHE_DIR/ci-base`.
    pub fn new(cache_dir: &Path) -> BaseCache {
        BaseCache {
            dir: cache_dir.join("ci-base"),
        }
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The stored scorecard for `key`, if there is a readable one.
    pub fn load(&self, key: &str) -> Option<Scorecard> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        let card: Scorecard = serde_json::from_str(&text).ok()?;
        (card.status != Status::Unhealthy).then_some(card)
    }

    /// Store a healthy scorecard under `key` (atomically); an unhealthy one is not stored.
    pub fn store(&self, key: &str, card: &Scorecard) -> std::io::Result<bool> {
        if card.status == Status::Unhealthy {
            return Ok(false);
        }
        std::fs::create_dir_all(&self.dir)?;
        write_atomic(
            &self.path(key),
            crate::render::json::to_string(card).as_bytes(),
        )?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalized_inside_the_repository() {
        assert_eq!(normalize("./a/../b/c.json").as_deref(), Ok("b/c.json"));
        assert!(normalize("../x.json").is_err());
        assert!(normalize("/etc/passwd").is_err());
        assert!(normalize(".").is_err());
    }

    #[test]
    fn every_part_of_the_key_changes_it() {
        let base = BaseKey {
            commit: "c",
            settings: "s",
            suite: "u",
            surface: "f",
        };
        let k = base.key();
        assert_eq!(k.len(), 64);
        for other in [
            BaseKey {
                commit: "d",
                ..base.clone()
            },
            BaseKey {
                settings: "t",
                ..base.clone()
            },
            BaseKey {
                suite: "v",
                ..base.clone()
            },
            BaseKey {
                surface: "g",
                ..base.clone()
            },
        ] {
            assert_ne!(other.key(), k);
        }
    }
}
