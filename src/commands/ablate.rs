//! `mf ablate`: flags → [`crate::compare::ablate::AblateConfig`] → the ablation engine → the
//! report rendered and written → exit 0, or 5 when a run was unhealthy.

use std::io::IsTerminal;
use std::time::Instant;

use crate::cli::ablate::AblateArgs;
use crate::cli::eval::EvalFormat;
use crate::compare::ablate::{AblateOutcome, ablate};
use crate::eval::{self, evaluate::suite_tools};
use crate::render::progress::Reporter;
use crate::render::terminal::Style;
use crate::report::scorecard::Status;
use crate::surface::input;
use crate::{Error, Exit, render};

pub(super) fn run(args: &AblateArgs, style: Style) -> Result<Exit, Error> {
    let config = args.config()?;
    let started = Instant::now();
    let suite = eval::load_suite(args.eval.suite.as_deref())?;
    let explicit = args.eval.live.input_spec(&args.eval.paths)?;
    let (surface, warnings, label) = if explicit.is_empty() {
        suite_tools(&suite)?
    } else {
        let input = input::load(&explicit)?;
        (input.surface, input.warnings, input.label)
    };
    for w in &warnings {
        super::note(&format!("warning: {w}"));
    }
    let mut reporter =
        Reporter::new(!args.eval.no_progress && !super::quiet() && std::io::stderr().is_terminal())
            .quiet(super::quiet());
    let report = match ablate(&config, started, &suite, surface, &label, &mut reporter)? {
        AblateOutcome::Report(r) => r,
        AblateOutcome::DryRun(plan) => return super::eval::dry_run_exit(&plan),
        AblateOutcome::OverContext(refusals) => {
            return Ok(super::eval::over_context_exit(&refusals));
        }
        AblateOutcome::Interrupted(kept) => {
            super::note(&kept.to_string());
            return Ok(Exit::Interrupted);
        }
    };
    if let Some(path) = &args.eval.json_out {
        super::write_file(path, &render::json::to_string(&report))?;
    }
    match args.eval.format {
        EvalFormat::Json => super::print(&render::json::to_string(&report))?,
        EvalFormat::Markdown => super::print(&render::ablate_md::markdown(&report))?,
        EvalFormat::Terminal => super::print(&render::terminal::ablate(&report, style))?,
    }
    Ok(match report.status {
        Status::Unhealthy => Exit::Unhealthy,
        _ => Exit::Ok,
    })
}
