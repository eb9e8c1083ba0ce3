//! SARIF 2.1.0 output of `mf lint`, for GitHub code scanning and other SARIF viewers: one run,
//! one `reportingDescriptor` per code that appears, one result per finding with its `file:line`
//! (so code scanning annotates that line), a logical location naming the tool, and a stable
//! partial fingerprint from [`Finding::baseline_key`].
//!
//! Rule documentation comes from the caller (the lint rule registry) through a lookup callback,
//! so this module depends on no rule list. Output is pretty JSON with a fixed key order.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::report::lint::{Finding, LintReport, Severity};
use crate::report::tasks_lint::TasksLintReport;

/// The SARIF schema URI written as `$schema`.
pub const SARIF_SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF version written as `version`.
pub const SARIF_VERSION: &str = "2.1.0";

/// The URI base every relative `artifactLocation` is resolved against: the repository root.
pub const SRCROOT: &str = "%SRCROOT%";

/// The key of the partial fingerprint; versioned so a change of [`Finding::baseline_key`]'s
/// shape can be told apart from a new finding.
pub const FINGERPRINT_KEY: &str = "mfBaselineKey/v1";

/// What the lint rule registry says about one code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleDoc {
    /// One sentence: what the rule finds.
    pub summary: String,
    /// How to fix what it finds.
    pub fix: String,
}

/// The SARIF level of a severity: `error`, `warning`, `note`.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warn => "warning",
        Severity::Info => "note",
    }
}

/// Where the tool's documentation lives: the package's repository, else its homepage, else none
/// (SARIF requires an absolute URI there, so an empty one is left out).
fn information_uri() -> Option<&'static str> {
    [env!("CARGO_PKG_REPOSITORY"), env!("CARGO_PKG_HOMEPAGE")]
        .into_iter()
        .find(|u| !u.is_empty())
}

/// A path as a URI reference: `/` separators, and every byte outside RFC 3986's unreserved,
/// sub-delims, `:`, `@` and `/` percent-encoded. Absolute paths become `file://` URIs.
fn path_uri(path: &str) -> (String, bool) {
    let slashed = path.replace('\\', "/");
    let mut encoded = String::with_capacity(slashed.len());
    for byte in slashed.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&byte) {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    let is_windows_absolute = slashed.as_bytes().get(1) == Some(&b':');
    if slashed.starts_with('/') {
        (format!("file://{encoded}"), true)
    } else if is_windows_absolute {
        (format!("file:///{encoded}"), true)
    } else {
        (encoded, false)
    }
}

/// One `reportingDescriptor`. Its default level is the worst severity the code was reported at.
fn rule(code: &str, severity: Severity, doc: Option<RuleDoc>) -> Value {
    let mut rule = Map::new();
    rule.insert("id".into(), json!(code));
    rule.insert("name".into(), json!(code));
    match doc {
        Some(doc) => {
            rule.insert("shortDescription".into(), json!({ "text": doc.summary }));
            rule.insert(
                "fullDescription".into(),
                json!({ "text": format!("{} {}", doc.summary, doc.fix) }),
            );
            rule.insert("help".into(), json!({ "text": doc.fix }));
        }
        None => {
            rule.insert("shortDescription".into(), json!({ "text": code }));
        }
    }
    rule.insert(
        "defaultConfiguration".into(),
        json!({ "level": level(severity) }),
    );
    Value::Object(rule)
}

/// The text of a result: the message, then the suggestion on its own line.
fn message_text(message: &str, suggestion: &str) -> String {
    if suggestion.is_empty() {
        message.to_owned()
    } else {
        format!("{message}\nSuggestion: {suggestion}")
    }
}

/// The logical location of a finding: its tool (a function the model can call), its skill, or
/// the surface as a whole.
fn logical_location(finding: &Finding) -> Value {
    match (&finding.tool, &finding.skill) {
        (Some(tool), _) => json!({ "name": tool, "kind": "function" }),
        (None, Some(skill)) => json!({ "name": skill, "kind": "module" }),
        (None, None) => json!({ "name": "surface", "kind": "module" }),
    }
}

/// The `locations` of a result: a physical location when the file is known (with a region when
/// the line is), and always the logical location.
fn locations(file: Option<&str>, line: Option<u32>, logical: Value) -> Value {
    let mut location = Map::new();
    if let Some(file) = file {
        let (uri, absolute) = path_uri(file);
        let mut artifact = Map::new();
        artifact.insert("uri".into(), json!(uri));
        if !absolute {
            artifact.insert("uriBaseId".into(), json!(SRCROOT));
        }
        let mut physical = Map::new();
        physical.insert("artifactLocation".into(), Value::Object(artifact));
        if let Some(line) = line.filter(|l| *l >= 1) {
            physical.insert("region".into(), json!({ "startLine": line }));
        }
        location.insert("physicalLocation".into(), Value::Object(physical));
    }
    location.insert("logicalLocations".into(), json!([logical]));
    json!([Value::Object(location)])
}

