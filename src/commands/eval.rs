//! `mf eval` and `mf cache`: flags → [`crate::eval::EvalConfig`] → the eval engine → the
//! scorecard rendered and written → the exit code its status earned.

use std::io::IsTerminal;
use std::time::Instant;

use crate::cli::eval::{CacheAction, CacheArgs, EvalArgs, EvalFormat};
use crate::eval::cache::{self, Cache};
use crate::eval::plan::BudgetError;
use crate::eval::{self, EvalOutcome, evaluate::suite_tools};
use crate::render::progress::Reporter;
use crate::render::terminal::Style;
use crate::report::scorecard::Status;
use crate::surface::input;
use crate::{Error, Exit, render};

pub(super) fn run(args: &EvalArgs, style: Style) -> Result<Exit, Error> {
    let config = args.config()?;
    if config.execute.is_some() {
        super::exec::refuse_on_fork("mf eval --execute")?;
    }
    let started = Instant::now();
    let suite = eval::load_suite(args.suite.as_deref())?;
    let explicit = args.live.input_spec(&args.paths)?;
    let (surface, warnings, label) = if explicit.is_empty() {
        suite_tools(&suite)?
    } else {
        let input = input::load(&explicit)?;
        (input.surface, input.warnings, input.label)
    };
    for w in &warnings {
        super::note(&format!("warning: {w}"));
    }
    if super::verbose() {
        let toml = config
            .config_file
            .clone()
            .or_else(eval::models::find_config)
            .map_or_else(|| "none".to_owned(), |p| p.display().to_string());
        super::note(&format!(
            "suite {} · surface {label} · models {} · repeat {} · mf.toml {toml}",
            suite.display,
            config.models.join(", "),
            config.repeat
        ));
    }
    let mut reporter =
        Reporter::new(!args.no_progress && !super::quiet() && std::io::stderr().is_terminal())
            .quiet(super::quiet());
    let outcome = match &config.mount_groups {
        Some(which) => eval::mount::evaluate_groups(
            &config,
            which,
            started,
            &suite,
            surface,
            &label,
            &mut reporter,
        )?,
        None => eval::evaluate(&config, started, &suite, surface, &label, &mut reporter)?,
    };
    let card = match outcome {
        EvalOutcome::Card(card) => card,
        EvalOutcome::DryRun(plan) => return dry_run_exit(&plan),
        EvalOutcome::OverContext(refusals) => return Ok(over_context_exit(&refusals)),
        EvalOutcome::Interrupted(kept) => {
            super::note(&kept.to_string());
            return Ok(Exit::Interrupted);
        }
    };
    if let Some(path) = &args.json_out {
        super::write_file(path, &render::json::to_string(&card))?;
    }
    match args.format {
        EvalFormat::Json => super::print(&render::json::to_string(&card))?,
        EvalFormat::Terminal => super::print(&render::terminal::eval(&card, style))?,
        EvalFormat::Markdown => super::print(&render::render(
            &render::document::Document::Scorecard(card.clone()),
            render::Format::Markdown,
            None,
            style,
        )?)?,
    }
    if card.shard.is_some() {
        // A part's figures cover its shard only: `mf merge` judges the gates on the whole.
        if card.status != Status::Pass {
            super::note(&format!(
                "note: this part's own status is {}; the gates are judged by `mf merge` on all parts",
                if card.status == Status::Fail {
                    "fail"
                } else {
                    "unhealthy"
                }
            ));
        }
        return Ok(Exit::Ok);
    }
    Ok(match card.status {
        Status::Pass => Exit::Ok,
        Status::Fail => Exit::GateFailed,
        Status::Unhealthy => Exit::Unhealthy,
    })
}

pub(super) fn cache_cmd(args: &CacheArgs) -> Result<Exit, Error> {
    let dir = args.cache_dir.clone().unwrap_or_else(cache::default_dir);
    let cache = Cache::new(&dir);
    match args.action {
        CacheAction::Info => {
            let s = cache.stats();
            super::print(&format!(
                "cache: {}\ntrials: {}\nsize: {} bytes\n",
                cache.root().display(),
                s.entries,
                s.bytes
            ))?;
        }
        CacheAction::Clear => {
            let n = cache.clear().map_err(|source| Error::Write {
                path: cache.root().to_owned(),
                source,
            })?;
            super::print(&format!(
                "removed {n} cached trials from {}\n",
                cache.root().display()
            ))?;
        }
    }
    Ok(Exit::Ok)
}

/// Print a dry run's plan; exit 0 when nothing refuses it, 2 when only context gates do, else 1.
/// (`mf eval --dry-run` and `mf ablate --dry-run`.)
pub(super) fn dry_run_exit(plan: &eval::dry_run::DryRun) -> Result<Exit, Error> {
    super::print(&render::dry_run::text(plan))?;
    Ok(if plan.refusals.is_empty() {
        Exit::Ok
    } else if plan.refusals.iter().all(BudgetError::is_gate) {
        Exit::GateFailed
    } else {
        Exit::InputError
    })
}

/// Name each `--max-context-tokens` refusal on stderr: a failed gate (2).
pub(super) fn over_context_exit(refusals: &[BudgetError]) -> Exit {
    for e in refusals {
        super::note(&format!("error: {e}"));
    }
    Exit::GateFailed
}
