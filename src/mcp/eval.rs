//! `run_eval` of `mf mcp`: the arguments into an [`EvalConfig`] under the operator's limits
//! (paid models refused unless allowed, trials/repeat/tools capped, the cache only when the
//! operator turned it on), then [`crate::eval::evaluate`] on its own thread with an observer
//! that forwards progress and carries the client's cancellation. Returns a compact summary;
//! `resultFile` gets the full scorecard.

use std::sync::mpsc;
use std::time::Instant;

use serde_json::{Value, json};

use super::args::{Args, Refusal};
use super::handlers::{Outcome, Reply, suite_path};
use super::limits::Limits;
use crate::eval::config::{DEFAULT_REPEAT, EvalConfig};
use crate::eval::evaluate::suite_tools;
use crate::eval::run::{Cancel, Progress};
use crate::eval::{self, EvalOutcome, Observer, models};
use crate::report::metrics::Verdict;
use crate::report::scorecard::Scorecard;
use crate::suite::Selection;

/// What the eval thread tells the server while it runs.
#[derive(Debug, Clone)]
pub enum Event {
    /// Trials planned (sent once, before the first trial).
    Started(usize),
    /// A trial finished.
    Progress(Progress),
    /// A warning or note for people.
    Note(String),
}

/// The observer handed to the engine: events go to the server, the cancel switch comes from it.
#[derive(Debug)]
pub struct Forward {
    /// Where events go.
    pub events: mpsc::Sender<Event>,
    /// The client's cancellation.
    pub cancel: Cancel,
}

impl Observer for Forward {
    fn note(&mut self, line: &str) {
        let _ = self.events.send(Event::Note(line.to_owned()));
    }
    fn started(&mut self, total: usize, _paid: bool) {
        let _ = self.events.send(Event::Started(total));
    }
    fn progress(&mut self, progress: Progress) {
        let _ = self.events.send(Event::Progress(progress));
    }
    fn finished(&mut self) {}
    fn cancel(&self) -> Option<Cancel> {
        Some(self.cancel.clone())
    }
}

/// A validated `run_eval` call, ready to run.
#[derive(Debug)]
pub struct EvalCall {
    config: EvalConfig,
    suite: eval::LoadedSuite,
    result_file: Option<std::path::PathBuf>,
}

/// Check the arguments against the limits; nothing runs here.
pub fn prepare(args: &Args, limits: &Limits) -> Result<EvalCall, Refusal> {
    let suite_file = suite_path("run_eval", args, limits)?;
    let mut models_wanted = args.strings("models")?;
    if models_wanted.is_empty() {
        models_wanted.push("lexical".to_owned());
    }
    let repeat = match args.u64("repeat")? {
        None => DEFAULT_REPEAT.min(limits.max_repeat),
        Some(r) if r == 0 || r > u64::from(limits.max_repeat) => {
            return Err(Refusal(format!(
                "run_eval: repeat {r} is outside 1–{} (the operator's --max-repeat); ask for fewer repeats",
                limits.max_repeat
            )));
        }
        Some(r) => r as u32,
    };
    let max_trials = match args.u64("maxTrials")? {
        None => limits.max_trials,
        Some(n) if n > limits.max_trials => {
            return Err(Refusal(format!(
                "run_eval: maxTrials {n} is above the operator's cap of {} trials (mf mcp \
                 --max-trials); an agent can lower the cap, never raise it — ask for at most {} \
                 or fewer cases/repeats",
                limits.max_trials, limits.max_trials
            )));
        }
        Some(n) => n,
    };
    let fail_under = args.f64("failUnder")?;
    if let Some(f) = fail_under
        && !(0.0..=1.0).contains(&f)
    {
        return Err(Refusal(format!(
            "run_eval: failUnder is a rate between 0 and 1, got {f}"
        )));
    }
    let result_file = match args.str("resultFile")? {
        Some(p) => Some(limits.resolve("resultFile", p)?),
        None => None,
    };
    let mut config = EvalConfig {
        models: models_wanted,
        profile: args.str("profile")?.map(str::to_owned),
        selection: Selection {
            ids: args.strings("cases")?,
            only: args.strings("only")?,
            skip: args.strings("skip")?,
        },
        repeat,
        seed: args.u64("seed")?.unwrap_or(0),
        dry_run: args.bool("dryRun", false)?,
        concurrency: limits.concurrency,
        cache_dir: limits.cache_dir.clone(),
        ..EvalConfig::default()
    };
    config.budgets.max_trials = max_trials;
    config.budgets.max_tools = limits.max_tools;
    config.gates.min_accuracy = fail_under;
    config
        .validate()
        .map_err(|e| Refusal(format!("run_eval: {e}")))?;
    let suite =
        eval::load_suite(Some(&suite_file)).map_err(|e| Refusal(format!("run_eval: {e}")))?;
    let specs = models::resolve(&config, &suite.suite, &suite.display)
        .map_err(|e| Refusal(format!("run_eval: {e}")))?;
    let paid: Vec<&str> = specs
        .iter()
        .filter(|s| s.provider.wire().is_some())
        .map(|s| s.label.as_str())
        .collect();
    // A dry run sends nothing, so it may plan a paid run the operator has not allowed.
    if !paid.is_empty() && !limits.allow_paid_runs && !config.dry_run {
        return Err(Refusal(format!(
            "run_eval: {} send{} requests to a model provider (a paid run), and this mf mcp was \
             started without --allow-paid-runs; use models [\"lexical\"] for a free offline run, \
             plan with dryRun: true, or ask the operator to restart mf mcp with --allow-paid-runs",
            paid.join(", "),
            if paid.len() == 1 { "s" } else { "" }
        )));
    }
    Ok(EvalCall {
        config,
        suite,
        result_file,
    })
}

