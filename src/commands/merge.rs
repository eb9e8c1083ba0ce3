//! `mf merge`: parts → [`crate::eval::merge`] → the merged scorecard rendered and written → the
//! exit code its status earned (as `mf eval`).

use crate::cli::eval::EvalFormat;
use crate::cli::merge::MergeArgs;
use crate::eval::merge::{self, MergeError};
use crate::render::terminal::Style;
use crate::report::scorecard::Status;
use crate::{Error, Exit, render};

pub(super) fn run(args: &MergeArgs, style: Style) -> Result<Exit, Error> {
    let mut parts = Vec::new();
    let mut problems = Vec::new();
    for path in &args.parts {
        match merge::read_part(path) {
            Ok(part) => parts.push(part),
            Err(MergeError(p)) => problems.extend(p),
        }
    }
    if !problems.is_empty() {
        return Err(MergeError(problems).into());
    }
    let card = merge::merge(parts, args.allow_partial)?;
    if let Some(p) = &card.partial {
        super::note(&format!(
            "warning: {}",
            crate::render::text::partial_phrase(p)
        ));
    }
    if let Some(path) = &args.json_out {
        super::write_file(path, &render::json::to_string(&card))?;
    }
    match args.format {
        EvalFormat::Json => super::print(&render::json::to_string(&card))?,
        EvalFormat::Terminal => super::print(&render::terminal::eval(&card, style))?,
        EvalFormat::Markdown => super::print(&render::render(
            &render::document::Document::Scorecard(Box::new(card.clone())),
            render::Format::Markdown,
            None,
            style,
        )?)?,
    }
    Ok(match card.status {
        Status::Pass => Exit::Ok,
        Status::Fail => Exit::GateFailed,
        Status::Unhealthy => Exit::Unhealthy,
    })
}
