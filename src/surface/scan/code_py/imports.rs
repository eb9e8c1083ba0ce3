//! Names imported from relative modules (`from .tools.registry import ALL_TOOLS`) or from the
//! file's own package by its absolute name (`from mypkg.tools.registry import ...`): the module
//! file is read (inside the scan root, size-capped, never executed), parsed, and asked for the
//! elements of a list or dict, or for the tool a function defines. What crosses back is owned
//! (values and built tools), never nodes of the other file.

use std::cell::Cell;
use std::path::{Path, PathBuf};

use tree_sitter::Node;

use super::eval::{Bound, Env};
use super::{Cx, parse};
use crate::surface::Tool;
use crate::util::safe_read::{ReadPolicy, read_bytes};

/// Import hops followed from the file being read (entry → registry → implementation).
pub(super) const MAX_HOPS: usize = 3;

/// Module files read for one file's extraction, at most.
const MAX_LOADS: usize = 256;

/// Where relative modules are read from.
#[derive(Clone)]
pub(super) struct Reach<'a> {
    /// The scan root: no module outside it is read.
    pub root: &'a Path,
    /// The file being read (absolute, or relative to the working directory).
    pub path: PathBuf,
    /// The most bytes read from one module.
    pub limit: u64,
    /// Hops left.
    pub hops: usize,
    /// Modules read so far (shared across hops).
    pub loads: &'a Cell<usize>,
}

/// The file a relative module (`.tools.registry`, `..util`) names, from the directory `dir`;
/// with its path relative to `dir` (for display).
/// An absolute module of the file's own package (`from mypkg.tools import x` in a file under a
/// folder `mypkg`) resolves from the folder above the nearest such folder.
fn module_file(dir: &Path, module: &str) -> Option<(PathBuf, PathBuf)> {
    let rest = module.trim_start_matches('.');
    let dots = module.len() - rest.len();
    let ups = if dots > 0 {
        dots - 1
    } else {
        let first = rest.split('.').next()?;
        // Climbing to the folder that holds the package named `first`.
        dir.ancestors()
            .position(|a| a.file_name().is_some_and(|n| n == first))?
            + 1
    };
    let mut rel = PathBuf::new();
    for _ in 0..ups {
        rel.push("..");
    }
    if rest.is_empty() {
        return None;
    }
    for part in rest.split('.') {
        if part.is_empty() || !part.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        rel.push(part);
    }
    let as_file = rel.with_extension("py");
    if dir.join(&as_file).is_file() {
        return Some((dir.join(&as_file), as_file));
    }
    let init = rel.join("__init__.py");
    dir.join(&init).is_file().then(|| (dir.join(&init), init))
}

