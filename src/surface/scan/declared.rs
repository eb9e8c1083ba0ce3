//! Servers declared in `mf.toml` (`[servers.NAME]`) and their committed snapshots.
//!
//! Some servers' tools can only be known by asking the running server. `mf snapshot` starts
//! each declared server and writes its `tools/list` to the declared snapshot file; the free path
//! never starts anything and reads that file instead. This module is the free half:
//!
//! - [`read_config`] reads the `[servers]` tables of the `mf.toml` at a scan root (other tables
//!   are left to their own readers) and [`resolve`] validates them into [`DeclaredServer`]s.
//! - [`apply`] runs at the end of a scan: each declared snapshot is read as a `tools/list`
//!   snapshot (even at a path whose name does not look like one), its tools get
//!   `origin.server = NAME`, and tools the scan read from code files under the server's source
//!   folder are dropped in favour of the snapshot, with a note saying how many. A declared
//!   snapshot that is missing or unreadable is a scan warning; the code tools then stay.
//! - [`covered_by_snapshot`] says whether a file belongs to a server whose snapshot stands in
//!   for its source (for checks that would otherwise flag that source as unreadable).
//!
//! Paths in `mf.toml` are relative to its folder, `/`-separated, and may not leave it.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{ScanResult, ScanWarning};
use crate::surface::SourceFormat;
use crate::surface::formats::{self, MAX_FILE_BYTES, Source};

/// The config file a scan root may hold.
pub const CONFIG_FILE: &str = "mf.toml";

/// The longest `timeout` a server may declare, in seconds.
pub const MAX_TIMEOUT_SECS: u64 = 3600;

/// `[servers.NAME]` as written in `mf.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// A stdio server: the command line, split into words (no shell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Words appended to `command`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// A streamable HTTP server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Names of environment variables passed through to the server (values are never stored).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<String>,
    /// The snapshot file (default `tools/NAME.tools.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
    /// The folder holding the server's source, whose code tools the snapshot replaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The folder the server starts in (default: `mf.toml`'s folder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Seconds each phase (start, initialize, tools/list) may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
}

/// How a declared server is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    /// A child process (no shell).
    Stdio {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// A streamable HTTP endpoint.
    Http {
        /// The URL.
        url: String,
    },
}

/// A `[servers.NAME]` table, validated. Paths are relative to `mf.toml`'s folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredServer {
    /// The table's name; tools from its snapshot carry it as `origin.server`.
    pub name: String,
    /// How to start or reach it.
    pub launch: Launch,
    /// Environment variable names passed through.
    pub env: Vec<String>,
    /// The snapshot file, `/`-separated.
    pub snapshot: String,
    /// The source folder (`""` = the whole folder of `mf.toml`), or none.
    pub source: Option<String>,
    /// The folder the server starts in (`""` = `mf.toml`'s folder).
    pub cwd: String,
    /// Per-phase timeout, when declared.
    pub timeout: Option<Duration>,
    /// The line of its table in `mf.toml`, when found.
    pub line: Option<u32>,
    /// Set by [`apply`]: the snapshot was read (its tools are in the scan result).
    pub snapshot_read: bool,
}

/// The part of `mf.toml` this module reads; every other table is its own reader's.
#[derive(Debug, Default, Deserialize)]
struct ServersOnly {
    #[serde(default)]
    servers: BTreeMap<String, ServerConfig>,
}

/// A problem with `mf.toml`'s `[servers]`: the message names the file, line and field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DeclaredError(pub String);

/// Parse the `[servers]` tables of `mf.toml` text (`file` names it in errors).
pub fn parse_servers(
    text: &str,
    file: &str,
) -> Result<BTreeMap<String, ServerConfig>, DeclaredError> {
    let parsed: ServersOnly = toml::from_str(text).map_err(|e| toml_error(&e, text, file))?;
    Ok(parsed.servers)
}

