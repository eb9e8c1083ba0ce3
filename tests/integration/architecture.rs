//! The house rules of `docs/architecture.md`, checked on the source: every module imports only
//! modules below it in the layer order, no two files import each other (directly or round a
//! longer loop), `commands/` files stay thin, renderers never call `stats`, `report` never
//! imports `providers` or `analyze`, and no command line is rebuilt to be parsed again.
//!
//! The reader is a small lexical one: it drops comments, string literals and `#[cfg(test)]`
//! blocks, expands `use` trees, and resolves `crate::`, `super::` and `self::` paths to the file
//! that defines the item (following `pub use` re-exports of a folder's `mod.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, top first. A module may import modules of a lower layer only (`util` is
/// imported by anyone; `error`/`exit` only by the entry points).
const LAYERS: &[&[&str]] = &[
    &["main", "lib"],
    &["commands"],
    &["cli"],
    &["exit"],
    &["error"],
    &["mcp"],
    &["ci"],
    &["github"],
    &["render"],
    &["compare"],
    &["generate"],
    &["eval"],
    &["exec"],
    &["analyze"],
    &["providers"],
    &["report"],
    &["suite"],
    &["surface"],
    &["stats"],
    &["util"],
];

fn layer_of(top: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&top))
}

type ModPath = Vec<String>;

struct Source {
    files: BTreeMap<ModPath, PathBuf>,
    /// Per module file: its code with comments, strings and test blocks removed.
    code: BTreeMap<ModPath, String>,
}

