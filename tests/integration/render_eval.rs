//! The eval renderers (markdown summary and PR comment, HTML, JUnit, badges, `mf report`), fed
//! one canonical fixture: two scorecards made by `mf eval` with a scripted model and their
//! compare document (`tests/fixtures/render/eval/`, see its README), plus a ci document built
//! here from them and the lint fixture. One insta snapshot per format and document, and the
//! checks a snapshot cannot make: JUnit through quick-xml and Python's junitparser, the HTML
//! offline and drawn by a real browser, GitHub's size limits on a synthetic 200-tool run.

use std::path::PathBuf;

use mf::render::badge;
use mf::render::ci::{self, COMMENT_LIMIT, COMMENT_MARKER, SUMMARY_LIMIT};
use mf::render::document::Document;
use mf::render::html;
use mf::render::junit::eval as eval_junit;
use mf::render::template::{self, Limit, SUMMARY};
use mf::render::terminal;
use mf::render::view::View;
use mf::report::ci::{CiMode, CiReport, CiStatus};
use mf::report::compare::{CompareReport, ConfusablePair, SurfaceDiff, TokenDelta, ToolChange};
use mf::report::lint::LintReport;
use mf::report::metrics::{ConfusionPair, Rate, ToolMetrics, Verdict};
use mf::report::scorecard::{CaseInfo, Scorecard, TrialRow};
use serde_json::Value;

use crate::support::junit::{junitparser_summary, parse_junit, well_formed};
use crate::support::{assert_success, fixture, mf, read_json};

const RUN_URL: &str = "https://github.com/acme/support-tools/actions/runs/4242";

/// A file of the canonical eval fixture, `tests/fixtures/render/eval/`.
fn eval_fixture(name: &str) -> PathBuf {
    fixture("render/eval").join(name)
}

fn head() -> Scorecard {
    read_json(eval_fixture("head.scorecard.json"))
}

fn base() -> Scorecard {
    read_json(eval_fixture("base.scorecard.json"))
}

fn compare() -> CompareReport {
    read_json(eval_fixture("compare.json"))
}

fn lint() -> LintReport {
    read_json(fixture("render/lint_report.json"))
}

fn surface_diff(lint: &LintReport) -> SurfaceDiff {
    SurfaceDiff {
        added: vec![ToolChange {
            name: "order_status".into(),
            tokens_before: None,
            tokens_after: Some(61),
            origin: Some("servers/orders/src/index.ts:88".into()),
            description: None,
            schema_changes: vec![],
        }],
        removed: vec![],
        redescribed: vec![ToolChange {
            name: "lookup_order".into(),
            tokens_before: Some(70),
            tokens_after: Some(52),
            origin: Some("mf.suite.json:5".into()),
            description: Some([
                Some("Look up one order by its order number.".into()),
                Some("Look up an order.".into()),
            ]),
            schema_changes: vec![],
        }],
        reschemed: vec![ToolChange {
            name: "issue_refund".into(),
            tokens_before: Some(80),
            tokens_after: Some(92),
            origin: None,
            description: None,
            schema_changes: vec!["/properties/amount/type".into()],
        }],
        tokens: TokenDelta {
            before: 424,
            after: 497,
            delta: 73,
        },
        new_findings: lint.findings[..2].to_vec(),
        resolved_findings: 1,
        newly_confusable: vec![ConfusablePair {
            a: "lookup_order".into(),
            b: "order_status".into(),
            score: 0.81,
            before: None,
        }],
    }
}

