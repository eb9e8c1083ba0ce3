//! `mf ci` in a matrix: each shard job (`--shard K/N`) evaluates its shard of head and base and
//! writes the two parts ([`write_parts`]); the final job (`--merge DIR`) finds every part under
//! DIR (artifacts downloaded side by side), merges each side into the scorecard one unsharded
//! run would have written ([`merged`]) and goes on as a normal run: compare, gates, one comment.
//!
//! Part files: `mf-head-K-of-N.json` and `mf-base-K-of-N.json` (scorecards with a `shard`
//! block, SCHEMA.md "Shards and merge"). A shard job whose base eval was skipped (no base, the
//! suite is new) writes no base part; then no shard has one, and the merge has no base either.

use std::path::{Path, PathBuf};

use super::CiError;
use crate::eval::merge::{self, MergeError};
use crate::eval::shard::Shard;
use crate::render;
use crate::report::scorecard::Scorecard;
use crate::util::atomic::write_atomic;

/// File name prefix of head parts.
pub const HEAD_PREFIX: &str = "mf-head-";
/// File name prefix of base parts.
pub const BASE_PREFIX: &str = "mf-base-";

/// `mf-head-2-of-3.json`.
pub fn part_name(prefix: &str, shard: Shard) -> String {
    format!("{prefix}{}-of-{}.json", shard.index, shard.count)
}

/// Write this shard's parts into `dir` (created when missing): head, and base when it ran.
/// Returns the files written.
pub fn write_parts(
    dir: &Path,
    shard: Shard,
    head: Option<&Scorecard>,
    base: Option<&Scorecard>,
) -> Result<Vec<PathBuf>, CiError> {
    let mut written = Vec::new();
    for (prefix, card) in [(HEAD_PREFIX, head), (BASE_PREFIX, base)] {
        let Some(card) = card else { continue };
        std::fs::create_dir_all(dir).map_err(|source| CiError::Write {
            path: dir.to_owned(),
            source,
        })?;
        let path = dir.join(part_name(prefix, shard));
        write_atomic(&path, render::json::to_string(card).as_bytes()).map_err(|source| {
            CiError::Write {
                path: path.clone(),
                source,
            }
        })?;
        written.push(path);
    }
    Ok(written)
}

/// Both sides merged from the parts under a folder.
#[derive(Debug)]
pub struct Merged {
    /// Head, merged from every `mf-head-*` part.
    pub head: Scorecard,
    /// Base, merged from every `mf-base-*` part; `None` when no shard wrote one.
    pub base: Option<Scorecard>,
    /// What was merged, for the report's notes.
    pub note: String,
}

/// The parts under `dir`, merged per side; `None` when there is no head part at all (the shard
/// jobs ran the free checks only). Parts of different plans, duplicates or a missing shard are
/// an error naming the files.
pub fn merged(dir: &Path) -> Result<Option<Merged>, CiError> {
    let find = |prefix: &str| {
        merge::find_parts(dir, prefix).map_err(|e| {
            CiError::Merge(MergeError(vec![format!(
                "cannot read the parts folder {}: {e} (download the shard jobs' artifacts \
                 into it first)",
                dir.display()
            )]))
        })
    };
    if !dir.exists() {
        // A download of zero artifacts creates no folder: the shard jobs wrote nothing.
        return Ok(None);
    }
    let head_files = find(HEAD_PREFIX)?;
    let base_files = find(BASE_PREFIX)?;
    if head_files.is_empty() {
        if !base_files.is_empty() {
            return Err(CiError::Merge(MergeError(vec![format!(
                "{} holds base parts but no head part ({HEAD_PREFIX}K-of-N.json): download \
                 every shard job's artifact",
                dir.display()
            )])));
        }
        return Ok(None);
    }
    let read = |files: &[PathBuf], side: &str| -> Result<Scorecard, CiError> {
        let mut parts = Vec::new();
        let mut problems = Vec::new();
        for f in files {
            match merge::read_part(f) {
                Ok(p) => parts.push(p),
                Err(MergeError(p)) => problems.extend(p),
            }
        }
        if problems.is_empty() {
            merge::merge(parts, false).map_err(|MergeError(p)| {
                CiError::Merge(MergeError(
                    p.into_iter().map(|p| format!("{side}: {p}")).collect(),
                ))
            })
        } else {
            Err(CiError::Merge(MergeError(problems)))
        }
    };
    let head = read(&head_files, "head")?;
    let base = if base_files.is_empty() {
        None
    } else {
        Some(read(&base_files, "base")?)
    };
    let note = format!(
        "the eval was merged from the parts in {}: head {} part{}{}",
        dir.display(),
        head_files.len(),
        if head_files.len() == 1 { "" } else { "s" },
        if base_files.is_empty() {
            ", no base part".to_owned()
        } else {
            format!(", base {}", base_files.len())
        }
    );
    Ok(Some(Merged { head, base, note }))
}