fn src_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn module_path(rel: &Path) -> ModPath {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        return parts;
    }
    parts
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read src")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Code without comments, string/char literals and `#[cfg(test)]` items.
fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (b.get(i + 1) == Some(&'"') || b.get(i + 1) == Some(&'#')) {
            // raw string r"…" / r#"…"#
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) == Some(&'"') && (i == 0 || !b[i - 1].is_alphanumeric()) {
                j += 1;
                loop {
                    if j >= b.len() {
                        break;
                    }
                    if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                out.push_str("\"\"");
                i = j;
            } else {
                out.push(c);
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && b.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else if c == '\'' && b.get(i + 1) == Some(&'\\') {
            i += 2;
            while i < b.len() && b[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    drop_test_items(&out)
}

/// Remove each item that follows a `#[cfg(test)]` attribute (a `mod tests { … }` block or a
/// `mod tests;` declaration).
fn drop_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        // The item ends at its matching `}` or at the first `;` before any `{`.
        let brace = after.find('{');
        let semi = after.find(';');
        let end = match (brace, semi) {
            (Some(b), Some(s)) if s < b => s + 1,
            (Some(b), _) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (k, ch) in after[b..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, Some(s)) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

impl Source {
    fn read() -> Source {
        let root = src_dir();
        let mut paths = Vec::new();
        walk(&root, &mut paths);
        Source::from_files(paths.iter().map(|p| {
            let rel = p.strip_prefix(&root).expect("under src").to_path_buf();
            (rel, std::fs::read_to_string(p).expect("read"))
        }))
    }

    /// Files given as (path under src/, text).
    fn from_files(files_in: impl IntoIterator<Item = (PathBuf, String)>) -> Source {
        let mut files = BTreeMap::new();
        let mut code = BTreeMap::new();
        for (rel, text) in files_in {
            let m = module_path(&rel);
            code.insert(m.clone(), strip(&text));
            files.insert(m, rel);
        }
        Source { files, code }
    }

    fn is_module(&self, m: &[String]) -> bool {
        self.files.contains_key(m)
    }

    /// `pub use child::{A, B}` / `pub use child::A` lines of a module: name → source module.
    fn reexports(&self, m: &ModPath) -> BTreeMap<String, ModPath> {
        let mut map = BTreeMap::new();
        let Some(code) = self.code.get(m) else {
            return map;
        };
        for stmt in use_statements(code, true) {
            for path in expand_use(&stmt) {
                let Some(target) = self.resolve_path(m, &path, false) else {
                    continue;
                };
                if let Some(name) = path.last() {
                    map.insert(name.clone(), target);
                }
            }
        }
        map
    }

    /// The module a path (as written in module `from`) points into.
    fn resolve_path(&self, from: &ModPath, path: &[String], follow: bool) -> Option<ModPath> {
        // The crate root's own path is `[]` (its file is `lib`).
        let own: ModPath = if from.len() == 1 && (from[0] == "lib" || from[0] == "main") {
            Vec::new()
        } else {
            from.clone()
        };
        let (mut base, mut i): (ModPath, usize) = match path.first().map(String::as_str) {
            Some("crate") => (Vec::new(), 1),
            // `super` of a file module is its folder; of a mod.rs, the folder's parent.
            Some("super") => (own[..own.len().saturating_sub(1)].to_vec(), 1),
            Some("self") => (own.clone(), 1),
            // A path relative to this module: `use child::Item`.
            Some(first) if self.is_module(&[own.as_slice(), &[first.to_owned()]].concat()) => {
                (own.clone(), 0)
            }
            _ => return None,
        };
        while i > 0 && path.get(i).map(String::as_str) == Some("super") {
            base.pop();
            i += 1;
        }
        let mut m = base;
        for seg in &path[i..] {
            let mut next = m.clone();
            next.push(seg.clone());
            if self.is_module(&next) {
                m = next;
            } else {
                let here = if m.is_empty() {
                    vec!["lib".to_owned()]
                } else {
                    m.clone()
                };
                if follow && let Some(src) = self.reexports(&here).get(seg) {
                    return Some(src.clone());
                }
                break;
            }
        }
        if m.is_empty() {
            return Some(vec!["lib".into()]);
        }
        Some(m)
    }

    /// Every module each module's code refers to (itself and its ancestors' declarations
    /// excluded).
    fn edges(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
        for (m, code) in &self.code {
            let mut refs = BTreeSet::new();
            for stmt in use_statements(code, false) {
                let reexport = stmt.trim_start().starts_with("pub use");
                for path in expand_use(&stmt) {
                    if let Some(t) = self.resolve_path(m, &path, true) {
                        // A folder's `pub use child::…` is its shape, not a dependency.
                        if reexport && t.starts_with(m) {
                            continue;
                        }
                        refs.insert(t);
                    }
                }
            }
            for path in inline_paths(code) {
                if let Some(t) = self.resolve_path(m, &path, true) {
                    refs.insert(t);
                }
            }
            refs.remove(m);
            edges.insert(m.clone(), refs);
        }
        edges
    }
}

/// The `use …;` statements of some code (`pub_only`: only `pub use`).
fn use_statements(code: &str, pub_only: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let boundary = before
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let Some(end) = rest[at..].find(';') else {
            break;
        };
        let stmt = &rest[at..at + end];
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let prefix = before[line_start..].trim();
        let is_pub = prefix.starts_with("pub");
        if boundary && (prefix.is_empty() || is_pub) && (!pub_only || is_pub) {
            out.push(format!("{}{}", if is_pub { "pub " } else { "" }, stmt));
        }
        rest = &rest[at + 4..];
    }
    out
}

/// `use a::{b, c::{d, e as f}}` → `[a, b]`, `[a, c, d]`, `[a, c, e]`.
fn expand_use(stmt: &str) -> Vec<Vec<String>> {
    let body = stmt.trim_start_matches("pub ").trim();
    let body = body.strip_prefix("use").unwrap_or(body).trim();
    let body: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    expand(&body, &mut Vec::new(), &mut out);
    out
}

fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if let Some(open) = tree.find('{') {
        let head = &tree[..open];
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let n = prefix.len();
        prefix.extend(head.split("::").filter(|s| !s.is_empty()).map(String::from));
        for part in split_top(inner) {
            expand(part, prefix, out);
        }
        prefix.truncate(n);
    } else {
        let item = tree.split("as").next().unwrap_or(tree);
        let mut path = prefix.clone();
        for seg in item.split("::").filter(|s| !s.is_empty()) {
            if seg == "self" && !path.is_empty() {
                continue;
            }
            path.push(seg.to_owned());
        }
        if path.last().is_some_and(|s| s == "*") {
            path.pop();
        }
        if !path.is_empty() {
            out.push(path);
        }
    }
}

fn split_top(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// `crate::a::b`, `super::x::y` paths written inline in code.
fn inline_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let text: String = chars.iter().collect();
    for start_word in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = text[from..].find(start_word) {
            let at = from + at;
            from = at + start_word.len();
            let prev = text[..at].chars().last();
            if prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let end = text[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(text.len(), |e| at + e);
            let path: Vec<String> = text[at..end]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            // `crate::{…}` is a use tree, read by `expand_use`.
            if path.len() > 1 {
                out.push(path);
            }
        }
    }
    out
}

fn show(m: &[String]) -> String {
    m.join("::")
}

#[test]
fn modules_import_only_downward() {
    let wrong = upward_imports(&Source::read());
    assert!(wrong.is_empty(), "layer violations:\n{}", wrong.join("\n"));
}

fn upward_imports(src: &Source) -> Vec<String> {
    let mut wrong = Vec::new();
    for (from, tos) in src.edges() {
        let Some(top_from) = from.first() else {
            continue;
        };
        let Some(l_from) = layer_of(top_from) else {
            wrong.push(format!("{} is in no layer of LAYERS", show(&from)));
            continue;
        };
        for to in tos {
            let Some(top_to) = to.first() else { continue };
            if top_to == top_from || top_to == "util" {
                continue;
            }
            let Some(l_to) = layer_of(top_to) else {
                wrong.push(format!("{} is in no layer of LAYERS", show(&to)));
                continue;
            };
            if l_to <= l_from && top_from != "main" && top_from != "lib" {
                wrong.push(format!("{} imports {} (upward)", show(&from), show(&to)));
            }
        }
    }
    wrong
}

struct Tarjan {
    index: Vec<usize>,
    low: Vec<usize>,
    on: Vec<bool>,
    stack: Vec<usize>,
    next: usize,
    sccs: Vec<Vec<usize>>,
}

impl Tarjan {
    fn visit(&mut self, v: usize, adj: &[Vec<usize>]) {
        self.index[v] = self.next;
        self.low[v] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on[v] = true;
        for &w in &adj[v] {
            if self.index[w] == usize::MAX {
                self.visit(w, adj);
                self.low[v] = self.low[v].min(self.low[w]);
            } else if self.on[w] {
                self.low[v] = self.low[v].min(self.index[w]);
            }
        }
        if self.low[v] == self.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            self.sccs.push(comp);
        }
    }
}

#[test]
fn no_import_cycles_between_files() {
    let cycles = cycles(&Source::read());
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

fn cycles(src: &Source) -> Vec<String> {
    let edges = src.edges();
    // Tarjan's strongly connected components.
    let nodes: Vec<&ModPath> = edges.keys().collect();
    let index_of: BTreeMap<&ModPath, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            edges[*n]
                .iter()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let mut t = Tarjan {
        index: vec![usize::MAX; nodes.len()],
        low: vec![0; nodes.len()],
        on: vec![false; nodes.len()],
        stack: Vec::new(),
        next: 0,
        sccs: Vec::new(),
    };
    for v in 0..nodes.len() {
        if t.index[v] == usize::MAX {
            t.visit(v, &adj);
        }
    }
    let cycles: Vec<String> = t
        .sccs
        .iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut names: Vec<String> = c.iter().map(|&i| show(nodes[i])).collect();
            names.sort();
            names.join(" ↔ ")
        })
        .collect();
    cycles
}