/// A full pull-request run: lint, surface diff, both evals and their comparison. Built through
/// JSON so fields the ci document gains later (with defaults) do not break this test.
fn ci_doc() -> CiReport {
    let lint = lint();
    // The first two findings are new in the pull request, the rest were already at the base.
    let preexisting: Vec<String> = lint.findings[2..]
        .iter()
        .map(|f| f.baseline_key())
        .collect();
    let doc = serde_json::json!({
        "version": 1,
        "kind": "ci",
        "status": "fail",
        "reasons": [
            "selection-accuracy regressed on scripted:script.json (case-level p = 0.0312)",
            "3 lint errors"
        ],
        "event": {
            "name": "pull_request",
            "repository": "acme/support-tools",
            "pullRequest": 42,
            "baseSha": "1111111111111111111111111111111111111111",
            "headSha": "2222222222222222222222222222222222222222",
            "runUrl": RUN_URL
        },
        "mode": "full",
        "notes": ["the base eval came from the base cache (base commit 111111111111)"],
        "surface": surface_diff(&lint),
        "lintGate": {
            "scope": "new",
            "base": "1111111111111111111111111111111111111111",
            "new": 2,
            "preexisting": preexisting.len(),
            "preexistingKeys": preexisting
        },
        "lint": lint,
        "head": head(),
        "base": base(),
        "baseReused": true,
        "compare": compare(),
        "files": {
            "json": "mf-ci/mf-ci.json",
            "junit": "mf-ci/junit.xml",
            "sarif": "mf-ci/mf.sarif",
            "html": "mf-ci/report.html",
            "markdown": "mf-ci/summary.md",
            "badge": "mf-ci/badge.json"
        }
    });
    serde_json::from_value(doc).expect("a ci document")
}

/// A fork pull request: no key, free checks only.
fn free_ci_doc() -> CiReport {
    let mut ci = ci_doc();
    ci.mode = CiMode::Free;
    ci.status = CiStatus::Fail;
    ci.reasons = vec!["3 lint errors".into()];
    ci.free_reason = Some(
        "this pull request comes from a fork, and GitHub gives fork pull requests no secrets"
            .into(),
    );
    ci.event.fork = true;
    ci.notes.clear();
    ci.head = None;
    ci.base = None;
    ci.base_reused = false;
    ci.compare = None;
    ci
}

fn docs() -> Vec<(&'static str, Document)> {
    vec![
        ("scorecard", Document::Scorecard(Box::new(head()))),
        ("compare", Document::Compare(Box::new(compare()))),
        ("ci", Document::Ci(Box::new(ci_doc()))),
        ("ci_free", Document::Ci(Box::new(free_ci_doc()))),
    ]
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    let version = env!("CARGO_PKG_VERSION").replace('.', r"\.");
    s.add_filter(&format!("mf {version}"), "mf [VERSION]");
    s
}

fn snap(name: &str, text: &str) {
    settings().bind(|| insta::assert_snapshot!(name, text));
}

fn summary(doc: &Document) -> String {
    ci::summary_with(doc, None).expect("summary")
}

fn comment(doc: &Document) -> String {
    ci::comment_with(doc, None).expect("comment")
}

fn junit(doc: &Document) -> String {
    match doc {
        Document::Scorecard(c) => eval_junit::junit(c),
        Document::Compare(c) => eval_junit::compare(c),
        Document::Ci(c) => eval_junit::ci(c),
    }
}

// --- one snapshot per format ------------------------------------------------------------------

#[test]
fn snapshot_markdown_summary() {
    for (name, doc) in docs() {
        snap(&format!("summary_{name}"), &summary(&doc));
    }
}

#[test]
fn snapshot_comment() {
    for (name, doc) in docs() {
        snap(&format!("comment_{name}"), &comment(&doc));
    }
}

#[test]
fn snapshot_html() {
    for (name, doc) in docs() {
        snap(&format!("html_{name}"), &html::report(&doc));
    }
}

#[test]
fn snapshot_junit() {
    for (name, doc) in docs() {
        snap(&format!("junit_{name}"), &junit(&doc));
    }
}

#[test]
fn snapshot_badges() {
    for (name, doc) in docs() {
        let b = badge::badge(&doc);
        snap(&format!("badge_json_{name}"), &badge::endpoint_json(&b));
        snap(&format!("badge_svg_{name}"), &badge::svg(&b));
    }
}

#[test]
fn snapshot_ci_terminal() {
    let style = mf::render::terminal::Style { color: false };
    snap("terminal_ci", &terminal::ci(&ci_doc(), style));
    snap("terminal_ci_free", &terminal::ci(&free_ci_doc(), style));
}

// --- markdown ---------------------------------------------------------------------------------