/// A TOML error as `FILE:LINE: message`, with a fix for an unknown field.
pub fn toml_error(e: &toml::de::Error, text: &str, file: &str) -> DeclaredError {
    let line = e
        .span()
        .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
    let mut message = e.message().trim_end().to_owned();
    if message.starts_with("unknown field") {
        message.push_str(
            "; remove it or fix its spelling (the keys are listed in SCHEMA.md, \"`mf.toml`\")",
        );
    }
    DeclaredError(match line {
        Some(l) => format!("{file}:{l}: {message}"),
        None => format!("{file}: {message}"),
    })
}

/// Read `mf.toml` at `root` (the file is repository content: no symlink, size-capped) and
/// validate its `[servers]`. `Ok(None)` when there is no such file.
pub fn read_config(root: &Path) -> Result<Option<Vec<DeclaredServer>>, DeclaredError> {
    let path = root.join(CONFIG_FILE);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let text = formats::read_repo_text(&path, CONFIG_FILE, root, MAX_FILE_BYTES)
        .map_err(|e| DeclaredError(e.to_string()))?;
    let servers = parse_servers(&text, CONFIG_FILE)?;
    resolve(&servers, &text, CONFIG_FILE).map(Some)
}

/// Validate every `[servers.NAME]` (`text` is the file's text, to name lines; `file` names it).
/// Every problem is listed, one per line.
pub fn resolve(
    servers: &BTreeMap<String, ServerConfig>,
    text: &str,
    file: &str,
) -> Result<Vec<DeclaredServer>, DeclaredError> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (name, config) in servers {
        let line = table_line(text, name);
        let at = match line {
            Some(l) => format!("{file}:{l}: [servers.{name}]"),
            None => format!("{file}: [servers.{name}]"),
        };
        match resolve_one(name, config) {
            Ok(mut d) => {
                d.line = line;
                out.push(d);
            }
            Err(problem) => problems.push(format!("{at}: {problem}")),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(DeclaredError(problems.join("\n")))
    }
}

fn resolve_one(name: &str, c: &ServerConfig) -> Result<DeclaredServer, String> {
    if name.is_empty()
        || !name
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '_' | '.'))
        || name.starts_with('.')
    {
        return Err(
            "a server name may hold only letters, digits, `-`, `_` and `.` (it names the default \
             snapshot file); rename the table"
                .into(),
        );
    }
    let launch = match (&c.command, &c.url) {
        (Some(_), Some(_)) => {
            return Err("has both `command` and `url`; keep the one that starts the server".into());
        }
        (None, None) => {
            return Err(
                "needs `command` (a stdio server: command = \"node dist/index.js\") or `url` \
                 (streamable HTTP: url = \"http://127.0.0.1:3000/mcp\")"
                    .into(),
            );
        }
        (Some(command), None) => {
            let words = shell_words::split(command)
                .map_err(|e| format!("`command`: {e}; quote it as a shell would"))?;
            let Some((program, rest)) = words.split_first() else {
                return Err("`command` is empty; write the program and its arguments".into());
            };
            let mut args = rest.to_vec();
            args.extend(c.args.iter().cloned());
            Launch::Stdio {
                program: program.clone(),
                args,
            }
        }
        (None, Some(url)) => {
            let lower = url.to_ascii_lowercase();
            if !(lower.starts_with("http://") || lower.starts_with("https://")) {
                return Err("`url` must start with http:// or https://".into());
            }
            if !c.args.is_empty() {
                return Err("`args` goes with `command`, not `url`; remove it".into());
            }
            Launch::Http { url: url.clone() }
        }
    };
    for var in &c.env {
        let ok = var
            .chars()
            .next()
            .is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
            && var
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        if !ok {
            return Err(format!(
                "`env`: {var:?} is not a variable name; list names only (values are taken from \
                 mf's environment when the server starts)"
            ));
        }
    }
    let snapshot = match &c.snapshot {
        Some(p) => clean_rel(p, "snapshot")?,
        None => format!("tools/{name}.tools.json"),
    };
    if snapshot.is_empty() {
        return Err("`snapshot` must name a file".into());
    }
    let cwd = match &c.cwd {
        Some(p) => clean_rel(p, "cwd")?,
        None => String::new(),
    };
    let source = match &c.source {
        Some(p) => Some(clean_rel(p, "source")?),
        None => default_source(&launch, &cwd),
    };
    let timeout = match c.timeout {
        Some(0) => return Err("`timeout` must be at least 1 (seconds)".into()),
        Some(s) if s > MAX_TIMEOUT_SECS => {
            return Err(format!("`timeout` is at most {MAX_TIMEOUT_SECS} seconds"));
        }
        Some(s) => Some(Duration::from_secs(s)),
        None => None,
    };
    Ok(DeclaredServer {
        name: name.to_owned(),
        launch,
        env: c.env.clone(),
        snapshot,
        source,
        cwd,
        timeout,
        line: None,
        snapshot_read: false,
    })
}

