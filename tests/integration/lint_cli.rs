//! `mf lint` end to end: real server surfaces, merged surfaces, gates, baselines, formats.

use serde_json::Value;

use crate::support::{json_and_code, mf, read_json, root, server_arg};

fn lint(args: &[&str]) -> (Value, i32) {
    json_and_code(mf().args(["lint", "--format", "json"]).args(args))
}

fn pairs_with(v: &Value, code: &str) -> Vec<[String; 2]> {
    v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == code)
        .filter_map(|f| {
            f["pair"].as_array().map(|p| {
                [
                    p[0].as_str().unwrap_or("").to_owned(),
                    p[1].as_str().unwrap_or("").to_owned(),
                ]
            })
        })
        .collect()
}

#[test]
fn merging_two_real_surfaces_that_share_names_reports_duplicates_as_errors() {
    // server-filesystem twice (e.g. two mounts of the same server) and server-memory.
    let fs = server_arg("filesystem");
    let (v, code) = lint(&[&fs, &fs, &server_arg("memory")]);
    assert_eq!(code, 2, "errors fail the default gate");
    let dups: Vec<&str> = v["findings"]
        .as_array()
        .expect("f")
        .iter()
        .filter(|f| f["code"] == "tool-duplicate-name")
        .filter_map(|f| f["tool"].as_str())
        .collect();
    assert!(
        dups.contains(&"read_file") && dups.contains(&"write_file"),
        "{dups:?}"
    );
    assert!(
        v["findings"]
            .as_array()
            .expect("f")
            .iter()
            .filter(|f| f["code"] == "tool-duplicate-name")
            .all(|f| f["severity"] == "error")
    );
    assert_eq!(v["summary"]["tools"], 14 * 2 + 9);
}

#[test]
fn lint_json_is_byte_identical_across_runs() {
    let run = || {
        mf().args(["lint", "--format", "json", "--fail-on", "never"])
            .arg(server_arg("everything"))
            .output()
            .expect("runs")
            .stdout
    };
    assert_eq!(run(), run());
}

#[test]
fn fail_on_decides_the_exit_code() {
    // The word server of the real corpus has warnings but no errors (the reference filesystem
    // server, used before, has no warnings since the pair scorer and the recalibrated defaults).
    let fs = root()
        .join("tests/fixtures/real/word.tools.json")
        .to_string_lossy()
        .into_owned();
    let (v, code) = lint(&[&fs]);
    assert_eq!(v["summary"]["errors"], 0, "{v:#}");
    assert!(v["summary"]["warnings"].as_u64().expect("n") > 0);
    assert_eq!(code, 0);
    assert_eq!(lint(&[&fs, "--fail-on", "warn"]).1, 2);
    let fs2 = fs.clone();
    assert_eq!(lint(&[&fs, &fs2, "--fail-on", "never"]).1, 0);
}