#[test]
fn summary_and_comment_start_with_the_verdict() {
    let s = summary(&docs()[0].1);
    assert!(
        s.starts_with(
            "❌ **mf eval render-fixture: FAIL** · selection accuracy 25/45 = 55.6% [41.2–69.1]"
        ),
        "{s}"
    );
    let c = ci::comment(&ci_doc());
    assert!(
        c.starts_with(&format!(
            "{COMMENT_MARKER}\n❌ **mf ci: FAIL** · selection accuracy 25/45 = 55.6% [41.2–69.1]"
        )),
        "{c}"
    );
    assert_eq!(ci::summary(&ci_doc()), summary(&docs()[2].1));
    // What changed by name first, then the gated metrics base → head with verdicts.
    assert!(c.contains("| ❌ | `selection-accuracy` (gated) | scripted:script.json | 43/43 = 100.0% [91.8–100.0] | 23/43 = 53.5% [38.9–67.5] | -46.5 pts |"), "{c}");
    assert!(
        c.contains(
            "**Surface:** 1 tool added, 1 re-described, 1 re-schemed · tool tokens 424 → 497 (+73)"
        ),
        "{c}"
    );
    assert!(
        c.contains("- added `order_status` (+61 tokens) · `servers/orders/src/index.ts:88`"),
        "{c}"
    );
    assert!(
        c.contains("- re-described `lookup_order` (70 → 52 tokens, −18)"),
        "{c}"
    );
    assert!(
        c.contains("- ⚠️ newly confusable: `lookup_order` ↔ `order_status`"),
        "{c}"
    );
    // The findings the pull request introduced, by name and file:line; the base's folded.
    assert!(c.contains("**New lint findings:** ❌ 2 errors new in this change; 8 pre-existing findings already at the base (not gated)"), "{c}");
    assert!(c.contains("`annotations-contradictory`"), "{c}");
    assert!(
        c.contains("<details><summary>8 pre-existing lint findings (already at the base, not gated)</summary>"),
        "{c}"
    );
    let surface_at = c.find("**Surface:**").expect("surface");
    let compare_at = c.find("**Gated metrics").expect("compare");
    assert!(
        surface_at < compare_at,
        "what changed comes before the eval"
    );
    // One rendering of each table: a finding appears once.
    assert_eq!(c.matches("`annotations-contradictory`").count(), 1, "{c}");
    let s = summary(&docs()[2].1);
    assert_eq!(s.matches("`annotations-contradictory`").count(), 1, "{s}");
    // No runner-local paths: files are named, not located.
    assert!(!s.contains("mf-ci/"), "{s}");
    // Details are folded.
    assert!(
        c.contains("<details><summary>Cases: scripted:script.json</summary>"),
        "{c}"
    );
}

#[test]
fn free_mode_says_why_plainly() {
    for text in [ci::summary(&free_ci_doc()), ci::comment(&free_ci_doc())] {
        assert!(
            text.contains("Free checks only: this pull request comes from a fork, and GitHub gives fork pull requests no secrets. No model was called"),
            "{text}"
        );
        assert!(!text.contains("selection accuracy"), "{text}");
    }
    // Without a stated reason the fork is still named.
    let mut ci = free_ci_doc();
    ci.free_reason = None;
    assert!(ci::comment(&ci).contains("comes from a fork"));
}

#[test]
fn cutting_keeps_the_verdict_and_ends_with_the_pointer() {
    let view = View::of_ci(&ci_doc());
    let full = template::fit(SUMMARY, None, &view, "", Limit::Bytes(usize::MAX)).expect("full");
    for limit in [full.len() - 1, 6000, 3000, 700] {
        let text = template::fit(SUMMARY, None, &view, "", Limit::Bytes(limit)).expect("fit");
        assert!(text.len() <= limit, "{} > {limit}", text.len());
        assert!(text.starts_with("❌ **mf ci: FAIL**"), "{text}");
        let last = text.lines().last().expect("lines");
        assert!(last.starts_with("> ✂️ Cut to fit the "), "{limit}: {last}");
        assert!(
            last.contains(RUN_URL) && last.contains("`mf-ci.json`"),
            "{last}"
        );
    }
    // Whole sections go from the end: a little too long loses only the details.
    let text = template::fit(SUMMARY, None, &view, "", Limit::Bytes(full.len() - 1)).expect("fit");
    assert!(text.contains("(left out: details)"), "{text}");
    assert!(text.contains("### New lint findings"));
    assert!(!text.contains("<details><summary>Cases:"));
}

