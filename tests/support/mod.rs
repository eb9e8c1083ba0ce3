//! What the integration tests (`tests/integration/main.rs`, one test binary) share: the `mf`
//! command, paths into the repository and its fixtures, reading mf's JSON output, and the
//! helper modules below. `chat_server.rs` is also included by `benches/eval_runner.rs`.

pub mod chat_server;
pub mod git;
pub mod junit;
pub mod planted;
pub mod rng;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use mf::surface::{Confidence, Origin, Tool};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The repository root (`CARGO_MANIFEST_DIR`).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file under `tests/fixtures/`: `fixture("servers/filesystem.tools.json")`.
pub fn fixture(rel: &str) -> PathBuf {
    root().join("tests/fixtures").join(rel)
}

/// A fixture's text; the panic names the file.
pub fn fixture_text(rel: &str) -> String {
    let p = fixture(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("read {}: {e}", p.display()))
}

/// A JSON fixture, parsed.
pub fn fixture_json(rel: &str) -> Value {
    read_json(fixture(rel))
}

/// A JSON file, parsed (into a `Value` or any report type); the panic names the file.
pub fn read_json<T: DeserializeOwned>(path: impl AsRef<Path>) -> T {
    let path = path.as_ref();
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A reference server's saved `tools/list`: `tests/fixtures/servers/{name}.tools.json`.
pub fn server(name: &str) -> PathBuf {
    fixture(&format!("servers/{name}.tools.json"))
}

/// [`server`] as a command-line argument.
pub fn server_arg(name: &str) -> String {
    server(name).to_string_lossy().into_owned()
}

/// A reference server's tools as plain tools (name, description, input schema).
pub fn server_tools(name: &str) -> Vec<Tool> {
    let doc: Value = read_json(server(name));
    doc["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            let mut tool = Tool::named(
                t["name"].as_str().expect("name"),
                Origin::default(),
                Confidence::High,
            );
            tool.description = t["description"].as_str().map(str::to_owned);
            tool.input_schema = t.get("inputSchema").cloned();
            tool
        })
        .collect()
}

/// `tests/fake_mcp_server/server.js`, a misbehaving MCP server (`node server.js MODE PIDFILE`),
/// for the Linux-only live tests.
#[cfg(target_os = "linux")]
pub fn fake_mcp_server() -> String {
    root()
        .join("tests/fake_mcp_server/server.js")
        .to_string_lossy()
        .into_owned()
}

/// Whether the reference MCP servers from npm are installed (`scripts/install-test-servers.sh`,
/// which needs Node.js and npm). When they are not, the live tests skip with a message saying
/// how to install them — unless `MF_REQUIRE_TEST_SERVERS` is set (`.ci/run` sets it), which
/// makes their absence a failure.
#[allow(clippy::print_stderr)]
pub fn test_servers_installed() -> bool {
    let dir = root().join("target/test-servers/node_modules/@modelcontextprotocol");
    let installed = ["server-filesystem", "server-memory", "server-everything"]
        .iter()
        .all(|p| dir.join(p).join("dist/index.js").is_file());
    if !installed {
        assert!(
            std::env::var_os("MF_REQUIRE_TEST_SERVERS").is_none(),
            "MF_REQUIRE_TEST_SERVERS is set but the reference MCP servers are not installed in \
             {}: run scripts/install-test-servers.sh (needs Node.js and npm)",
            dir.display()
        );
        eprintln!(
            "skipped: the reference MCP servers are not installed (run \
             scripts/install-test-servers.sh, which needs Node.js and npm; \
             MF_REQUIRE_TEST_SERVERS=1 makes this a failure)"
        );
    }
    installed
}

/// The entry point of a reference MCP server from npm (`server-filesystem`, `server-memory`,
/// `server-everything`), installed by `scripts/install-test-servers.sh`; panics when it is not.
pub fn installed_server(package: &str) -> PathBuf {
    let p = root()
        .join("target/test-servers/node_modules/@modelcontextprotocol")
        .join(package)
        .join("dist/index.js");
    assert!(
        p.is_file(),
        "{package} is not installed at {}: run scripts/install-test-servers.sh",
        p.display()
    );
    p
}

/// A tool with a name and a description, nothing else.
pub fn tool(name: &str, description: &str) -> Tool {
    let mut t = Tool::named(name, Origin::default(), Confidence::High);
    t.description = Some(description.to_owned());
    t
}

/// A loopback port that was free a moment ago.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// The provider keys mf reads; none of the developer's may reach a test run.
const PROVIDER_KEYS: [&str; 6] = [
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "OPENROUTER_API_KEY",
    "TOGETHER_API_KEY",
    "DEEPSEEK_API_KEY",
    "MF_PROVIDER_API_KEY",
];

/// `mf --color=never` in the repository root, with no provider key and no `NO_COLOR` from the
/// developer's machine. Set a key again with `.env(..)`; run elsewhere with [`mf_in`].
pub fn mf() -> Command {
    let mut cmd = Command::cargo_bin("mf").expect("mf binary");
    cmd.current_dir(root()).arg("--color=never");
    cmd.env_remove("NO_COLOR");
    for var in PROVIDER_KEYS {
        cmd.env_remove(var);
    }
    cmd
}

/// [`mf`] in `dir`.
pub fn mf_in(dir: impl AsRef<Path>) -> Command {
    let mut cmd = mf();
    cmd.current_dir(dir.as_ref());
    cmd
}

/// The variables of this process that a CI run must not inherit: the real GitHub context
/// (`GITHUB_*`, `RUNNER_*`), mf settings (`MF_*`) and any `*_API_KEY`. Remove each from a command.
pub fn machine_ci_vars() -> Vec<String> {
    std::env::vars_os()
        .map(|(k, _)| k.to_string_lossy().into_owned())
        .filter(|k| {
            k.starts_with("GITHUB_")
                || k.starts_with("RUNNER_")
                || k.starts_with("MF_")
                || k.ends_with("_API_KEY")
        })
        .collect()
}

/// Fails, showing mf's stderr, unless the run exited 0.
#[track_caller]
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Stdout then stderr, for assertion messages and searching both.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Stdout and stderr, labelled, for assertion messages.
pub fn show(out: &Output) -> String {
    format!(
        "--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A `$GITHUB_OUTPUT` file as GitHub reads it: `key=value` lines and `key<<DELIMITER` blocks;
/// a key written twice keeps its last value; any other line is a failure.
pub fn github_outputs(text: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some((key, delimiter)) = line.split_once("<<") {
            let mut value = Vec::new();
            for l in lines.by_ref() {
                if l == delimiter {
                    break;
                }
                value.push(l);
            }
            map.insert(key.to_owned(), value.join("\n"));
        } else if let Some((key, value)) = line.split_once('=') {
            map.insert(key.to_owned(), value.to_owned());
        } else {
            panic!("not an output line: {line:?}");
        }
    }
    map
}

/// Stdout parsed as JSON, or a panic showing everything mf printed.
pub fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e})\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Run `cmd`; its stdout as JSON and its exit code.
pub fn json_and_code(cmd: &mut Command) -> (Value, i32) {
    let out = cmd.output().expect("runs");
    (stdout_json(&out), out.status.code().expect("exit code"))
}

/// Write `v` to `path` as a committed JSON file would be: pretty, ending with a newline.
pub fn write_json(path: &Path, v: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(v).expect("json") + "\n").expect("write");
}
