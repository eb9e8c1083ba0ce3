//! Markdown for GitHub: the job summary and the sticky PR comment of an `mf ci` run (and of any
//! scorecard or compare document, for `mf report`), plus the terminal text of a ci document.
//!
//! Both markdown texts come from templates (`templates/summary.md.j2`, `comment.md.j2`, see
//! `render::template`) and are kept under GitHub's limits: when the full text is too long,
//! whole sections are cut from the end (details, then per-tool tables, lint, surface,
//! confusion, metrics, compare) and a pointer line to the full report (`files.json`,
//! `event.runUrl`) ends the text. The verdict line is never cut.

use std::fmt::Write;
use std::path::Path;

use super::document::Document;
use super::template::{COMMENT, Limit, SUMMARY, TemplateError, fit};
use super::terminal::Style;
use super::view::View;
use crate::report::ci::{CiMode, CiReport, CiStatus};

/// The hidden marker that identifies mf's sticky PR comment.
pub const COMMENT_MARKER: &str = "<!-- mf:ci-comment -->";
/// `$GITHUB_STEP_SUMMARY` limit (GitHub refuses more than 1 MiB per step).
pub const SUMMARY_LIMIT: usize = 1024 * 1024;
/// PR comment limit (GitHub refuses bodies over 65,536 characters; we keep a margin).
pub const COMMENT_LIMIT: usize = 60_000;

fn status_word(status: CiStatus) -> &'static str {
    match status {
        CiStatus::Pass => "pass",
        CiStatus::Fail => "fail",
        CiStatus::Unhealthy => "unhealthy",
    }
}

/// What to show when the built-in template fails (it is tested on every document kind, so
/// this is a last resort that still starts with the verdict).
fn fallback(ci: &CiReport, e: &TemplateError) -> String {
    format!(
        "**mf ci: {}**\n\n(mf could not render the summary: {e})\n",
        status_word(ci.status).to_uppercase()
    )
}

/// The job summary of any document, at most [`SUMMARY_LIMIT`] bytes, from `custom` instead
/// of `summary.md.j2` when given.
pub fn summary_with(doc: &Document, custom: Option<&Path>) -> Result<String, TemplateError> {
    fit(
        SUMMARY,
        custom,
        &View::new(doc),
        "",
        Limit::Bytes(SUMMARY_LIMIT),
    )
}

/// The PR comment of any document: [`COMMENT_MARKER`] on the first line, at most
/// [`COMMENT_LIMIT`] characters, from `custom` instead of `comment.md.j2` when given.
pub fn comment_with(doc: &Document, custom: Option<&Path>) -> Result<String, TemplateError> {
    fit(
        COMMENT,
        custom,
        &View::new(doc),
        &format!("{COMMENT_MARKER}\n"),
        Limit::Chars(COMMENT_LIMIT),
    )
}

/// The job summary, at most [`SUMMARY_LIMIT`] bytes.
pub fn summary(ci: &CiReport) -> String {
    fit(
        SUMMARY,
        None,
        &View::of_ci(ci),
        "",
        Limit::Bytes(SUMMARY_LIMIT),
    )
    .unwrap_or_else(|e| fallback(ci, &e))
}

/// The sticky PR comment, starting with [`COMMENT_MARKER`], at most [`COMMENT_LIMIT`] characters.
pub fn comment(ci: &CiReport) -> String {
    fit(
        COMMENT,
        None,
        &View::of_ci(ci),
        &format!("{COMMENT_MARKER}\n"),
        Limit::Chars(COMMENT_LIMIT),
    )
    .unwrap_or_else(|e| format!("{COMMENT_MARKER}\n{}", fallback(ci, &e)))
}

/// A ci document for people: the status and its reasons, then the lint, the head scorecard
/// and base vs head as their own terminal renderers show them.
pub fn terminal(ci: &CiReport, style: Style) -> String {
    let mut s = String::new();
    let mode = match ci.mode {
        CiMode::Full => String::new(),
        CiMode::Free => format!(
            " (free checks only{})",
            ci.free_reason
                .as_deref()
                .map(|r| format!(": {r}"))
                .unwrap_or_default()
        ),
    };
    let _ = writeln!(
        s,
        "{}{mode}",
        style.bold(&format!("mf ci: {}", status_word(ci.status).to_uppercase()))
    );
    for r in &ci.reasons {
        let _ = writeln!(s, "  - {r}");
    }
    let e = &ci.event;
    let mut event = Vec::new();
    if let Some(n) = &e.name {
        event.push(n.clone());
    }
    if let Some(pr) = e.pull_request {
        event.push(format!("#{pr}"));
    }
    if let (Some(b), Some(h)) = (&e.base_sha, &e.head_sha) {
        event.push(format!(
            "{} → {}",
            b.chars().take(12).collect::<String>(),
            h.chars().take(12).collect::<String>()
        ));
    }
    if let Some(u) = &e.run_url {
        event.push(u.clone());
    }
    if !event.is_empty() {
        let _ = writeln!(s, "{}", style.dim(&event.join(" · ")));
    }
    let _ = writeln!(s);
    s.push_str(&super::lint_terminal::lint(&ci.lint, style));
    if let Some(card) = &ci.head {
        let _ = writeln!(s);
        s.push_str(&super::eval_terminal::render(card, style));
    }
    if let Some(c) = &ci.compare {
        let _ = writeln!(s);
        s.push_str(&super::compare::terminal(c, style));
    }
    let shown = ci.compare.as_ref().is_some_and(|c| c.surface.is_some());
    if let Some(d) = ci.surface.as_ref().filter(|_| !shown) {
        let report = crate::report::compare::CompareReport {
            version: crate::report::compare::COMPARE_VERSION,
            kind: "compare".into(),
            verdict: None,
            base: crate::report::compare::Side {
                source: ci.event.base_sha.clone().unwrap_or_else(|| "base".into()),
                kind: "surface".into(),
                fingerprint: None,
            },
            head: crate::report::compare::Side {
                source: ci.event.head_sha.clone().unwrap_or_else(|| "head".into()),
                kind: "surface".into(),
                fingerprint: None,
            },
            eval: None,
            surface: Some(d.clone()),
        };
        let _ = writeln!(s);
        s.push_str(&super::compare::terminal(&report, style));
    }
    let files: Vec<&String> = [
        &ci.files.json,
        &ci.files.junit,
        &ci.files.sarif,
        &ci.files.html,
        &ci.files.badge,
    ]
    .into_iter()
    .flatten()
    .collect();
    if !files.is_empty() {
        let _ = writeln!(
            s,
            "\nwrote: {}",
            files
                .iter()
                .map(|f| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    s
}
