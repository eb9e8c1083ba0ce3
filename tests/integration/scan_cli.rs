//! `mf scan` end to end: the example repository, malformed inputs, outputs on disk, exit codes.

use std::path::Path;

use serde_json::Value;

use crate::support::{assert_success, json_and_code, mf, root};

fn scan_json(root: &Path) -> (Value, i32) {
    json_and_code(mf().args(["scan", "--json", "--no-write"]).arg(root))
}

/// Rows of the table in examples/acme-support/EXPECTED.md: (kind, name, file, line, format, params).
fn expected_rows() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(root().join("examples/acme-support/EXPECTED.md"))
        .expect("EXPECTED.md");
    text.lines()
        .skip_while(|l| !l.starts_with("| kind |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

#[test]
fn example_repository_every_tool_with_name_file_line_and_parameters() {
    let (v, code) = scan_json(&root().join("examples/acme-support"));
    assert_eq!(code, 0);
    let report = &v["report"];
    let tools = report["tools"].as_array().expect("tools");
    let rows = expected_rows();
    assert!(
        rows.len() >= 17,
        "EXPECTED.md table has {} rows",
        rows.len()
    );
    for row in &rows {
        let (kind, name, file, line, format, params) =
            (&row[0], &row[1], &row[2], &row[3], &row[4], &row[5]);
        let list = if kind == "skill" {
            report["skills"].as_array().expect("skills")
        } else {
            tools
        };
        let found = list
            .iter()
            .find(|t| t["name"] == name.as_str())
            .unwrap_or_else(|| panic!("{kind} {name} not found"));
        assert_eq!(found["origin"]["file"], file.as_str(), "{name}");
        assert_eq!(found["origin"]["line"].to_string(), *line, "{name}");
        assert_eq!(found["origin"]["format"], format.as_str(), "{name}");
        if kind == "tool" {
            let schema = &found["inputSchema"];
            let required: Vec<&str> = schema["required"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let got: Vec<String> = schema["properties"]
                .as_object()
                .map(|p| {
                    p.keys()
                        .map(|k| {
                            if required.contains(&k.as_str()) {
                                k.clone()
                            } else {
                                format!("{k}?")
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            let want: Vec<String> = params
                .split(',')
                .map(|p| p.trim().to_owned())
                .filter(|p| !p.is_empty())
                .collect();
            assert_eq!(got, want, "parameters of {name}");
            assert!(
                found["description"].as_str().is_some_and(|d| !d.is_empty()),
                "{name} has a description"
            );
        }
    }
    let tool_rows = rows.iter().filter(|r| r[0] == "tool").count();
    assert_eq!(
        tools.len(),
        tool_rows,
        "no extra tools: {:?}",
        tools.iter().map(|t| &t["name"]).collect::<Vec<_>>()
    );
}

#[test]
fn example_repository_servers_keep_env_names_never_values() {
    let out = mf()
        .args(["scan", "--json", "--no-write"])
        .arg(root().join("examples/acme-support"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    for secret in ["sk-test-THIS-MUST-NOT-APPEAR", "secret-header-value"] {
        assert!(!text.contains(secret), "{secret} leaked");
    }
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let servers = v["report"]["servers"].as_array().expect("servers");
    let tickets = servers
        .iter()
        .find(|s| s["name"] == "acme-tickets" && s["origin"]["file"] == ".mcp.json")
        .expect("acme-tickets");
    assert_eq!(tickets["transport"], "stdio");
    assert!(
        tickets["envKeys"]
            .as_array()
            .expect("env keys")
            .iter()
            .any(|k| k == "TICKETS_API_TOKEN")
    );
}

#[test]
fn example_scan_json_is_byte_identical_across_runs() {
    let root = root().join("examples/acme-support");
    let a = mf()
        .args(["scan", "--json", "--no-write"])
        .arg(&root)
        .output()
        .expect("runs");
    let b = mf()
        .args(["scan", "--json", "--no-write", "--threads", "1"])
        .arg(&root)
        .output()
        .expect("runs");
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn example_scan_report_snapshot() {
    let (v, _) = scan_json(&root().join("examples/acme-support"));
    let mut report = v["report"].clone();
    report["root"] = Value::String("[root]".into());
    insta::assert_json_snapshot!("acme_support_scan_report", report);
}

#[test]
fn empty_tree_exits_3() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("README.md"), "# nothing here\n").expect("write");
    let (v, code) = scan_json(dir.path());
    assert_eq!(code, 3);
    assert_eq!(v["report"]["summary"]["tools"], 0);
    mf().arg("scan").arg(dir.path()).assert().code(3);
    assert!(
        !dir.path().join("mf.scan.json").exists(),
        "nothing written when nothing found"
    );
}

#[test]
fn missing_root_is_a_usage_error() {
    mf().args(["scan", "/no/such/dir/anywhere"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "cannot scan /no/such/dir/anywhere",
        ));
}

#[test]
fn writes_outputs_atomically_and_never_reads_them_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("tools.json"),
        r#"{"tools":[{"name":"a","description":"Does a.","inputSchema":{"type":"object"}}]}"#,
    )
    .expect("write");
    mf().arg("scan").arg(dir.path()).assert().success();
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("mf.scan.json")).expect("report"),
    )
    .expect("json");
    let suite: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("mf.suite.json")).expect("suite"),
    )
    .expect("json");
    assert_eq!(report["summary"]["tools"], 1);
    assert_eq!(suite["draft"], true);
    assert_eq!(suite["tools"][0]["name"], "a");
    // A second scan sees the same one tool, not its own outputs.
    let (v, _) = scan_json(dir.path());
    assert_eq!(v["report"]["summary"]["tools"], 1);
    let leftovers: Vec<String> = std::fs::read_dir(dir.path())
        .expect("ls")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn a_hand_written_suite_is_never_overwritten() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mine = r#"{"name":"mine","tools":[{"name":"a","description":"Does a.","parameters":{"type":"object"}}],"cases":[]}"#;
    std::fs::write(dir.path().join("mf.suite.json"), mine).expect("write");
    mf().arg("scan").arg(dir.path()).assert().success();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mf.suite.json")).expect("suite"),
        mine
    );
    assert!(dir.path().join("mf.suite.draft.json").exists());
}

#[test]
fn malformed_inputs_are_skipped_with_a_warning_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(
        d.join("good.json"),
        r#"[{"name":"good","description":"A good tool.","input_schema":{"type":"object"}}]"#,
    )
    .expect("write");
    std::fs::write(
        d.join("truncated.json"),
        "{\"tools\": [\n  {\"name\": \"a\", \"inputSchema\": {",
    )
    .expect("write");
    std::fs::write(
        d.join("wrong-types.json"),
        "{\"tools\": [\n  {\"name\": 7, \"inputSchema\": {}}\n]}",
    )
    .expect("write");
    std::fs::write(
        d.join("binary.json"),
        [b'{', b'"', b't', 0xff, 0xfe, b'"', b'}'],
    )
    .expect("write");
    std::fs::write(
        d.join("latin1.py"),
        b"# caf\xe9\n@mcp.tool()\ndef f(x: int):\n    pass\n",
    )
    .expect("write");
    std::fs::File::create(d.join("huge.json"))
        .expect("create")
        .set_len(50 * 1024 * 1024)
        .expect("grow");
    std::fs::create_dir(d.join("loop")).expect("mkdir");
    #[cfg(unix)]
    std::os::unix::fs::symlink("..", d.join("loop/up")).expect("symlink");
    let many: Vec<String> = (0..10_000)
        .map(|i| {
            format!(
                r#"{{"name":"t{i}","description":"Tool {i}.","inputSchema":{{"type":"object"}}}}"#
            )
        })
        .collect();
    std::fs::write(
        d.join("many.json"),
        format!("{{\"tools\":[{}]}}", many.join(",\n")),
    )
    .expect("write");

    let (v, code) = scan_json(d);
    assert_eq!(code, 0);
    let report = &v["report"];
    assert_eq!(report["summary"]["tools"], 10_001);
    let warnings = report["warnings"].as_array().expect("warnings");
    let warned = |file: &str| {
        warnings
            .iter()
            .find(|w| w["file"] == file)
            .unwrap_or_else(|| panic!("no warning for {file}: {warnings:?}"))
    };
    assert!(
        warned("truncated.json")["message"]
            .as_str()
            .expect("msg")
            .contains("invalid JSON")
    );
    assert_eq!(warned("wrong-types.json")["line"], 2);
    assert!(
        warned("binary.json")["message"]
            .as_str()
            .expect("msg")
            .contains("UTF-8")
    );
    assert!(
        warned("latin1.py")["message"]
            .as_str()
            .expect("msg")
            .contains("UTF-8")
    );
    assert!(
        warned("huge.json")["message"]
            .as_str()
            .expect("msg")
            .contains("limit")
    );
}

#[test]
fn gitignored_and_dependency_folders_are_not_scanned() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let tool = r#"{"tools":[{"name":"x","description":"X.","inputSchema":{}}]}"#;
    std::fs::write(d.join(".gitignore"), "build/\n").expect("write");
    for sub in ["build", "node_modules/pkg", "src"] {
        std::fs::create_dir_all(d.join(sub)).expect("mkdir");
        std::fs::write(d.join(sub).join("tools.json"), tool).expect("write");
    }
    let (v, _) = scan_json(d);
    let files: Vec<&str> = v["report"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["origin"]["file"].as_str())
        .collect();
    assert_eq!(files, vec!["src/tools.json"]);
    let out = mf()
        .args(["scan", "--json", "--no-write", "--no-ignore"])
        .arg(d)
        .output()
        .expect("runs");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        v["report"]["summary"]["tools"], 2,
        "--no-ignore reads build/ but still skips node_modules/"
    );
}

