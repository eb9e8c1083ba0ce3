//! Regression tests for the hardening issue: each test is named after the defect it pins and
//! plants the attack a fork pull request could make on the free path (a symlinked suite, a
//! `$ref` bomb, a suite `ref` to `/dev/zero`, a FIFO argument, deep YAML, secrets in an MCP
//! config, a hijacked sticky comment).

use std::path::Path;
use std::process::{Command as StdCommand, Output, Stdio};
use std::time::{Duration, Instant};

/// [`support::mf`] with none of the machine's GitHub context.
fn mf() -> assert_cmd::Command {
    let mut cmd = crate::support::mf();
    for k in crate::support::machine_ci_vars() {
        cmd.env_remove(k);
    }
    cmd
}

/// Run mf in `dir` with `args`; kill it after `limit` and fail if it had to be killed.
fn mf_within(dir: &Path, args: &[&str], limit: Duration) -> Output {
    let bin = assert_cmd::cargo::cargo_bin("mf");
    let mut child = StdCommand::new(bin)
        .arg("--color=never")
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mf");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "mf {args:?} still running after {limit:?} (hung or unbounded); stderr so far: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

const TOOLS: &str = r#"{"tools": [{"name": "get_order", "description": "Look up one order by its id and return its status.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}]}"#;

/// Defect 1: a default suite that is a symlink to a file outside the repository must not be
/// read, so its content can never come back inside a parse error.
#[cfg(unix)]
#[test]
fn symlinked_default_suite_does_not_disclose_its_target() {
    let outer = tempfile::tempdir().expect("tmp");
    let secret = outer.path().join("secret.txt");
    std::fs::write(&secret, "SECRET-d1sclosed-LINE\n").expect("write");
    let repo = outer.path().join("repo");
    std::fs::create_dir(&repo).expect("mkdir");
    std::fs::write(repo.join("tools.json"), TOOLS).expect("write");
    for name in ["mf.suite.yaml", "mf.suite.json"] {
        let link = repo.join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&secret, &link).expect("symlink");
        for args in [
            &["ci"][..],
            &["lint"][..],
            &["eval", "--models", "offline"][..],
        ] {
            let out = mf_within(&repo, args, Duration::from_secs(120));
            let all = text(&out);
            assert!(!all.contains("SECRET-d1sclosed"), "{name} {args:?}: {all}");
            if args[0] == "ci" {
                assert!(all.contains("symbolic link"), "{name} {args:?}: {all}");
            }
        }
        std::fs::remove_file(&link).expect("rm");
    }
}

/// Defect 4: a suite `tools[].ref` to `/dev/zero`, to the process's own stdout, or out of the
/// suite's folder with `..` is refused with a warning; nothing outside is read.
#[cfg(unix)]
#[test]
fn suite_ref_to_dev_zero_is_refused() {
    let outer = tempfile::tempdir().expect("tmp");
    std::fs::write(
        outer.path().join("x.json"),
        r#"{"name": "outside_SECRET_tool", "description": "Outside the suite folder entirely.", "parameters": {"type": "object"}}"#,
    )
    .expect("write");
    let suite_dir = outer.path().join("s");
    std::fs::create_dir(&suite_dir).expect("mkdir");
    std::os::unix::fs::symlink("/dev/zero", suite_dir.join("z.json")).expect("symlink");
    std::os::unix::fs::symlink("/proc/self/fd/1", suite_dir.join("out.json")).expect("symlink");
    std::fs::write(
        suite_dir.join("mf.suite.json"),
        r#"{"name": "s", "tools": [{"ref": "z.json"}, {"ref": "out.json"}, {"ref": "../x.json"}], "cases": []}"#,
    )
    .expect("write");
    let out = mf_within(
        outer.path(),
        &["lint", "s/mf.suite.json"],
        Duration::from_secs(120),
    );
    let all = text(&out);
    assert!(!all.contains("outside_SECRET_tool"), "{all}");
    assert!(all.contains("ref \"z.json\" not loaded"), "{all}");
    assert!(all.contains("ref \"out.json\" not loaded"), "{all}");
    assert!(all.contains("ref \"../x.json\" not loaded"), "{all}");
}

