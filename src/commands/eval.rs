//! `mf eval`: read the suite and the surface, resolve models, plan, check budgets, run (or show
//! the plan), score, gate, render. And `mf cache`.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::cli::eval::{CacheAction, CacheArgs, EvalArgs, EvalFormat};
use crate::cli::input::SurfaceArgs;
use crate::eval::cache::{self, Cache};
use crate::eval::plan::{self, Budgets, HARD_MAX_TOOLS, HARD_MAX_TRIALS, PERMUTATION_VERSION};
use crate::eval::run::{self, Backend, Progress, RunModel, RunOptions};
use crate::eval::{TrialRecord, score};
use crate::providers::config::{self, ModelConfig, ModelSpec, ProviderKind};
use crate::providers::http::HttpOptions;
use crate::providers::offline::{Offline, Script};
use crate::providers::provider::HttpProvider;
use crate::render::terminal::Style;
use crate::report::scorecard::{
    CaseInfo, Gate, GateKind, Health, ModelResult, Reproducibility, SCORECARD_VERSION, Scorecard,
    Selection, Status, SuiteInfo, Timing, TrialRow,
};
use crate::suite::{Case, Suite};
use crate::surface::fingerprint::surface_fingerprint;
use crate::surface::tokens::{self, TOKENIZER};
use crate::surface::{Surface, Tool};
use crate::util::atomic::write_atomic;
use crate::{Error, Exit, render};

/// Most requests in flight.
const MAX_CONCURRENCY: usize = 64;

pub(super) fn run(args: &EvalArgs, style: Style) -> Result<Exit, Error> {
    validate_flags(args)?;
    let started = Instant::now();
    let (suite, suite_display, suite_path) = load_suite(args)?;
    let (surface, surface_label) = load_surface(args, &suite, &suite_path)?;
    let card = match evaluate(
        args,
        started,
        &suite,
        &suite_display,
        surface,
        &surface_label,
    )? {
        EvalOutcome::Card(card) => card,
        EvalOutcome::DryRun { text, exit } => {
            super::print(&text)?;
            return Ok(exit);
        }
        EvalOutcome::OverContext(message) => {
            super::note(&format!("error: {message}"));
            return Ok(Exit::GateFailed);
        }
        EvalOutcome::Interrupted => return Ok(Exit::Interrupted),
    };
    if let Some(path) = &args.json_out {
        write(path, &render::json::to_string(&card))?;
    }
    match args.format {
        EvalFormat::Json => super::print(&render::json::to_string(&card))?,
        EvalFormat::Terminal => super::print(&render::terminal::eval(&card, style))?,
    }
    Ok(match card.status {
        Status::Pass => Exit::Ok,
        Status::Fail => Exit::GateFailed,
        Status::Unhealthy => Exit::Unhealthy,
    })
}

/// How one eval run ended ([`evaluate`]).
#[derive(Debug)]
pub(super) enum EvalOutcome {
    /// The run finished: its scorecard (status, gates and health inside).
    Card(Box<Scorecard>),
    /// `--dry-run`: the plan text and the exit status it earned; nothing was sent.
    DryRun {
        /// The plan as `mf eval --dry-run` prints it.
        text: String,
        /// Ok, or the budget refusal's status.
        exit: Exit,
    },
    /// A trial's prompt is over `--max-context-tokens` (a gate: exit 2); the message says which.
    OverContext(String),
    /// Ctrl-C: finished trials are cached, the note was written.
    Interrupted,
}