#[test]
fn scanning_this_repository_finishes_without_error() {
    let out = mf()
        .args(["scan", "--json", "--no-write"])
        .arg(root())
        .output()
        .expect("runs");
    assert_success(&out);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["report"]["summary"]["tools"].as_u64().expect("count") >= 16);
}

/// Drop the keys the SDKs add on the wire that code extraction does not try to reproduce
/// (pydantic titles, zod's `$schema` and `additionalProperties: false`).
fn without_sdk_decorations(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| {
                    !matches!(k.as_str(), "title" | "$schema" | "additionalProperties")
                })
                .map(|(k, v)| (k.clone(), without_sdk_decorations(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_sdk_decorations).collect()),
        other => other.clone(),
    }
}

#[test]
fn code_extraction_matches_what_the_real_sdks_serve() {
    // examples/sdk-reference holds the tools/list the official TypeScript and Python SDKs
    // served for the two example servers; static extraction must recover the same surface.
    let (v, _) = scan_json(&root().join("examples/acme-support"));
    let scanned = v["report"]["tools"].as_array().expect("tools");
    for reference in ["tickets-ts.tools.json", "kb-py.tools.json"] {
        let text = std::fs::read_to_string(root().join("examples/sdk-reference").join(reference))
            .expect("reference");
        let served: Value = serde_json::from_str(&text).expect("json");
        for tool in served["tools"].as_array().expect("tools") {
            let name = tool["name"].as_str().expect("name");
            let ours = scanned
                .iter()
                .find(|t| t["name"] == name)
                .unwrap_or_else(|| panic!("{name} not found by the scan"));
            assert_eq!(
                without_sdk_decorations(&ours["inputSchema"]),
                without_sdk_decorations(&tool["inputSchema"]),
                "{reference}: schema of {name}"
            );
            assert_eq!(
                ours["description"], tool["description"],
                "{reference}: description of {name}"
            );
            assert_eq!(
                ours.get("annotations"),
                tool.get("annotations"),
                "{reference}: annotations of {name}"
            );
            assert_eq!(
                ours.get("title"),
                tool.get("title"),
                "{reference}: title of {name}"
            );
        }
    }
}

