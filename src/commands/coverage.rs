//! `mf coverage`: reviewed cases per tool and profile.

use crate::analyze::coverage::coverage;
use crate::cli::check::SimpleFormat;
use crate::cli::coverage::CoverageArgs;
use crate::render::terminal::Style;
use crate::suite::input::suite_surface;
use crate::suite::read_suite_any;
use crate::{Error, Exit, render};

pub(super) fn run(args: &CoverageArgs, style: Style) -> Result<Exit, Error> {
    let display = args.suite.to_string_lossy().replace('\\', "/");
    let suite = read_suite_any(&args.suite, &display)?;
    let (surface, warnings, _) = suite_surface(&suite, &args.suite, &display)?;
    for w in &warnings {
        super::note(&format!("warning: {w}"));
    }
    let tools: Vec<String> = surface.tools.iter().map(|t| t.name.clone()).collect();
    let report = coverage(&suite, &tools);
    let text = match args.format {
        SimpleFormat::Json => render::json::to_string(&report),
        SimpleFormat::Terminal => render::terminal::coverage(&report, style),
        SimpleFormat::Markdown => render::markdown::coverage(&report),
    };
    super::print(&text)?;
    Ok(
        if args.fail_under_guidance && !report.summary.meets_guidance {
            Exit::GateFailed
        } else {
            Exit::Ok
        },
    )
}
