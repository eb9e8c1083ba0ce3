//! Markdown for GitHub: the job summary and the sticky PR comment of an `mf ci` run (and of any
//! scorecard or compare document, for `mf report`). The terminal text of a ci document is
//! `terminal::ci`.
//!
//! Both markdown texts come from templates (`templates/summary.md.j2`, `comment.md.j2`, see
//! `render::template`) and are kept under GitHub's limits: when the full text is too long,
//! whole sections are cut from the end (details, then per-tool tables, lint, surface,
//! confusion, metrics, compare) and a pointer line to the full report (`files.json`,
//! `event.runUrl`) ends the text. The verdict line is never cut.

use std::path::Path;

use super::document::Document;
use super::template::{COMMENT, Limit, SUMMARY, TemplateError, fit};
use super::text::ci_status_word;
use super::view::View;
use crate::report::ci::CiReport;

/// The hidden marker that identifies mf's sticky PR comment.
pub const COMMENT_MARKER: &str = "<!-- mf:ci-comment -->";
/// `$GITHUB_STEP_SUMMARY` limit (GitHub refuses more than 1 MiB per step).
pub const SUMMARY_LIMIT: usize = 1024 * 1024;
/// PR comment limit (GitHub refuses bodies over 65,536 characters; we keep a margin).
pub const COMMENT_LIMIT: usize = 60_000;

/// What to show when the built-in template fails (it is tested on every document kind, so
/// this is a last resort that still starts with the verdict).
fn fallback(ci: &CiReport, e: &TemplateError) -> String {
    format!(
        "**mf ci: {}**\n\n(mf could not render the summary: {e})\n",
        ci_status_word(ci.status).to_uppercase()
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
