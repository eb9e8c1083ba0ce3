//! The modules of one scan: the files that register or list tools (parsed by the walk) and,
//! on demand, the relative imports they follow. Each module is parsed once and never moves, so
//! nodes borrowed from it stay valid for the whole extraction. Only files inside the scan root
//! are read, through the scan's own safe read (no link followed, size capped).

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use super::Dialect;
use super::node::Module;
use crate::surface::formats;

/// Modules one scan may load through imports (beyond the files the walk parsed).
const MAX_IMPORTED: usize = 4096;

/// Files a wrapper's call sites are searched in, at most.
const MAX_SEARCHED: usize = 2000;

/// Bytes of those files read, at most.
const MAX_SEARCHED_BYTES: u64 = 64 * 1024 * 1024;

/// The modules of one scan.
pub struct Loader {
    root: Option<PathBuf>,
    max_file_bytes: u64,
    slots: Vec<OnceLock<Option<Module>>>,
    index: Mutex<HashMap<PathBuf, usize>>,
    /// JavaScript and TypeScript files the walk saw (searched for a wrapper's call sites).
    files: Vec<PathBuf>,
    entries: usize,
    imported: AtomicUsize,
    /// The texts `callers` searches, read on its first use.
    texts: OnceLock<Vec<(PathBuf, String)>>,
}

impl std::fmt::Debug for Loader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loader")
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

impl Loader {
    /// A loader over `root` holding the already-parsed `entries`; `files` are every JS/TS file
    /// the walk visited.
    pub fn new(
        root: Option<&Path>,
        entries: Vec<Module>,
        files: Vec<PathBuf>,
        max_file_bytes: u64,
    ) -> Loader {
        let n = entries.len();
        let mut slots: Vec<OnceLock<Option<Module>>> = Vec::with_capacity(n + MAX_IMPORTED);
        let mut index = HashMap::new();
        for (i, mut m) in entries.into_iter().enumerate() {
            m.path = m.path.as_deref().and_then(absolute);
            if let Some(p) = &m.path {
                index.insert(p.clone(), i);
            }
            slots.push(OnceLock::from(Some(m)));
        }

        slots.resize_with(n + MAX_IMPORTED, OnceLock::new);
        Loader {
            root: root.and_then(absolute),
            max_file_bytes,
            slots,
            index: Mutex::new(index),
            files,
            entries: n,
            imported: AtomicUsize::new(0),
            texts: OnceLock::new(),
        }
    }

    /// The files the walk parsed, in the order given.
    pub fn entries(&self) -> impl Iterator<Item = &Module> {
        self.slots[..self.entries]
            .iter()
            .filter_map(|s| s.get().and_then(Option::as_ref))
    }

    /// Every module loaded so far.
    pub fn loaded(&self) -> impl Iterator<Item = &Module> {
        self.slots
            .iter()
            .filter_map(|s| s.get().and_then(Option::as_ref))
    }

    /// The module a relative import `spec` of `from` names, loaded if needed; `None` for a
    /// package import, a file outside the root, or one that cannot be read or parsed.
    pub fn import(&self, from: &Module, spec: &str) -> Option<&Module> {
        if !(spec.starts_with("./") || spec.starts_with("../")) {
            return None;
        }
        let dir = from.path.as_ref()?.parent()?;
        let base = normalize(&dir.join(spec))?;
        let root = self.root.as_ref()?;
        if !base.starts_with(root) {
            return None;
        }
        candidates(&base).into_iter().find_map(|p| self.load(&p))
    }

    /// Load the file at `path` (absolute, inside the root) as a module.
    pub fn load(&self, path: &Path) -> Option<&Module> {
        let root = self.root.as_ref()?;
        let slot = {
            let mut index = self
                .index
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match index.get(path) {
                Some(&i) => i,
                None => {
                    if !path.is_file() {
                        return None;
                    }
                    let i = self.entries + self.imported.fetch_add(1, Ordering::Relaxed);
                    if i >= self.slots.len() {
                        return None;
                    }
                    index.insert(path.to_path_buf(), i);
                    i
                }
            }
        };
        self.slots[slot]
            .get_or_init(|| {
                let ext = path.extension()?.to_str()?;
                let dialect = Dialect::from_extension(ext)?;
                let file = formats::display_path(path, root);
                let text = formats::read_repo_text(path, &file, root, self.max_file_bytes).ok()?;
                Module::parse(&file, Some(path.to_path_buf()), &text, dialect)
            })
            .as_ref()
    }

    /// Files that may call a function named `name` (their text mentions `name(`), loaded.
    /// The texts searched are read once per scan (at most `MAX_SEARCHED` files and
    /// `MAX_SEARCHED_BYTES` in all).
    pub fn callers(&self, name: &str) -> Vec<&Module> {
        let needle = format!("{name}(");
        let texts = self.texts.get_or_init(|| {
            let Some(root) = self.root.as_ref() else {
                return Vec::new();
            };
            let mut total = 0u64;
            let mut out = Vec::new();
            let cwd = std::env::current_dir().unwrap_or_default();
            for p in self.files.iter().take(MAX_SEARCHED) {
                // Made absolute here, on first use, not for every file of every scan.
                let Some(p) = normalize(&cwd.join(p)) else {
                    continue;
                };
                let p = &p;
                let Ok(meta) = std::fs::symlink_metadata(p) else {
                    continue;
                };
                if !meta.is_file() || meta.len() > self.max_file_bytes {
                    continue;
                }
                total += meta.len();
                if total > MAX_SEARCHED_BYTES {
                    break;
                }
                let file = formats::display_path(p, root);
                if let Ok(t) = formats::read_repo_text(p, &file, root, self.max_file_bytes) {
                    out.push((p.clone(), t));
                }
            }
            out
        });
        texts
            .iter()
            .filter(|(_, t)| t.contains(&needle))
            .filter_map(|(p, _)| self.load(p))
            .collect()
    }
}

/// `path` made absolute (against the working directory) and normalized.
fn absolute(path: &Path) -> Option<PathBuf> {
    normalize(&std::path::absolute(path).ok()?)
}

/// `a/./b/../c` → `a/c`, without touching the file system; `None` if it climbs above `/`.
fn normalize(p: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    Some(out)
}

/// The files an import specifier may mean: as written, with each source extension, a `.js`
/// written for a `.ts` source (TypeScript's ESM convention), or the folder's `index`.
fn candidates(base: &Path) -> Vec<PathBuf> {
    const EXTS: &[&str] = &["ts", "tsx", "mts", "cts", "js", "mjs", "cjs", "jsx"];
    let mut out = vec![base.to_path_buf()];
    let s = base.to_string_lossy().into_owned();
    for (js, ts) in [
        (".js", ".ts"),
        (".js", ".tsx"),
        (".mjs", ".mts"),
        (".cjs", ".cts"),
    ] {
        if let Some(stem) = s.strip_suffix(js) {
            out.push(PathBuf::from(format!("{stem}{ts}")));
        }
    }
    for e in EXTS {
        out.push(PathBuf::from(format!("{s}.{e}")));
    }
    for e in EXTS {
        out.push(base.join(format!("index.{e}")));
    }
    out
}
