//! `mf report RUN.json`: re-render a saved scorecard, compare or ci document in any format.

use std::path::Path;

use crate::cli::report::{ReportArgs, ReportFormat};
use crate::render::document::Document;
use crate::render::template::{SUMMARY, render_with};
use crate::render::terminal::Style;
use crate::render::view::View;
use crate::render::{badge, ci, compare, eval_junit, eval_terminal, html, json};
use crate::util::atomic::write_atomic;
use crate::{Error, Exit};

pub(super) fn run(args: &ReportArgs, style: Style) -> Result<Exit, Error> {
    let path = &args.input;
    if args.template.is_some() && !args.format.takes_template() {
        return Err(Error::Usage(
            "--template applies to --format markdown, summary, comment and html".into(),
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Document(format!("cannot read {}: {e}", path.display())))?;
    let doc = Document::parse(&text).map_err(|e| {
        Error::Document(format!(
            "{}: not a document mf report can render ({e}); give the JSON of mf eval \
             --json-out, mf compare --json-out or mf ci",
            path.display()
        ))
    })?;
    // Colour only when the text goes to a terminal.
    let style = Style {
        color: style.color && args.out.is_none(),
    };
    let out = render(&doc, args.format, args.template.as_deref(), style)?;
    match &args.out {
        Some(file) => write_atomic(file, out.as_bytes()).map_err(|source| Error::Write {
            path: file.clone(),
            source,
        })?,
        None => super::print(&out)?,
    }
    Ok(Exit::Ok)
}

fn template_error(e: crate::render::template::TemplateError) -> Error {
    Error::Template(e)
}

fn render(
    doc: &Document,
    format: ReportFormat,
    template: Option<&Path>,
    style: Style,
) -> Result<String, Error> {
    Ok(match format {
        ReportFormat::Terminal => match doc {
            Document::Scorecard(card) => eval_terminal::render(card, style),
            Document::Compare(report) => compare::terminal(report, style),
            Document::Ci(report) => ci::terminal(report, style),
        },
        ReportFormat::Json => match doc {
            Document::Scorecard(card) => json::to_string(card),
            Document::Compare(report) => json::to_string(report),
            Document::Ci(report) => json::to_string(report),
        },
        ReportFormat::Markdown => {
            render_with(SUMMARY, template, &View::new(doc)).map_err(template_error)?
        }
        ReportFormat::Summary => ci::summary_with(doc, template).map_err(template_error)?,
        ReportFormat::Comment => ci::comment_with(doc, template).map_err(template_error)?,
        ReportFormat::Html => html::report_with(doc, template).map_err(template_error)?,
        ReportFormat::Junit => match doc {
            Document::Scorecard(card) => eval_junit::junit(card),
            Document::Compare(report) => eval_junit::compare(report),
            Document::Ci(report) => eval_junit::ci(report),
        },
        ReportFormat::BadgeJson => badge::endpoint_json(&badge::badge(doc)),
        ReportFormat::BadgeSvg => badge::svg(&badge::badge(doc)),
    })
}