/// Defect 2: a 2 KB surface whose definitions reference each other twice per level (depth 20)
/// is linted with a `schema-ref-budget` warning naming the tool, instead of inlining 2^20 copies.
#[test]
fn ref_bomb_finishes_with_a_warning() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut defs = serde_json::Map::new();
    for i in 0..20 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            serde_json::json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}}),
        );
    }
    defs.insert("d20".into(), serde_json::json!({"type": "string"}));
    let doc = serde_json::json!({"tools": [{
        "name": "bomb_tool",
        "description": "A tool whose schema explodes when inlined naively.",
        "inputSchema": {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    }]});
    let body = serde_json::to_string(&doc).expect("json");
    assert!(body.len() < 4096, "{} bytes", body.len());
    std::fs::write(dir.path().join("bomb.json"), body).expect("write");
    let out = mf_within(dir.path(), &["lint", "bomb.json"], Duration::from_secs(120));
    let all = text(&out);
    assert!(all.contains("schema-ref-budget"), "{all}");
    assert!(all.contains("bomb_tool"), "{all}");
    assert!(
        out.stdout.len() < 1024 * 1024,
        "{} bytes of output",
        out.stdout.len()
    );
}

/// Defect 13: a FIFO or a device named on the command line is refused at once (non-blocking
/// open, file type checked on the handle) instead of hanging or reading forever.
#[cfg(unix)]
#[test]
fn fifo_argument_does_not_hang() {
    let dir = tempfile::tempdir().expect("tmp");
    let fifo = dir.path().join("tools.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).expect("mkfifo");
    for args in [
        &["lint", "tools.json"][..],
        &["cluster", "tools.json"][..],
        &["lint", "/dev/zero"][..],
        &["coverage", "--suite", "tools.json"][..],
    ] {
        let out = mf_within(dir.path(), args, Duration::from_secs(60));
        assert!(!out.status.success(), "{args:?}");
        let all = text(&out);
        assert!(all.contains("not a regular file"), "{args:?}: {all}");
    }
}

/// Defect 13: a task set's `surface` must stay inside the suite's folder.
#[test]
fn task_set_surface_outside_the_suite_folder_is_refused() {
    let dir = tempfile::tempdir().expect("tmp");
    for (surface, why) in [("/", "absolute"), ("../..", "`..`")] {
        std::fs::write(
            dir.path().join("tasks.yaml"),
            format!("version: 1\nsurface: {surface:?}\ntasks:\n  - id: a\n    prompt: hi\n    expected: null\n"),
        )
        .expect("write");
        let out = mf_within(
            dir.path(),
            &["eval", "--suite", "tasks.yaml", "--models", "offline"],
            Duration::from_secs(60),
        );
        assert!(!out.status.success(), "{surface}");
        let all = text(&out);
        assert!(
            all.contains("inside the suite's folder") && all.contains(why),
            "{surface}: {all}"
        );
    }
}

/// Defect 8: a 300 KB SKILL.md whose front matter nests `[` 150,000 deep, and a YAML suite
/// nested the same way, are refused before parsing with a warning instead of taking seconds to
/// minutes in the YAML parser.
#[test]
fn deep_yaml_front_matter_is_capped() {
    let dir = tempfile::tempdir().expect("tmp");
    let deep = format!("{}{}", "[".repeat(150_000), "]".repeat(150_000));
    std::fs::create_dir(dir.path().join("skill")).expect("mkdir");
    std::fs::write(
        dir.path().join("skill/SKILL.md"),
        format!("---\nname: deep\ndescription: {deep}\n---\nbody\n"),
    )
    .expect("write");
    let out = mf_within(dir.path(), &["scan", "."], Duration::from_secs(60));
    let all = text(&out);
    let report = std::fs::read_to_string(dir.path().join("mf.scan.json")).unwrap_or_default();
    assert!(
        format!("{all}{report}").contains("front matter"),
        "{all}\n{report}"
    );

    let shallow = format!("{}{}", "[".repeat(60), "]".repeat(60));
    let small_front = format!("---\nname: ok\ndescription: {shallow}\n---\n");
    std::fs::write(dir.path().join("skill/SKILL.md"), small_front).expect("write");
    let out = mf_within(dir.path(), &["scan", "."], Duration::from_secs(60));
    assert!(!text(&out).contains("levels deep"), "{}", text(&out));

    std::fs::write(
        dir.path().join("deep.yaml"),
        format!("name: s\ncases: {deep}\n"),
    )
    .expect("write");
    let out = mf_within(
        dir.path(),
        &["eval", "--suite", "deep.yaml", "--models", "offline"],
        Duration::from_secs(60),
    );
    let all = text(&out);
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("levels deep"), "{all}");
}

