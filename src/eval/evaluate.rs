//! One eval run from validated settings: the suite ([`load_suite`]), the tools it offers
//! ([`suite_tools_or_explicit`], [`profile_tools`]), the models, the plan and its budgets, the
//! run itself (progress through an [`Observer`], never printed here) and the scorecard.
//! Shared by `mf eval` and `mf ci` (head and base).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::EvalError;
use super::cache::Cache;
use super::config::EvalConfig;
use super::dry_run::{DryRun, dry_run};
use super::plan::{self, BudgetError};
use super::run::{self, Progress, RunModel, RunOptions};
use super::scorecard::{ScorecardInput, scorecard};
use super::{args, case_tools, models, shard};
use crate::report::scorecard::{Scorecard, ShardInfo};
use crate::suite::input::suite_surface;
use crate::suite::{Case, Suite, discover};
use crate::surface::{Surface, Tool, tokens};

/// A suite read and checked for eval.
#[derive(Debug, Clone)]
pub struct LoadedSuite {
    /// The suite.
    pub suite: Suite,
    /// Its path as shown in reports and errors.
    pub display: String,
    /// Its path.
    pub path: PathBuf,
}

/// How one eval run ended.
#[derive(Debug)]
pub enum EvalOutcome {
    /// The run finished: its scorecard (status, gates and health inside).
    Card(Box<Scorecard>),
    /// A dry run: the plan, and the budget it would be refused by; nothing was sent.
    DryRun(Box<DryRun>),
    /// A trial's prompt is over `--max-context-tokens` (a gate: exit 2); nothing was sent.
    OverContext(Vec<BudgetError>),
    /// Ctrl-C: finished trials are cached (when the cache is on).
    Interrupted(Interrupted),
}

/// What an interrupted run kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted {
    /// Trials that finished.
    pub finished: usize,
    /// Trials planned.
    pub total: usize,
    /// Whether the finished ones are in the cache.
    pub cached: bool,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "interrupted: {} of {} trials finished{}; run the same command again to pay only for the rest",
            self.finished,
            self.total,
            if self.cached {
                " and are cached"
            } else {
                " (--no-cache: they are not kept)"
            }
        )
    }
}

/// Who hears about a run while it goes: told the plan size and whether any model is paid (an
/// offline run takes microseconds per trial), then every finished trial, then the end; and
/// every note for people (a warning, a skipped step) as it happens.
pub trait Observer {
    /// A line for people: a warning or a note (`warning: …`, `note: …`).
    fn note(&mut self, line: &str);
    /// The run starts: `total` trials, `paid` when any model sends requests.
    fn started(&mut self, total: usize, paid: bool);
    /// A trial finished.
    fn progress(&mut self, progress: Progress);
    /// The run ended (finished or interrupted).
    fn finished(&mut self);
    /// A switch that stops the run from outside, as Ctrl-C does (`mf mcp` hands the client's
    /// cancellation in here); `None` = only Ctrl-C stops it.
    fn cancel(&self) -> Option<run::Cancel> {
        None
    }
}

/// An observer that ignores everything.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Observer for Silent {
    fn note(&mut self, _: &str) {}
    fn started(&mut self, _: usize, _: bool) {}
    fn progress(&mut self, _: Progress) {}
    fn finished(&mut self) {}
}

/// The suite at `path`, or the default one in the current folder; read, checked for eval, and
/// every `expectedArgs` checked for syntax (all problems at once, with file:line).
pub fn load_suite(path: Option<&Path>) -> Result<LoadedSuite, EvalError> {
    let path = match path {
        Some(p) => p.to_path_buf(),
        None => discover::default_suite(Path::new("")).ok_or_else(|| {
            EvalError::Plan(
                "no suite: give --suite FILE (mf.suite.json, a YAML suite or a task set), or \
                 write cases into mf.suite.json / mf.suite.yaml here (`mf scan` drafts one)"
                    .into(),
            )
        })?,
    };
    let display = path.to_string_lossy().replace('\\', "/");
    let suite = crate::suite::read_suite_any(&path, &display)?;
    suite.validate_for_eval(&display)?;
    let mut problems = Vec::new();
    for case in &suite.cases {
        let at = case.line.map(|l| format!(":{l}")).unwrap_or_default();
        let mut assertions: Vec<(String, &serde_json::Value)> = Vec::new();
        if let Some(expected) = &case.expected_args {
            assertions.push(("expectedArgs".to_owned(), expected));
        }
        for (i, call) in case.call_set().unwrap_or_default().iter().enumerate() {
            if let Some(expected) = &call.args {
                assertions.push((format!("expectedCalls[{i}].args"), expected));
            }
        }
        for (field, expected) in assertions {
            if let Err(e) = args::validate_expected_args(expected) {
                problems.push(format!("{display}{at}: case {:?}: {field}: {e}", case.id));
            }
        }
    }
    if !problems.is_empty() {
        return Err(EvalError::Plan(problems.join("\n")));
    }
    Ok(LoadedSuite {
        suite,
        display,
        path,
    })
}

