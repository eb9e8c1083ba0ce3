//! `server-unread`: an MCP server the scan saw but could not read fully. A place that registers
//! or lists tools whose tools could not be resolved statically, or a server created in a
//! package from which no tool at all was read, is said, with where it is and the fix, so
//! that "no tools found" is never a silent pass.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::code_ts::ServerSeen;
use crate::surface::{SourceFormat, Tool};

/// The finding code.
pub const CODE: &str = "server-unread";

/// The fix every `server-unread` finding gives.
pub const FIX: &str = "commit a snapshot of the tools the server serves: declare it in mf.toml \
(`[servers.NAME]` with `command = \"…\"` and `snapshot = \"tools/NAME.tools.json\"`) and run \
`mf snapshot NAME`; the free gate reads the snapshot and `mf snapshot --check` keeps it fresh";

/// One server (or registration place) the scan could not read fully.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnreadServer {
    /// Always `server-unread`.
    pub code: &'static str,
    /// The file, relative to the scan root.
    pub file: String,
    /// 1-based line of the first place that could not be read (or of the server's creation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// `typescript` or `python`.
    pub language: &'static str,
    /// What the scan saw there (`server.setRequestHandler(ListToolsRequestSchema, …)`).
    pub saw: String,
    /// Registration and listing places found in the file.
    pub registrations: usize,
    /// Of those, the places whose tools could not be read.
    pub unresolved: usize,
    /// Tools that were read from the file.
    pub tools_read: usize,
    /// What is wrong, in a sentence.
    pub message: String,
    /// What to do.
    pub fix: &'static str,
}

/// The `server-unread` findings for what the code readers saw (`seen`, with each module's
/// language), given every tool the scan read.
pub fn findings(
    root: &Path,
    seen: &[(ServerSeen, &'static str)],
    tools: &[Tool],
) -> Vec<UnreadServer> {
    let mut out = Vec::new();
    let mut flagged_packages = std::collections::BTreeSet::new();
    let roots = PackageRoots::new(root);
    let code_tools = code_tools_by_package(&roots, tools);
    for (s, language) in seen {
        if s.unresolved.is_empty() {
            continue;
        }
        // A list handler that walks the server's own registry (`for (… of this.tools)`) lists
        // what the package registers; when those registrations were read, it adds nothing.
        let only_lists = s
            .unresolved
            .iter()
            .all(|(_, w)| w.contains("ListToolsRequestSchema"));
        if only_lists && code_tools.get(&roots.of(&s.file)).copied().unwrap_or(0) > 0 {
            continue;
        }
        let mut whats: Vec<&str> = s.unresolved.iter().map(|(_, w)| w.as_str()).collect();
        whats.dedup();
        let saw = whats.join(", ");
        let n = s.unresolved.len();
        let message = if s.tools == 0 {
            format!(
                "{n} tool registration{} here could not be read statically ({saw}), and no tool was read from this file: the tools this server serves are not in the scan",
                plural(n)
            )
        } else {
            format!(
                "{n} of {} tool registration places here could not be read statically ({saw}); {} tool{} read here, the rest of what this server serves is not in the scan",
                s.sites,
                s.tools,
                plural(s.tools)
            )
        };
        flagged_packages.insert(roots.of(&s.file));
        out.push(UnreadServer {
            code: CODE,
            file: s.file.clone(),
            line: s.unresolved.first().map(|u| u.0),
            language,
            saw,
            registrations: s.sites,
            unresolved: n,
            tools_read: s.tools,
            message,
            fix: FIX,
        });
    }
    // A server created (or places found) in a package from which no tool was read.
    let mut by_package: BTreeMap<String, Vec<&(ServerSeen, &'static str)>> = BTreeMap::new();
    for entry in seen {
        let (s, _) = entry;
        if s.created_at.is_some() || s.sites > 0 {
            by_package.entry(roots.of(&s.file)).or_default().push(entry);
        }
    }
    for (pkg, entries) in by_package {
        if flagged_packages.contains(&pkg) || code_tools.get(&pkg).copied().unwrap_or(0) > 0 {
            continue;
        }
        let Some((s, language)) = entries
            .iter()
            .find(|(s, _)| s.created_at.is_some())
            .or_else(|| entries.first())
            .copied()
        else {
            continue;
        };
        let sites: usize = entries.iter().map(|(s, _)| s.sites).sum();
        let place = if pkg.is_empty() {
            "this repository".to_owned()
        } else {
            format!("`{pkg}`")
        };
        let (saw, message) = if s.created_at.is_some() {
            (
                "an MCP server created here".to_owned(),
                format!(
                    "an MCP server is created here, but no tool it serves could be read statically anywhere in {place}: its tools are registered in a way the scan cannot follow (computed names, a data file, a framework that discovers them at run time)"
                ),
            )
        } else {
            (
                "tool registration places".to_owned(),
                format!("no tool could be read from the registration places in {place}"),
            )
        };
        out.push(UnreadServer {
            code: CODE,
            file: s.file.clone(),
            line: s.created_at,
            language,
            saw,
            registrations: sites,
            unresolved: sites,
            tools_read: 0,
            message,
            fix: FIX,
        });
    }
    out.sort();
    out
}

/// Tools read from code, per package.
fn code_tools_by_package(roots: &PackageRoots<'_>, tools: &[Tool]) -> BTreeMap<String, usize> {
    let mut code_tools: BTreeMap<String, usize> = BTreeMap::new();
    for t in tools {
        if matches!(
            t.origin.format,
            SourceFormat::TypescriptCode | SourceFormat::PythonCode
        ) && let Some(f) = &t.origin.file
        {
            *code_tools.entry(roots.of(f)).or_default() += 1;
        }
    }
    code_tools
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Files that mark the root of a package (the unit a server's tools are looked for in).
const PACKAGE_MARKERS: &[&str] = &[
    "package.json",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "deno.json",
];

/// [`package_root`] remembered per folder (a scan asks for every tool's file).
struct PackageRoots<'r> {
    root: &'r Path,
    known: std::cell::RefCell<std::collections::HashMap<String, String>>,
}

impl<'r> PackageRoots<'r> {
    fn new(root: &'r Path) -> Self {
        PackageRoots {
            root,
            known: std::cell::RefCell::default(),
        }
    }

    fn of(&self, file: &str) -> String {
        let dir = file.rsplit_once('/').map_or("", |(d, _)| d).to_owned();
        if let Some(r) = self.known.borrow().get(&dir) {
            return r.clone();
        }
        let r = package_root(self.root, file);
        self.known.borrow_mut().insert(dir, r.clone());
        r
    }
}

/// The nearest folder (relative, `/`-separated; `""` for the root) above `file` that holds a
/// package marker, else the scan root.
pub fn package_root(root: &Path, file: &str) -> String {
    let mut dir = Path::new(file).parent();
    while let Some(d) = dir {
        if d.as_os_str().is_empty() {
            break;
        }
        let marked = PACKAGE_MARKERS
            .iter()
            .any(|m| std::fs::symlink_metadata(root.join(d).join(m)).is_ok_and(|md| md.is_file()));
        if marked {
            return d.to_string_lossy().replace('\\', "/");
        }
        dir = d.parent();
    }
    String::new()
}
