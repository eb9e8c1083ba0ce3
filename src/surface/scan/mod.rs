//! `mf scan`: walk a repository (gitignore-aware, in parallel, never following links) and
//! recognize every tool definition in it. Nothing from the repository is executed: files are
//! only read and parsed.

pub mod code_py;
pub mod code_ts;
pub mod declared;
pub mod mcp_config;
pub mod probe;
pub mod skill_md;
mod syntax;
pub mod tracked;
mod ts_casts;
pub mod unread;

use std::path::Path;
use std::sync::Mutex;

use ignore::{WalkBuilder, WalkState};
use serde::Serialize;

use super::formats::{self, LoadError, Source};
use super::{Skill, Tool};
use mcp_config::ConfiguredServer;

/// Directory names skipped even without a `.gitignore`: dependency trees and caches hold
/// other people's tools (SDK examples) and would drown the project's own.
pub const DEFAULT_EXCLUDED_DIRS: &[&str] = &[
    ".git",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".tox",
    ".hg",
    ".svn",
];

/// Files a scan itself writes; never read back as input.
pub const OUTPUT_FILES: &[&str] = &["mf.scan.json", "mf.suite.draft.json"];

/// Why a scan could not run at all (per-file problems are warnings, not errors).
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    /// The root does not exist or is not a directory.
    #[error("cannot scan {root}: {reason}")]
    Root {
        /// The root as given.
        root: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// A problem with one file that did not stop the scan.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ScanWarning {
    /// The file, relative to the root.
    pub file: String,
    /// 1-based line, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// What is wrong and what to do.
    pub message: String,
}

/// What a code recognizer found in one file.
#[derive(Debug, Default)]
pub struct CodeFindings {
    /// Tools found.
    pub tools: Vec<Tool>,
    /// Problems (e.g. a name that is not a literal).
    pub warnings: Vec<String>,
    /// What was seen of an MCP server in the file (its registration places, and which of them
    /// could not be read), when the recognizer saw one.
    pub server: Option<code_ts::ServerSeen>,
}

/// Scan settings, validated.
#[derive(Debug, Clone)]
pub struct ScanOptions {
    /// Files larger than this are skipped with a warning.
    pub max_file_bytes: u64,
    /// Walker threads (0 = one per core).
    pub threads: usize,
    /// Honour `.gitignore`, `.ignore` and git excludes.
    pub respect_gitignore: bool,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            max_file_bytes: formats::MAX_FILE_BYTES,
            threads: 0,
            respect_gitignore: true,
        }
    }
}

/// Everything a scan found.
#[derive(Debug, Default)]
pub struct ScanResult {
    /// Tools, sorted by file, line, column, name.
    pub tools: Vec<Tool>,
    /// Skills, sorted by file and line.
    pub skills: Vec<Skill>,
    /// MCP servers configured for clients, sorted by file and line.
    pub servers: Vec<ConfiguredServer>,
    /// Per-file problems, sorted.
    pub warnings: Vec<ScanWarning>,
    /// MCP servers seen in code whose tools could not be read fully (`server-unread`).
    pub unread: Vec<unread::UnreadServer>,
    /// Files the walk visited (after ignores).
    pub files_walked: usize,
    /// Files that held at least one definition, server or skill.
    pub files_recognized: usize,
    /// What the scan decided and why (a declared snapshot replacing code tools).
    pub notes: Vec<String>,
    /// The servers `mf.toml` at the root declares (`[servers.NAME]`).
    pub declared: Vec<declared::DeclaredServer>,
}

/// What one file contributed.
#[derive(Debug, Default)]
struct FileOutcome {
    tools: Vec<Tool>,
    skills: Vec<Skill>,
    servers: Vec<ConfiguredServer>,
    warnings: Vec<ScanWarning>,
    /// A JavaScript/TypeScript file that may register tools, parsed for the project pass.
    module: Option<code_ts::Module>,
    /// A JavaScript/TypeScript file (searched for a wrapper's call sites).
    code_file: Option<std::path::PathBuf>,
    /// What a Python reader saw of a server.
    seen: Option<(code_ts::ServerSeen, &'static str)>,
}

impl FileOutcome {
    fn recognized(&self) -> bool {
        !self.tools.is_empty() || !self.skills.is_empty() || !self.servers.is_empty()
    }

