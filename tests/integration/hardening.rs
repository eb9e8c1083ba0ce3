//! Regression tests for the hardening issue: hand-written files a free command must never
//! lose or mangle, whatever odd bytes or formats they hold. Each test is named after the defect
//! it pins.

use std::fs;

use crate::support::{mf_in, server, show};

/// A folder with the memory server's tools/list snapshot in it.
fn repo_with_tools() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    fs::copy(server("memory"), dir.path().join("tools.json")).expect("copy");
    dir
}

#[test]
fn scan_does_not_overwrite_a_hand_written_suite_that_is_not_utf8() {
    let dir = repo_with_tools();
    let suite = dir.path().join("mf.suite.json");
    let bytes = b"{\"version\": 1, \"name\": \"caf\xe9\", \"cases\": []}".to_vec();
    fs::write(&suite, &bytes).expect("write");
    let out = mf_in(dir.path())
        .args(["scan", "."])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", show(&out));
    assert_eq!(
        fs::read(&suite).expect("read"),
        bytes,
        "the suite was overwritten"
    );
    assert!(
        dir.path().join("mf.suite.draft.json").is_file(),
        "{}",
        show(&out)
    );
}

/// A folder with `tools.json` holding a surface with one cluster (airtable: list_records and
/// search_records).
fn repo_with_confusable_tools() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tmp");
    fs::copy(
        crate::support::fixture("real/airtable.tools.json"),
        dir.path().join("tools.json"),
    )
    .expect("copy");
    dir
}

#[test]
fn cluster_out_keeps_hand_written_profiles_and_jsonc_comments() {
    let dir = repo_with_confusable_tools();
    let suite = dir.path().join("mf.suite.json");
    let text = "{\n  // the author's note\n  \"version\": 1,\n  \"name\": \"mine\",\n  \"profiles\": {\"reading\": [\"list_records\"]},\n  \"cases\": []\n}\n";
    fs::write(&suite, text).expect("write");
    let out = mf_in(dir.path())
        .args(["cluster", "tools.json", "--out", "mf.suite.json"])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", show(&out));
    let after = fs::read_to_string(&suite).expect("read");
    assert!(after.starts_with("{\n  // the author's note\n"), "{after}");
    assert!(
        after.contains("\"reading\": [") && after.contains("\"list_records\""),
        "{after}"
    );
    assert!(
        after.contains("\"c1"),
        "generated profiles were added: {after}"
    );
}

#[test]
fn cluster_out_appends_to_a_yaml_suite_and_never_calls_it_invalid_json() {
    let dir = repo_with_confusable_tools();
    let suite = dir.path().join("mf.suite.yaml");
    let text = "# the author's note\nversion: 1\nname: mine\ncases: []\n";
    fs::write(&suite, text).expect("write");
    let run = || {
        mf_in(dir.path())
            .args(["cluster", "tools.json", "--out", "mf.suite.yaml"])
            .output()
            .expect("runs")
    };
    let out = run();
    assert!(out.status.success(), "{}", show(&out));
    let after = fs::read_to_string(&suite).expect("read");
    assert!(after.starts_with(text), "{after}");
    assert!(after.contains("\nprofiles:\n  c1"), "{after}");
    // A second run would have to rewrite YAML: refused with the block to paste, file intact.
    let again = run();
    assert_eq!(again.status.code(), Some(1), "{}", show(&again));
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(
        err.contains("does not rewrite YAML") && !err.contains("JSON"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&suite).expect("read"), after);
}

#[test]
fn junit_stays_well_formed_when_a_tool_name_holds_u_fffe_or_u_ffff() {
    let dir = tempfile::tempdir().expect("tmp");
    let tools = serde_json::json!({"tools": [
        {"name": "bad\u{FFFE}name", "description": "Fetch one record \u{FFFF} by id.",
         "inputSchema": {"type": "object"}},
        {"name": "ok", "inputSchema": {"type": "object"}}
    ]});
    fs::write(dir.path().join("tools.json"), tools.to_string()).expect("write");
    let out = mf_in(dir.path())
        .args([
            "lint",
            "tools.json",
            "--format",
            "junit",
            "--fail-on",
            "never",
        ])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", show(&out));
    let xml = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        !xml.contains('\u{FFFE}') && !xml.contains('\u{FFFF}'),
        "{xml}"
    );
    // A real XML parser reads the whole document.
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut testcases = 0;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e))
                if e.name().as_ref() == b"testcase" =>
            {
                testcases += 1;
            }
            Ok(_) => {}
            Err(e) => panic!("not well-formed: {e}\n{xml}"),
        }
    }
    assert!(testcases > 0, "{xml}");
}

#[test]
fn quoted_descriptions_cannot_ping_or_link_in_markdown() {
    // A real lint report whose finding messages quote pull-request text (as a description
    // quote would), rendered to the markdown the job summary and the comment use.
    let out = crate::support::mf()
        .args([
            "lint",
            &crate::support::server_arg("memory"),
            "--format",
            "json",
        ])
        .output()
        .expect("runs");
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let findings = v["findings"].as_array_mut().expect("findings");
    assert!(!findings.is_empty());
    for f in findings.iter_mut() {
        f["severity"] = "warn".into();
        f["message"] =
            "says: \"Ask @octocat first, then see [the docs](https://evil.example/x)\"".into();
    }
    let report: mf::report::lint::LintReport = serde_json::from_value(v).expect("a lint report");
    let md = mf::render::markdown::lint(&report);
    assert!(md.contains("octocat"), "the quote is shown: {md}");
    assert!(!md.contains("@octocat"), "a live mention: {md}");
    assert!(!md.contains("docs](https://evil"), "a live link: {md}");
    assert!(
        md.contains("docs\\](https://evil"),
        "the link is shown as text: {md}"
    );
}
