//! The lint renderers, fed one canonical fixture report (`tests/fixtures/render/lint_report.json`):
//! one snapshot per format, plus the checks a snapshot cannot make — SARIF against the official
//! SARIF 2.1.0 schema, JUnit through independent XML parsers, colour only when asked.

use mf::render::terminal::Style;
use mf::render::terminal::lint as lint_terminal;
use mf::render::{json, junit, markdown, sarif, text};
use mf::report::lint::{Finding, LintReport, Severity, Subject};
use serde_json::Value;

use crate::support::junit::{junitparser_summary, parse_junit};
use crate::support::{fixture, read_json};

fn report() -> LintReport {
    read_json(fixture("render/lint_report.json"))
}

fn empty_report() -> LintReport {
    let mut r = report();
    r.findings.clear();
    r.summary.errors = 0;
    r.summary.warnings = 0;
    r.summary.infos = 0;
    r
}

/// What a rule registry would answer; two codes are left unknown on purpose.
fn rule_doc(code: &str) -> Option<sarif::RuleDoc> {
    let (summary, fix) = match code {
        "annotations-contradictory" => (
            "readOnlyHint and destructiveHint are both true.",
            "Set the hint that is false.",
        ),
        "description-identical" => (
            "Two tools share one description.",
            "Say what sets each tool apart.",
        ),
        "schema-invalid" => (
            "An input schema is not valid for its draft.",
            "Fix the schema.",
        ),
        "description-injection" => (
            "A description instructs the model.",
            "Describe the tool instead.",
        ),
        "pair-no-boundary" => (
            "A confusable pair without a boundary.",
            "Say when not to use each.",
        ),
        "param-no-description" => ("A parameter has no description.", "Describe the parameter."),
        "too-many-tools" => (
            "More tools than the configured count.",
            "Split the surface into profiles.",
        ),
        "generic-name" => (
            "A tool name says nothing about the tool.",
            "Name the tool after its effect.",
        ),
        _ => return None,
    };
    Some(sarif::RuleDoc {
        summary: summary.to_owned(),
        fix: fix.to_owned(),
    })
}

fn sarif_text(report: &LintReport) -> String {
    sarif::lint(report, &rule_doc)
}

/// Snapshot settings: the crate version is scrubbed from the SARIF driver so a release does not
/// rewrite the snapshot.
fn settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    let version = env!("CARGO_PKG_VERSION").replace('.', r"\.");
    settings.add_filter(
        &format!(r#""(version|semanticVersion)": "{version}""#),
        r#""$1": "[VERSION]""#,
    );
    settings
}

#[test]
fn snapshot_json() {
    insta::assert_snapshot!("json", json::to_string(&report()));
}

#[test]
fn snapshot_terminal() {
    insta::assert_snapshot!(
        "terminal",
        lint_terminal::lint(&report(), Style { color: false })
    );
}

#[test]
fn snapshot_terminal_compact() {
    // The default view: summary first, what to fix first, one line per finding, cut to width.
    let view = lint_terminal::LintView {
        verbose: false,
        width: Some(100),
    };
    let text = lint_terminal::lint_with(&report(), Style { color: false }, view);
    assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
    insta::assert_snapshot!("terminal_compact", text);
}

#[test]
fn snapshot_sarif() {
    settings().bind(|| insta::assert_snapshot!("sarif", sarif_text(&report())));
}

#[test]
fn snapshot_junit() {
    insta::assert_snapshot!(
        "junit",
        junit::lint(&report(), Some(Severity::Error)).expect("junit")
    );
}

#[test]
fn snapshot_markdown() {
    insta::assert_snapshot!("markdown", markdown::lint(&report()));
}

#[test]
fn json_round_trips_the_fixture() {
    let original: Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("render/lint_report.json")).expect("read"),
    )
    .expect("parse");
    let rendered: Value =
        serde_json::from_str(&json::to_string(&report())).expect("parse rendered");
    assert_eq!(rendered, original);
}

#[test]
fn terminal_colours_labels_only_when_asked() {
    let plain = lint_terminal::lint(&report(), Style { color: false });
    let coloured = lint_terminal::lint(&report(), Style { color: true });
    assert!(!plain.contains('\x1b'), "plain output has ANSI codes");
    assert!(
        coloured.contains("\x1b[1;31merror\x1b[0m"),
        "error label is not red"
    );
    assert!(
        coloured.contains("\x1b[1;33mwarn \x1b[0m"),
        "warn label is not yellow"
    );
    assert!(
        coloured.contains("\x1b[1;36minfo \x1b[0m"),
        "info label is not cyan"
    );
    assert!(
        plain.ends_with("3 errors, 4 warnings, 3 infos (1 suppressed) on 12 tools and 2 skills\n"),
        "{plain}"
    );
}