#[test]
fn a_baseline_hides_known_findings_so_only_new_ones_fail() {
    let dir = tempfile::tempdir().expect("tmp");
    let base = dir.path().join("mf.baseline.json");
    let fs = server_arg("filesystem");
    mf().args(["lint", "--write-baseline"])
        .arg(&base)
        .arg(&fs)
        .assert()
        .success();
    let (v, code) = lint(&[
        &fs,
        "--fail-on",
        "warn",
        "--baseline",
        base.to_str().expect("utf8"),
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["findings"], serde_json::json!([]));
    assert!(v["summary"]["suppressed"].as_u64().expect("n") > 0);
    // A new surface (the corpus's word server added) brings new findings that the baseline
    // does not know (memory, used before, has no warnings any more).
    let word = root()
        .join("tests/fixtures/real/word.tools.json")
        .to_string_lossy()
        .into_owned();
    let (v, code) = lint(&[
        &fs,
        &word,
        "--fail-on",
        "warn",
        "--baseline",
        base.to_str().expect("utf8"),
    ]);
    assert_eq!(code, 2);
    let memory: Value = read_json(&word);
    let memory_tools: Vec<&str> = memory["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    let findings = v["findings"].as_array().expect("f");
    assert!(!findings.is_empty());
    for f in findings {
        let subjects: Vec<&str> = f["pair"]
            .as_array()
            .map(|p| p.iter().filter_map(Value::as_str).collect())
            .unwrap_or_else(|| f["tool"].as_str().into_iter().collect());
        // A confusable pair is judged against the whole surface (word weights come from every
        // tool on it), so merging a server can make two old tools' wording distinctive enough
        // to pair: that is a new finding too. Info findings (naming drift across the merged
        // surface) do not fail `--fail-on warn`.
        assert!(
            subjects.is_empty()
                || subjects.iter().any(|t| memory_tools.contains(t))
                || f["code"] == "confusable-pair"
                || f["severity"] == "info",
            "only findings about the new tools remain: {f}"
        );
    }
}

#[test]
fn explain_prints_every_documented_code_and_rejects_unknown_ones() {
    let out = mf().args(["lint", "--list-rules"]).output().expect("runs");
    let list = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(list.lines().count() >= 30, "{list}");
    for line in list.lines() {
        let code = line.split_whitespace().next().expect("code");
        let out = mf()
            .args(["lint", "--explain", code])
            .output()
            .expect("runs");
        assert!(out.status.success(), "{code}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.starts_with(code) && text.contains("Example") && text.contains("Fix"),
            "{text}"
        );
    }
    mf().args(["lint", "--explain", "no-such-rule"])
        .assert()
        .code(1);
    mf().args(["lint", "--explain", "pair-no-boundary"])
        .assert()
        .success();
}

#[test]
fn sarif_junit_and_markdown_files_are_written_in_the_same_run() {
    let dir = tempfile::tempdir().expect("tmp");
    let (sarif, junit, md) = (
        dir.path().join("l.sarif"),
        dir.path().join("l.xml"),
        dir.path().join("l.md"),
    );
    mf().args(["lint", "--fail-on", "never", "--sarif"])
        .arg(&sarif)
        .arg("--junit")
        .arg(&junit)
        .arg("--markdown")
        .arg(&md)
        .arg(server_arg("filesystem"))
        .assert()
        .success();
    let s: Value = read_json(&sarif);
    assert_eq!(s["version"], "2.1.0");
    let results = s["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    let located = results
        .iter()
        .find(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"].is_u64())
        .expect("a result with a line");
    assert!(
        located["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .expect("uri")
            .ends_with("filesystem.tools.json")
    );
    let rules = s["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert!(
        rules.iter().all(|r| r["shortDescription"]["text"]
            .as_str()
            .is_some_and(|t| t != r["id"].as_str().unwrap_or(""))),
        "every rule documented from the registry"
    );
    assert!(
        std::fs::read_to_string(&junit)
            .expect("junit")
            .contains("<testsuite name=\"mf lint\"")
    );
    assert!(
        std::fs::read_to_string(&md)
            .expect("md")
            .contains("mf lint")
    );
}

#[test]
fn lint_of_a_folder_scans_it() {
    let root = root().join("examples/acme-support");
    let (v, _) = lint(&[root.to_str().expect("utf8"), "--fail-on", "never"]);
    assert_eq!(v["summary"]["tools"], 16);
    let short: Vec<&str> = v["findings"]
        .as_array()
        .expect("f")
        .iter()
        .filter(|f| f["code"] == "description-too-short")
        .filter_map(|f| f["tool"].as_str())
        .collect();
    assert_eq!(
        short,
        vec!["get_article"],
        "the planted too-short description"
    );
    let f = v["findings"]
        .as_array()
        .expect("f")
        .iter()
        .find(|f| f["code"] == "description-too-short")
        .expect("finding");
    assert!(
        f["file"]
            .as_str()
            .expect("file")
            .ends_with("servers/kb-py/server.py")
    );
    let _ = pairs_with(&v, "confusable-pair");
}

#[test]
fn filesystem_pairs_follow_the_surface_scorer() {
    // The reference filesystem server, read as its author would: `read_file` is deprecated and
    // names `read_text_file` (a stated boundary), `read_multiple_files` is the many-version with
    // different parameters, so neither pair is reported any more (they were, as
    // `tool-name-family`, under the old lexical scorer). One finding per pair.
    let (v, _) = lint(&[&server_arg("filesystem"), "--fail-on", "never"]);
    let pairs = pairs_with(&v, "confusable-pair");
    let has = |a: &str, b: &str| {
        pairs
            .iter()
            .any(|p| p.contains(&a.to_owned()) && p.contains(&b.to_owned()))
    };
    assert!(!has("read_file", "read_text_file"), "{pairs:?}");
    assert!(!has("read_file", "read_multiple_files"), "{pairs:?}");
    let mut unique = pairs.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), pairs.len(), "one finding per pair");
}

#[test]
fn select_and_ignore_take_codes_families_and_old_aliases() {
    let word = root()
        .join("tests/fixtures/real/word.tools.json")
        .to_string_lossy()
        .into_owned();
    let codes = |extra: &[&str]| -> Vec<String> {
        let mut args = vec![word.as_str(), "--fail-on", "never"];
        args.extend_from_slice(extra);
        let (v, _) = lint(&args);
        v["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter_map(|f| f["code"].as_str().map(str::to_owned))
            .collect()
    };
    let all = codes(&[]);
    assert!(all.iter().any(|c| c == "confusable-pair"), "{all:?}");
    let overlap = codes(&["--select", "overlap"]);
    assert!(!overlap.is_empty());
    assert!(
        overlap.iter().all(|c| c.starts_with("confusable-pair")),
        "{overlap:?}"
    );
    // The old code selects the merged family.
    assert_eq!(
        codes(&["--select", "tool-overlap"]),
        overlap
            .iter()
            .filter(|c| *c == "confusable-pair")
            .cloned()
            .collect::<Vec<_>>()
    );
    let rest = codes(&["--ignore", "pair-no-boundary,param-description-missing"]);
    assert!(
        !rest
            .iter()
            .any(|c| c == "confusable-pair" || c == "param-description-missing"),
        "{rest:?}"
    );
}

#[test]
fn terminal_output_is_one_line_per_finding_unless_verbose() {
    let word = root().join("tests/fixtures/real/word.tools.json");
    let out = mf()
        .env("COLUMNS", "80")
        .args(["lint", "--fail-on", "never"])
        .arg(&word)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    assert!(lines.next().is_some_and(|l| l.starts_with("mf lint:")));
    assert!(
        lines.next().is_some_and(|l| l.contains("warnings")),
        "the summary comes first: {text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    assert!(!text.contains("→ "), "no fixes without --verbose");
    let verbose = mf()
        .args(["lint", "--fail-on", "never", "--verbose"])
        .arg(&word)
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&verbose.stdout).contains("→ "));
}
