//! What a command reads its surface from: a snapshot file, a streamable HTTP URL, a stdio
//! command, or a server named in an MCP client config. [`load_target`] returns the same
//! [`Loaded`] as file loading, whichever it is.
//!
//! Environment policy for stdio servers: the child gets a reduced environment (PATH, HOME,
//! locale and terminal basics), plus the names passed with `--env`, plus, for `--server`, the
//! env *names* the config lists — each taken from mf's own environment. Values written in a
//! config file are never used: a repository must not be able to choose what mf runs with.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::error::InputError;
use super::formats::{self, Loaded, Source};
use super::live::{self, Endpoint, Listing, LiveError, LiveOptions};
use super::scan::mcp_config::{ConfiguredServer, Transport};
use super::url::{origin_of, redact_url_for_display};
use super::{Confidence, Origin, SourceFormat};

/// Variables every stdio child gets when mf has them.
pub const BASE_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TERM",
    "TMPDIR",
    "TEMP",
    "TMP",
    "SYSTEMROOT",
    "WINDIR",
    "APPDATA",
    "LOCALAPPDATA",
    "USERPROFILE",
    "PATHEXT",
    "COMSPEC",
];

/// The `Authorization` header value for HTTP targets.
pub const AUTH_ENV: &str = "MF_HTTP_AUTHORIZATION";
/// The origin (`scheme://host:port`) [`AUTH_ENV`] is bound to.
pub const AUTH_ORIGIN_ENV: &str = "MF_HTTP_AUTHORIZATION_ORIGIN";

/// A validated target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A tools/list snapshot or any other surface file.
    Snapshot(PathBuf),
    /// A streamable HTTP endpoint.
    Http {
        /// The URL.
        url: String,
        /// Display name (config entry name or the URL without secrets).
        name: String,
    },
    /// A stdio command.
    Stdio {
        /// Program to run (no shell).
        program: String,
        /// Its arguments.
        args: Vec<String>,
        /// Display name (config entry name or the command line).
        name: String,
        /// Extra env names to pass through (from a config entry).
        env_names: Vec<String>,
    },
}

impl Target {
    /// Parse `--stdio "command args"` with shell-words rules; nothing is run through a shell.
    pub fn stdio(command_line: &str) -> Result<Target, LiveError> {
        let words = shell_words::split(command_line)
            .map_err(|e| LiveError::Invalid(format!("--stdio {command_line:?}: {e}")))?;
        let Some((program, args)) = words.split_first() else {
            return Err(LiveError::Invalid(
                "--stdio needs a command, e.g. --stdio \"npx -y @scope/server\"".into(),
            ));
        };
        let name = super::scan::mcp_config::redact_args(&words).join(" ");
        Ok(Target::Stdio {
            program: program.clone(),
            args: args.to_vec(),
            name,
            env_names: vec![],
        })
    }

