//! `mf report RUN.json`: re-render a saved scorecard, compare or ci document in any format.

use crate::cli::report::{ReportArgs, ReportFormat};
use crate::render::document::Document;
use crate::render::terminal::Style;
use crate::render::{Format, render};
use crate::{Error, Exit};

pub(super) fn run(args: &ReportArgs, style: Style) -> Result<Exit, Error> {
    let path = &args.input;
    if args.template.is_some() && !args.format.takes_template() {
        return Err(Error::Usage(
            "--template applies to --format markdown, summary, comment and html".into(),
        ));
    }
    let shown = path.display().to_string();
    let text =
        crate::surface::formats::read_text(path, &shown, crate::surface::formats::MAX_FILE_BYTES)?;
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
    let out =
        render(&doc, format(args.format), args.template.as_deref(), style).map_err(Error::from)?;
    match &args.out {
        Some(file) => super::write_file(file, &out)?,
        None => super::print(&out)?,
    }
    Ok(Exit::Ok)
}

fn format(format: ReportFormat) -> Format {
    match format {
        ReportFormat::Terminal => Format::Terminal,
        ReportFormat::Json => Format::Json,
        ReportFormat::Markdown => Format::Markdown,
        ReportFormat::Summary => Format::Summary,
        ReportFormat::Comment => Format::Comment,
        ReportFormat::Html => Format::Html,
        ReportFormat::Junit => Format::Junit,
        ReportFormat::BadgeJson => Format::BadgeJson,
        ReportFormat::BadgeSvg => Format::BadgeSvg,
    }
}
