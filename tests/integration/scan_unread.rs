//! `server-unread` end to end: a server whose tools the scan cannot read is said in `mf scan`,
//! `mf lint` and `mf ci` (also beside a readable tools file), an input with no tool exits 3,
//! and a source file given to `mf lint` is read.

use std::path::Path;

use crate::support::git::git;
use crate::support::{json_and_code, machine_ci_vars, mf, mf_in, show};

/// A low-level TypeScript server whose tools come from a data file read at run time.
const DYNAMIC_SERVER: &str = r#"import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";
const spec = JSON.parse(readFileSync(process.env.SPEC_PATH ?? "spec.json", "utf8"));
const server = new Server({ name: "openapi", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: spec.operations.map((op) => ({ name: op.id, description: op.summary, inputSchema: op.schema })),
}));
"#;

const TOOLS_JSON: &str = r#"{"tools": [{"name": "get_invoice", "description": "Fetch one invoice by its id, with its lines and totals.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "The invoice id."}}, "required": ["id"]}}]}"#;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    write(dir.path(), "server/package.json", "{}");
    write(dir.path(), "server/src/index.ts", DYNAMIC_SERVER);
    write(dir.path(), "tools.json", TOOLS_JSON);
    dir
}

#[test]
fn scan_and_lint_say_which_server_was_not_read_beside_a_readable_tools_file() {
    let dir = repo();
    let (v, code) = json_and_code(mf().args(["scan", "--json", "--no-write"]).arg(dir.path()));
    assert_eq!(code, 0);
    let report = &v["report"];
    assert_eq!(report["summary"]["tools"], 1);
    assert_eq!(report["summary"]["unreadServers"], 1);
    let u = &report["unread"][0];
    assert_eq!(u["code"], "server-unread");
    assert_eq!(u["file"], "server/src/index.ts");
    assert_eq!(u["line"], 6);
    assert!(u["fix"].as_str().expect("fix").contains("mf snapshot"));

    let (v, code) = json_and_code(mf_in(dir.path()).args([
        "lint",
        ".",
        "--format",
        "json",
        "--fail-on",
        "warn",
    ]));
    assert_eq!(code, 2, "a server-unread warning fails --fail-on warn");
    let findings = v["findings"].as_array().expect("findings");
    let f = findings
        .iter()
        .find(|f| f["code"] == "server-unread")
        .unwrap_or_else(|| panic!("no server-unread in {v:#}"));
    assert_eq!(f["severity"], "warn");
    assert_eq!(f["file"], "server/src/index.ts");
    assert_eq!(f["line"], 6);

    let out = mf_in(dir.path())
        .args(["cluster", "."])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("server/src/index.ts:6: server-unread"),
        "cluster says it too: {err}"
    );
}

#[test]
fn ci_annotates_and_summarizes_an_unread_server() {
    let dir = repo();
    let r = dir.path();
    git(r, &["init", "-q", "-b", "main"]);
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "base"]);
    let summary = r.join("..").join("summary.md");
    let mut cmd = mf_in(r);
    for k in machine_ci_vars() {
        cmd.env_remove(k);
    }
    let out = cmd
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .args([
            "ci",
            ".",
            "--comment",
            "off",
            "--gate-findings",
            "all",
            "--fail-on",
            "warn",
        ])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("::warning file=server/src/index.ts,line=6")
            && stdout.contains("server-unread"),
        "{}",
        show(&out)
    );
    assert_ne!(out.status.code(), Some(0), "{}", show(&out));
    let summary = std::fs::read_to_string(&summary).unwrap_or_default();
    assert!(summary.contains("server-unread"), "{summary}");
}

#[test]
fn an_input_with_no_tool_exits_3_and_says_what_was_looked_for() {
    let dir = tempfile::tempdir().expect("tmp");
    write(dir.path(), "README.md", "# nothing here\n");
    for cmd in ["lint", "cluster"] {
        let out = mf().arg(cmd).arg(dir.path()).output().expect("runs");
        assert_eq!(out.status.code(), Some(3), "{cmd}: {}", show(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("no tool or skill found")
                && err.contains("setRequestHandler(ListToolsRequestSchema"),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn lint_reads_a_source_file_given_directly() {
    let dir = tempfile::tempdir().expect("tmp");
    write(
        dir.path(),
        "server.py",
        "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP(\"x\")\n\n@mcp.tool()\ndef get_weather(city: str) -> str:\n    \"\"\"Current weather for a city.\"\"\"\n    return city\n",
    );
    write(
        dir.path(),
        "src/index.ts",
        "import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\nimport { TOOLS } from \"./tools.js\";\nconst server = new McpServer({ name: \"x\", version: \"1\" });\nfor (const t of TOOLS) server.registerTool(t.name, { description: t.description }, async () => ({ content: [] }));\n",
    );
    write(
        dir.path(),
        "src/tools.ts",
        "export const TOOLS = [{ name: \"list_orders\", description: \"List orders.\" }];\n",
    );
    let (v, code) =
        json_and_code(mf_in(dir.path()).args(["lint", "server.py", "--format", "json"]));
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["summary"]["tools"], 1);
    let (v, code) =
        json_and_code(mf_in(dir.path()).args(["lint", "src/index.ts", "--format", "json"]));
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["summary"]["tools"], 1, "the import is followed: {v}");
}

#[test]
fn lint_of_a_python_file_follows_its_relative_imports() {
    let dir = tempfile::tempdir().expect("tmp");
    write(
        dir.path(),
        "pkg/server.py",
        "from mcp.server.fastmcp import FastMCP\nfrom .registry import ALL_TOOLS\nmcp = FastMCP(\"x\")\n\nfor fn in ALL_TOOLS.values():\n    mcp.tool(fn)\n",
    );
    write(
        dir.path(),
        "pkg/registry.py",
        "from .core import get_weather\n\nALL_TOOLS = {\"get_weather\": get_weather}\n",
    );
    write(
        dir.path(),
        "pkg/core.py",
        "def get_weather(city: str) -> str:\n    \"\"\"Current weather for a city.\"\"\"\n    return city\n",
    );
    let (v, code) =
        json_and_code(mf_in(dir.path()).args(["lint", "pkg/server.py", "--format", "json"]));
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["summary"]["tools"], 1, "{v}");
}