    fn keep(&self) -> bool {
        self.recognized()
            || !self.warnings.is_empty()
            || self.module.is_some()
            || self.code_file.is_some()
            || self.seen.is_some()
    }
}

/// Walk `root` and recognize every definition in it.
pub fn scan(root: &Path, options: &ScanOptions) -> Result<ScanResult, ScanError> {
    let meta = std::fs::metadata(root).map_err(|e| ScanError::Root {
        root: root.display().to_string(),
        reason: e.to_string(),
    })?;
    if !meta.is_dir() {
        return Err(ScanError::Root {
            root: root.display().to_string(),
            reason: "not a directory; pass the repository's root folder".into(),
        });
    }
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(false)
        .follow_links(false)
        .git_ignore(options.respect_gitignore)
        .git_exclude(options.respect_gitignore)
        .git_global(false)
        .ignore(options.respect_gitignore)
        .parents(options.respect_gitignore)
        .require_git(false)
        .threads(options.threads)
        .filter_entry(|e| {
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            !(is_dir && e.depth() > 0 && DEFAULT_EXCLUDED_DIRS.iter().any(|d| e.file_name() == *d))
        });
    let collected: Mutex<Vec<FileOutcome>> = Mutex::new(Vec::new());
    let visited: Mutex<std::collections::HashSet<std::path::PathBuf>> =
        Mutex::new(std::collections::HashSet::new());
    let walked = std::sync::atomic::AtomicUsize::new(0);
    builder.build_parallel().run(|| {
        Box::new(|entry| {
            let entry = match entry {
                Ok(e) => e,
                Err(err) => {
                    push(
                        &collected,
                        FileOutcome {
                            warnings: vec![walk_warning(root, &err)],
                            ..Default::default()
                        },
                    );
                    return WalkState::Continue;
                }
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return WalkState::Continue;
            }
            walked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if let Ok(rel) = entry.path().strip_prefix(root) {
                visited
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(rel.to_path_buf());
            }
            let outcome = scan_file(root, entry.path(), options);
            if outcome.keep() {
                push(&collected, outcome);
            }
            WalkState::Continue
        })
    });
    // What git tracks is checked even when an ignore rule (or the dependency-folder list)
    // skipped it: ignore files only skip untracked files.
    if options.respect_gitignore
        && let Some(tracked) = tracked::tracked_files(root)
    {
        let visited = visited
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let missed: Vec<std::path::PathBuf> = tracked
            .into_iter()
            .filter(|rel| !visited.contains(rel) && kind_of(rel).is_some())
            .filter(|rel| !rel.components().any(|c| c.as_os_str() == ".git"))
            .filter_map(|rel| tracked::regular_file_under(root, &rel))
            .collect();
        for path in missed {
            walked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let outcome = scan_file(root, &path, options);
            if outcome.keep() {
                push(&collected, outcome);
            }
        }
    }
    let outcomes = collected
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut result = ScanResult {
        files_walked: walked.into_inner(),
        ..Default::default()
    };
    let mut modules = Vec::new();
    let mut code_files = Vec::new();
    let mut seen = Vec::new();
    let mut recognized_files = std::collections::BTreeSet::new();
    for o in outcomes {
        if o.recognized() {
            result.files_recognized += 1;
        }
        result.tools.extend(o.tools);
        result.skills.extend(o.skills);
        result.servers.extend(o.servers);
        result.warnings.extend(o.warnings);
        modules.extend(o.module);
        code_files.extend(o.code_file);
        seen.extend(o.seen);
    }
    // The project pass: JavaScript/TypeScript registrations, followed across the modules.
    modules.sort_by(|a, b| a.file.cmp(&b.file));
    code_files.sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
    let loader = code_ts::Loader::new(Some(root), modules, code_files, options.max_file_bytes);
    for f in code_ts::extract_project(&loader) {
        for t in &f.found.tools {
            if let Some(file) = &t.origin.file
                && file != &f.file
            {
                recognized_files.insert(file.clone());
            }
        }
        if !f.found.tools.is_empty() {
            recognized_files.insert(f.file.clone());
        }
        result.tools.extend(f.found.tools);
        result
            .warnings
            .extend(f.found.warnings.into_iter().map(|m| located(&f.file, m)));
        seen.push((f.server, "typescript"));
    }
    result.files_recognized += recognized_files.len();
    drop_compiled_twins(&mut result.tools);
    declared::apply(root, &mut result);
    let key = |o: &super::Origin| (o.file.clone(), o.line, o.column);
    result.tools.sort_by(|a, b| {
        key(&a.origin)
            .cmp(&key(&b.origin))
            .then_with(|| a.name.cmp(&b.name))
    });
    // A suite `ref` and the function.json it points at are one definition.
    result.tools.dedup_by(|a, b| {
        a.name == b.name && a.origin.file == b.origin.file && a.origin.line == b.origin.line
    });
    result.skills.sort_by(|a, b| {
        key(&a.origin)
            .cmp(&key(&b.origin))
            .then_with(|| a.name.cmp(&b.name))
    });
    result.servers.sort_by(|a, b| {
        key(&a.origin)
            .cmp(&key(&b.origin))
            .then_with(|| a.name.cmp(&b.name))
    });
    result.warnings.sort();
    result.warnings.dedup();
    seen.sort_by(|a, b| a.0.file.cmp(&b.0.file));
    result.unread = unread::findings(root, &seen, &result.tools);
    // A server whose declared snapshot the scan read is covered: its tools are known.
    result
        .unread
        .retain(|u| declared::covered_by_snapshot(&u.file, &result.declared).is_none());
    Ok(result)
}

/// A package that ships its TypeScript source beside the compiled JavaScript (`dist/`,
/// `build/`, `lib/`, `out/`) defines each tool twice; the source's definition is kept.
fn drop_compiled_twins(tools: &mut Vec<Tool>) {
    let is_source = |f: &str| {
        [".ts", ".tsx", ".mts", ".cts"]
            .iter()
            .any(|e| f.ends_with(e))
    };
    let compiled = |f: &str| {
        !is_source(f)
            && f.split('/').any(|c| {
                matches!(
                    c,
                    "dist" | "build" | "lib" | "out" | "esm" | "cjs" | "bundle"
                )
            })
    };
    let from_source: std::collections::HashSet<String> = tools
        .iter()
        .filter(|t| t.origin.file.as_deref().is_some_and(is_source))
        .map(|t| t.name.clone())
        .collect();
    if from_source.is_empty() {
        return;
    }
    tools.retain(|t| {
        !(t.origin.format == super::SourceFormat::TypescriptCode
            && t.origin.file.as_deref().is_some_and(compiled)
            && from_source.contains(&t.name))
    });
}

/// Whether a file is source code the scan reads (TypeScript, JavaScript or Python).
pub fn is_source_file(path: &Path) -> bool {
    matches!(kind_of(path), Some(Kind::Code(_) | Kind::Python))
}

/// Read one source file given directly (`mf lint server.py`, `mf lint src/index.ts`): its
/// tools (TypeScript and JavaScript imports followed inside `root`, the folder mf runs in when
/// the file is under it), and `server-unread` for what could not be read. Origins are the
/// path as given.
pub fn scan_source_file(
    path: &Path,
    display: &str,
    options: &ScanOptions,
) -> Result<ScanResult, ScanError> {
    let text =
        formats::read_text(path, display, options.max_file_bytes).map_err(|e| ScanError::Root {
            root: display.to_owned(),
            reason: strip_file_prefix(&e.to_string(), path, Path::new("")),
        })?;
    let mut result = ScanResult {
        files_walked: 1,
        ..Default::default()
    };
    let mut seen = Vec::new();
    match kind_of(path) {
        Some(Kind::Python) => {
            // Relative imports are read inside the working directory when the file is in it,
            // else inside the file's own folder (as for TypeScript below).
            let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
            let root = std::env::current_dir()
                .ok()
                .filter(|c| abs.starts_with(c))
                .or_else(|| abs.parent().map(Path::to_path_buf))
                .unwrap_or_default();
            let mut found =
                code_py::extract_at(display, &text, &abs, &root, options.max_file_bytes);
            seen.extend(found.server.take().map(|s| (s, "python")));
            result.tools = found.tools;
            result.warnings = found
                .warnings
                .into_iter()
                .map(|message| ScanWarning {
                    file: display.to_owned(),
                    line: None,
                    message,
                })
                .collect();
        }
        Some(Kind::Code(dialect)) => {
            let cwd = std::env::current_dir().ok();
            let root = cwd
                .filter(|c| std::path::absolute(path).is_ok_and(|p| p.starts_with(c)))
                .or_else(|| path.parent().map(Path::to_path_buf))
                .unwrap_or_default();
            let module = code_ts::Module::parse(display, Some(path.to_path_buf()), &text, dialect);
            let loader = code_ts::Loader::new(
                Some(&root),
                module.into_iter().collect(),
                Vec::new(),
                options.max_file_bytes,
            );
            for f in code_ts::extract_project(&loader) {
                result.tools.extend(f.found.tools);
                result
                    .warnings
                    .extend(f.found.warnings.into_iter().map(|m| located(&f.file, m)));
                seen.push((f.server, "typescript"));
            }
        }
        _ => {
            return Err(ScanError::Root {
                root: display.to_owned(),
                reason: "not a TypeScript, JavaScript or Python file".into(),
            });
        }
    }
    result.files_recognized = usize::from(!result.tools.is_empty());
    result.unread = unread::findings(Path::new(""), &seen, &result.tools);
    Ok(result)
}

fn push(collected: &Mutex<Vec<FileOutcome>>, outcome: FileOutcome) {
    collected
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(outcome);
}

fn walk_warning(root: &Path, err: &ignore::Error) -> ScanWarning {
    let mut file = String::from(".");
    let mut e = err;
    loop {
        match e {
            ignore::Error::WithPath { path, err } => {
                file = formats::display_path(path, root);
                e = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                e = err
            }
            _ => break,
        }
    }
    ScanWarning {
        file,
        line: None,
        message: format!("skipped: {e}"),
    }
}

/// What kind of file this is to the scan, from its name alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Json,
    SkillMd,
    Code(code_ts::Dialect),
    Python,
}

