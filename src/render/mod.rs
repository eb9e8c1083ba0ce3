//! Renderers: report data to bytes. A renderer never computes a statistic and never decides
//! pass or fail; it lays out what the report holds, and what a report does not hold (the
//! case-level outcomes of an eval) it asks the eval layer for (`eval::cases`), which sits
//! below. That keeps every call site a plain `render(doc)`: nobody has to compute outcomes and
//! thread them through.
//!
//! Layout: by format where a format serves several documents ([`terminal`], [`junit`], the
//! template formats over [`view`]), one file per document inside; [`text`] holds the wording
//! they share. [`render`] is the one table from document × [`Format`] to bytes that
//! `mf report` uses.

pub mod ablate_md;
pub mod badge;
pub mod ci;
pub mod document;
pub mod dry_run;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod progress;
pub mod sarif;
pub mod template;
pub mod terminal;
pub mod text;
pub mod view;

use std::path::Path;

use self::document::Document;
use self::template::{SUMMARY, TemplateError, render_with};
use self::terminal::Style;
use self::view::View;

/// Every format a saved document can be rendered in (`mf report --format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Readable summary.
    Terminal,
    /// The document itself, re-serialized.
    Json,
    /// GitHub-flavoured markdown, every section (summary.md.j2, not cut).
    Markdown,
    /// The job summary: under 1 MiB.
    Summary,
    /// The PR comment: hidden marker first, under 60,000 characters.
    Comment,
    /// One self-contained HTML file.
    Html,
    /// JUnit XML.
    Junit,
    /// shields.io endpoint JSON.
    BadgeJson,
    /// A small SVG badge.
    BadgeSvg,
}

/// Why a document could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A template (built-in or `--template FILE`) failed.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// JUnit XML could not be written.
    #[error("cannot write JUnit XML: {0}")]
    Junit(String),
}

/// Render `doc` as `format`. `template` replaces the built-in template of the template formats
/// (markdown, summary, comment, html); `style` applies to terminal text.
pub fn render(
    doc: &Document,
    format: Format,
    template: Option<&Path>,
    style: Style,
) -> Result<String, RenderError> {
    Ok(match format {
        Format::Terminal => match doc {
            Document::Scorecard(card) => terminal::eval(card, style),
            Document::Compare(report) => terminal::compare(report, style),
            Document::Ci(report) => terminal::ci(report, style),
        },
        Format::Json => match doc {
            Document::Scorecard(card) => json::to_string(card),
            Document::Compare(report) => json::to_string(report),
            Document::Ci(report) => json::to_string(report),
        },
        Format::Markdown => render_with(SUMMARY, template, &View::new(doc))?,
        Format::Summary => ci::summary_with(doc, template)?,
        Format::Comment => ci::comment_with(doc, template)?,
        Format::Html => html::report_with(doc, template)?,
        Format::Junit => match doc {
            Document::Scorecard(card) => junit::scorecard(card),
            Document::Compare(report) => junit::compare(report),
            Document::Ci(report) => junit::ci(report),
        },
        Format::BadgeJson => badge::endpoint_json(&badge::badge(doc)),
        Format::BadgeSvg => badge::svg(&badge::badge(doc)),
    })
}