#[test]
fn markdown_escapes_what_the_report_holds() {
    let mut card = head();
    card.models[0].label = "evil|model <b>x</b>".into();
    let text = summary(&Document::Scorecard(Box::new(card)));
    assert!(text.contains("evil\\|model &lt;b&gt;x&lt;/b&gt;"), "{text}");
    assert!(!text.contains("<b>x</b>"));
}

// --- size limits on a big run -----------------------------------------------------------------

/// A head scorecard with 200 tools and 1,000 trials (200 cases × 5), long names, a dense
/// confusion matrix, and a lint report of 3,000 long findings.
fn big_ci() -> CiReport {
    let mut ci = ci_doc();
    let mut card = head();
    let tools: Vec<String> = (0..200)
        .map(|i| format!("very_long_tool_name_for_a_big_enterprise_surface_{i:03}"))
        .collect();
    card.suite.tools = tools.clone();
    card.suite.cases = (0..200)
        .map(|i| CaseInfo {
            id: format!("case-{i:03}-with-an-id-long-enough-to-matter-in-a-table-row"),
            input_hash: format!("sha256:{i:064}"),
            expected_tool: Some(tools[i].clone()),
            reviewed: true,
            tags: vec![],
            line: Some(10 + i as u32),
            mutated_from: None,
            mutation: None,
            prompt_tokens: 9000,
        })
        .collect();
    let template_trial = card.models[0].trials[0].clone();
    let model = &mut card.models[0];
    model.trials = (0..1000)
        .map(|t| {
            let case = t / 5;
            let right = t % 5 < 3;
            TrialRow {
                case: card.suite.cases[case].id.clone(),
                trial: (t % 5) as u32,
                order: vec![],
                verdict: if right {
                    Verdict::Correct
                } else {
                    Verdict::WrongTool
                },
                calls: vec![],
                args: None,
                ..template_trial.clone()
            }
        })
        .collect();
    let m = &mut model.metrics;
    m.per_tool = tools
        .iter()
        .map(|t| ToolMetrics {
            tool: t.clone(),
            on_surface: true,
            cases: 1,
            accuracy: Rate::new(3, 5),
            picked: 4,
            picked_wrongly: 1,
            argument_accuracy: Rate::new(3, 3),
        })
        .collect();
    let mut columns = tools.clone();
    columns.extend(["(none)".into(), "(phantom)".into(), "(multiple)".into()]);
    m.confusion.rows = tools.clone();
    m.confusion.counts = (0..200)
        .map(|i| {
            (0..203)
                .map(|j| match j {
                    _ if j == i => 3,
                    _ if j == (i + 1) % 200 || j == (i + 7) % 200 => 1,
                    _ => 0,
                })
                .collect()
        })
        .collect();
    m.confusion.columns = columns;
    m.confusion_pairs = (0..400)
        .map(|k| ConfusionPair {
            expected: tools[k % 200].clone(),
            picked: tools[(k % 200 + if k < 200 { 1 } else { 7 }) % 200].clone(),
            count: 1,
        })
        .collect();
    ci.head = Some(card);
    let template_finding = ci.lint.findings[0].clone();
    ci.lint.findings = (0..3000)
        .map(|i| mf::report::lint::Finding {
            tool: Some(tools[i % 200].clone()),
            message: format!(
                "{} {}",
                "A long message about what is wrong. ".repeat(10),
                i
            ),
            ..template_finding.clone()
        })
        .collect();
    ci.lint.summary.errors = 3000;
    ci
}

