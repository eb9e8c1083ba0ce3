//! `mf snapshot`: start the declared servers, compare with (or write) their committed
//! snapshots, print, and exit 0 (all written / all fresh) or 1.

use crate::cli::snapshot::SnapshotArgs;
use crate::compare::snapshot::run as run_snapshots;
use crate::render::terminal::Style;
use crate::report::snapshot::SnapshotStatus;
use crate::{Error, Exit, render};

pub(super) fn run(args: &SnapshotArgs, style: Style) -> Result<Exit, Error> {
    let config = args.config()?;
    if crate::commands::verbose() {
        super::note(&format!(
            "{}: starting {}",
            config.file,
            config
                .servers
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut outcome = run_snapshots(&config)?;
    for w in &outcome.writes {
        if let Err(e) = super::write_file(&w.path, &w.text) {
            // The report says which server's file could not be written.
            let shown = w.path.display().to_string();
            if let Some(s) = outcome
                .report
                .servers
                .iter_mut()
                .find(|s| config.dir.join(&s.snapshot) == w.path)
            {
                s.status = SnapshotStatus::Failed;
                s.error = Some(e.to_string());
            } else {
                super::note(&format!("warning: {shown}: {e}"));
            }
            outcome.report.ok = false;
        }
    }
    let report = &outcome.report;
    if args.json {
        super::print(&render::json::to_string(report))?;
    } else {
        super::print(&render::terminal::snapshot(report, style))?;
    }
    Ok(if report.ok {
        Exit::Ok
    } else {
        Exit::InputError
    })
}