/// The tools the suite names (its `tools[]` or `surface`), with load warnings and a label; an
/// error when it names none.
pub fn suite_tools(loaded: &LoadedSuite) -> Result<(Surface, Vec<String>, String), EvalError> {
    let (surface, warnings, label) = suite_surface(&loaded.suite, &loaded.path, &loaded.display)?;
    let every_case_has_tools =
        !loaded.suite.cases.is_empty() && loaded.suite.cases.iter().all(|c| c.tools.is_some());
    if surface.tools.is_empty() && !every_case_has_tools {
        return Err(EvalError::Plan(format!(
            "no tools: {label} offers none (the suite has no tools[] or its surface has no \
             tools); give the tools as PATH, URL, --stdio or --server"
        )));
    }
    Ok((surface, warnings, label))
}

/// The tools offered: every tool (names must be unique), or the members of one profile.
pub fn profile_tools(
    tools: Vec<Tool>,
    suite: &Suite,
    profile: Option<&str>,
) -> Result<Vec<Tool>, EvalError> {
    let mut seen = std::collections::BTreeSet::new();
    let mut dupes = Vec::new();
    for t in &tools {
        if !seen.insert(t.name.clone()) {
            dupes.push(t.name.clone());
        }
    }
    if !dupes.is_empty() {
        return Err(EvalError::Plan(format!(
            "the surface offers these names twice: {}; a model could not tell them apart — fix \
             the surface (see `mf lint`) or evaluate one profile with --profile",
            dupes.join(", ")
        )));
    }
    let Some(name) = profile else {
        return Ok(tools);
    };
    let Some(members) = suite.profiles.get(name) else {
        let known: Vec<&str> = suite.profiles.keys().map(String::as_str).collect();
        return Err(EvalError::Plan(format!(
            "no profile {name:?} in the suite (profiles: {})",
            if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            }
        )));
    };
    Ok(tools
        .into_iter()
        .filter(|t| members.contains(&t.name))
        .collect())
}

/// Paid models whose key variable is required and not set (checked before any request, so a
/// run lists it with the budgets). Also `mf tasks generate`'s key rule.
pub fn missing_keys(specs: &[crate::providers::config::ModelSpec]) -> Vec<BudgetError> {
    specs
        .iter()
        .filter(|s| s.provider.wire().is_some() && s.provider.key_required())
        .filter_map(|s| {
            let var = s.key_env()?;
            let set = std::env::var_os(&var).is_some_and(|v| !v.is_empty());
            (!set).then(|| BudgetError::MissingKey {
                var,
                model: s.label.clone(),
            })
        })
        .collect()
}