#[test]
fn a_200_tool_run_fits_github_limits() {
    let ci = big_ci();
    let summary = ci::summary(&ci);
    let comment = ci::comment(&ci);
    assert!(
        summary.len() <= SUMMARY_LIMIT,
        "summary {} bytes",
        summary.len()
    );
    assert!(
        comment.chars().count() <= COMMENT_LIMIT,
        "comment {} chars",
        comment.chars().count()
    );
    assert!(
        summary.starts_with("❌ **mf ci: FAIL**"),
        "{}",
        &summary[..200]
    );
    assert!(comment.starts_with(&format!("{COMMENT_MARKER}\n❌ **mf ci: FAIL**")));
    for text in [&summary, &comment] {
        let last = text.lines().last().expect("lines");
        assert!(last.starts_with("> ✂️ Cut to fit the "), "{last}");
        assert!(last.contains(RUN_URL), "{last}");
    }
    // The HTML stays drawable: the heat map keeps the most confused tools only.
    let page = html::report(&Document::Ci(Box::new(ci)));
    let cells = page.matches("<rect class=\"cell\"").count();
    assert!(
        cells > 0 && cells <= html::HEATMAP_MAX * (html::HEATMAP_MAX + 3),
        "{cells}"
    );
    assert!(page.contains("Showing 40 of 200 expected tools"));
    assert_eq!(
        page.matches("<g class=\"tool\">").count(),
        html::BARS_MAX,
        "bars are capped"
    );
}

// --- JUnit ------------------------------------------------------------------------------------

/// How each case should come out, tallied here independently of the renderer: a trial passes
/// when it is a selection success whose argument check (if any) passed; a case passes on a
/// strict majority of its scored trials.
fn expected_failures(card: &Scorecard) -> Vec<String> {
    card.suite
        .cases
        .iter()
        .filter(|c| c.reviewed)
        .filter(|c| {
            let trials: Vec<&TrialRow> = card.models[0]
                .trials
                .iter()
                .filter(|t| t.case == c.id && t.verdict != Verdict::Error)
                .collect();
            let passed = trials
                .iter()
                .filter(|t| {
                    t.verdict.is_selection_success() && t.args.as_ref().is_none_or(|a| a.ok)
                })
                .count();
            !trials.is_empty() && 2 * passed <= trials.len()
        })
        .map(|c| c.id.clone())
        .collect()
}

#[test]
fn junit_has_one_testcase_per_case_and_the_scorecards_failures() {
    let card = head();
    let parsed = parse_junit(&eval_junit::junit(&card));
    assert_eq!(parsed.suites.len(), card.models.len());
    let suite = &parsed.suites[0];
    assert_eq!(suite.name, "mf eval: scripted:script.json");
    assert_eq!(suite.tests, card.suite.cases.len());
    let failing = expected_failures(&card);
    assert_eq!(suite.failures, failing.len());
    assert_eq!(
        failing,
        [
            "refund-damaged",
            "where-is-my-order",
            "angry-customer",
            "small-talk",
            "refund-partial"
        ]
    );
    // Selection-only misses (the scorecard's caseLevel) are a subset: wrong arguments add one.
    let cl = &card.models[0].metrics.case_level;
    assert_eq!((cl.cases - cl.rate.numerator) as usize, failing.len() - 1);
    assert_eq!(suite.errors, 1, "flaky-provider: every trial timed out");
    assert_eq!(suite.skipped, 1, "draft-cancel is unreviewed");
    let kind = |id: &str| {
        let case = suite.cases.iter().find(|c| c.name == id).expect("case");
        case.failure.as_ref().map(|f| f.kind.clone())
    };
    assert_eq!(kind("refund-damaged").as_deref(), Some("wrong_args"));
    assert_eq!(kind("where-is-my-order").as_deref(), Some("wrong_tool"));
    assert_eq!(kind("angry-customer").as_deref(), Some("no_call"));
    assert_eq!(kind("small-talk").as_deref(), Some("over_trigger"));
    assert_eq!(kind("refund-partial").as_deref(), Some("wrong_tool"));
    assert_eq!(kind("open-ticket"), None);
    let refund = suite
        .cases
        .iter()
        .find(|c| c.name == "refund-damaged")
        .expect("case");
    let failure = refund.failure.as_ref().expect("failure");
    assert_eq!(
        failure.message, "2 of 5 trials passed, 95% CI 11.8–76.9%",
        "Wilson interval of 2/5"
    );
    assert_eq!(refund.classname, "render-fixture");
    assert_eq!(refund.file.as_deref(), Some("mf.suite.json"));
    assert_eq!(refund.line.as_deref(), Some("19"));
    let flaky = suite
        .cases
        .iter()
        .find(|c| c.name == "flaky-provider")
        .expect("case");
    let error = flaky.error.as_ref().expect("error");
    assert_eq!(error.kind, "timeout");
    assert!(
        error
            .message
            .starts_with("all 5 trials errored (timeout 5)")
    );
    assert_eq!(
        suite.property("selectionAccuracy"),
        Some("25/45 = 55.6% [41.2–69.1]")
    );
    assert_eq!(
        suite.property("selectionAccuracy.ci95"),
        Some("0.4118–0.6906")
    );
}

