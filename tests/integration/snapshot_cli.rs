//! Committed snapshots of servers declared in `mf.toml` (`[servers.NAME]`): the free path reads
//! them (scan, lint, `mf ci` at the base and at head) and never starts a server; `mf snapshot`
//! writes them from the running server and `--check` (and `mf ci --live`) fails when the server
//! serves something else. The server is `tests/fake_mcp_server/server.js catalog FILE`, a real
//! stdio MCP server whose tools come from a data file no scan reads.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};

use crate::support::git::git;
use crate::support::{machine_ci_vars, mf_in, show};

fn tool(name: &str, description: &str) -> Value {
    json!({"name": name, "description": description,
           "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "The note's id."}}}})
}

fn snapshot_doc(tools: &[Value]) -> String {
    serde_json::to_string_pretty(&json!({ "tools": tools })).expect("json") + "\n"
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn code(out: &Output) -> Option<i32> {
    out.status.code()
}

/// A folder holding mf.toml that declares `notes` with its snapshot at `snapshots/notes.snap`
/// (a name no scan would take for a snapshot) and its source in `src/`, where a TypeScript
/// server registers one tool the scan can read.
fn declared_repo(snapshot_tools: &[Value]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    let r = dir.path();
    std::fs::write(
        r.join("mf.toml"),
        "[servers.notes]\ncommand = \"node dist/index.js\"\nenv = [\"NOTES_TOKEN\"]\n\
         snapshot = \"snapshots/notes.snap\"\nsource = \"src\"\n",
    )
    .expect("mf.toml");
    std::fs::create_dir_all(r.join("snapshots")).expect("mkdir");
    std::fs::write(r.join("snapshots/notes.snap"), snapshot_doc(snapshot_tools)).expect("snap");
    std::fs::create_dir_all(r.join("src")).expect("mkdir");
    std::fs::write(
        r.join("src/index.ts"),
        "import { McpServer } from \"@modelcontextprotocol/sdk/server/mcp.js\";\n\
         const server = new McpServer({ name: \"notes\", version: \"1\" });\n\
         server.tool(\"read_note\", \"Read one note by its id (as the source says it).\", {}, async () => ({ content: [] }));\n",
    )
    .expect("ts");
    dir
}

#[test]
fn the_scan_reads_a_declared_snapshot_at_any_path_and_it_replaces_the_source() {
    let dir = declared_repo(&[
        tool("read_note", "Read one note by its id."),
        tool("search_notes", "Search the notes by keyword."),
    ]);
    let out = mf_in(dir.path())
        .args(["scan", ".", "--json", "--no-write"])
        .output()
        .expect("runs");
    assert_eq!(code(&out), Some(0), "{}", show(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("json");
    let tools = doc["report"]["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["read_note", "search_notes"], "{}", show(&out));
    for t in tools {
        assert_eq!(t["origin"]["server"], "notes", "{t}");
        assert_eq!(t["origin"]["file"], "snapshots/notes.snap", "{t}");
        assert_eq!(t["origin"]["format"], "mcp-tools-list", "{t}");
    }
    assert_eq!(
        doc["report"]["notes"],
        json!([
            "1 tool read from src replaced by the snapshot of server notes (snapshots/notes.snap)"
        ])
    );
    // Lint reads the same surface: no double counting, so no duplicate-name finding.
    let out = mf_in(dir.path())
        .args(["lint", ".", "--format", "json"])
        .output()
        .expect("runs");
    let lint: Value = serde_json::from_str(&stdout(&out)).expect("lint json");
    assert!(
        !lint.to_string().contains("duplicate-tool-name"),
        "{}",
        show(&out)
    );
    assert_eq!(lint["summary"]["tools"], 2, "{}", show(&out));
}

#[test]
fn a_missing_declared_snapshot_is_a_warning_and_the_source_stays() {
    let dir = declared_repo(&[]);
    std::fs::remove_file(dir.path().join("snapshots/notes.snap")).expect("rm");
    let out = mf_in(dir.path())
        .args(["scan", ".", "--json", "--no-write"])
        .output()
        .expect("runs");
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("json");
    let names: Vec<&str> = doc["report"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["read_note"], "{}", show(&out));
    let warnings = doc["report"]["warnings"].to_string();
    assert!(
        warnings.contains("no snapshot at snapshots/notes.snap yet; run `mf snapshot notes`"),
        "{warnings}"
    );
}

#[test]
fn an_unknown_key_in_a_server_table_names_file_line_and_field() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("mf.toml"),
        "[servers.notes]\ncommand = \"node x.js\"\ncomand = \"typo\"\n",
    )
    .expect("write");
    let out = mf_in(dir.path())
        .args(["snapshot", "--check"])
        .output()
        .expect("runs");
    assert_eq!(code(&out), Some(1), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mf.toml:3: unknown field `comand`"), "{err}");
    assert!(err.contains("fix its spelling"), "{err}");
    // An unknown server name is refused with the close ones.
    std::fs::write(
        dir.path().join("mf.toml"),
        "[servers.notes]\ncommand = \"node x.js\"\n",
    )
    .expect("write");
    let out = mf_in(dir.path())
        .args(["snapshot", "note"])
        .output()
        .expect("runs");
    assert_eq!(code(&out), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("no server named \"note\" (did you mean \"notes\"?)"),
        "{}",
        show(&out)
    );
}

#[test]
fn a_server_that_fails_to_start_is_not_fresh() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("mf.toml"),
        "[servers.gone]\ncommand = \"mf-no-such-program-anywhere --stdio\"\n",
    )
    .expect("write");
    let out = mf_in(dir.path())
        .args(["snapshot", "--check", "--json"])
        .output()
        .expect("runs");
    assert_eq!(code(&out), Some(1), "{}", show(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(doc["servers"][0]["status"], "failed");
    assert!(
        doc["servers"][0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("not found on PATH")),
        "{doc}"
    );
    assert!(!dir.path().join("tools").exists(), "nothing written");
}

/// `mf ci` on a git repository whose declared snapshot (at a path no scan would read) gained a
/// tool between the base and head commits: the surface diff names it. No server is started.
#[test]
fn ci_diffs_declared_snapshots_between_base_and_head() {
    let dir = declared_repo(&[
        tool("read_note", "Read one note by its id."),
        tool("search_notes", "Search the notes by keyword."),
    ]);
    let r = dir.path();
    git(r, &["init", "-q", "-b", "main"]);
    git(r, &["add", "-A"]);
    git(r, &["commit", "-q", "-m", "base"]);
    let base = git(r, &["rev-parse", "HEAD"]);
    std::fs::write(
        r.join("snapshots/notes.snap"),
        snapshot_doc(&[
            tool(
                "archive_note",
                "Archive one note so searches no longer show it.",
            ),
            tool("read_note", "Read one note by its id."),
            tool("search_notes", "Search the notes by keyword."),
        ]),
    )
    .expect("snap");
    git(r, &["commit", "-q", "-am", "head"]);
    let json_out = r.join("..").join(format!(
        "ci-{}.json",
        r.file_name().and_then(|n| n.to_str()).unwrap_or("x")
    ));
    let mut cmd = mf_in(r);
    for k in machine_ci_vars() {
        cmd.env_remove(k);
    }
    let out = cmd
        .args([
            "ci",
            ".",
            "--base-ref",
            &base,
            "--comment",
            "off",
            "--json-out",
        ])
        .arg(&json_out)
        .output()
        .expect("runs");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&json_out).unwrap_or_default())
            .unwrap_or(Value::Null);
    let _ = std::fs::remove_file(&json_out);
    assert_eq!(code(&out), Some(0), "{}", show(&out));
    let added: Vec<&str> = report["surface"]["added"]
        .as_array()
        .expect("a surface diff")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(added, ["archive_note"], "{report}");
    assert_eq!(report["surface"]["removed"], json!([]), "{report}");
    // Head's lint read the snapshot's tools.
    assert_eq!(report["lint"]["summary"]["tools"], 3, "{}", report["lint"]);
}

#[test]
fn ci_live_refuses_pull_request_target_before_starting_anything() {
    let dir = tempfile::tempdir().expect("tmp");
    let marker = dir.path().join("started");
    std::fs::write(
        dir.path().join("mf.toml"),
        format!(
            "[servers.x]\ncommand = \"touch {}\"\n",
            marker.to_string_lossy()
        ),
    )
    .expect("write");
    std::fs::write(
        dir.path().join("tools.json"),
        snapshot_doc(&[tool("read_note", "Read one note by its id.")]),
    )
    .expect("write");
    let mut cmd = mf_in(dir.path());
    for k in machine_ci_vars() {
        cmd.env_remove(k);
    }
    let out = cmd
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_EVENT_NAME", "pull_request_target")
        .args(["ci", ".", "--live", "--comment", "off", "--summary", "off"])
        .output()
        .expect("runs");
    assert_eq!(code(&out), Some(1), "{}", show(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("pull_request_target"),
        "{}",
        show(&out)
    );
    assert!(!marker.exists(), "the server's command ran");
}

#[cfg(target_os = "linux")]
mod live {
    use super::*;
    use crate::support::fake_mcp_server;

    /// A repository whose only server serves the tools in `catalog.data` (a file no scan reads),
    /// declared in mf.toml with the default snapshot path.
    fn served_repo(tools: &[Value]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tmp");
        let r = dir.path();
        std::fs::write(
            r.join("mf.toml"),
            format!(
                "[servers.notes]\ncommand = \"node {} catalog catalog.data\"\nenv = [\"NOTES_TOKEN\"]\ntimeout = 20\n",
                fake_mcp_server()
            ),
        )
        .expect("mf.toml");
        serve(r, tools);
        dir
    }

    fn serve(r: &Path, tools: &[Value]) {
        std::fs::write(
            r.join("catalog.data"),
            serde_json::to_string(tools).expect("json"),
        )
        .expect("catalog");
    }

    fn snapshot(r: &Path, args: &[&str]) -> Output {
        mf_in(r)
            .env("NOTES_TOKEN", "value-that-must-never-be-printed")
            .arg("snapshot")
            .args(args)
            .output()
            .expect("runs")
    }

    #[test]
    fn snapshot_writes_the_listing_and_check_fails_when_the_server_gains_a_tool() {
        let first = [
            tool("search_notes", "Search the notes by keyword."),
            tool("read_note", "Read one note by its id."),
            tool("delete_note", "Delete one note for good."),
        ];
        let dir = served_repo(&first);
        let r = dir.path();
        let file = r.join("tools/notes.tools.json");

        // No snapshot yet: a difference, every tool added.
        let out = snapshot(r, &["--check"]);
        assert_eq!(code(&out), Some(1), "{}", show(&out));
        assert!(stdout(&out).contains("no snapshot yet"), "{}", show(&out));
        assert!(!file.exists());

        // Written: every page, canonical (sorted by name, trailing newline).
        let out = snapshot(r, &[]);
        assert_eq!(code(&out), Some(0), "{}", show(&out));
        let text = std::fs::read_to_string(&file).expect("written");
        assert!(text.ends_with("}\n"), "{text}");
        let doc: Value = serde_json::from_str(&text).expect("json");
        let names: Vec<&str> = doc["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert_eq!(names, ["delete_note", "read_note", "search_notes"]);
        let out = snapshot(r, &["--check"]);
        assert_eq!(code(&out), Some(0), "{}", show(&out));
        // Writing again changes nothing.
        let out = snapshot(r, &["--json"]);
        assert_eq!(code(&out), Some(0), "{}", show(&out));
        assert!(stdout(&out).contains("\"unchanged\""), "{}", show(&out));
        assert_eq!(std::fs::read_to_string(&file).expect("read"), text);

        // The server gains a tool and re-describes another.
        let mut now = first.to_vec();
        now.push(tool(
            "archive_note",
            "Archive one note so searches no longer show it.",
        ));
        now[1]["description"] = "Read one note, with its tags.".into();
        serve(r, &now);
        let out = snapshot(r, &["--check"]);
        assert_eq!(code(&out), Some(1), "{}", show(&out));
        let text_out = stdout(&out);
        assert!(text_out.contains("+ archive_note  added"), "{text_out}");
        assert!(
            text_out.contains("~ read_note  changed: description"),
            "{text_out}"
        );
        let out = snapshot(r, &["--check", "--json"]);
        assert_eq!(code(&out), Some(1), "{}", show(&out));
        let report: Value = serde_json::from_str(&stdout(&out)).expect("json");
        crate::report_schemas::linked_validator("snapshot-report.schema.json")
            .validate(&report)
            .unwrap_or_else(|e| panic!("schema: {e}\n{report}"));
        assert_eq!(report["servers"][0]["status"], "stale");
        assert_eq!(report["servers"][0]["added"], json!(["archive_note"]));
        assert_eq!(
            report["servers"][0]["changed"][0]["fields"],
            json!(["description"])
        );

        // `mf ci --live` fails the same way: exit 1, an error annotation at the snapshot file.
        git(r, &["init", "-q", "-b", "main"]);
        let mut cmd = mf_in(r);
        for k in machine_ci_vars() {
            cmd.env_remove(k);
        }
        let summary = r.join("..").join(format!(
            "summary-{}.md",
            r.file_name().and_then(|n| n.to_str()).unwrap_or("x")
        ));
        let out = cmd
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("NOTES_TOKEN", "value-that-must-never-be-printed")
            .args(["ci", ".", "--live", "--comment", "off"])
            .output()
            .expect("runs");
        let summary_text = std::fs::read_to_string(&summary).unwrap_or_default();
        let _ = std::fs::remove_file(&summary);
        assert_eq!(code(&out), Some(1), "{}", show(&out));
        let annotation = stdout(&out)
            .lines()
            .find(|l| l.starts_with("::error file=tools/notes.tools.json"))
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("no annotation at the snapshot:\n{}", show(&out)));
        assert!(annotation.contains("added archive_note"), "{annotation}");
        assert!(
            summary_text.contains("server notes: the snapshot tools/notes.tools.json is stale"),
            "{summary_text}"
        );
        assert!(
            !show(&out).contains("value-that-must-never-be-printed"),
            "{}",
            show(&out)
        );

        // `mf snapshot` brings the file up to date; then both checks pass.
        let out = snapshot(r, &["notes"]);
        assert_eq!(code(&out), Some(0), "{}", show(&out));
        assert!(
            std::fs::read_to_string(&file)
                .expect("read")
                .contains("archive_note")
        );
        let out = snapshot(r, &["--check"]);
        assert_eq!(code(&out), Some(0), "{}", show(&out));
        let mut cmd = mf_in(r);
        for k in machine_ci_vars() {
            cmd.env_remove(k);
        }
        let out = cmd
            .args(["ci", ".", "--live", "--comment", "off", "--summary", "off"])
            .output()
            .expect("runs");
        assert_eq!(code(&out), Some(0), "{}", show(&out));
    }

    #[cfg(unix)]
    #[test]
    fn snapshot_never_writes_through_a_symlink() {
        let dir = served_repo(&[tool("read_note", "Read one note by its id.")]);
        let outside = tempfile::tempdir().expect("tmp");
        std::os::unix::fs::symlink(outside.path(), dir.path().join("tools")).expect("ln");
        let out = snapshot(dir.path(), &[]);
        assert_eq!(code(&out), Some(1), "{}", show(&out));
        assert!(stdout(&out).contains("symbolic link"), "{}", show(&out));
        assert_eq!(
            std::fs::read_dir(outside.path()).expect("read").count(),
            0,
            "nothing written outside"
        );
    }
}
