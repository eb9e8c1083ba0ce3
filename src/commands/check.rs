//! `mf check`: the install gate.

use crate::analyze::check::{CheckOptions, check};
use crate::cli::check::{CheckArgs, SimpleFormat};
use crate::render::terminal::Style;
use crate::report::check::Verdict;
use crate::surface::formats;
use crate::surface::input;
use crate::{Error, Exit, render};

pub(super) fn run(args: &CheckArgs, style: Style) -> Result<Exit, Error> {
    if !(0.0..=1.0).contains(&args.threshold) {
        return Err(Error::Usage(format!(
            "--threshold {} is outside 0..=1",
            args.threshold
        )));
    }
    let (name, new) = formats::manifest::read_manifest(&args.manifest)?;
    // The same resolution as lint's inputs: files, folders, URLs, --stdio, --server.
    let installed = input::load(&args.live.input_spec(&args.installed)?)?;
    for w in &installed.warnings {
        super::note(&format!("warning: {w}"));
    }
    if !installed.label.is_empty()
        && let Some(exit) = super::nothing_to_check(&installed.label, &installed.surface)
    {
        return Ok(exit);
    }
    super::note_unread(&installed.surface);
    let report = check(
        &name,
        &new,
        &installed.surface,
        &CheckOptions {
            threshold: args.threshold,
        },
    );
    let text = match args.format {
        SimpleFormat::Json => render::json::to_string(&report),
        SimpleFormat::Terminal => render::terminal::check(&report, style),
        SimpleFormat::Markdown => render::markdown::check(&report),
    };
    super::print(&text)?;
    Ok(if args.fail_on_warn && report.verdict == Verdict::Warn {
        Exit::GateFailed
    } else {
        Exit::Ok
    })
}
