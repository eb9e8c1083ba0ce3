//! Committed snapshots against their servers (`mf snapshot`, `mf snapshot --check`,
//! `mf ci --live`): start each server declared in `mf.toml` the way the live readers do (no
//! shell, the command split into words, only the named variables passed), list every page of
//! its tools, and compare them with the committed snapshot file.
//!
//! # The snapshot file
//! `{"tools": [...]}`, pretty-printed (two spaces), one trailing newline. Tools are sorted by
//! name (a server's listing order carries no meaning for mf: every eval shuffles it); each
//! tool's keys come in the order `name`, `title`, `description`, `inputSchema`,
//! `outputSchema`, `annotations`, then the rest alphabetically; keys of nested objects are
//! sorted. The same listing always gives the same bytes, so a diff of the file is the change.
//!
//! # Freshness
//! Both sides are brought to that canonical form and compared as values (a reformatted file is
//! not stale). Tools match by name (the k-th occurrence with the k-th); a tool on one side only
//! is added or removed; a matched tool whose canonical JSON differs is changed, with the
//! top-level fields and the JSON pointers that differ. A missing file is `missing`: every tool
//! served is added.
//!
//! Nothing is written here: the command writes [`SnapshotRun::writes`] atomically.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::providers::config::{ConfigError, read_config_text};
use crate::report::snapshot::{
    ChangedTool, SNAPSHOT_VERSION, ServerSnapshot, SnapshotMode, SnapshotReport, SnapshotStatus,
};
use crate::surface::formats::{self, MAX_FILE_BYTES};
use crate::surface::live::{self, Endpoint, LiveError, LiveOptions};
use crate::surface::scan::declared::{DeclaredServer, Launch, resolve};
use crate::surface::target::{self, Target};
use crate::util::closest::{close_matches, did_you_mean};

/// What to do, validated (`cli::snapshot::SnapshotArgs::config`, or `mf ci --live`).
#[derive(Debug, Clone)]
pub struct SnapshotConfig {
    /// The `mf.toml` (as shown in messages).
    pub file: String,
    /// Its folder: every declared path is relative to it.
    pub dir: PathBuf,
    /// The servers to start, in order.
    pub servers: Vec<DeclaredServer>,
    /// `--check`: compare only, write nothing.
    pub check: bool,
    /// Per-phase timeout for servers that declare none.
    pub timeout: Duration,
}