/// A relative path inside `mf.toml`'s folder, `/`-separated, without `.` parts or a trailing
/// `/` (`""` for the folder itself).
fn clean_rel(p: &str, field: &str) -> Result<String, String> {
    let p = p.replace('\\', "/");
    if p.starts_with('/') || p.contains(':') || p.contains('\0') {
        return Err(format!(
            "`{field}` = {p:?}: give a path relative to mf.toml's folder"
        ));
    }
    let mut parts = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                return Err(format!(
                    "`{field}` = {p:?} leaves mf.toml's folder; keep it inside"
                ));
            }
            other => parts.push(other),
        }
    }
    Ok(parts.join("/"))
}

/// The folder of the command's script, when it is a relative path inside the repository
/// (`node dist/index.js` → `dist`, `python server.py` → the folder of `mf.toml`).
fn default_source(launch: &Launch, cwd: &str) -> Option<String> {
    const SCRIPTS: &[&str] = &["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "py"];
    let Launch::Stdio { program, args } = launch else {
        return None;
    };
    let script = std::iter::once(program)
        .chain(args)
        .filter(|w| !w.starts_with('-') && !w.contains("://"))
        .find(|w| {
            Path::new(w.as_str())
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| SCRIPTS.contains(&e))
        })?;
    let joined = if cwd.is_empty() {
        script.clone()
    } else {
        format!("{cwd}/{script}")
    };
    let file = clean_rel(&joined, "command").ok()?;
    Some(match file.rsplit_once('/') {
        Some((dir, _)) => dir.to_owned(),
        None => String::new(),
    })
}

/// The 1-based line of `[servers.NAME]` in the text, when written as a table header.
fn table_line(text: &str, name: &str) -> Option<u32> {
    let plain = format!("[servers.{name}]");
    let quoted = format!("[servers.\"{name}\"]");
    text.lines()
        .position(|l| {
            let l: String = l.chars().filter(|c| !c.is_whitespace()).collect();
            l.starts_with(&plain) || l.starts_with(&quoted)
        })
        .and_then(|i| u32::try_from(i + 1).ok())
}

/// Whether `file` (relative to the scan root) lies in `folder` (`""` = everywhere).
fn inside(file: &str, folder: &str) -> bool {
    folder.is_empty()
        || file == folder
        || file
            .strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The declared server whose snapshot stands in for `file` (relative to the scan root, `/`
/// separated, as `origin.file`): `file` lies in the server's source folder and its snapshot was
/// read. Checks that would flag a server's source as unreadable call this with
/// `ScanResult::declared` (filled by [`apply`]) and stay quiet when it returns a server. A
/// declared snapshot that is missing covers nothing (the scan warns about it instead).
pub fn covered_by_snapshot<'a>(
    file: &str,
    declared: &'a [DeclaredServer],
) -> Option<&'a DeclaredServer> {
    declared
        .iter()
        .find(|d| d.snapshot_read && d.source.as_deref().is_some_and(|s| inside(file, s)))
}

/// The post-scan step: read `mf.toml` at `root`, read each declared snapshot into `result`
/// (origin `server` = NAME), drop the code tools its snapshot replaces, and say so in
/// `result.notes`. Problems are warnings; nothing is started.
pub fn apply(root: &Path, result: &mut ScanResult) {
    let declared = match read_config(root) {
        Ok(Some(d)) => d,
        Ok(None) => return,
        Err(e) => {
            result.warnings.push(ScanWarning {
                file: CONFIG_FILE.into(),
                line: None,
                message: format!("[servers] not read: {e}"),
            });
            return;
        }
    };
    let mut declared = declared;
    for server in &mut declared {
        server.snapshot_read = read_snapshot(root, server, result);
    }
    result.declared = declared;
}

