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

/// Flags whose value is a secret even though their name does not say so.
const SECRET_SHORT_FLAGS: &[&str] = &["-t", "--pat", "--pw", "--pass"];

/// Flags whose value is an HTTP header (`Name: value`); the value is always hidden.
const HEADER_FLAGS: &[&str] = &["-H", "--header", "--headers", "--http-header"];

/// Replace secret-looking arguments: `--token=X` → `--token=<redacted>`, the value after a
/// secret-named flag (`--token X`, `--api-key X`, `-t X`), header arguments
/// (`--header "Authorization: Bearer X"` → `Authorization: <redacted>`, `X-Api-Key:X`), user info,
/// query and fragment of any URL inside an argument (`postgresql://u:PASS@db` → `postgresql://db`),
/// and values with well-known key prefixes.
pub fn redact_args(args: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut hide_next = false;
    let mut header_next = false;
    for a in args {
        if hide_next {
            out.push(REDACTED.to_owned());
            hide_next = false;
            continue;
        }
        if header_next {
            out.push(redact_header(a, true));
            header_next = false;
            continue;
        }
        if HEADER_FLAGS.contains(&a.as_str()) {
            header_next = true;
            out.push(a.clone());
            continue;
        }
        if let Some((k, v)) = a.split_once('=')
            && HEADER_FLAGS.contains(&k)
        {
            out.push(format!("{k}={}", redact_header(v, true)));
            continue;
        }
        if let Some(v) = a.strip_prefix("-H")
            && !v.is_empty()
            && !v.starts_with('-')
        {
            out.push(format!("-H{}", redact_header(v, true)));
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
        if looks_like_header(a) {
            out.push(redact_header(a, false));
            continue;
        }
        if (a.starts_with('-') && secret_word(a))
            || SECRET_SHORT_FLAGS.contains(&a.as_str())
            || a.eq_ignore_ascii_case("bearer")
            || a.eq_ignore_ascii_case("basic")
        {
            hide_next = true;
        }
        out.push(redact_embedded_urls(a));
    }
    out
}

/// `Name: value` / `Name:value` where the name is a plausible HTTP header name.
fn looks_like_header(a: &str) -> bool {
    a.split_once(':').is_some_and(|(name, value)| {
        !name.is_empty()
            && !value.starts_with("//")
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
            && !value.trim().is_empty()
    })
}

/// A header argument with its value hidden: always when `always` (it followed `--header`), else
/// when the header's name says secret (`Authorization`, `X-Api-Key`, `Cookie`…).
fn redact_header(a: &str, always: bool) -> String {
    match a.split_once(':') {
        Some((name, _)) => {
            let l = name.to_ascii_lowercase();
            if always || secret_word(&l) || l.contains("cookie") || l.contains("session") {
                format!("{}: {REDACTED}", name.trim())
            } else {
                a.to_owned()
            }
        }
        None if always => REDACTED.to_owned(),
        None => a.to_owned(),
    }
}

/// Every `scheme://…` inside an argument, run through [`redact_url`]. Iterative (an argument
/// may hold any number of URLs) and char-boundary safe (found by fuzzing: a multi-byte
/// character just before a scheme split a character).
fn redact_embedded_urls(a: &str) -> String {
    let mut out = String::with_capacity(a.len());
    let mut rest = a;
    while let Some(sep) = rest.find("://") {
        let start = rest[..sep]
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-')))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let end = rest[sep..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ','))
            .map_or(rest.len(), |i| sep + i);
        out.push_str(&rest[..start]);
        out.push_str(&redact_url(&rest[start..end]));
        rest = &rest[end..];
    }
    out.push_str(rest);
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
    let (path, fragment) = match path.split_once('#') {
        Some((p, _)) => (p, format!("#{REDACTED}")),
        None => (path, String::new()),
    };
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
        format!("{host}{path}{fragment}")
    } else {
        format!("{scheme}://{host}{path}{fragment}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::formats::parse_json;

    /// Found by `cargo fuzz` (target `mcp_config`): a multi-byte character right before a
    /// `://` made the scheme's start fall inside it, and `mf scan` panicked on the config.
    #[test]
    fn a_multibyte_character_before_a_scheme_is_not_split() {
        let arg = "x\u{6f4}https://u:pw@h.example/p?k=v and ۴://h ok";
        let out = redact_embedded_urls(arg);
        assert!(!out.contains("pw"), "{out}");
        assert!(out.starts_with("x\u{6f4}https://h.example/p?k="), "{out}");
        let fuzzed =
            include_str!("../../../tests/fixtures/fuzz/mcp_config-multibyte-before-scheme.json");
        let doc = parse_json(fuzzed, ".mcp.json").expect("the fuzzed config is JSON");
        let src = crate::surface::formats::Source {
            file: ".mcp.json",
            text: fuzzed,
            doc: &doc,
            base_dir: None,
        };
        assert!(servers(&src, true).is_some());
        let _ = servers(&src, false);
        // Many URLs in one argument: no recursion to overflow.
        let many = "a://b ".repeat(200_000);
        assert_eq!(
            redact_embedded_urls(&many).matches("a://b").count(),
            200_000
        );
    }

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
    fn header_url_and_short_flag_secrets_are_redacted() {
        let args: Vec<String> = [
            "postgresql://u:PASS1@db:5432/app?sslpassword=PASS2",
            "--db=mysql://root:PASS3@h/x",
            "--header",
            "Authorization: Bearer PASS4",
            "X-Api-Key:PASS5",
            "-t",
            "PASS6",
            "--api-key=PASS7",
            "--token",
            "PASS8",
            "-HCookie: PASS9",
            "https://h/cb#access_token=PASS10",
            "Accept: application/json",
            "--port",
            "8080",
        ]
        .map(str::to_owned)
        .to_vec();
        let out = redact_args(&args);
        let joined = out.join(" ");
        for i in 1..=10 {
            assert!(!joined.contains(&format!("PASS{i}")), "PASS{i}: {joined}");
        }
        assert_eq!(out[0], "postgresql://db:5432/app?sslpassword=<redacted>");
        assert_eq!(out[3], "Authorization: <redacted>");
        assert_eq!(out[4], "X-Api-Key: <redacted>");
        assert_eq!(out[12], "Accept: application/json");
        assert_eq!(&out[13..], ["--port", "8080"]);
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