impl SnapshotConfig {
    /// The servers of `file` (else the `mf.toml` of this folder or the nearest one above it,
    /// up to the repository root) named in `names` (all when empty), validated.
    pub fn load(
        file: Option<&Path>,
        names: &[String],
        check: bool,
        timeout: Duration,
    ) -> Result<SnapshotConfig, ConfigError> {
        let path = match file {
            Some(p) => p.to_path_buf(),
            None => crate::eval::models::find_config().ok_or_else(|| {
                ConfigError(
                    "no mf.toml here or in a folder above (up to the repository root); declare                      the servers under [servers.NAME] in mf.toml (SCHEMA.md, \"`mf.toml`\")"
                        .into(),
                )
            })?,
        };
        let shown = path.display().to_string();
        let (parsed, text) = read_config_text(&path)?;
        let declared = resolve(&parsed.servers, &text, &shown).map_err(|e| ConfigError(e.0))?;
        if declared.is_empty() {
            return Err(ConfigError(format!(
                "{shown}: declares no server; add a [servers.NAME] table with `command` or `url`"
            )));
        }
        let mut servers = Vec::new();
        for name in names {
            let Some(s) = declared.iter().find(|d| &d.name == name) else {
                let near = close_matches(name, declared.iter().map(|d| d.name.as_str()));
                return Err(ConfigError(format!(
                    "{shown}: no server named {name:?}{} (declared: {})",
                    did_you_mean(&near),
                    declared
                        .iter()
                        .map(|d| d.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            };
            if !servers.iter().any(|x: &DeclaredServer| &x.name == name) {
                servers.push(s.clone());
            }
        }
        if names.is_empty() {
            servers = declared;
        }
        // `mf.toml` in this folder: paths stay as declared (`tools/x.tools.json`).
        let dir = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        Ok(SnapshotConfig {
            file: shown,
            dir,
            servers,
            check,
            timeout,
        })
    }
}

/// A file to write: the snapshot's path and its new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Write {
    /// Where (already checked: inside the folder, no symbolic link on the way).
    pub path: PathBuf,
    /// The canonical snapshot text.
    pub text: String,
}

/// A finished run.
#[derive(Debug, Clone)]
pub struct SnapshotRun {
    /// What happened per server.
    pub report: SnapshotReport,
    /// Files to write (write mode only).
    pub writes: Vec<Write>,
}

/// Start every server of `config`, compare, and plan the writes. Only an interrupt (Ctrl-C) is
/// an error; a server that fails is a `failed` entry with its error.
pub fn run(config: &SnapshotConfig) -> Result<SnapshotRun, LiveError> {
    let mut servers = Vec::new();
    let mut writes = Vec::new();
    for server in &config.servers {
        let (entry, write) = one(config, server)?;
        servers.push(entry);
        writes.extend(write);
    }
    let ok = servers.iter().all(|s| {
        matches!(
            s.status,
            SnapshotStatus::Written | SnapshotStatus::Unchanged | SnapshotStatus::Fresh
        )
    });
    Ok(SnapshotRun {
        report: SnapshotReport {
            version: SNAPSHOT_VERSION,
            kind: "snapshot".into(),
            mode: if config.check {
                SnapshotMode::Check
            } else {
                SnapshotMode::Write
            },
            config: config.file.clone(),
            ok,
            servers,
        },
        writes,
    })
}

fn one(
    config: &SnapshotConfig,
    server: &DeclaredServer,
) -> Result<(ServerSnapshot, Option<Write>), LiveError> {
    let mut entry = ServerSnapshot {
        name: server.name.clone(),
        snapshot: server.snapshot.clone(),
        status: SnapshotStatus::Failed,
        tools: None,
        added: vec![],
        removed: vec![],
        changed: vec![],
        error: None,
    };
    let served = match list(config, server) {
        Ok(tools) => canonical_tools(&tools),
        Err(LiveError::Interrupted) => return Err(LiveError::Interrupted),
        Err(e) => {
            entry.error = Some(e.to_string());
            return Ok((entry, None));
        }
    };
    entry.tools = Some(served.len());
    let path = config.dir.join(&server.snapshot);
    let committed = read_committed(&config.dir, &server.snapshot);
    let (old_tools, old_text) = match &committed {
        Ok(Some((tools, text))) => (Some(canonical_tools(tools)), Some(text.as_str())),
        Ok(None) => (None, None),
        Err(e) => {
            entry.error = Some(format!("the committed snapshot is not readable: {e}"));
            (None, None)
        }
    };
    let diff = diff(old_tools.as_deref().unwrap_or_default(), &served);
    entry.added = diff.added;
    entry.removed = diff.removed;
    entry.changed = diff.changed;
    let same = old_tools.is_some()
        && entry.added.is_empty()
        && entry.removed.is_empty()
        && entry.changed.is_empty();
    if config.check {
        entry.status = match (&committed, same) {
            (Ok(None), _) => SnapshotStatus::Missing,
            (_, true) => SnapshotStatus::Fresh,
            _ => SnapshotStatus::Stale,
        };
        return Ok((entry, None));
    }
    let text = render(&served);
    if old_text == Some(text.as_str()) {
        entry.status = SnapshotStatus::Unchanged;
        return Ok((entry, None));
    }
    match writable(&config.dir, &server.snapshot) {
        Ok(()) => {
            entry.status = SnapshotStatus::Written;
            entry.error = None;
            Ok((entry, Some(Write { path, text })))
        }
        Err(e) => {
            entry.error = Some(e);
            Ok((entry, None))
        }
    }
}

/// Start (or reach) the server and list every page of its tools.
fn list(config: &SnapshotConfig, server: &DeclaredServer) -> Result<Vec<Value>, LiveError> {
    let timeout = server.timeout.unwrap_or(config.timeout);
    let opts = LiveOptions {
        timeout_start: timeout,
        timeout_init: timeout,
        timeout_list: timeout,
        ..LiveOptions::default()
    };
    let endpoint = match &server.launch {
        Launch::Stdio { program, args } => {
            let cwd = match config.dir.join(&server.cwd) {
                p if p.as_os_str().is_empty() => PathBuf::from("."),
                p => p,
            };
            // A relative program path (`./bin/server`) is the repository's, from its folder.
            let program = if program.contains('/') && Path::new(program).is_relative() {
                cwd.join(program).to_string_lossy().into_owned()
            } else {
                program.clone()
            };
            Endpoint::Stdio {
                program,
                args: args.clone(),
                env: target::child_env(&server.env),
                cwd: Some(cwd),
            }
        }
        Launch::Http { url } => {
            let t = Target::Http {
                url: url.clone(),
                name: server.name.clone(),
            };
            target::endpoint(&t, &opts)?
                .ok_or_else(|| LiveError::Invalid(format!("server {}: no endpoint", server.name)))?
        }
    };
    Ok(live::fetch_blocking(&server.name, &endpoint, &opts)?.tools)
}

/// The committed snapshot's tools and text: `None` when there is no file. Read as repository
/// content (no symbolic link, inside the folder, size-capped).
fn read_committed(dir: &Path, rel: &str) -> Result<Option<(Vec<Value>, String)>, String> {
    let path = dir.join(rel);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let root = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let text =
        formats::read_repo_text(&path, rel, root, MAX_FILE_BYTES).map_err(|e| e.to_string())?;
    let doc = formats::parse_json(&text, rel).map_err(|e| e.to_string())?;
    let tools = match &doc.value {
        Value::Object(o) => o
            .get("tools")
            .or_else(|| o.get("result").and_then(|r| r.get("tools"))),
        array @ Value::Array(_) => Some(array),
        _ => None,
    };
    match tools {
        Some(Value::Array(tools)) => Ok(Some((tools.clone(), text))),
        _ => Err(format!(
            "{rel}: not a tools/list snapshot (expected {{\"tools\": [...]}}); run `mf snapshot` to rewrite it"
        )),
    }
}

/// Whether `rel` under `dir` may be written: no component on the way (nor the file) is a
/// symbolic link, and what exists is a folder (the file: a regular file). Missing folders are
/// created.
fn writable(dir: &Path, rel: &str) -> Result<(), String> {
    let parts: Vec<&str> = rel.split('/').collect();
    let mut at = dir.to_path_buf();
    for (i, part) in parts.iter().enumerate() {
        at.push(part);
        let last = i + 1 == parts.len();
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(format!(
                    "{}: is a symbolic link; mf does not write through links — replace it with \
                     a folder or file, or declare another `snapshot` path",
                    parts[..=i].join("/")
                ));
            }
            Ok(m) if last && !m.is_file() => {
                return Err(format!("{rel}: exists and is not a regular file"));
            }
            Ok(m) if !last && !m.is_dir() => {
                return Err(format!(
                    "{}: is not a folder; declare another `snapshot` path",
                    parts[..=i].join("/")
                ));
            }
            Ok(_) => {}
            Err(_) if !last => {
                std::fs::create_dir(&at)
                    .map_err(|e| format!("cannot create {}: {e}", at.display()))?;
            }
            Err(_) => {}
        }
    }
    Ok(())
}

/// The canonical snapshot text of some tools (see the module docs).
pub fn render(tools: &[Value]) -> String {
    let doc = Value::Object(Map::from_iter([(
        "tools".to_owned(),
        Value::Array(canonical_tools(tools)),
    )]));
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| "{\"tools\": []}".into());
    text.push('\n');
    text
}