#[test]
fn the_checker_sees_a_planted_cycle_and_an_upward_import() {
    // The reader itself: expanded use trees, super paths, test blocks dropped.
    assert_eq!(
        expand_use("use crate::eval::{self as engine, EvalConfig, run::{Progress, RunModel}}"),
        vec![
            vec!["crate", "eval"],
            vec!["crate", "eval", "EvalConfig"],
            vec!["crate", "eval", "run", "Progress"],
            vec!["crate", "eval", "run", "RunModel"],
        ]
        .into_iter()
        .map(|v| v.into_iter().map(String::from).collect::<Vec<_>>())
        .collect::<Vec<_>>()
    );
    let code = strip(
        "use crate::a; // crate::b\n#[cfg(test)]\nmod tests { use crate::c; }\nfn f() { crate::d::g(\"crate::e\") }",
    );
    let paths: Vec<String> = inline_paths(&code).iter().map(|p| p.join("::")).collect();
    assert_eq!(paths, vec!["crate::a", "crate::d::g"]);

    // A planted pair of files that import each other, and a report file importing providers.
    let planted = Source::from_files([
        (
            PathBuf::from("eval/mod.rs"),
            "pub mod a;\npub mod b;\n".to_owned(),
        ),
        (
            PathBuf::from("eval/a.rs"),
            "use super::b::B;\npub struct A;\n".to_owned(),
        ),
        (
            PathBuf::from("eval/b.rs"),
            "pub struct B(crate::eval::a::A);\n".to_owned(),
        ),
        (
            PathBuf::from("providers/mod.rs"),
            "pub struct Call;\n".to_owned(),
        ),
        (
            PathBuf::from("report/mod.rs"),
            "use crate::providers::Call;\n#[cfg(test)]\nmod tests { use crate::eval::a::A; }\n"
                .to_owned(),
        ),
    ]);
    assert_eq!(cycles(&planted), vec!["eval::a ↔ eval::b"]);
    assert_eq!(
        upward_imports(&planted),
        vec!["report imports providers (upward)"]
    );
}

#[test]
fn commands_stay_thin_and_renderers_compute_nothing() {
    let root = src_dir();
    let mut problems = Vec::new();
    let mut files = Vec::new();
    walk(&root.join("commands"), &mut files);
    for f in &files {
        let lines = std::fs::read_to_string(f).expect("read").lines().count();
        if lines > 250 {
            problems.push(format!("{} has {lines} lines (> 250)", f.display()));
        }
    }
    let src = Source::read();
    for (from, tos) in src.edges() {
        let top = from.first().map(String::as_str);
        for to in tos {
            let to_top = to.first().map(String::as_str);
            if top == Some("render") && to_top == Some("stats") {
                problems.push(format!("{} calls stats ({})", show(&from), show(&to)));
            }
            if top == Some("report") && matches!(to_top, Some("providers" | "analyze")) {
                problems.push(format!("{} imports {}", show(&from), show(&to)));
            }
        }
    }
    for (m, code) in &src.code {
        if code.contains("try_parse_from") {
            problems.push(format!(
                "{} rebuilds a command line (try_parse_from)",
                show(m)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