/// Read one server's snapshot into `result`; whether it was read.
fn read_snapshot(root: &Path, server: &DeclaredServer, result: &mut ScanResult) -> bool {
    let path = server.snapshot.as_str();
    let mut found = false;
    for t in &mut result.tools {
        if t.origin.file.as_deref() == Some(path) && t.origin.format == SourceFormat::McpToolsList {
            t.origin.server = Some(server.name.clone());
            found = true;
        }
    }
    let warn = |message: String| ScanWarning {
        file: CONFIG_FILE.into(),
        line: server.line,
        message,
    };
    if !found {
        let full = root.join(path);
        if std::fs::symlink_metadata(&full).is_err() {
            result.warnings.push(warn(format!(
                "server {}: no snapshot at {path} yet; run `mf snapshot {}` (it starts the \
                 server) and commit the file",
                server.name, server.name
            )));
            return false;
        }
        match load_snapshot(root, path) {
            Ok(mut tools) => {
                for t in &mut tools {
                    t.origin.server = Some(server.name.clone());
                }
                result.files_recognized += 1;
                result.tools.extend(tools);
            }
            Err(e) => {
                result.warnings.push(warn(format!(
                    "server {}: snapshot not read: {e}",
                    server.name
                )));
                return false;
            }
        }
    }
    let Some(source) = &server.source else {
        return true;
    };
    let before = result.tools.len();
    result.tools.retain(|t| {
        let code = matches!(
            t.origin.format,
            SourceFormat::TypescriptCode | SourceFormat::PythonCode
        );
        !(code && t.origin.file.as_deref().is_some_and(|f| inside(f, source)))
    });
    let replaced = before - result.tools.len();
    if replaced > 0 {
        let folder = if source.is_empty() { "." } else { source };
        result.notes.push(format!(
            "{replaced} {} read from {folder} replaced by the snapshot of server {} ({path})",
            if replaced == 1 { "tool" } else { "tools" },
            server.name
        ));
    }
    true
}