#[test]
fn terminal_says_no_findings() {
    let text = lint_terminal::lint(&empty_report(), Style { color: false });
    assert!(
        text.ends_with("\nno findings on 12 tools and 2 skills (1 suppressed)\n"),
        "{text}"
    );
}

#[test]
fn sarif_is_valid_against_the_official_schema() {
    let validator = sarif_validator();
    for (name, r) in [("fixture", report()), ("empty", empty_report())] {
        let log: Value = serde_json::from_str(&sarif_text(&r)).expect("SARIF is JSON");
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{name}: SARIF not valid:\n{}",
            errors.join("\n")
        );
    }
}

#[test]
fn sarif_schema_check_rejects_a_broken_log() {
    // Proves the validation above can fail: "warn" is not a SARIF level.
    let validator = sarif_validator();
    let mut log: Value = serde_json::from_str(&sarif_text(&report())).expect("SARIF is JSON");
    log["runs"][0]["results"][0]["level"] = Value::from("warn");
    assert!(!validator.is_valid(&log));
}

#[test]
fn sarif_results_carry_levels_locations_and_fingerprints() {
    let r = report();
    let log: Value = serde_json::from_str(&sarif_text(&r)).expect("SARIF is JSON");
    let run = &log["runs"][0];
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), r.findings.len());
    for (result, finding) in results.iter().zip(&r.findings) {
        let level = match finding.severity {
            Severity::Error => "error",
            Severity::Warn => "warning",
            Severity::Info => "note",
        };
        assert_eq!(result["level"], level);
        assert_eq!(
            result["partialFingerprints"]["mfBaselineKey/v1"],
            finding.baseline_key()
        );
        let rule =
            &run["tool"]["driver"]["rules"][result["ruleIndex"].as_u64().expect("index") as usize];
        assert_eq!(rule["id"], result["ruleId"]);
        let location = &result["locations"][0];
        match (&finding.file, finding.line) {
            (Some(_), Some(line)) => {
                assert_eq!(location["physicalLocation"]["region"]["startLine"], line)
            }
            (Some(_), None) => assert!(location["physicalLocation"].get("region").is_none()),
            (None, _) => assert!(location.get("physicalLocation").is_none()),
        }
        assert!(location["logicalLocations"][0]["name"].is_string());
    }
    // A path with a space is percent-encoded and resolved against the source root.
    let spaced = &results[3]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(spaced["uri"], "mcp/router%20server.py");
    assert_eq!(spaced["uriBaseId"], "%SRCROOT%");
    // One rule per code, even when a code appears twice; unknown codes still get a rule.
    let ids: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(ids.len(), 10);
    assert!(ids.contains(&"sibling-skills"));
}

#[test]
fn junit_fails_findings_at_or_above_fail_on() {
    let r = report();
    for (fail_on, failures) in [
        (Severity::Error, 3),
        (Severity::Warn, 7),
        (Severity::Info, 10),
    ] {
        let xml = junit::lint(&r, Some(fail_on)).expect("junit");
        let parsed = parse_junit(&xml);
        assert_eq!(parsed.suites.len(), 1);
        let suite = &parsed.suites[0];
        assert_eq!(suite.name, "mf lint");
        assert_eq!(suite.tests, 10);
        assert_eq!(suite.failures, failures, "fail_on {fail_on:?}");
        assert_eq!(
            suite.cases.iter().filter(|c| c.failure.is_some()).count(),
            failures
        );
        let first = &suite.cases[0];
        let failure = first.failure.as_ref().expect("an error is a failure");
        assert_eq!(failure.kind, "annotations-contradictory");
        assert!(
            failure.body.contains("→ Set readOnlyHint to false"),
            "{}",
            failure.body
        );
        assert!(
            failure.body.contains("at src/tools/tickets.ts:42"),
            "{}",
            failure.body
        );
        assert_eq!(first.file.as_deref(), Some("src/tools/tickets.ts"));
        assert_eq!(suite.property("errors"), Some("3"));
    }
    let lenient = parse_junit(&junit::lint(&r, Some(Severity::Error)).expect("junit"));
    let info = lenient.suites[0]
        .cases
        .iter()
        .find(|c| c.name.starts_with("generic-name"))
        .expect("info case");
    assert!(info.failure.is_none());
    assert!(
        info.system_out
            .as_deref()
            .unwrap_or_default()
            .contains("info: The name do_action")
    );
    assert_eq!(
        lenient.suites[0]
            .cases
            .iter()
            .find(|c| c.name.starts_with("too-many-tools"))
            .map(|c| c.classname.as_str()),
        Some("surface")
    );
}