fn kind_of(path: &Path) -> Option<Kind> {
    let name = path.file_name()?.to_str()?;
    if OUTPUT_FILES.contains(&name)
        || matches!(
            name,
            "package.json"
                | "package-lock.json"
                | "tsconfig.json"
                | "composer.json"
                | "composer.lock"
        )
    {
        return None;
    }
    if name == "SKILL.md" {
        return Some(Kind::SkillMd);
    }
    if name.ends_with(".d.ts") || name.ends_with(".min.js") {
        return None;
    }
    let ext = path.extension()?.to_str()?;
    match ext {
        "json" => Some(Kind::Json),
        "py" => Some(Kind::Python),
        _ => code_ts::Dialect::from_extension(ext).map(Kind::Code),
    }
}

/// Cheap substring test before parsing any JSON: a file with none of these holds no tools.
fn json_may_hold_tools(text: &str) -> bool {
    [
        "\"tools\"",
        "\"mcpServers\"",
        "\"servers\"",
        "inputSchema",
        "input_schema",
        "\"parameters\"",
        "\"function\"",
    ]
    .iter()
    .any(|needle| text.contains(needle))
}

fn scan_file(root: &Path, path: &Path, options: &ScanOptions) -> FileOutcome {
    let mut out = FileOutcome::default();
    if path.file_name().is_some_and(|n| n.to_str().is_none()) {
        out.warnings.push(ScanWarning {
            file: formats::display_path(path, root),
            line: None,
            message: "skipped: the file name is not valid UTF-8; rename it to read it".into(),
        });
        return out;
    }
    let Some(kind) = kind_of(path) else {
        return out;
    };
    let file = formats::display_path(path, root);
    let text = match formats::read_text(path, &file, options.max_file_bytes) {
        Ok(t) => t,
        Err(e) => {
            out.warnings.push(ScanWarning {
                file,
                line: None,
                message: format!("skipped: {}", strip_file_prefix(&e.to_string(), path, root)),
            });
            return out;
        }
    };
    match kind {
        Kind::Json => scan_json(&file, path, &text, &mut out),
        Kind::SkillMd => match skill_md::parse(&text, &file) {
            Ok(skill) => out.skills.push(skill),
            Err(w) => out.warnings.push(w),
        },
        Kind::Code(dialect) => {
            out.code_file = Some(path.to_path_buf());
            out.module = code_ts::parse_entry(&file, path.to_path_buf(), &text, dialect);
        }
        Kind::Python => {
            let mut found = code_py::extract_at(&file, &text, path, root, options.max_file_bytes);
            out.seen = found.server.take().map(|s| (s, "python"));
            absorb(found, &file, &mut out);
        }
    }
    out
}