#[test]
fn ci_junit_has_lint_eval_and_compare_suites() {
    let parsed = parse_junit(&eval_junit::ci(&ci_doc()));
    let names: Vec<&str> = parsed.suites.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["mf lint", "mf eval: scripted:script.json", "mf compare"]
    );
    assert_eq!(parsed.suites[0].tests, 10);
    assert_eq!(parsed.suites[0].failures, 3, "lint errors fail");
    let compare = &parsed.suites[2];
    assert_eq!(compare.failures, 1, "selection-accuracy regressed");
    let free = parse_junit(&eval_junit::ci(&free_ci_doc()));
    assert_eq!(free.suites[1].name, "mf eval");
    assert_eq!(free.suites[1].skipped, 1);
}

#[test]
fn junit_reads_the_same_in_python_junitparser() {
    let card = head();
    let Some(summary) = junitparser_summary(&eval_junit::junit(&card)) else {
        return;
    };
    let suite = &summary["suites"][0];
    assert_eq!(suite["tests"], card.suite.cases.len());
    assert_eq!(suite["failures"], expected_failures(&card).len());
    assert_eq!(suite["errors"], 1);
    assert_eq!(suite["skipped"], 1);
    let cases = suite["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), card.suite.cases.len());
    assert_eq!(cases[0]["name"], "refund-damaged");
    assert_eq!(cases[0]["classname"], "render-fixture");
    assert_eq!(cases[0]["results"][0]["type"], "wrong_args");
    assert_eq!(
        cases[0]["results"][0]["message"],
        "2 of 5 trials passed, 95% CI 11.8–76.9%"
    );
    let ci = junitparser_summary(&eval_junit::ci(&ci_doc())).expect("present");
    assert_eq!(ci["suites"].as_array().map(Vec::len), Some(3));
}

// --- HTML -------------------------------------------------------------------------------------

#[test]
fn html_is_self_contained_and_has_the_charts() {
    for (name, doc) in docs() {
        let page = html::report(&doc);
        assert!(page.starts_with("<!doctype html>"), "{name}");
        for banned in [
            "<script", "<link", "<img", "<iframe", "@import", "url(", "src=",
        ] {
            assert!(!page.contains(banned), "{name}: {banned}");
        }
        // The only http(s) reference is the link to the run (escaped: `/` is `&#x2f;`).
        let rest = page
            .replace(&RUN_URL.replace('/', "&#x2f;"), "")
            .to_lowercase();
        assert!(
            !rest.contains("http:") && !rest.contains("https:"),
            "{name}: a network reference"
        );
    }
    let page = html::report(&Document::Ci(Box::new(ci_doc())));
    assert!(page.contains(&format!(
        "<a href=\"{}\">workflow run</a>",
        RUN_URL.replace('/', "&#x2f;")
    )));
    let card = head();
    let tools = card.models[0].metrics.per_tool.len();
    let c = &card.models[0].metrics.confusion;
    assert!(page.contains("<svg class=\"chart accuracy\" role=\"img\""));
    assert_eq!(page.matches("<g class=\"tool\">").count(), tools);
    assert!(page.contains("<svg class=\"chart heatmap\" role=\"img\""));
    assert_eq!(
        page.matches("<rect class=\"cell\"").count(),
        c.rows.len() * c.columns.len()
    );
    assert!(page.contains("<svg class=\"chart deltas\" role=\"img\""));
    assert!(page.contains(
        "<title id=\"heatmap-0-title\">Confusion heat map: scripted:script.json</title>"
    ));
    assert!(page.contains("<title>expected lookup_order, picked search_orders: 3 trials</title>"));
    // Bars carry their Wilson whiskers.
    assert!(page.contains("<title>lookup_order: 2&#x2f;5 = 40.0% [11.8–76.9]</title>"));
}

#[test]
fn html_escapes_every_text() {
    let mut card = head();
    card.models[0].metrics.per_tool[0].tool = "<script>alert(\"x\")</script>".into();
    card.suite.name = "a & b".into();
    let page = html::report(&Document::Scorecard(Box::new(card)));
    assert!(!page.contains("<script>"));
    assert!(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;&#x2f;script&gt;"));
    assert!(page.contains("a &amp; b"));
}

/// A Chromium binary: `$MF_CHROMIUM`, else `chromium` or `chromium-browser` on PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MF_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| [d.join("chromium"), d.join("chromium-browser")])
        .find(|p| p.is_file())
}

#[test]
fn html_renders_in_headless_chromium() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("MF_REQUIRE_CHROMIUM").is_none_or(|v| v != "1"),
            "MF_REQUIRE_CHROMIUM=1 but no chromium, chromium-browser or $MF_CHROMIUM"
        );
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "skipped: no Chromium found");
        return;
    };
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("report.html");
    let png = dir.path().join("report.png");
    std::fs::write(&page, html::report(&Document::Ci(Box::new(ci_doc())))).expect("write");
    let mut child = std::process::Command::new(&browser)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=1200,1600",
        ])
        .arg(format!(
            "--user-data-dir={}",
            dir.path().join("profile").display()
        ))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start chromium");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 120 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let bytes = std::fs::read(&png).expect("chromium wrote no screenshot");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let width = u32::from_be_bytes(bytes[16..20].try_into().expect("4 bytes"));
    let height = u32::from_be_bytes(bytes[20..24].try_into().expect("4 bytes"));
    assert_eq!((width, height), (1200, 1600));
    // A blank 1200×1600 page compresses to a few kilobytes; text, tables and charts do not.
    assert!(
        bytes.len() > 40_000,
        "screenshot is only {} bytes",
        bytes.len()
    );
    if let Some(keep) = std::env::var_os("MF_KEEP_SCREENSHOT") {
        std::fs::copy(&png, keep).expect("copy screenshot");
    }
}

