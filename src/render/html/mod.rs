//! The HTML report: one self-contained file (inline CSS, inline SVG charts, no script, nothing
//! fetched from the network) for any scorecard, compare or ci document.
//!
//! Charts: per-tool selection accuracy as bars with Wilson 95% whiskers, the confusion matrix as
//! a heat map (expected rows × picked columns, the cell's colour strength by its count: green on
//! the diagonal, red off it), and for compare and ci documents the base vs head value of each
//! compared metric. This module only places what the report holds — the geometry is layout, not
//! statistics — and `templates/report.html.j2` draws it, auto-escaped (minijinja escapes every
//! value in an `.html` template). Every chart has a `<title>`/`<desc>` and `role="img"`.
//!
//! [`shapes`] holds the chart shapes, [`charts`](mod@charts) their geometry; this module renders
//! the page.

pub mod charts;
pub mod shapes;

use std::path::Path;

use serde::Serialize;

pub use self::charts::{BARS_MAX, HEATMAP_MAX, charts};
use self::shapes::Charts;
use super::document::Document;
use super::template::{HTML, TemplateError, render_with};
use super::view::View;

/// The template context: the [`View`] plus the charts' geometry.
#[derive(Debug, Serialize)]
struct HtmlContext<'a> {
    #[serde(flatten)]
    view: &'a View,
    charts: Charts,
}

/// The HTML report of `doc`, from `custom` instead of the built-in `report.html.j2` when given.
pub fn report_with(doc: &Document, custom: Option<&Path>) -> Result<String, TemplateError> {
    let view = View::new(doc);
    let ctx = HtmlContext {
        charts: charts(&view),
        view: &view,
    };
    render_with(HTML, custom, &ctx)
}

/// The HTML report of `doc` with the built-in template.
pub fn report(doc: &Document) -> String {
    // The built-in template is checked by the tests on every document kind; should it still
    // fail, the page says so (escaped) instead of being empty.
    report_with(doc, None).unwrap_or_else(|e| {
        let text = e
            .to_string()
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        format!(
            "<!doctype html>\n<html lang=\"en\"><meta charset=\"utf-8\"><title>mf report</title>\
             <p>mf could not render this report: {text}</p></html>\n"
        )
    })
}