fn strip_file_prefix(msg: &str, path: &Path, root: &Path) -> String {
    let file = formats::display_path(path, root);
    msg.strip_prefix(&format!("{file}: "))
        .map(str::to_owned)
        .unwrap_or_else(|| msg.to_owned())
}

fn absorb(found: CodeFindings, file: &str, out: &mut FileOutcome) {
    out.tools.extend(found.tools);
    out.warnings
        .extend(found.warnings.into_iter().map(|m| located(file, m)));
}

/// A code reader's warning (`FILE:LINE: message`, or a bare message about `file`) as a
/// warning with its own file and line.
fn located(file: &str, message: String) -> ScanWarning {
    if let Some((head, rest)) = message.split_once(": ")
        && let Some((f, line)) = head.rsplit_once(':')
        && let Ok(line) = line.parse::<u32>()
        && !f.is_empty()
    {
        return ScanWarning {
            file: f.to_owned(),
            line: Some(line),
            message: rest.to_owned(),
        };
    }
    ScanWarning {
        file: file.to_owned(),
        line: None,
        message,
    }
}

fn scan_json(file: &str, path: &Path, text: &str, out: &mut FileOutcome) {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let config_named = mcp_config::is_config_name(name);
    if !config_named && !json_may_hold_tools(text) {
        return;
    }
    let doc = match formats::parse_json(text, file) {
        Ok(d) => d,
        Err(e) => {
            // Only complain about JSON we had reason to read: a config by name, or text that
            // mentions tool keys.
            if let LoadError::Syntax {
                line,
                message,
                column,
                ..
            } = e
            {
                out.warnings.push(ScanWarning {
                    file: file.to_owned(),
                    line: Some(line),
                    message: format!("skipped: invalid JSON at column {column}: {message}"),
                });
            }
            return;
        }
    };
    // A draft suite written by an earlier scan repeats what the scan finds; never count it twice.
    if doc.value.get("draft").and_then(serde_json::Value::as_bool) == Some(true) {
        return;
    }
    let src = Source {
        file,
        text,
        doc: &doc,
        base_dir: path.parent(),
    };
    if let Some(servers) = mcp_config::servers(&src, config_named) {
        out.servers.extend(servers);
        return;
    }
    match formats::load_doc(&src) {
        Ok(Some(loaded)) => {
            out.tools.extend(loaded.surface.tools);
            out.skills.extend(loaded.surface.skills);
            out.warnings
                .extend(loaded.warnings.into_iter().map(|message| ScanWarning {
                    file: file.to_owned(),
                    line: None,
                    message,
                }));
        }
        Ok(None) => {}
        Err(e) => {
            let (line, message) = match &e {
                LoadError::Shape { line, .. } | LoadError::Syntax { line, .. } => {
                    (Some(*line), e.to_string())
                }
                _ => (None, e.to_string()),
            };
            out.warnings.push(ScanWarning {
                file: file.to_owned(),
                line,
                message: format!("skipped: {message}"),
            });
        }
    }
}