/// Plan, check budgets, run and score one eval of `surface` against `suite` with `config`
/// (already validated). `started` is when the command began (the scorecard's wall time).
pub fn evaluate(
    config: &EvalConfig,
    started: Instant,
    suite: &LoadedSuite,
    surface: Surface,
    surface_label: &str,
    observer: &mut dyn Observer,
) -> Result<EvalOutcome, EvalError> {
    let all_tools = surface.tools.clone();
    let tools = profile_tools(surface.tools, &suite.suite, config.profile.as_deref())?;
    let (tools, left_out) = super::leave_out::leave_out(tools, &config.without)?;
    let cases: Vec<Case> = crate::suite::select(&suite.suite, &config.selection)
        .map_err(|e| EvalError::Plan(format!("{}: {e}", suite.display)))?
        .into_iter()
        .cloned()
        .collect();
    if !config.without.is_empty() && cases.iter().any(|c| c.tools.is_some()) {
        return Err(EvalError::Plan(format!(
            "{}: cases that offer their own `tools` cannot be ablated yet (leaving a tool out \
             keeps the full plan's order only for the run's tools); select cases without their \
             own tools (--cases, --skip)",
            suite.display
        )));
    }
    if tools.is_empty() && cases.iter().any(|c| c.tools.is_none()) {
        return Err(EvalError::Plan(format!(
            "no tools to offer: {surface_label} has none; give a surface (PATH, URL, --stdio) or \
             add tools[] to {}",
            suite.display
        )));
    }
    let case_tools = case_tools::resolve(&cases, &all_tools, tools, &suite.display)
        .map_err(|problems| EvalError::Plan(problems.join("\n")))?;
    let tools = case_tools.run_tools().to_vec();
    let offered = match config.profile.as_deref() {
        Some(p) => format!("profile {p:?}"),
        None => format!("the surface ({surface_label})"),
    };
    let sets: Vec<Vec<&Tool>> = case_tools
        .sets
        .iter()
        .map(|set| set.iter().map(|&i| &case_tools.pool[i]).collect())
        .collect();
    // The error rules of `mf tasks lint`, on the selected cases against what each offers.
    let problems =
        super::task_lint::blocking(&cases, &sets, &suite.display, &offered, suite.suite.format);
    if !problems.is_empty() {
        let lines: Vec<String> = problems
            .iter()
            .map(|f| format!("  {} [{}]", f.one_line(), f.code))
            .collect();
        return Err(EvalError::Plan(format!(
            "the suite cannot be evaluated as written, so no request was sent \
             (`mf tasks lint` lists the same):\n{}",
            lines.join("\n")
        )));
    }

    let execution = config
        .execute
        .as_ref()
        .map(|x| super::execute::prepare(x, &suite.suite, &suite.path, &suite.display))
        .transpose()?;
    let specs = models::resolve(config, &suite.suite, &suite.display)?;
    let pool_tokens: Vec<u64> = case_tools
        .pool
        .iter()
        .map(|t| tokens::tool_tokens(t).total as u64)
        .collect();
    let set_tokens: Vec<u64> = case_tools
        .sets
        .iter()
        .map(|set| set.iter().map(|&i| pool_tokens[i]).sum())
        .collect();
    // The run's tools as the scorecard counts them: what a case without its own set sends, or
    // the smallest set when every case has one (the health check's floor).
    let tool_tokens: u64 = if case_tools.run > 0 {
        pool_tokens[..case_tools.run].iter().sum()
    } else {
        set_tokens.iter().copied().min().unwrap_or(0)
    };
    let prompt_tokens: Vec<u64> = cases
        .iter()
        .zip(&set_tokens)
        .map(|(c, t)| t + tokens::count(&c.input) as u64)
        .collect();
    let widest = case_tools.sets.iter().map(Vec::len).max().unwrap_or(0);
    let paid = specs.iter().filter(|s| s.provider.wire().is_some()).count();
    let named_tokens: Vec<(&str, u64)> = cases
        .iter()
        .zip(&prompt_tokens)
        .map(|(c, t)| (c.id.as_str(), *t))
        .collect();
    let mut refusals = plan::check_budgets(
        &config.budgets,
        paid,
        cases.len(),
        config.repeat,
        widest,
        &named_tokens,
    );
    refusals.extend(missing_keys(&specs));
    if config.dry_run {
        let plan = dry_run(config, &specs, &cases, widest, &prompt_tokens, refusals);
        return Ok(EvalOutcome::DryRun(Box::new(plan)));
    }
    if refusals.iter().all(BudgetError::is_gate) && !refusals.is_empty() {
        return Ok(EvalOutcome::OverContext(refusals));
    }
    if !refusals.is_empty() {
        return Err(EvalError::Refused(refusals));
    }

    let models = models::build(config, specs)?;
    let case_ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    let planned = if config.without.is_empty() {
        plan::trials_for_sets(
            models.len(),
            &case_ids,
            config.repeat,
            config.seed,
            &case_tools.sets,
        )
    } else {
        left_out.apply(plan::trials(
            models.len(),
            &case_ids,
            config.repeat,
            config.seed,
            left_out.full(),
        ))
    };
    let planned = match config.shard {
        None => planned,
        Some(shard) => {
            let assignment =
                shard::assign(models.len(), &prompt_tokens, config.repeat, shard.count);
            let whole = planned.len();
            let mine: Vec<_> = planned
                .into_iter()
                .filter(|t| assignment[t.model][t.case] + 1 == shard.index)
                .collect();
            observer.note(&format!(
                "note: shard {shard}: {} of the plan's {whole} trials (the budgets were checked for all {whole})",
                mine.len()
            ));
            mine
        }
    };
    let total = planned.len();
    let options = RunOptions {
        concurrency: config.concurrency,
        cache: config.cache_dir.as_deref().map(Cache::new),
        seed: config.seed,
        cancel: observer.cancel(),
    };
    let models = Arc::new(models);
    observer.started(total, models.iter().any(RunModel::is_paid));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(EvalError::Runtime)?;
    let run_started = Instant::now();
    let result = runtime.block_on(run::run(
        Arc::clone(&models),
        case_tools.pool.clone(),
        cases
            .iter()
            .map(|c| (c.id.clone(), c.input.clone()))
            .collect(),
        planned,
        &options,
        &mut |p| observer.progress(p),
    ));
    let run_time = run_started.elapsed();
    observer.finished();
    if result.interrupted {
        return Ok(EvalOutcome::Interrupted(Interrupted {
            finished: result.records.len(),
            total,
            cached: options.cache.is_some(),
        }));
    }

    let mut card = scorecard(ScorecardInput {
        config,
        suite: &suite.suite,
        suite_display: &suite.display,
        surface_label,
        tools: &tools,
        case_tools: &case_tools,
        tool_tokens,
        cases: &cases,
        prompt_tokens: &prompt_tokens,
        models: &models,
        records: result.records,
        wall: started.elapsed(),
        run: run_time,
    });
    if let Some(prepared) = &execution {
        for note in super::execute::attach(&mut card, prepared, &suite.suite, &cases, &tools)? {
            observer.note(&note);
        }
    }
    if let Some(shard) = config.shard {
        card.shard = Some(ShardInfo {
            plan: shard::plan_fingerprint(&card),
            index: shard.index,
            count: shard.count,
            assignment: shard::ASSIGNMENT_VERSION.to_owned(),
            trials: shard::shard_trials(&card, shard),
        });
    }
    Ok(EvalOutcome::Card(Box::new(card)))
}