#[test]
fn junit_is_never_an_empty_suite() {
    let parsed = parse_junit(&junit::lint(&empty_report(), Some(Severity::Warn)).expect("junit"));
    let suite = &parsed.suites[0];
    assert_eq!(suite.tests, 1);
    assert_eq!(suite.cases[0].name, "lint");
    assert!(suite.cases[0].failure.is_none());
}

#[test]
fn junit_reads_the_same_in_python_junitparser() {
    let xml = junit::lint(&report(), Some(Severity::Warn)).expect("junit");
    let Some(summary) = junitparser_summary(&xml) else {
        return;
    };
    assert_eq!(summary["suites"][0]["name"], "mf lint");
    assert_eq!(summary["suites"][0]["tests"], 10);
    assert_eq!(summary["suites"][0]["failures"], 7);
    assert_eq!(
        summary["suites"][0]["cases"][2]["name"],
        "schema-invalid: search_kb (filters.since)"
    );
    assert_eq!(
        summary["suites"][0]["cases"][2]["results"][0]["type"],
        "schema-invalid"
    );
}

#[test]
fn markdown_escapes_cells_and_caps_rows() {
    let text = markdown::lint(&report());
    assert!(
        text.starts_with("❌ **mf lint: 3 errors, 4 warnings** on 12 tools"),
        "{text}"
    );
    assert!(
        text.contains(r#"("open" \| "closed" \| "pending")"#),
        "{text}"
    );
    assert!(text.contains("instruction:<br>\"Always"), "{text}");
    for line in text.lines().filter(|l| l.starts_with("| ")) {
        let unescaped = line
            .char_indices()
            .filter(|&(i, c)| c == '|' && !line[..i].ends_with('\\'))
            .count();
        assert_eq!(unescaped, 7, "a cell broke the table: {line}");
    }

    let mut big = report();
    let template = big.findings[3].clone();
    big.findings = (0..60)
        .map(|i| Finding {
            tool: Some(format!("tool_{i:02}")),
            ..template.clone()
        })
        .collect();
    let text = markdown::lint(&big);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("| ⚠️")).count(),
        markdown::MAX_ROWS
    );
    assert!(text.contains("\n… 10 more\n"), "{text}");
}

#[test]
fn markdown_without_problems_is_green() {
    let text = markdown::lint(&empty_report());
    assert!(
        text.starts_with(
            "✅ **mf lint: no errors or warnings** on 12 tools and 2 skills · 1 suppressed"
        ),
        "{text}"
    );
    assert!(!text.contains('|'));
}

#[test]
fn subject_names_pairs_skills_and_the_surface() {
    let r = report();
    let by_code = |code: &str| {
        r.findings
            .iter()
            .find(|f| f.code == code)
            .expect("code in fixture")
    };
    assert_eq!(
        text::subject(by_code("description-identical")),
        "create_ticket ↔ open_ticket"
    );
    assert_eq!(text::subject(by_code("too-many-tools")), "surface");
    assert_eq!(by_code("sibling-skills").kind, Subject::Skill);
}

/// The official SARIF 2.1.0 schema (tests/fixtures/render/README.md says where it is from),
/// with format checks (`uri`, `uri-reference`, …) on.
///
/// The `language` pattern of `run` and `toolComponent` has a stray `]` that ECMA-262 reads as a literal but
/// the Rust regex engine rejects; it is escaped here, meaning unchanged, and the file on disk
/// stays byte-for-byte the published one.
pub(crate) fn sarif_validator() -> jsonschema::Validator {
    const PUBLISHED: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    const ESCAPED: &str = r"^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\]?$";
    let text =
        std::fs::read_to_string(fixture("render/sarif-schema-2.1.0.json")).expect("read schema");
    let mut schema: Value = serde_json::from_str(&text).expect("schema is JSON");
    let mut fixed = 0;
    for definition in ["run", "toolComponent"] {
        let pointer = format!("/definitions/{definition}/properties/language/pattern");
        if let Some(pattern) = schema.pointer_mut(&pointer).filter(|p| *p == PUBLISHED) {
            *pattern = Value::from(ESCAPED);
            fixed += 1;
        }
    }
    assert_eq!(fixed, 2, "the schema changed: revisit the pattern fix-up");
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("schema compiles")
}