/// A snapshot file's tools, read like any surface file the scan walks to (origins relative to
/// the scan root).
fn load_snapshot(root: &Path, rel: &str) -> Result<Vec<crate::surface::Tool>, String> {
    let path = root.join(rel);
    let text =
        formats::read_repo_text(&path, rel, root, MAX_FILE_BYTES).map_err(|e| e.to_string())?;
    let doc = formats::parse_json(&text, rel).map_err(|e| e.to_string())?;
    let src = Source {
        file: rel,
        text: &text,
        doc: &doc,
        base_dir: path.parent(),
    };
    match formats::mcp::load(&src) {
        Ok(Some(loaded)) => Ok(loaded.surface.tools),
        Ok(None) => Err(format!(
            "{rel}: not a tools/list snapshot; write it with `mf snapshot`"
        )),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(toml_text: &str) -> Result<Vec<DeclaredServer>, DeclaredError> {
        let servers = parse_servers(toml_text, "mf.toml")?;
        resolve(&servers, toml_text, "mf.toml")
    }

    #[test]
    fn a_stdio_server_gets_its_defaults() {
        let d = declared(
            "[servers.notes]\ncommand = \"node dist/index.js --port 0\"\nenv = [\"NOTES_TOKEN\"]\n",
        )
        .expect("valid");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].name, "notes");
        assert_eq!(
            d[0].launch,
            Launch::Stdio {
                program: "node".into(),
                args: vec!["dist/index.js".into(), "--port".into(), "0".into()]
            }
        );
        assert_eq!(d[0].snapshot, "tools/notes.tools.json");
        assert_eq!(d[0].source.as_deref(), Some("dist"));
        assert_eq!(d[0].env, vec!["NOTES_TOKEN".to_owned()]);
        assert_eq!(d[0].line, Some(1));
    }

    #[test]
    fn paths_are_cleaned_and_may_not_leave_the_folder() {
        let d = declared(
            "[servers.a]\ncommand = \"python server.py\"\nsnapshot = \"./snap/a.json\"\ncwd = \"srv/\"\n",
        )
        .expect("valid");
        assert_eq!(d[0].snapshot, "snap/a.json");
        assert_eq!(d[0].cwd, "srv");
        assert_eq!(d[0].source.as_deref(), Some("srv"));
        let e = declared("\n[servers.a]\ncommand = \"x\"\nsnapshot = \"../out.json\"\n")
            .expect_err("escapes");
        assert!(e.0.starts_with("mf.toml:2: [servers.a]: `snapshot`"), "{e}");
        assert!(e.0.contains("leaves mf.toml's folder"), "{e}");
        let e = declared("[servers.a]\nurl = \"/abs\"\n").expect_err("not a URL");
        assert!(e.0.contains("http://"), "{e}");
    }

    #[test]
    fn unknown_keys_name_the_line_and_the_field() {
        let e = declared("[servers.a]\ncommand = \"x\"\ncomand = \"y\"\n").expect_err("typo");
        assert!(e.0.starts_with("mf.toml:3: unknown field `comand`"), "{e}");
        assert!(e.0.contains("fix its spelling"), "{e}");
    }

    #[test]
    fn command_and_url_are_one_or_the_other() {
        let e = declared("[servers.a]\nenv = [\"X\"]\n").expect_err("neither");
        assert!(e.0.contains("needs `command`"), "{e}");
        let e = declared("[servers.a]\ncommand = \"x\"\nurl = \"http://h\"\n").expect_err("both");
        assert!(e.0.contains("both"), "{e}");
        let e = declared("[servers.a]\ncommand = \"x\"\nenv = [\"A=1\"]\n").expect_err("value");
        assert!(e.0.contains("not a variable name"), "{e}");
    }

    #[test]
    fn coverage_follows_the_source_folder() {
        let d = declared(
            "[servers.a]\ncommand = \"node dist/index.js\"\nsource = \"src\"\n[servers.b]\nurl = \"http://h/mcp\"\n",
        )
        .expect("valid");
        assert!(
            covered_by_snapshot("src/index.ts", &d).is_none(),
            "not read yet"
        );
        let d: Vec<DeclaredServer> = d
            .into_iter()
            .map(|s| DeclaredServer {
                snapshot_read: true,
                ..s
            })
            .collect();
        assert_eq!(
            covered_by_snapshot("src/index.ts", &d).map(|s| s.name.as_str()),
            Some("a")
        );
        assert!(covered_by_snapshot("srcs/index.ts", &d).is_none());
        assert!(covered_by_snapshot("other/x.py", &d).is_none());
    }

    #[test]
    fn a_scan_fills_declared_and_a_read_snapshot_covers_its_source() {
        let dir = tempfile::tempdir().expect("tmp");
        let r = dir.path();
        std::fs::write(
            r.join("mf.toml"),
            "[servers.a]\ncommand = \"node src/index.js\"\nsnapshot = \"snap/a.tools\"\n\
             [servers.b]\ncommand = \"python b/server.py\"\n",
        )
        .expect("toml");
        std::fs::create_dir_all(r.join("snap")).expect("mkdir");
        std::fs::write(
            r.join("snap/a.tools"),
            r#"{"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}"#,
        )
        .expect("snap");
        let result = super::super::scan(r, &super::super::ScanOptions::default()).expect("scan");
        let names: Vec<(&str, bool)> = result
            .declared
            .iter()
            .map(|d| (d.name.as_str(), d.snapshot_read))
            .collect();
        assert_eq!(names, [("a", true), ("b", false)]);
        assert_eq!(result.tools.len(), 1);
        assert_eq!(result.tools[0].origin.server.as_deref(), Some("a"));
        assert_eq!(
            covered_by_snapshot("src/lib/tools.js", &result.declared).map(|d| d.name.as_str()),
            Some("a")
        );
        // b's snapshot is missing: its source is not covered, and the scan says what to do.
        assert!(covered_by_snapshot("b/server.py", &result.declared).is_none());
        assert!(
            result
                .warnings
                .iter()
                .any(|w| w.message.contains("run `mf snapshot b`")),
            "{:?}",
            result.warnings
        );
    }
}