/// The first keys of a tool, in this order; the rest follow alphabetically.
const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
];

/// Tools in canonical form, sorted by name (then by their canonical JSON).
pub fn canonical_tools(tools: &[Value]) -> Vec<Value> {
    let mut out: Vec<(String, String, Value)> = tools
        .iter()
        .map(|t| {
            let v = canonical_tool(t);
            let name = v
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            (name, v.to_string(), v)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    out.into_iter().map(|(_, _, v)| v).collect()
}

fn canonical_tool(tool: &Value) -> Value {
    let Value::Object(map) = tool else {
        return sorted(tool);
    };
    let mut out = Map::new();
    for key in TOOL_KEYS {
        if let Some(v) = map.get(*key) {
            out.insert((*key).to_owned(), sorted(v));
        }
    }
    let mut rest: Vec<(&String, &Value)> = map
        .iter()
        .filter(|(k, _)| !TOOL_KEYS.contains(&k.as_str()))
        .collect();
    rest.sort_by(|a, b| a.0.cmp(b.0));
    for (k, v) in rest {
        out.insert(k.clone(), sorted(v));
    }
    Value::Object(out)
}

/// A value with every object's keys sorted.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// What differs between two canonical tool lists.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ToolsDiff {
    /// In `now` only, by name.
    pub added: Vec<String>,
    /// In `before` only, by name.
    pub removed: Vec<String>,
    /// In both, changed.
    pub changed: Vec<ChangedTool>,
}

fn name_of(v: &Value) -> String {
    v.get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// `before` → `now`, both canonical (see the module docs).
pub fn diff(before: &[Value], now: &[Value]) -> ToolsDiff {
    let mut by_name: BTreeMap<String, VecDeque<&Value>> = BTreeMap::new();
    for t in before {
        by_name.entry(name_of(t)).or_default().push_back(t);
    }
    let mut out = ToolsDiff::default();
    for t in now {
        let name = name_of(t);
        match by_name.get_mut(&name).and_then(VecDeque::pop_front) {
            None => out.added.push(name),
            Some(old) if old != t => {
                let mut fields = Vec::new();
                let mut pointers = Vec::new();
                let (Some(a), Some(b)) = (old.as_object(), t.as_object()) else {
                    out.changed.push(ChangedTool {
                        name,
                        fields: vec![],
                        pointers: vec![String::new()],
                    });
                    continue;
                };
                let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
                keys.sort();
                keys.dedup();
                for k in keys {
                    if a.get(k) != b.get(k) {
                        fields.push(k.clone());
                        pointers_of(
                            a.get(k),
                            b.get(k),
                            &format!("/{}", escape(k)),
                            &mut pointers,
                        );
                    }
                }
                out.changed.push(ChangedTool {
                    name,
                    fields,
                    pointers,
                });
            }
            Some(_) => {}
        }
    }
    for (name, left) in by_name {
        out.removed.extend(left.iter().map(|_| name.clone()));
    }
    out.added.sort();
    out.removed.sort();
    out.changed.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The JSON pointers under `at` where `a` and `b` differ: keys on one side only, changed
/// scalars, arrays of different lengths (whole), equal-length arrays item by item.
fn pointers_of(a: Option<&Value>, b: Option<&Value>, at: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                if x.get(k) != y.get(k) {
                    pointers_of(x.get(k), y.get(k), &format!("{at}/{}", escape(k)), out);
                }
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if p != q {
                    pointers_of(Some(p), Some(q), &format!("{at}/{i}"), out);
                }
            }
        }
        _ => out.push(at.to_owned()),
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_file_is_canonical_whatever_the_server_order() {
        let a = vec![
            json!({"inputSchema": {"type": "object", "properties": {"b": {}, "a": {}}}, "name": "zeta", "description": "Z"}),
            json!({"x-extra": 1, "annotations": {"readOnlyHint": true}, "name": "alpha"}),
        ];
        let mut b = a.clone();
        b.reverse();
        assert_eq!(render(&a), render(&b));
        let text = render(&a);
        assert!(text.ends_with("}\n"), "{text}");
        let alpha = text.find("\"alpha\"").expect("alpha");
        let zeta = text.find("\"zeta\"").expect("zeta");
        assert!(alpha < zeta, "sorted by name: {text}");
        // name first, then description, then inputSchema; nested keys sorted
        let z = &text[zeta..];
        assert!(
            z.find("\"description\"") < z.find("\"inputSchema\""),
            "{text}"
        );
        assert!(z.find("\"a\"") < z.find("\"b\""), "{text}");
        assert!(text[alpha..].find("\"annotations\"") < text[alpha..].find("\"x-extra\""));
    }

    #[test]
    fn the_diff_names_added_removed_and_changed_fields() {
        let before = canonical_tools(&[
            json!({"name": "a", "description": "A", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}),
            json!({"name": "gone", "description": "G"}),
        ]);
        let now = canonical_tools(&[
            json!({"name": "a", "description": "A2", "inputSchema": {"type": "object", "properties": {"q": {"type": "integer"}}}, "annotations": {"readOnlyHint": true}}),
            json!({"name": "new", "description": "N"}),
        ]);
        let d = diff(&before, &now);
        assert_eq!(d.added, vec!["new".to_owned()]);
        assert_eq!(d.removed, vec!["gone".to_owned()]);
        assert_eq!(d.changed.len(), 1);
        assert_eq!(
            d.changed[0].fields,
            vec!["annotations", "description", "inputSchema"]
        );
        assert_eq!(
            d.changed[0].pointers,
            vec![
                "/annotations",
                "/description",
                "/inputSchema/properties/q/type"
            ]
        );
        assert_eq!(diff(&now, &now), ToolsDiff::default());
    }

    #[test]
    fn writing_refuses_a_symlink_on_the_way() {
        let dir = tempfile::tempdir().expect("tmp");
        let outside = tempfile::tempdir().expect("tmp");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(outside.path(), dir.path().join("tools")).expect("ln");
            let e = writable(dir.path(), "tools/a.tools.json").expect_err("a link");
            assert!(e.starts_with("tools: is a symbolic link"), "{e}");
            std::fs::write(outside.path().join("real.json"), "{}").expect("write");
            std::os::unix::fs::symlink(outside.path().join("real.json"), dir.path().join("b.json"))
                .expect("ln");
            assert!(writable(dir.path(), "b.json").is_err());
        }
        writable(dir.path(), "snap/deeper/c.json").expect("created");
        assert!(dir.path().join("snap/deeper").is_dir());
    }
}