#[test]
fn one_grammar_reads_ts_js_and_tsx_files_casts_included() {
    // Every JavaScript and TypeScript file is parsed with the TSX grammar; in a `.ts` file an
    // angle-bracket cast (`<number>x`, a JSX tag to TSX) next to a tool must hide nothing.
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::create_dir_all(d.join("src")).expect("mkdir");
    let ts = "import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\n\
              import { z } from \"zod\";\n\
              const server = new McpServer({ name: \"casts\", version: \"1.0.0\" });\n\
              const limit = <number>config.limit;\n\
              server.tool(\"search_orders\", \"Search orders by customer.\", <any>{ customer: z.string() }, async () => ({ content: [] }));\n\
              const ids = <Array<string>>raw;\n\
              server.registerTool(\"get_order\", { description: \"Fetch one order.\", inputSchema: { id: z.number() } }, async () => ({ content: [] }));\n";
    std::fs::write(d.join("src/server.ts"), ts).expect("write");
    let js = "const { z } = require(\"zod\");\nserver.tool(\"ping\", \"Check the server is up.\", {}, async () => ({ content: [] }));\n";
    std::fs::write(d.join("src/legacy.js"), js).expect("write");
    let tsx = "const Badge = () => <span>{count}</span>;\nserver.tool(\"render_badge\", \"Render the badge.\", { count: z.number() }, cb);\n";
    std::fs::write(d.join("src/ui.tsx"), tsx).expect("write");
    let (v, code) = scan_json(d);
    assert_eq!(code, 0, "{v}");
    let tools = v["report"]["tools"].as_array().expect("tools");
    let found: Vec<(&str, &str, u64)> = tools
        .iter()
        .map(|t| {
            (
                t["name"].as_str().expect("name"),
                t["origin"]["file"].as_str().expect("file"),
                t["origin"]["line"].as_u64().expect("line"),
            )
        })
        .collect();
    for expected in [
        ("search_orders", "src/server.ts", 5),
        ("get_order", "src/server.ts", 7),
        ("ping", "src/legacy.js", 2),
        ("render_badge", "src/ui.tsx", 2),
    ] {
        assert!(found.contains(&expected), "{expected:?} not in {found:?}");
    }
    let search = tools
        .iter()
        .find(|t| t["name"] == "search_orders")
        .expect("search_orders");
    assert_eq!(
        search["inputSchema"]["required"],
        serde_json::json!(["customer"])
    );
    let get = tools
        .iter()
        .find(|t| t["name"] == "get_order")
        .expect("get_order");
    assert_eq!(get["inputSchema"]["properties"]["id"]["type"], "number");
}