    /// A positional TARGET: an `http(s)://` URL or a file path.
    pub fn positional(value: &str) -> Result<Target, LiveError> {
        let lower = value.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            reqwest::Url::parse(value).map_err(|e| {
                LiveError::Invalid(format!(
                    "invalid URL {}: {e}",
                    redact_url_for_display(value)
                ))
            })?;
            return Ok(Target::Http {
                url: value.to_owned(),
                name: redact_url_for_display(value),
            });
        }
        if lower.contains("://") {
            return Err(LiveError::Invalid(format!(
                "{}: only http:// and https:// URLs are supported",
                redact_url_for_display(value)
            )));
        }
        Ok(Target::Snapshot(PathBuf::from(value)))
    }

    /// The server named `name` in an MCP client config found by scanning `root`.
    pub fn configured(root: &Path, name: &str) -> Result<Target, InputError> {
        let found = super::scan::scan(root, &super::scan::ScanOptions::default())?;
        let matches: Vec<&ConfiguredServer> =
            found.servers.iter().filter(|s| s.name == name).collect();
        let Some(server) = matches.first() else {
            let known: Vec<&str> = found.servers.iter().map(|s| s.name.as_str()).collect();
            return Err(LiveError::Invalid(format!(
                "no MCP server named {name:?} in the client configs under {} (found: {})",
                root.display(),
                if known.is_empty() {
                    "none".into()
                } else {
                    known.join(", ")
                }
            ))
            .into());
        };
        Ok(Target::from_config(root, server)?)
    }

    /// The target for a configured server, reading its raw command, args and URL from the
    /// config file (the scan keeps only redacted copies).
    pub fn from_config(root: &Path, server: &ConfiguredServer) -> Result<Target, LiveError> {
        let file = server.origin.file.clone().unwrap_or_default();
        let raw = raw_entry(&root.join(&file), &server.name).ok_or_else(|| {
            LiveError::Invalid(format!(
                "{file}: cannot re-read the entry for server {:?}",
                server.name
            ))
        })?;
        match server.transport {
            Transport::Stdio => {
                let program = raw
                    .get("command")
                    .and_then(Value::as_str)
                    .filter(|c| !c.trim().is_empty());
                let program = program.ok_or_else(|| {
                    LiveError::Invalid(format!("{file}: server {:?} has no `command`", server.name))
                })?;
                let args = raw
                    .get("args")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .map(|v| {
                                v.as_str()
                                    .map(str::to_owned)
                                    .unwrap_or_else(|| v.to_string())
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                Ok(Target::Stdio {
                    program: program.to_owned(),
                    args,
                    name: server.name.clone(),
                    env_names: server.env_keys.clone(),
                })
            }
            Transport::Http => {
                let url = raw
                    .get("url")
                    .or_else(|| raw.get("serverUrl"))
                    .and_then(Value::as_str);
                let url = url.ok_or_else(|| {
                    LiveError::Invalid(format!("{file}: server {:?} has no `url`", server.name))
                })?;
                match Target::positional(url)? {
                    Target::Http { url, .. } => Ok(Target::Http {
                        url,
                        name: server.name.clone(),
                    }),
                    _ => Err(LiveError::Invalid(format!(
                        "{file}: server {:?}: `url` is not http(s)",
                        server.name
                    ))),
                }
            }
            Transport::Sse => Err(LiveError::Invalid(format!(
                "server {:?} uses the legacy SSE transport, which mf does not speak; use its streamable HTTP endpoint",
                server.name
            ))),
        }
    }

    /// The name tools' origins carry.
    pub fn display_name(&self) -> String {
        match self {
            Target::Snapshot(p) => p.to_string_lossy().replace('\\', "/"),
            Target::Http { name, .. } | Target::Stdio { name, .. } => name.clone(),
        }
    }
}

fn raw_entry(path: &Path, name: &str) -> Option<Value> {
    let text = formats::read_text(path, "", formats::MAX_FILE_BYTES).ok()?;
    let doc = formats::parse_json(&text, "").ok()?;
    let root = doc.value.as_object()?;
    let block = root.get("mcpServers").or_else(|| root.get("servers"))?;
    block.get(name).cloned()
}

/// The reduced environment of a stdio child, values from mf's own environment.
pub fn child_env(extra: &[String]) -> Vec<(String, OsString)> {
    let mut names: Vec<&str> = BASE_ENV.to_vec();
    names.extend(extra.iter().map(String::as_str));
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .filter_map(|n| std::env::var_os(n).map(|v| (n.to_owned(), v)))
        .collect()
}

/// Normalize an origin given by the user (`https://h`, `https://h:443/`) to [`origin_of`] form.
pub fn normalize_origin(origin: &str) -> Result<String, LiveError> {
    let url = reqwest::Url::parse(origin.trim()).map_err(|_| {
        LiveError::Invalid(format!(
            "{AUTH_ORIGIN_ENV} must be an origin like https://mcp.example.com:443"
        ))
    })?;
    Ok(origin_of(&url))
}

/// The endpoint for a live target, with environment and credentials resolved.
pub fn endpoint(t: &Target, opts: &LiveOptions) -> Result<Option<Endpoint>, LiveError> {
    Ok(match t {
        Target::Snapshot(_) => None,
        Target::Stdio {
            program,
            args,
            env_names,
            ..
        } => {
            let mut names = opts.pass_env.clone();
            names.extend(env_names.iter().cloned());
            Some(Endpoint::Stdio {
                program: program.clone(),
                args: args.clone(),
                env: child_env(&names),
                cwd: None,
            })
        }
        Target::Http { url, .. } => {
            let authorization = match (
                std::env::var(AUTH_ENV).ok().filter(|v| !v.is_empty()),
                std::env::var(AUTH_ORIGIN_ENV).ok(),
            ) {
                (Some(value), Some(origin)) => Some((value, normalize_origin(&origin)?)),
                (Some(_), None) => {
                    return Err(LiveError::Invalid(format!(
                        "{AUTH_ENV} is set but {AUTH_ORIGIN_ENV} is not; set it to the origin the credential is for"
                    )));
                }
                _ => None,
            };
            Some(Endpoint::Http {
                url: url.clone(),
                authorization,
            })
        }
    })
}

/// Load a target's tools: a file through [`formats::load_path`], a live server through the MCP
/// client (origin `{server, format: live}`, confidence high). Writes `--save-snapshot` if asked.
pub fn load_target(t: &Target, opts: &LiveOptions) -> Result<Loaded, InputError> {
    let Some(endpoint) = endpoint(t, opts)? else {
        if opts.save_snapshot.is_some() {
            return Err(InputError::Usage(
                "--save-snapshot needs a live target (a URL, --stdio or --server)".into(),
            ));
        }
        let Target::Snapshot(path) = t else {
            return Err(InputError::Usage("not a file target".into()));
        };
        return Ok(formats::load_path(path, &t.display_name())?);
    };
    let name = t.display_name();
    let listing = live::fetch_blocking(&name, &endpoint, opts)?;
    if let Some(path) = &opts.save_snapshot {
        let text = snapshot_json(&listing);
        crate::util::atomic::write_atomic(path, text.as_bytes()).map_err(|source| {
            InputError::Write {
                path: path.clone(),
                source,
            }
        })?;
    }
    Ok(loaded_from_listing(&name, &listing)?)
}

/// The snapshot document: `{"tools": [...]}` with each tool exactly as received.
pub fn snapshot_json(listing: &Listing) -> String {
    let mut text = serde_json::to_string_pretty(&serde_json::json!({ "tools": listing.tools }))
        .unwrap_or_else(|_| "{\"tools\": []}".into());
    text.push('\n');
    text
}

/// Turn a listing into tools, through the same MCP loader as snapshot files.
pub fn loaded_from_listing(name: &str, listing: &Listing) -> Result<Loaded, LiveError> {
    let text = snapshot_json(listing);
    let doc = formats::parse_json(&text, name).map_err(|e| LiveError::Malformed {
        server: name.into(),
        phase: live::Phase::List,
        detail: e.to_string(),
    })?;
    let src = Source {
        file: name,
        text: &text,
        doc: &doc,
        base_dir: None,
    };
    let mut loaded = formats::mcp::load(&src)
        .map_err(|e| LiveError::Malformed {
            server: name.into(),
            phase: live::Phase::List,
            detail: e.to_string(),
        })?
        .unwrap_or_default();
    for tool in &mut loaded.surface.tools {
        tool.origin = Origin {
            server: Some(name.to_owned()),
            format: SourceFormat::Live,
            ..Origin::default()
        };
        tool.confidence = Confidence::High;
    }
    Ok(loaded)
}