// --- badges -----------------------------------------------------------------------------------

#[test]
fn badges_say_accuracy_verdict_and_status() {
    let json = |doc: &Document| -> Value {
        serde_json::from_str(&badge::endpoint_json(&badge::badge(doc))).expect("badge JSON")
    };
    let d = docs();
    let card = json(&d[0].1);
    assert_eq!(card["schemaVersion"], 1);
    assert_eq!(card["label"], "tool selection");
    // 25/45 = 55.6% with Wilson [41.2, 69.1]: half-width 14 points.
    assert_eq!(card["message"], "56% (±14)");
    assert_eq!(card["color"], "red");
    assert_eq!(json(&d[1].1)["message"], "regressed");
    assert_eq!(json(&d[2].1)["message"], "fail · 56% (±14)");
    assert_eq!(json(&d[3].1)["message"], "fail (free checks)");
    // A passing ci run is green whatever its accuracy: the colour agrees with the word.
    let mut passed = ci_doc();
    passed.status = CiStatus::Pass;
    let b = json(&Document::Ci(Box::new(passed)));
    assert_eq!(
        (b["message"].as_str(), b["color"].as_str()),
        (Some("pass · 56% (±14)"), Some("brightgreen"))
    );
    let mut good = base();
    good.status = mf::report::scorecard::Status::Pass;
    let b = json(&Document::Scorecard(Box::new(good)));
    assert_eq!(
        (b["message"].as_str(), b["color"].as_str()),
        (Some("100% (±4)"), Some("brightgreen"))
    );
    for (_, doc) in d {
        let svg = badge::svg(&badge::badge(&doc));
        well_formed(&svg);
        assert!(svg.contains("role=\"img\"") && svg.contains("<title>tool selection: "));
        assert!(!svg.contains("https://"));
    }
}

