//! `mf case add`: flags → [`crate::eval::author::add_cases`] (checked against the suite's
//! tools, appended keeping the file's text, written atomically) → what was added.

use crate::cli::case::{CaseAction, CaseArgs};
use crate::eval::author::add_cases;
use crate::render::terminal::Style;
use crate::{Error, Exit, render};

pub(super) fn run(args: &CaseArgs, style: Style) -> Result<Exit, Error> {
    match &args.action {
        CaseAction::Add(add) => {
            let report = add_cases(&add.request()?)?;
            if report.written {
                super::note(&format!("wrote {}", report.file));
            }
            if add.json {
                super::print(&render::json::to_string(&report))?;
            } else {
                super::print(&render::terminal::cases_added(&report, style))?;
            }
            Ok(Exit::Ok)
        }
    }
}