/// Plan, check budgets, run and score one eval of `surface` against `suite` with the settings
/// of `args` (flags already validated with [`validate_flags`]). `started` is when the command
/// began (the scorecard's wall time). Shared by `mf eval` and `mf ci` (head and base).
pub(super) fn evaluate(
    args: &EvalArgs,
    started: Instant,
    suite: &Suite,
    suite_display: &str,
    surface: Surface,
    surface_label: &str,
) -> Result<EvalOutcome, Error> {
    let tools = profile_tools(surface.tools, suite, args.profile.as_deref())?;
    if tools.is_empty() {
        return Err(Error::Usage(format!(
            "no tools to offer: {surface_label} has none; give a surface (PATH, URL, --stdio) or \
             add tools[] to {suite_display}"
        )));
    }
    let selection = crate::suite::Selection {
        ids: args.cases.clone(),
        only: args.only.clone(),
        skip: args.skip.clone(),
    };
    let cases: Vec<Case> = crate::suite::select(suite, &selection)
        .map_err(|e| Error::Usage(format!("{suite_display}: {e}")))?
        .into_iter()
        .cloned()
        .collect();

    let specs = resolve_models(args, suite)?;
    let tool_tokens: u64 = tools
        .iter()
        .map(|t| tokens::tool_tokens(t).total as u64)
        .sum();
    let prompt_tokens: Vec<u64> = cases
        .iter()
        .map(|c| tool_tokens + tokens::count(&c.input) as u64)
        .collect();
    let paid = specs.iter().filter(|s| s.provider.wire().is_some()).count();
    let budgets = Budgets {
        max_trials: args.max_trials,
        max_tools: args.max_tools,
        max_context_tokens: args.max_context_tokens,
    };
    let named_tokens: Vec<(&str, u64)> = cases
        .iter()
        .zip(&prompt_tokens)
        .map(|(c, t)| (c.id.as_str(), *t))
        .collect();
    let budget = plan::check_budgets(
        &budgets,
        paid,
        cases.len(),
        args.repeat,
        tools.len(),
        &named_tokens,
    );
    if args.dry_run {
        let text = dry_run_text(
            args,
            &specs,
            &cases,
            &tools,
            &prompt_tokens,
            budget.as_ref().err(),
        );
        let exit = match budget {
            Ok(()) => Exit::Ok,
            Err(plan::BudgetError::Context { .. }) => Exit::GateFailed,
            Err(_) => Exit::InputError,
        };
        return Ok(EvalOutcome::DryRun { text, exit });
    }
    match budget {
        Ok(()) => {}
        Err(e @ plan::BudgetError::Context { .. }) => {
            return Ok(EvalOutcome::OverContext(e.to_string()));
        }
        Err(e) => return Err(Error::Usage(e.to_string())),
    }

    let models = build_models(args, specs)?;
    let case_ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    let planned = plan::trials(models.len(), &case_ids, args.repeat, args.seed, tools.len());
    let total = planned.len();
    let cache = (!args.no_cache)
        .then(|| Cache::new(&args.cache_dir.clone().unwrap_or_else(cache::default_dir)));
    let options = RunOptions {
        concurrency: args.concurrency,
        cache,
        seed: args.seed,
    };
    let models = Arc::new(models);
    // Offline answers take microseconds: progress is for runs that wait on a provider.
    let any_paid = models.iter().any(RunModel::is_paid);
    let mut reporter = Reporter::new(
        total,
        any_paid,
        !args.no_progress && std::io::stderr().is_terminal(),
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Usage(format!("cannot start the async runtime: {e}")))?;
    let run_started = Instant::now();
    let result = runtime.block_on(run::run(
        Arc::clone(&models),
        tools.clone(),
        cases
            .iter()
            .map(|c| (c.id.clone(), c.input.clone()))
            .collect(),
        planned,
        &options,
        &mut |p| reporter.update(p),
    ));
    let run_time = run_started.elapsed();
    reporter.finish();
    if result.interrupted {
        super::note(&format!(
            "interrupted: {} of {total} trials finished{}; run the same command again to pay only for the rest",
            result.records.len(),
            if options.cache.is_some() {
                " and are cached"
            } else {
                " (--no-cache: they are not kept)"
            }
        ));
        return Ok(EvalOutcome::Interrupted);
    }

    let card = scorecard(ScorecardInput {
        args,
        suite,
        suite_display,
        surface_label,
        tools: &tools,
        tool_tokens,
        cases: &cases,
        prompt_tokens: &prompt_tokens,
        models: &models,
        records: result.records,
        wall: started.elapsed(),
        run: run_time,
    });
    Ok(EvalOutcome::Card(Box::new(card)))
}