// --- mf report --------------------------------------------------------------------------------

#[test]
fn mf_report_renders_every_format_of_every_document() {
    let formats = [
        "terminal",
        "json",
        "markdown",
        "comment",
        "summary",
        "html",
        "junit",
        "badge-json",
        "badge-svg",
    ];
    for file in ["head.scorecard.json", "compare.json"] {
        for format in formats {
            let out = mf()
                .args(["report", "--format", format])
                .arg(eval_fixture(file))
                .output()
                .expect("run");
            assert!(
                out.status.success(),
                "{file} {format}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!out.stdout.is_empty(), "{file} {format}");
        }
    }
    let dir = tempfile::tempdir().expect("tmp");
    let ci_json = dir.path().join("mf-ci.json");
    std::fs::write(&ci_json, serde_json::to_string(&ci_doc()).expect("json")).expect("write");
    let out_file = dir.path().join("report.html");
    mf().args(["report", "--format", "html", "--out"])
        .arg(&out_file)
        .arg(&ci_json)
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(&out_file).expect("written"),
        html::report(&Document::Ci(Box::new(ci_doc())))
    );
    let out = mf()
        .args(["report", "--format", "comment"])
        .arg(&ci_json)
        .output()
        .expect("run");
    assert_eq!(String::from_utf8_lossy(&out.stdout), ci::comment(&ci_doc()));
    let out = mf()
        .args(["report", "--format", "json"])
        .arg(eval_fixture("head.scorecard.json"))
        .output()
        .expect("run");
    let again: Scorecard = serde_json::from_slice(&out.stdout).expect("json");
    assert!(again == head(), "json round-trips");
}

#[test]
fn mf_report_refuses_what_it_cannot_render_naming_the_file() {
    let lint = fixture("render/lint_report.json");
    let out = mf().arg("report").arg(&lint).output().expect("run");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("lint_report.json"), "{err}");
    assert!(
        err.contains("not a scorecard, compare or ci document"),
        "{err}"
    );
    let out = mf()
        .args(["report", "--format", "junit", "--template", "x.j2"])
        .arg(eval_fixture("head.scorecard.json"))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--template applies to"));
    let out = mf()
        .arg("report")
        .arg(eval_fixture("missing.json"))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.json"));
}

#[test]
fn a_template_file_overrides_the_built_in_one() {
    let dir = tempfile::tempdir().expect("tmp");
    let custom = dir.path().join("mine.md.j2");
    std::fs::write(
        &custom,
        "{% import \"macros.md.j2\" as m %}{{ m.headline(headline) }}custom: {{ models[0].selection.text }}\n",
    )
    .expect("write");
    let out = mf()
        .args(["report", "--format", "markdown", "--template"])
        .arg(&custom)
        .arg(eval_fixture("head.scorecard.json"))
        .output()
        .expect("run");
    assert_success(&out);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "❌ **mf eval render-fixture: FAIL** · selection accuracy 25/45 = 55.6% [41.2–69.1] (scripted:script.json)\ncustom: 25/45 = 55.6% [41.2–69.1]\n"
    );
    // An HTML override is auto-escaped like the built-in one.
    let page = dir.path().join("page.html.j2");
    std::fs::write(&page, "<p>{{ headline.title }} {{ \"<b>\" }}</p>\n").expect("write");
    let text = template::render_with(template::HTML, Some(&page), &View::new(&docs()[0].1))
        .expect("render");
    assert_eq!(text, "<p>mf eval render-fixture: FAIL &lt;b&gt;</p>\n");
    // A broken template names its file and line.
    std::fs::write(&custom, "line one\n{{ nope.missing }}\n").expect("write");
    let err = template::render_with(SUMMARY, Some(&custom), &View::new(&docs()[0].1))
        .expect_err("undefined");
    let text = err.to_string();
    assert!(
        text.contains("mine.md.j2") && text.contains("line 2") || text.contains(":2"),
        "{text}"
    );
}
