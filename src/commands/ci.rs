//! `mf ci`: flags → [`crate::ci::CiConfig`] → the pipeline ([`crate::ci::run`]) → every output
//! ([`crate::ci::publish`]) → annotations and the status line in Actions, the terminal rendering
//! elsewhere → the exit code the gates earned.

use std::collections::BTreeSet;
use std::io::IsTerminal;

use crate::ci::{self, CiOutcome, verdict::status_line};
use crate::cli::ci::CiArgs;
use crate::eval::Observer;
use crate::github::annotations;
use crate::github::event::Context;
use crate::render::progress::Reporter;
use crate::render::terminal::Style;
use crate::report::ci::CiStatus;
use crate::{Error, Exit, render};

pub(super) fn run(args: &CiArgs, style: Style) -> Result<Exit, Error> {
    let config = args.config()?;
    let ctx = Context::from_env();
    for w in &ctx.warnings {
        super::note(&format!("warning: {w}"));
    }
    let mut reporter =
        Reporter::new(!super::quiet() && std::io::stderr().is_terminal()).quiet(super::quiet());
    let mut run = match ci::run(&config, &ctx, &mut reporter)? {
        CiOutcome::Done(run) => run,
        CiOutcome::Interrupted => return Ok(Exit::Interrupted),
    };
    if let Some(shard) = config.eval.shard {
        return shard_job(&config, shard, &run, &mut reporter);
    }
    let exit = match (run.head_error, run.report.status) {
        (true, _) => Exit::InputError,
        _ if run.stale_snapshots => Exit::InputError,
        _ if run.nothing_found => Exit::NothingFound,
        (false, CiStatus::Unhealthy) => Exit::Unhealthy,
        (false, CiStatus::Fail) => Exit::GateFailed,
        (false, CiStatus::Pass) => Exit::Ok,
    };
    ci::publish::publish(&config, &ctx, &mut run.report, &mut reporter)?;
    let report = &run.report;
    // Like every other command: a `wrote FILE` line on stderr for each file written.
    let f = &report.files;
    for path in [&f.json, &f.junit, &f.sarif, &f.html, &f.badge]
        .into_iter()
        .flatten()
    {
        super::note(&format!("wrote {path}"));
    }
    if ctx.in_actions {
        let new_in_head: BTreeSet<String> = report
            .surface
            .iter()
            .flat_map(|d| d.new_findings.iter().map(|f| f.baseline_key()))
            .collect();
        let origin_of = |tool: &str| {
            run.head
                .surface
                .tools
                .iter()
                .find(|t| t.name == tool)
                .and_then(|t| t.origin.file.clone().map(|f| (f, t.origin.line)))
        };
        // A stale snapshot (`--live`) first: it is what failed the run.
        let stale = report
            .snapshots
            .as_ref()
            .map_or_else(Vec::new, |s| annotations::snapshots(s, &config.path));
        let selected = annotations::select(
            &report.lint,
            report.lint_gate.as_ref(),
            report.compare.as_ref(),
            &new_in_head,
            &origin_of,
        );
        let lines: String = stale
            .iter()
            .chain(&selected)
            .map(|a| a.render() + "\n")
            .collect();
        super::print_workflow_commands(&lines)?;
        reporter.note(&status_line(report));
    } else {
        super::print(&render::terminal::ci(report, style))?;
    }
    // The CI report's notes are not in the renderings yet: say them here.
    for n in &report.notes {
        reporter.note(&format!("note: {n}"));
    }
    Ok(exit)
}

/// A matrix job (`--shard K/N`): write the parts, say what happened; no comparison, comment,
/// summary or report (the `--merge` job does those once). Exit 0 once written, 1 when the head
/// eval could not run, 3 when PATH holds nothing.
fn shard_job(
    config: &ci::CiConfig,
    shard: crate::eval::shard::Shard,
    run: &ci::CiRun,
    reporter: &mut Reporter,
) -> Result<Exit, Error> {
    let report = &run.report;
    for n in &report.notes {
        reporter.note(&format!("note: {n}"));
    }
    if run.nothing_found {
        for r in &report.reasons {
            reporter.note(&format!("error: {r}"));
        }
        return Ok(Exit::NothingFound);
    }
    if run.head_error {
        for r in &report.reasons {
            reporter.note(&format!("error: {r}"));
        }
        return Ok(Exit::InputError);
    }
    if let Some(reason) = &report.free_reason {
        reporter.note(&format!(
            "note: shard {shard}: free mode ({reason}): no parts written"
        ));
        return Ok(Exit::Ok);
    }
    if report.head.is_none() {
        // Refused before anything was sent (a context budget): the same gate as a single run.
        for r in &report.reasons {
            reporter.note(&format!("error: {r}"));
        }
        return Ok(Exit::GateFailed);
    }
    let written = ci::shard::write_parts(
        &config.parts_dir,
        shard,
        report.head.as_ref(),
        report.base.as_ref(),
    )?;
    for path in written {
        super::note(&format!("wrote {}", path.display()));
    }
    Ok(Exit::Ok)
}
