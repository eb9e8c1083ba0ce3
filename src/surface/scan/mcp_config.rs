//! MCP client configs (`.mcp.json`, `mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`,
//! `claude_desktop_config.json`, `mcpServers` blocks in any JSON settings file): which servers a
//! project wires up. Only env and header *names* are kept; their values are never copied out,
//! and secret-looking command arguments and URL query values are redacted.

use serde::Serialize;
use serde_json::Value;

use crate::surface::Origin;
use crate::surface::formats::Source;

/// How a configured server is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// A child process speaking JSON-RPC on stdin/stdout.
    Stdio,
    /// Streamable HTTP.
    Http,
    /// The older HTTP + server-sent events transport.
    Sse,
}

impl Transport {
    /// The lower-case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
            Transport::Sse => "sse",
        }
    }
}

/// One server entry of a client config.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfiguredServer {
    /// The entry's key.
    pub name: String,
    /// How it is reached.
    pub transport: Transport,
    /// Program to start (stdio).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Its arguments, with secret-looking values replaced by `<redacted>`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Endpoint (http/sse), with user info and query values redacted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Names of the environment variables it is given (values are never read).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub env_keys: Vec<String>,
    /// Names of the HTTP headers it is given (values are never read).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub header_keys: Vec<String>,
    /// Where the entry is written.
    pub origin: Origin,
}

/// File names that are MCP client configs by convention.
pub fn is_config_name(file_name: &str) -> bool {
    matches!(
        file_name,
        ".mcp.json"
            | "mcp.json"
            | "claude_desktop_config.json"
            | "mcp_settings.json"
            | "cline_mcp_settings.json"
    )
}