/// The `properties` bag of a result: what the finding is about, in mf's own terms.
fn properties(finding: &Finding) -> Value {
    let mut props = Map::new();
    props.insert("kind".into(), json!(finding.kind));
    for (key, value) in [
        ("tool", &finding.tool),
        ("skill", &finding.skill),
        ("param", &finding.param),
    ] {
        if let Some(value) = value {
            props.insert(key.into(), json!(value));
        }
    }
    if let Some(pair) = &finding.pair {
        props.insert("pair".into(), json!(pair));
    }
    Value::Object(props)
}

/// One result before it is laid out, whichever report it comes from.
struct Item<'a> {
    code: &'a str,
    severity: Severity,
    text: String,
    locations: Value,
    fingerprint: String,
    properties: Value,
}

/// The SARIF log of `items`, with `run_properties` on the run.
fn log(
    items: Vec<Item<'_>>,
    rule_doc: &dyn Fn(&str) -> Option<RuleDoc>,
    run_properties: Value,
) -> String {
    // Rules sorted by code; each at the worst severity it appears with.
    let mut worst: BTreeMap<&str, Severity> = BTreeMap::new();
    for item in &items {
        let entry = worst.entry(item.code).or_insert(item.severity);
        *entry = (*entry).max(item.severity);
    }
    let index: BTreeMap<&str, usize> = worst
        .keys()
        .enumerate()
        .map(|(i, code)| (*code, i))
        .collect();
    let rules: Vec<Value> = worst
        .iter()
        .map(|(code, severity)| rule(code, *severity, rule_doc(code)))
        .collect();

    let results: Vec<Value> = items
        .into_iter()
        .map(|item| {
            json!({
                "ruleId": item.code,
                "ruleIndex": index.get(item.code).copied().unwrap_or_default(),
                "level": level(item.severity),
                "message": { "text": item.text },
                "locations": item.locations,
                "partialFingerprints": { FINGERPRINT_KEY: item.fingerprint },
                "properties": item.properties,
            })
        })
        .collect();

    let mut driver = Map::new();
    driver.insert("name".into(), json!("mf"));
    if let Some(uri) = information_uri() {
        driver.insert("informationUri".into(), json!(uri));
    }
    driver.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
    driver.insert("semanticVersion".into(), json!(env!("CARGO_PKG_VERSION")));
    driver.insert("rules".into(), Value::Array(rules));

    let log = json!({
        "$schema": SARIF_SCHEMA_URI,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": { "driver": Value::Object(driver) },
            "results": results,
            "properties": run_properties,
        }],
    });
    crate::render::json::to_string(&log)
}

/// A lint report as a SARIF 2.1.0 log. `rule_doc` looks a code up in the rule registry; codes
/// it does not know get their code as short description and no help.
pub fn lint(report: &LintReport, rule_doc: &dyn Fn(&str) -> Option<RuleDoc>) -> String {
    let items = report
        .findings
        .iter()
        .map(|f| Item {
            code: &f.code,
            severity: f.severity,
            text: message_text(&f.message, &f.suggestion),
            locations: locations(f.file.as_deref(), f.line, logical_location(f)),
            fingerprint: f.baseline_key(),
            properties: properties(f),
        })
        .collect();
    let run = json!({
        "target": report.target,
        "fingerprint": report.fingerprint,
        "summary": report.summary,
    });
    log(items, rule_doc, run)
}

/// A tasks lint report as a SARIF 2.1.0 log: each finding at its case's line in the suite
/// file, its logical location the case (or the tool it counts, or the suite).
pub fn tasks_lint(report: &TasksLintReport, rule_doc: &dyn Fn(&str) -> Option<RuleDoc>) -> String {
    let items = report
        .findings
        .iter()
        .map(|f| {
            let logical = match (&f.case, &f.tool) {
                (Some(case), _) => json!({ "name": case, "kind": "object" }),
                (None, Some(tool)) => json!({ "name": tool, "kind": "function" }),
                (None, None) => json!({ "name": "suite", "kind": "module" }),
            };
            let mut props = Map::new();
            for (key, value) in [("case", &f.case), ("tool", &f.tool), ("field", &f.field)] {
                if let Some(value) = value {
                    props.insert(key.into(), json!(value));
                }
            }
            Item {
                code: &f.code,
                severity: f.severity,
                text: message_text(&f.message, &f.suggestion),
                locations: locations(Some(&f.file), f.line, logical),
                fingerprint: f.key(),
                properties: Value::Object(props),
            }
        })
        .collect();
    let run = json!({
        "suite": report.suite,
        "surface": report.surface,
        "fingerprint": report.fingerprint,
        "summary": report.summary,
    });
    log(items, rule_doc, run)
}