/// Every file under `dir`, read as text (lossy), for "appears nowhere" checks.
fn all_files_text(dir: &Path) -> String {
    let mut out = String::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("ls").flatten() {
            let p = e.path();
            let t = e.file_type().expect("type");
            if t.is_dir() {
                stack.push(p);
            } else if t.is_file() {
                out.push_str(&String::from_utf8_lossy(&std::fs::read(&p).expect("read")));
            }
        }
    }
    out
}

/// Defect 10: secrets written in an MCP config's args and URL (user info, query, headers,
/// `-t`/`--token`/`--api-key=`) reach neither the terminal nor `mf.scan.json`.
#[test]
fn mcp_config_secrets_are_redacted() {
    let dir = tempfile::tempdir().expect("tmp");
    let config = r#"{"mcpServers": {
  "db": {"command": "npx", "args": ["-y", "pg-mcp", "postgresql://u:PLANTsec1@db:5432/app?password=PLANTsec2"]},
  "api": {"command": "api-mcp", "args": ["--header", "Authorization: Bearer PLANTsec3", "X-Api-Key:PLANTsec4", "-t", "PLANTsec5", "--token", "PLANTsec6", "--api-key=PLANTsec7"],
          "env": {"API_TOKEN": "PLANTsec8"}},
  "remote": {"type": "http", "url": "https://user:PLANTsec9@mcp.example.com/mcp?key=PLANTsec10#t=PLANTsec11",
             "headers": {"Authorization": "Bearer PLANTsec12"}}
}}"#;
    std::fs::write(dir.path().join(".mcp.json"), config).expect("write");
    std::fs::write(dir.path().join("tools.json"), TOOLS).expect("write");
    let before = all_files_text(dir.path()).matches("PLANTsec").count();
    let mut seen = String::new();
    for args in [
        &["scan", "."][..],
        &["scan", ".", "--json"][..],
        &["lint", "."][..],
    ] {
        let out = mf_within(dir.path(), args, Duration::from_secs(60));
        seen.push_str(&text(&out));
    }
    assert!(seen.contains("pg-mcp"), "the scan saw the config: {seen}");
    let files = all_files_text(dir.path());
    // Only the planted config itself may hold them.
    assert_eq!(files.matches("PLANTsec").count(), before, "{files}");
    assert!(!seen.contains("PLANTsec"), "{seen}");
}

/// Defect 14: a UTF-8 byte-order mark is accepted (JSON surface and YAML suite).
#[test]
fn bom_at_the_start_of_json_and_yaml_is_accepted() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("tools.json"), format!("\u{feff}{TOOLS}")).expect("write");
    let out = mf_within(
        dir.path(),
        &["lint", "tools.json", "--format", "json"],
        Duration::from_secs(60),
    );
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        report["summary"]["tools"], 1,
        "the BOM-prefixed surface was read: {all}"
    );
    std::fs::write(
        dir.path().join("tasks.yaml"),
        "\u{feff}version: 1\ntasks:\n  - id: a\n    prompt: where is order 7\n    expected: get_order\n",
    )
    .expect("write");
    let out = mf_within(
        dir.path(),
        &["coverage", "--suite", "tasks.yaml"],
        Duration::from_secs(60),
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("case a"), "{}", text(&out));
}

/// Defect 14: a key written twice in a surface is a warning naming file:line and the key.
#[test]
fn duplicate_json_keys_are_a_warning() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("tools.json"),
        "{\"tools\": [{\"name\": \"get_order\",\n \"description\": \"Look up one order by its id and return it.\",\n \"description\": \"Delete every order.\", \"inputSchema\": {\"type\": \"object\"}}]}",
    )
    .expect("write");
    let out = mf_within(dir.path(), &["lint", "tools.json"], Duration::from_secs(60));
    let all = text(&out);
    assert!(
        all.contains("tools.json:3:2: duplicate key \"description\""),
        "{all}"
    );
}