/// The servers of a config document, or `None` when it holds no server block.
/// `by_name` says the file is named like a config, which also allows VS Code's `servers` key.
pub fn servers(src: &Source<'_>, by_name: bool) -> Option<Vec<ConfiguredServer>> {
    let root = src.doc.value.as_object()?;
    let (key, block) = if let Some(b) = root.get("mcpServers").and_then(Value::as_object) {
        ("mcpServers", b)
    } else if let Some(b) = root
        .get("servers")
        .and_then(Value::as_object)
        .filter(|_| by_name)
    {
        ("servers", b)
    } else {
        return None;
    };
    let mut out = Vec::new();
    for (name, entry) in block {
        let Some(e) = entry.as_object() else { continue };
        let pointer = format!("/{key}/{}", name.replace('~', "~0").replace('/', "~1"));
        let command = e.get("command").and_then(Value::as_str).map(str::to_owned);
        let url = e
            .get("url")
            .or_else(|| e.get("serverUrl"))
            .and_then(Value::as_str)
            .map(redact_url);
        let declared = e
            .get("type")
            .or_else(|| e.get("transport"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        let transport = match (declared, &command) {
            ("sse", _) => Transport::Sse,
            ("http" | "streamable-http" | "streamableHttp", _) => Transport::Http,
            (_, Some(_)) => Transport::Stdio,
            _ if url.is_some() => Transport::Http,
            _ => Transport::Stdio,
        };
        let args = e
            .get("args")
            .and_then(Value::as_array)
            .map(|a| {
                redact_args(
                    &a.iter()
                        .map(|v| {
                            v.as_str()
                                .map(str::to_owned)
                                .unwrap_or_else(|| v.to_string())
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .unwrap_or_default();
        out.push(ConfiguredServer {
            name: name.clone(),
            transport,
            command,
            args,
            url,
            env_keys: keys(e.get("env")),
            header_keys: keys(e.get("headers")),
            origin: src.origin(crate::surface::SourceFormat::McpConfig, &pointer),
        });
    }
    Some(out)
}

fn keys(v: Option<&Value>) -> Vec<String> {
    let mut k: Vec<String> = v
        .and_then(Value::as_object)
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    k.sort();
    k
}

const REDACTED: &str = "<redacted>";

fn secret_word(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    [
        "key",
        "token",
        "secret",
        "password",
        "passwd",
        "auth",
        "credential",
        "bearer",
    ]
    .iter()
    .any(|w| l.contains(w))
}

fn secret_value(s: &str) -> bool {
    let prefixes = [
        "sk-",
        "sk_",
        "ghp_",
        "gho_",
        "ghs_",
        "github_pat_",
        "xoxb-",
        "xoxp-",
        "AKIA",
        "AIza",
        "Bearer ",
        "glpat-",
        "hf_",
    ];
    prefixes.iter().any(|p| s.starts_with(p))
}

/// Replace secret-looking arguments: `--token=X` → `--token=<redacted>`, the value after a
/// secret-named flag, and values with well-known key prefixes.
pub fn redact_args(args: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut hide_next = false;
    for a in args {
        if hide_next {
            out.push(REDACTED.to_owned());
            hide_next = false;
            continue;
        }
        if let Some((k, _)) = a.split_once('=')
            && secret_word(k)
            && !k.contains('/')
        {
            out.push(format!("{k}={REDACTED}"));
            continue;
        }
        if secret_value(a) {
            out.push(REDACTED.to_owned());
            continue;
        }
        if a.starts_with('-') && secret_word(a) {
            hide_next = true;
        }
        out.push(a.clone());
    }
    out
}

/// Drop user info and query values from a URL: `https://u:p@h/x?k=v` → `https://h/x?k=<redacted>`.
pub fn redact_url(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let (authority, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => match rest.find('?') {
            Some(i) => rest.split_at(i),
            None => (rest, ""),
        },
    };
    let host = authority
        .rsplit_once('@')
        .map(|(_, h)| h)
        .unwrap_or(authority);
    let path = match path.split_once('?') {
        Some((p, q)) => {
            let redacted: Vec<String> = q
                .split('&')
                .map(|kv| match kv.split_once('=') {
                    Some((k, _)) => format!("{k}={REDACTED}"),
                    None => kv.to_owned(),
                })
                .collect();
            format!("{p}?{}", redacted.join("&"))
        }
        None => path.to_owned(),
    };
    if scheme.is_empty() {
        format!("{host}{path}")
    } else {
        format!("{scheme}://{host}{path}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::formats::parse_json;

    #[test]
    fn env_values_and_secrets_never_come_out() {
        let text = r#"{
  "mcpServers": {
    "tickets": {"command": "npx", "args": ["-y", "tickets-mcp", "--api-key", "sk-live-123", "--token=abc", "ghp_XXXX"],
                "env": {"TICKETS_TOKEN": "sk-test-THIS-MUST-NOT-APPEAR", "A": "1"}},
    "remote": {"type": "http", "url": "https://user:pw@mcp.example.com/mcp?key=zzz",
               "headers": {"Authorization": "Bearer secret-header-value"}}
  }
}"#;
        let doc = parse_json(text, ".mcp.json").expect("json");
        let src = Source {
            file: ".mcp.json",
            text,
            doc: &doc,
            base_dir: None,
        };
        let servers = servers(&src, true).expect("servers");
        let out = serde_json::to_string(&servers).expect("json");
        for secret in [
            "sk-test-THIS-MUST-NOT-APPEAR",
            "sk-live-123",
            "abc",
            "ghp_XXXX",
            "zzz",
            "pw@",
            "secret-header-value",
        ] {
            assert!(!out.contains(secret), "{secret} leaked: {out}");
        }
        assert_eq!(servers[0].name, "tickets");
        assert_eq!(servers[0].transport, Transport::Stdio);
        assert_eq!(servers[0].env_keys, vec!["A", "TICKETS_TOKEN"]);
        assert_eq!(
            servers[0].args,
            vec![
                "-y",
                "tickets-mcp",
                "--api-key",
                "<redacted>",
                "--token=<redacted>",
                "<redacted>"
            ]
        );
        assert_eq!(servers[0].origin.line, Some(3));
        assert_eq!(servers[1].transport, Transport::Http);
        assert_eq!(
            servers[1].url.as_deref(),
            Some("https://mcp.example.com/mcp?key=<redacted>")
        );
        assert_eq!(servers[1].header_keys, vec!["Authorization"]);
    }

    #[test]
    fn vscode_servers_key_only_counts_in_config_named_files() {
        let text = r#"{"servers": {"a": {"command": "x"}}}"#;
        let doc = parse_json(text, "x.json").expect("json");
        let src = Source {
            file: "x.json",
            text,
            doc: &doc,
            base_dir: None,
        };
        assert!(servers(&src, false).is_none());
        assert_eq!(servers(&src, true).map(|s| s.len()), Some(1));
    }
}