/// Check the flags that clap cannot (ranges, caps, combinations).
pub(super) fn validate_flags(args: &EvalArgs) -> Result<(), Error> {
    let bad = |m: String| Err(Error::Usage(m));
    if args.repeat == 0 {
        return bad("--repeat must be at least 1".into());
    }
    if args.max_trials > HARD_MAX_TRIALS {
        return bad(format!("--max-trials is capped at {HARD_MAX_TRIALS}"));
    }
    if args.max_tools > HARD_MAX_TOOLS {
        return bad(format!("--max-tools is capped at {HARD_MAX_TOOLS}"));
    }
    if args.concurrency == 0 || args.concurrency > MAX_CONCURRENCY {
        return bad(format!("--concurrency must be 1–{MAX_CONCURRENCY}"));
    }
    if args.timeout == 0 {
        return bad("--timeout must be at least 1 second".into());
    }
    for (flag, v) in [
        ("--min-accuracy", args.min_accuracy),
        ("--max-over-trigger", args.max_over_trigger),
        ("--max-error-rate", Some(args.max_error_rate)),
    ] {
        if let Some(v) = v
            && !(0.0..=1.0).contains(&v)
        {
            return bad(format!("{flag} is a rate between 0 and 1, got {v}"));
        }
    }
    if let Some(t) = args.temperature
        && !(0.0..=2.0).contains(&t)
    {
        return bad(format!("--temperature must be between 0 and 2, got {t}"));
    }
    if args.seconds_per_trial.is_some() && !args.dry_run {
        return bad("--seconds-per-trial only applies to --dry-run".into());
    }
    Ok(())
}

/// Suite files looked for when `--suite` is not given, in this order.
const DEFAULT_SUITES: &[&str] = &["mf.suite.json", "mf.suite.yaml", "mf.suite.yml"];

