//! `mf exec` and `mf sandbox check`: settings → one isolated call (or the probes) → render →
//! the exit code its outcome earned (0 returned, 1 threw or bad input, 3 refused, 4 timed out).

use std::path::Path;

use crate::cli::exec::{ExecArgs, ExecFormat, SandboxAction, SandboxArgs};
use crate::exec::{self, config};
use crate::render::terminal::Style;
use crate::report::exec::ExecStatus;
use crate::suite::input::suite_surface;
use crate::suite::{discover, read_suite_any};
use crate::{Error, Exit, render};

/// Executing is refused in a GitHub Actions run for a fork's pull request, or when its payload
/// cannot tell (`github::event::Context::execution_refusal`).
pub(super) fn refuse_on_fork(what: &str) -> Result<(), Error> {
    match crate::github::event::Context::from_env().execution_refusal() {
        Some(why) => Err(Error::Usage(format!("{what} refused: {why}"))),
        None => Ok(()),
    }
}

pub(super) fn run(args: &ExecArgs, style: Style) -> Result<Exit, Error> {
    refuse_on_fork("mf exec")?;
    let flags = args
        .policy
        .flags(&args.implementation, args.timeout, &args.env)
        .map_err(Error::Usage)?;
    let input: serde_json::Value = serde_json::from_str(&args.input)
        .map_err(|e| Error::Usage(format!("--input is not JSON: {e}")))?;
    let path = match &args.suite {
        Some(p) => p.clone(),
        None => discover::default_suite(Path::new("")).ok_or_else(|| {
            Error::Usage("no suite: give --suite FILE (with tools[] and an execution block)".into())
        })?,
    };
    let display = path.to_string_lossy().replace('\\', "/");
    let suite = read_suite_any(&path, &display)?;
    let (surface, warnings, _) = suite_surface(&suite, &path, &display)?;
    for w in &warnings {
        super::note(&format!("warning: {w}"));
    }
    let tool = exec::find_tool(&surface.tools, &args.tool, &display)?;
    let setup = config::resolve(&suite, &path, &display, &flags)?;
    let report = exec::execute_tool(&setup, &suite, tool, &input)?;
    let text = match args.format {
        ExecFormat::Json => render::json::to_string(&report),
        ExecFormat::Terminal => render::terminal::exec::exec(&report, style),
    };
    super::print(&text)?;
    Ok(match report.status {
        ExecStatus::Ok => Exit::Ok,
        ExecStatus::Refused => Exit::Refused,
        ExecStatus::Timeout => Exit::TimedOut,
        ExecStatus::Error
        | ExecStatus::InvalidInput
        | ExecStatus::MemoryExceeded
        | ExecStatus::OutputExceeded
        | ExecStatus::Crashed => Exit::InputError,
    })
}

pub(super) fn sandbox(args: &SandboxArgs, style: Style) -> Result<Exit, Error> {
    let SandboxAction::Check(check) = &args.action;
    let report = exec::sandbox::check(&check.python);
    let text = match check.format {
        ExecFormat::Json => render::json::to_string(&report),
        ExecFormat::Terminal => render::terminal::exec::sandbox(&report, style),
    };
    super::print(&text)?;
    Ok(Exit::Ok)
}