/// Run a prepared call (blocking: call it off the async runtime).
pub fn run(call: EvalCall, observer: &mut Forward) -> Outcome {
    let started = Instant::now();
    let (surface, warnings, label) =
        suite_tools(&call.suite).map_err(|e| Refusal(format!("run_eval: {e}")))?;
    for w in warnings {
        observer.note(&format!("warning: {w}"));
    }
    let outcome = eval::evaluate(
        &call.config,
        started,
        &call.suite,
        surface,
        &label,
        observer,
    )
    .map_err(|e| Refusal(format!("run_eval: {e}")))?;
    match outcome {
        EvalOutcome::Card(card) => {
            let mut wrote = None;
            if let Some(path) = &call.result_file {
                let text = crate::render::json::to_string(&*card);
                // The path was resolved inside the working directory; its missing folders are
                // created (they were not there to be symlinks).
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(parent).map_err(|e| {
                        Refusal(format!("run_eval: cannot create {}: {e}", parent.display()))
                    })?;
                }
                crate::util::atomic::write_atomic(path, text.as_bytes()).map_err(|e| {
                    Refusal(format!(
                        "run_eval: cannot write resultFile {}: {e}",
                        path.display()
                    ))
                })?;
                wrote = Some(path.to_string_lossy().replace('\\', "/"));
            }
            Ok(compact(&card, wrote))
        }
        EvalOutcome::DryRun(plan) => {
            let text = crate::render::dry_run::text(&plan);
            let refusals: Vec<String> = plan.refusals.iter().map(ToString::to_string).collect();
            Ok(Reply {
                summary: format!(
                    "dry run: {} trials per model, {} paid; nothing was sent{}",
                    plan.trials_per_model,
                    plan.paid_trials,
                    if refusals.is_empty() {
                        String::new()
                    } else {
                        format!("; {} refusal(s)", refusals.len())
                    }
                ),
                data: json!({
                    "kind": "eval-dry-run",
                    "cases": plan.cases,
                    "repeat": plan.repeat,
                    "tools": plan.tools,
                    "trialsPerModel": plan.trials_per_model,
                    "paidTrials": plan.paid_trials,
                    "promptTokensPerModel": plan.prompt_tokens_per_model,
                    "maxTrials": plan.max_trials,
                    "refusals": refusals,
                    "plan": text,
                }),
            })
        }
        EvalOutcome::OverContext(refusals) => Err(Refusal(format!(
            "run_eval: {}",
            refusals
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        ))),
        EvalOutcome::Interrupted(kept) => Ok(Reply {
            summary: format!("cancelled: {kept}"),
            data: json!({
                "kind": "eval-cancelled",
                "finished": kept.finished,
                "total": kept.total,
                "cached": kept.cached,
            }),
        }),
    }
}

/// Most wrong trials listed in the compact result.
const MAX_MISSES: usize = 20;

/// The scorecard in a few lines: status, per model the headline rates, the gates, and the
/// first wrong trials.
fn compact(card: &Scorecard, result_file: Option<String>) -> Reply {
    let rate = |r: &crate::report::metrics::Rate| json!({"value": r.value, "numerator": r.numerator, "denominator": r.denominator, "ci95": r.ci95});
    let mut lines = Vec::new();
    let mut models = Vec::new();
    let mut misses = Vec::new();
    for m in &card.models {
        let x = &m.metrics;
        lines.push(format!(
            "{}: selection accuracy {} ({}/{} trials){}",
            m.label,
            crate::render::text::percent(x.selection_accuracy.value),
            x.selection_accuracy.numerator,
            x.selection_accuracy.denominator,
            if x.cached > 0 {
                format!(", {} cached", x.cached)
            } else {
                String::new()
            }
        ));
        models.push(json!({
            "label": m.label,
            "healthy": m.health.healthy,
            "trials": x.trials,
            "errors": x.errors,
            "cached": x.cached,
            "selectionAccuracy": rate(&x.selection_accuracy),
            "caseLevel": x.case_level,
            "argumentAccuracy": rate(&x.argument_accuracy),
            "overTrigger": rate(&x.over_trigger),
            "abstention": rate(&x.abstention),
        }));
        for t in &m.trials {
            if misses.len() >= MAX_MISSES {
                break;
            }
            if !matches!(t.verdict, Verdict::Correct | Verdict::CorrectAbstention) {
                misses.push(json!({
                    "model": m.label,
                    "case": t.case,
                    "trial": t.trial,
                    "verdict": t.verdict,
                    "called": t.calls.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
                }));
            }
        }
    }
    let status = serde_json::to_value(card.status).unwrap_or(Value::Null);
    let summary = format!(
        "run_eval {}: {}{}",
        status.as_str().unwrap_or("?"),
        lines.join("; "),
        result_file
            .as_ref()
            .map(|f| format!("; full scorecard in {f}"))
            .unwrap_or_default()
    );
    Reply {
        summary,
        data: json!({
            "kind": "eval-summary",
            "status": status,
            "suite": card.suite.path,
            "surface": card.suite.surface,
            "cases": card.suite.cases.len(),
            "repeat": card.reproducibility.repeat,
            "seed": card.reproducibility.seed,
            "models": models,
            "gates": card.gates,
            "misses": misses,
            "resultFile": result_file,
        }),
    }
}