/// The suite of `--suite` (or the default one here), checked for eval: its display path and path.
pub(super) fn load_suite(args: &EvalArgs) -> Result<(Suite, String, PathBuf), Error> {
    let path = match &args.suite {
        Some(p) => p.clone(),
        None => default_suite().ok_or_else(|| {
            Error::Usage(
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
        if let Some(expected) = &case.expected_args
            && let Err(e) = crate::eval::args::validate_expected_args(expected)
        {
            let at = case.line.map(|l| format!(":{l}")).unwrap_or_default();
            problems.push(format!(
                "{display}{at}: case {:?}: expectedArgs: {e}",
                case.id
            ));
        }
    }
    if !problems.is_empty() {
        return Err(Error::Usage(problems.join("\n")));
    }
    Ok((suite, display, path))
}

/// The first default suite that exists, preferring one that is not a `draft: true` scan output.
fn default_suite() -> Option<PathBuf> {
    let found: Vec<PathBuf> = DEFAULT_SUITES
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.is_file())
        .collect();
    let is_draft =
        |p: &PathBuf| crate::suite::read_suite_any(p, &p.to_string_lossy()).is_ok_and(|s| s.draft);
    found
        .iter()
        .find(|p| !is_draft(p))
        .or(found.first())
        .cloned()
}

fn load_surface(
    args: &EvalArgs,
    suite: &Suite,
    suite_path: &Path,
) -> Result<(Surface, String), Error> {
    let explicit = !args.paths.is_empty() || args.live.wants_live();
    if explicit {
        let input = super::input::load(&SurfaceArgs {
            paths: args.paths.clone(),
            suite: None,
            live: args.live.clone(),
        })?;
        for w in &input.warnings {
            super::note(&format!("warning: {w}"));
        }
        return Ok((input.surface, input.label));
    }
    let display = suite_path.to_string_lossy().replace('\\', "/");
    let (surface, warnings, label) = super::input::suite_surface(suite, suite_path, &display)?;
    for w in &warnings {
        super::note(&format!("warning: {w}"));
    }
    if !surface.tools.is_empty() {
        return Ok((surface, label));
    }
    Err(Error::Usage(format!(
        "no tools: {label} offers none (the suite has no tools[] or its surface has no tools); \
         give the tools as PATH, URL, --stdio or --server"
    )))
}

fn profile_tools(
    tools: Vec<Tool>,
    suite: &Suite,
    profile: Option<&str>,
) -> Result<Vec<Tool>, Error> {
    let mut seen = std::collections::BTreeSet::new();
    let mut dupes = Vec::new();
    for t in &tools {
        if !seen.insert(t.name.clone()) {
            dupes.push(t.name.clone());
        }
    }
    if !dupes.is_empty() {
        return Err(Error::Usage(format!(
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
        return Err(Error::Usage(format!(
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

/// `--models` resolved against the suite's and `mf.toml`'s named models.
pub(super) fn resolve_models(args: &EvalArgs, suite: &Suite) -> Result<Vec<ModelSpec>, Error> {
    let mut named: BTreeMap<String, ModelConfig> = suite.models.clone();
    let config_path = args.config.clone().or_else(|| {
        let p = PathBuf::from("mf.toml");
        p.exists().then_some(p)
    });
    if let Some(p) = config_path {
        let file = config::read_config(&p).map_err(|e| Error::Usage(e.to_string()))?;
        named.extend(file.models);
    }
    let mut specs = Vec::new();
    let mut labels = std::collections::BTreeSet::new();
    for entry in &args.models {
        let mut spec =
            config::resolve_model(entry, &named).map_err(|e| Error::Usage(e.to_string()))?;
        if !labels.insert(spec.label.clone()) {
            return Err(Error::Usage(format!(
                "--models lists {:?} twice",
                spec.label
            )));
        }
        if spec.base_url.is_none()
            && let Some(url) = &args.base_url
            && spec.provider.wire().is_some()
        {
            spec.base_url = Some(url.clone());
        }
        spec.tool_choice_auto |= args.tool_choice_auto;
        if spec.provider == ProviderKind::OpenaiCompatible && spec.endpoint().is_none() {
            return Err(Error::Usage(format!(
                "{entry}: openai-compatible needs --base-url (or base_url in mf.toml)"
            )));
        }
        specs.push(spec);
    }
    Ok(specs)
}

fn build_models(args: &EvalArgs, specs: Vec<ModelSpec>) -> Result<Vec<RunModel>, Error> {
    let options = HttpOptions {
        timeout: Duration::from_secs(args.timeout),
        retries: args.retries,
        ..HttpOptions::default()
    };
    let mut client = None;
    let mut out = Vec::new();
    for spec in specs {
        let backend = match spec.provider {
            ProviderKind::Mock => Backend::Offline(Offline::Mock),
            ProviderKind::Lexical => Backend::Offline(Offline::Lexical),
            ProviderKind::Scripted => {
                let path = spec.script.clone().unwrap_or_default();
                Backend::Offline(Offline::Scripted(
                    Script::read(&path).map_err(Error::Usage)?,
                ))
            }
            _ => {
                if client.is_none() {
                    client = Some(http_client()?);
                }
                let c = client.clone().unwrap_or_default();
                Backend::Http(Box::new(
                    HttpProvider::new(&spec, options.clone(), c)
                        .map_err(|e| Error::Usage(e.to_string()))?,
                ))
            }
        };
        out.push(RunModel {
            temperature: spec.temperature.or(args.temperature),
            max_output_tokens: spec.max_output_tokens.unwrap_or(args.max_output_tokens),
            spec,
            backend,
        });
    }
    Ok(out)
}

fn http_client() -> Result<reqwest::Client, Error> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("mf/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| Error::Usage(format!("cannot build the HTTP client: {e}")))
}

fn dry_run_text(
    args: &EvalArgs,
    specs: &[ModelSpec],
    cases: &[Case],
    tools: &[Tool],
    prompt_tokens: &[u64],
    budget: Option<&plan::BudgetError>,
) -> String {
    let per_model = cases.len() as u64 * u64::from(args.repeat);
    let prompt_per_model: u64 = prompt_tokens.iter().sum::<u64>() * u64::from(args.repeat);
    let mut s = String::new();
    s.push_str(&format!(
        "plan: {} cases × {} repeats × {} models = {} trials; {} tools offered in a shuffled order per trial (seed {}, {PERMUTATION_VERSION})\n",
        cases.len(),
        args.repeat,
        specs.len(),
        per_model * specs.len() as u64,
        tools.len(),
        args.seed
    ));
    s.push_str(&format!(
        "prompt tokens (lower bound, {TOKENIZER}): {} per model, {}–{} per trial\n",
        prompt_per_model,
        prompt_tokens.iter().min().copied().unwrap_or(0),
        prompt_tokens.iter().max().copied().unwrap_or(0),
    ));
    for spec in specs {
        let cost = match (&spec.price, spec.provider.wire()) {
            (_, None) => "free (offline)".to_owned(),
            (Some(p), Some(_)) => format!(
                "≥ {:.4} {} (input tokens only; output adds more)",
                prompt_per_model as f64 * p.input / 1e6,
                p.currency
            ),
            (None, Some(_)) => "unknown (no price configured for this model)".to_owned(),
        };
        s.push_str(&format!(
            "  {:<40} {} trials  cost {}\n",
            spec.label, per_model, cost
        ));
    }
    let paid = specs.iter().filter(|s| s.provider.wire().is_some()).count() as u64;
    if let Some(secs) = args.seconds_per_trial {
        let waves = (per_model * paid).div_ceil(args.concurrency as u64);
        s.push_str(&format!(
            "wall time: about {:.0} s for paid requests ({waves} waves of {} at {secs} s)\n",
            waves as f64 * secs,
            args.concurrency
        ));
    }
    match budget {
        None => s.push_str(&format!(
            "budget: ok ({} paid trials of --max-trials {}, {} tools of --max-tools {})\n",
            per_model * paid,
            args.max_trials,
            tools.len(),
            args.max_tools
        )),
        Some(e) => s.push_str(&format!("budget: REFUSED — {e}\n")),
    }
    s.push_str("dry run: nothing was sent\n");
    s
}

struct ScorecardInput<'a> {
    args: &'a EvalArgs,
    suite: &'a Suite,
    suite_display: &'a str,
    surface_label: &'a str,
    tools: &'a [Tool],
    tool_tokens: u64,
    cases: &'a [Case],
    prompt_tokens: &'a [u64],
    models: &'a [RunModel],
    records: Vec<TrialRecord>,
    wall: Duration,
    run: Duration,
}

fn input_hash(input: &str) -> String {
    let digest = Sha256::digest(input.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn scorecard(inp: ScorecardInput<'_>) -> Scorecard {
    let args = inp.args;
    let mut by_model: BTreeMap<String, Vec<TrialRecord>> = BTreeMap::new();
    for r in inp.records {
        by_model.entry(r.model.clone()).or_default().push(r);
    }
    let case_by_id: BTreeMap<&str, &Case> = inp.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut gates = Vec::new();
    let mut models = Vec::new();
    for m in inp.models {
        let records = by_model.remove(&m.spec.label).unwrap_or_default();
        let metrics = score::metrics(inp.cases, inp.tools, &records, m.spec.price.as_ref());
        let mut errors_by_kind = BTreeMap::new();
        let mut requests = 0;
        let mut rows = Vec::with_capacity(records.len());
        for r in &records {
            let Some(case) = case_by_id.get(r.case_id.as_str()) else {
                continue;
            };
            let scored = score::score_trial(case, inp.tools, r);
            if !r.cached && m.is_paid() {
                requests += u64::from(r.retries) + 1;
            }
            let (calls, text, usage, error) = match &r.outcome {
                Ok(reply) => (
                    reply.calls.clone(),
                    reply.text.as_ref().map(|t| t.chars().take(500).collect()),
                    reply.usage,
                    None,
                ),
                Err(e) => {
                    *errors_by_kind
                        .entry(
                            serde_json::to_value(e.kind)
                                .ok()
                                .and_then(|v| v.as_str().map(str::to_owned))
                                .unwrap_or_default(),
                        )
                        .or_insert(0u64) += 1;
                    (Vec::new(), None, None, Some(e.clone()))
                }
            };
            rows.push(TrialRow {
                case: r.case_id.clone(),
                trial: r.trial,
                order: r.order.clone(),
                verdict: scored.verdict,
                calls,
                args: scored.args,
                text,
                error,
                latency_ms: r.latency_ms,
                usage,
                retries: r.retries,
                cached: r.cached,
            });
        }
        let mut problems = Vec::new();
        let error_rate = metrics.error_rate.value;
        let healthy_errors = error_rate.is_some_and(|v| v <= args.max_error_rate);
        if !healthy_errors {
            problems.push(format!(
                "{} of {} trials ended in errors, over --max-error-rate {}",
                metrics.errors, metrics.trials, args.max_error_rate
            ));
        }
        if let Some(problem) = tools_unseen(&metrics, inp.tool_tokens) {
            problems.push(problem);
        }
        let healthy_scored = metrics.scored >= args.min_scored;
        if !healthy_scored {
            problems.push(format!(
                "{} scored trials, under --min-scored {}",
                metrics.scored, args.min_scored
            ));
        }
        let label = &m.spec.label;
        let gate = |name: &str, threshold: f64, value: Option<f64>, passed: bool, kind| Gate {
            name: name.to_owned(),
            model: label.clone(),
            threshold,
            value,
            passed,
            kind,
        };
        gates.push(gate(
            "max-error-rate",
            args.max_error_rate,
            error_rate,
            healthy_errors,
            GateKind::Health,
        ));
        gates.push(gate(
            "min-scored",
            args.min_scored as f64,
            Some(metrics.scored as f64),
            healthy_scored,
            GateKind::Health,
        ));
        // An unmeasured value (`None`) fails its gate.
        if let Some(min) = args.min_accuracy {
            let v = metrics.selection_accuracy.value;
            let passed = v.is_some_and(|v| v >= min);
            gates.push(gate("min-accuracy", min, v, passed, GateKind::Quality));
        }
        if let Some(max) = args.max_over_trigger {
            let v = metrics.over_trigger.value;
            let passed = v.is_some_and(|v| v <= max);
            gates.push(gate("max-over-trigger", max, v, passed, GateKind::Quality));
        }
        models.push(ModelResult {
            label: m.spec.label.clone(),
            provider: m.spec.provider.id().to_owned(),
            wire: m.wire().to_owned(),
            model: m.spec.model.clone(),
            endpoint: m.endpoint(),
            request_fingerprint: m.request_fingerprint(),
            temperature: m.temperature,
            max_output_tokens: m.max_output_tokens,
            price: m.spec.price.clone(),
            health: Health {
                healthy: problems.is_empty(),
                problems,
                requests,
                errors_by_kind,
            },
            metrics,
            trials: rows,
        });
    }
    let unhealthy = gates
        .iter()
        .any(|g| !g.passed && g.kind == GateKind::Health)
        || models.iter().any(|m| !m.health.healthy);
    let status = if unhealthy {
        Status::Unhealthy
    } else if gates.iter().any(|g| !g.passed) {
        Status::Fail
    } else {
        Status::Pass
    };
    let surface = Surface {
        tools: inp.tools.to_vec(),
        skills: Vec::new(),
    };
    Scorecard {
        version: SCORECARD_VERSION,
        kind: "scorecard".into(),
        status,
        suite: SuiteInfo {
            name: inp.suite.name.clone(),
            path: inp.suite_display.to_owned(),
            surface: inp.surface_label.to_owned(),
            fingerprint: surface_fingerprint(&surface),
            tools: inp.tools.iter().map(|t| t.name.clone()).collect(),
            tool_tokens: inp.tool_tokens,
            cases: inp
                .cases
                .iter()
                .zip(inp.prompt_tokens)
                .map(|(c, t)| CaseInfo {
                    id: c.id.clone(),
                    input_hash: input_hash(&c.input),
                    expected_tool: c.expected_tool.clone().flatten(),
                    reviewed: c.reviewed,
                    tags: c.tags.clone(),
                    line: c.line,
                    prompt_tokens: *t,
                })
                .collect(),
            cases_in_suite: inp.suite.cases.len(),
            selection: Selection {
                cases: args.cases.clone(),
                only: args.only.clone(),
                skip: args.skip.clone(),
            },
            profile: args.profile.clone(),
        },
        reproducibility: Reproducibility {
            mf_version: env!("CARGO_PKG_VERSION").to_owned(),
            permutation: PERMUTATION_VERSION.to_owned(),
            seed: args.seed,
            repeat: args.repeat,
            tokenizer: TOKENIZER.to_owned(),
            cache_version: cache::CACHE_VERSION.to_owned(),
        },
        models,
        gates,
        timing: Timing {
            wall_ms: inp.wall.as_millis() as u64,
            run_ms: inp.run.as_millis() as u64,
        },
    }
}

/// A provider that reports fewer input tokens per trial than half of what the tools alone take
/// (o200k_base; other tokenizers differ by far less than 2×), and whose model never called a
/// tool of the surface, did not show the tools to the model: its answers measure nothing about
/// the surface. (A call by an exact surface name proves the tools were shown; some servers —
/// llama-cpp-python's function calling — under-report prompt tokens even then.)
fn tools_unseen(
    metrics: &crate::report::metrics::ModelMetrics,
    tool_tokens: u64,
) -> Option<String> {
    let t = &metrics.tokens;
    if t.trials_with_usage == 0 || tool_tokens < 50 {
        return None;
    }
    let per_trial = t.input / t.trials_with_usage;
    let called_a_surface_tool = metrics
        .per_tool
        .iter()
        .any(|p| p.on_surface && p.picked > 0);
    (per_trial * 2 < tool_tokens && !called_a_surface_tool).then(|| {
        format!(
            "the provider reported {per_trial} input tokens per trial on average, under half of \
             the {tool_tokens} tokens the tools alone take: it probably did not show the tools to \
             the model (some servers drop tools unless tool_choice is sent: try --tool-choice-auto)"
        )
    })
}

/// Progress on stderr: a bar on a terminal, a line per 10% otherwise.
struct Reporter {
    bar: Option<indicatif::ProgressBar>,
    enabled: bool,
    total: usize,
    next_line: usize,
}

impl Reporter {
    fn new(total: usize, enabled: bool, tty: bool) -> Reporter {
        let bar = (enabled && tty).then(|| {
            let bar = indicatif::ProgressBar::new(total as u64);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} trials {msg} [{elapsed_precise}]",
            ) {
                bar.set_style(style);
            }
            bar
        });
        Reporter {
            bar,
            enabled,
            total,
            next_line: 0,
        }
    }

    fn update(&mut self, p: Progress) {
        if !self.enabled {
            return;
        }
        if let Some(bar) = &self.bar {
            bar.set_position(p.done as u64);
            bar.set_message(format!("({} cached, {} errors)", p.cached, p.errors));
            return;
        }
        if p.done >= self.next_line || p.done == p.total {
            super::note(&format!(
                "eval: {}/{} trials ({} cached, {} errors)",
                p.done, p.total, p.cached, p.errors
            ));
            self.next_line = p.done + (self.total / 10).max(1);
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    write_atomic(path, text.as_bytes()).map_err(|source| Error::Write {
        path: path.to_owned(),
        source,
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