impl<'a> Cx<'a> {
    /// Run `f` over the module `module` imports name from, when it can be read.
    fn with_module<R>(&self, module: &str, f: impl FnOnce(&mut Cx<'_>) -> Option<R>) -> Option<R> {
        let reach = self.reach.as_ref()?;
        if reach.hops == 0 || reach.loads.get() >= MAX_LOADS {
            return None;
        }
        let dir = reach.path.parent()?;
        let (abs, rel) = module_file(dir, module)?;
        reach.loads.set(reach.loads.get() + 1);
        let display_dir = Path::new(self.file).parent().unwrap_or(Path::new(""));
        let display = normalize(&display_dir.join(&rel));
        let bytes = read_bytes(
            &abs,
            &display,
            &ReadPolicy::repository(reach.root, reach.limit),
        )
        .ok()?;
        let src = String::from_utf8(bytes).ok()?;
        let tree = parse(&src)?;
        let next = Reach {
            root: reach.root,
            path: abs,
            limit: reach.limit,
            hops: reach.hops - 1,
            loads: reach.loads,
        };
        let (mut cx, _, _) = Cx::build(&display, &src, &tree, Some(next));
        f(&mut cx)
    }

    /// The elements of the imported `local` (`.values()` / `.items()` / `.keys()` of it when
    /// `method` is given), functions among them built into tools.
    pub(super) fn foreign_elements<'x>(
        &self,
        local: &str,
        method: Option<&str>,
    ) -> Option<Vec<Bound<'x>>> {
        let (module, orig) = *self.relative.get(local)?;
        self.with_module(module, |cx| {
            cx.budget.set(super::BUDGET);
            let name = cx.consts.keys().copied().find(|k| *k == orig);
            let items = match name {
                Some(n) => {
                    let node = cx.consts.get(n).copied().flatten()?;
                    cx.elements_of(node, method)?
                }
                None => return cx.foreign_elements(orig, method),
            };
            items.into_iter().map(|b| cx.settle(b, 0)).collect()
        })
    }

    /// The elements of `node`, or of its `.method()` view when it is a dict.
    fn elements_of(&self, node: Node<'a>, method: Option<&str>) -> Option<Vec<Bound<'a>>> {
        let Some(m) = method else {
            return self.elements(node, &Env::new(), 0);
        };
        let pairs = self.dict_pairs(
            super::unwrap(node)
                .kind()
                .eq("dictionary")
                .then_some(node)?,
            0,
        )?;
        Some(match m {
            "items" => pairs
                .into_iter()
                .map(|(k, v)| Bound::T(vec![k, v]))
                .collect(),
            "values" => pairs.into_iter().map(|(_, v)| v).collect(),
            "keys" => pairs.into_iter().map(|(k, _)| k).collect(),
            _ => return None,
        })
    }

    /// An element made owned: a value, or the tool a function reference defines.
    fn settle<'x>(&mut self, b: Bound<'a>, depth: usize) -> Option<Bound<'x>> {
        if depth > super::MAX_DEPTH {
            return None;
        }
        Some(match b {
            Bound::V(v) => Bound::V(v),
            Bound::Tool(t) => Bound::Tool(t),
            Bound::Fn(_) => return None,
            Bound::T(items) => Bound::T(
                items
                    .into_iter()
                    .map(|i| self.settle(i, depth + 1))
                    .collect::<Option<Vec<_>>>()?,
            ),
            Bound::N(n) => match self.tool_of_ref(n) {
                Some(t) => Bound::Tool(Box::new(t)),
                None => Bound::V(self.eval(n, &Env::new(), 0)?),
            },
        })
    }

    /// The tool the function `n` names defines (registered with no arguments): a local
    /// `def`, or one imported from a relative module.
    pub(super) fn tool_of_ref(&mut self, n: Node<'a>) -> Option<Tool> {
        let n = super::unwrap(n);
        if n.kind() != "identifier" {
            return None;
        }
        if let Some(def) = self.function_of(n, &Env::new(), 0) {
            return self.plain_tool(def);
        }
        self.foreign_tool(self.text(n))
    }

    /// The tool the function imported as `local` defines in its module.
    pub(super) fn foreign_tool(&self, local: &str) -> Option<Tool> {
        let (module, orig) = *self.relative.get(local)?;
        self.with_module(module, |cx| match cx.defs.get(orig).copied() {
            Some(def) => cx.plain_tool(def),
            None => cx.foreign_tool(orig),
        })
    }

    /// Whether the function imported as `local` is a custom tool decorator in its module.
    pub(super) fn foreign_delegates(&self, local: &str) -> bool {
        let Some((module, orig)) = self.relative.get(local).copied() else {
            return false;
        };
        self.with_module(module, |cx| {
            Some(match cx.defs.get(orig).copied() {
                Some(def) => cx.delegates(def, 0),
                None => cx.foreign_delegates(orig),
            })
        })
        .unwrap_or(false)
    }
}

/// `a/./b/../c` → `a/c`, `/`-separated.
fn normalize(p: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                if parts.pop().is_none() {
                    parts.push("..".into());
                }
            }
            std::path::Component::CurDir => {}
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    parts.join("/")
}