/// Defect 14: a `version: 2` suite is refused, not read as v1.
#[test]
fn suite_version_2_is_refused() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("tools.json"), TOOLS).expect("write");
    std::fs::write(
        dir.path().join("s.yaml"),
        "name: s\nversion: 2\ncases: []\n",
    )
    .expect("write");
    let out = mf()
        .current_dir(dir.path())
        .args(["coverage", "--suite", "s.yaml"])
        .timeout(Duration::from_secs(60))
        .assert()
        .failure()
        .get_output()
        .clone();
    let all = text(&out);
    assert!(
        all.contains("s.yaml:2:1: suite version 2 is not supported; this mf reads v1"),
        "{all}"
    );
}

/// Defect 14: a file whose name is not UTF-8 is a scan warning, not silently skipped.
#[cfg(target_os = "linux")]
#[test]
fn non_utf8_file_names_are_a_scan_warning() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("tools.json"), TOOLS).expect("write");
    let name = std::ffi::OsStr::from_bytes(b"bad\xff.json");
    std::fs::write(dir.path().join(name), TOOLS).expect("write");
    let out = mf_within(dir.path(), &["scan", "."], Duration::from_secs(60));
    let all = text(&out);
    assert!(all.contains("not valid UTF-8"), "{all}");
}

/// A GitHub issue comment as the API returns it (the fields mf reads).
fn gh_comment(id: u64, login: &str, kind: &str, body: &str) -> serde_json::Value {
    serde_json::json!({
        "id": id,
        "html_url": format!("https://github.com/acme/tools/pull/7#issuecomment-{id}"),
        "body": body,
        "user": {"login": login, "id": 7, "type": kind},
        "performed_via_github_app": null
    })
}

/// Post the sticky comment against a wiremock GitHub whose PR already holds `existing`, with
/// `GET /user` answering `user` (or 403 like an Actions token); returns (POSTs, PATCHed paths).
async fn sticky_comment_run(
    existing: Vec<serde_json::Value>,
    user: Option<&str>,
) -> (usize, Vec<String>) {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    const COMMENTS: &str = "/repos/acme/tools/issues/7/comments";
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path(COMMENTS))
        .respond_with(ResponseTemplate::new(200).set_body_json(existing))
        .mount(&server)
        .await;
    let who = match user {
        Some(login) => ResponseTemplate::new(200)
            .set_body_json(serde_json::json!({"login": login, "id": 9, "type": "User"})),
        None => ResponseTemplate::new(403).set_body_json(
            serde_json::json!({"message": "Resource not accessible by integration"}),
        ),
    };
    Mock::given(method("GET"))
        .and(path("/user"))
        .respond_with(who)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path(COMMENTS))
        .respond_with(ResponseTemplate::new(201).set_body_json(gh_comment(
            500,
            user.unwrap_or("github-actions[bot]"),
            "Bot",
            "x",
        )))
        .mount(&server)
        .await;
    Mock::given(method("PATCH"))
        .respond_with(ResponseTemplate::new(200).set_body_json(gh_comment(
            1,
            "github-actions[bot]",
            "Bot",
            "x",
        )))
        .mount(&server)
        .await;
    let target = mf::github::comment::Target {
        api_url: server.uri(),
        repository: "acme/tools".into(),
        number: 7,
    };
    let body = format!(
        "{}\n## mf: the new report",
        mf::github::comment::COMMENT_MARKER
    );
    tokio::task::spawn_blocking(move || {
        mf::github::comment::upsert(&target, "ghp_hardeningTESTtoken0000".into(), &body)
            .expect("upsert")
    })
    .await
    .expect("join");
    let reqs = server.received_requests().await.expect("recording");
    let posts = reqs.iter().filter(|r| r.method.as_str() == "POST").count();
    let patched = reqs
        .iter()
        .filter(|r| r.method.as_str() == "PATCH")
        .map(|r| r.url.path().to_owned())
        .collect();
    (posts, patched)
}

/// Defect 9: a comment carrying mf's marker but written by someone else (a PR author can paste
/// the marker) is never edited; mf posts its own. mf's own comment is still edited in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn marker_comment_by_another_user_is_not_edited() {
    let marker = mf::github::comment::COMMENT_MARKER;
    let planted = gh_comment(11, "mallory", "User", &format!("{marker}\nhijacked"));
    // Actions token (GET /user refused): only github-actions[bot] comments are ours.
    let (posts, patched) = sticky_comment_run(vec![planted.clone()], None).await;
    assert_eq!((posts, patched.len()), (1, 0), "{patched:?}");
    let ours = gh_comment(12, "github-actions[bot]", "Bot", &format!("{marker}\nold"));
    let (posts, patched) = sticky_comment_run(vec![planted.clone(), ours], None).await;
    assert_eq!(posts, 0);
    assert_eq!(patched, ["/repos/acme/tools/issues/comments/12"]);
    // Personal access token: only the token's own login.
    let (posts, patched) = sticky_comment_run(vec![planted.clone()], Some("mf-bot")).await;
    assert_eq!((posts, patched.len()), (1, 0), "{patched:?}");
    let mine = gh_comment(13, "mf-bot", "User", &format!("{marker}\nold"));
    let (posts, patched) = sticky_comment_run(vec![planted, mine], Some("mf-bot")).await;
    assert_eq!(posts, 0);
    assert_eq!(patched, ["/repos/acme/tools/issues/comments/13"]);
}

/// Defect 12: a GitHub API error body that echoes the token does not carry it into mf's error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn github_api_error_bodies_are_scrubbed_of_the_token() {
    use wiremock::matchers::method;
    use wiremock::{Mock, MockServer, ResponseTemplate};
    const TOKEN: &str = "ghp_ECHOEDtokenMUSTnotAPPEAR0123";
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(500).set_body_json(serde_json::json!({
            "message": format!("internal error while checking token {TOKEN} (Authorization: token {TOKEN})")
        })))
        .mount(&server)
        .await;
    let target = mf::github::comment::Target {
        api_url: server.uri(),
        repository: "acme/tools".into(),
        number: 7,
    };
    let err = tokio::task::spawn_blocking(move || {
        mf::github::comment::upsert(&target, TOKEN.into(), "<!-- mf:ci-comment -->")
            .expect_err("500")
    })
    .await
    .expect("join");
    let shown = err.to_string();
    assert!(shown.contains("HTTP 500"), "{shown}");
    assert!(!shown.contains("ECHOEDtoken"), "{shown}");
}

/// Defect 13: a write killed half-way leaves a `.mf-XXXXXX.tmp`; the next write into that folder
/// removes ours once stale, and nothing else.
#[test]
fn stale_temp_files_from_a_killed_write_are_cleaned_up() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("tools.json"), TOOLS).expect("write");
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    for name in [".mf-Ab12Cd.tmp", ".mf-notours.json", "notes.tmp"] {
        let p = dir.path().join(name);
        std::fs::write(&p, "half").expect("write");
        std::fs::File::options()
            .write(true)
            .open(&p)
            .expect("open")
            .set_modified(old)
            .expect("age");
    }
    let out = mf_within(dir.path(), &["scan", "."], Duration::from_secs(60));
    assert!(out.status.success(), "{}", text(&out));
    assert!(dir.path().join("mf.scan.json").exists());
    assert!(
        !dir.path().join(".mf-Ab12Cd.tmp").exists(),
        "stale temp file left"
    );
    assert!(dir.path().join(".mf-notours.json").exists());
    assert!(dir.path().join("notes.tmp").exists());
}

/// Found while fixing defect 13, NOT fixed here (the code is in `src/commands/`, owned by the
/// engine move): `mf lint` (`commands/input.rs` `is_owned_suite`) and `mf scan`
/// (`commands/scan.rs` `suite_target`) read a default `mf.suite.json` with
/// `std::fs::read_to_string`, so a FIFO there hangs them (and `-> /dev/zero` eats memory: 13.9 GB
/// in 15 s for a release `mf scan`). Fix: read it with `mf::surface::formats::read_text(path, "",
/// MAX_FILE_BYTES)` (the safe-open), a drop-in for `read_to_string(path)` there.
#[cfg(unix)]
#[test]
fn default_suite_fifo_does_not_hang_lint_or_scan() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("tools.json"), TOOLS).expect("write");
    nix::unistd::mkfifo(
        &dir.path().join("mf.suite.json"),
        nix::sys::stat::Mode::S_IRWXU,
    )
    .expect("mkfifo");
    for args in [&["lint"][..], &["scan", "."][..]] {
        mf_within(dir.path(), args, Duration::from_secs(30));
    }
}
