//! The runner: send the planned trials with bounded concurrency, serve what the cache has,
//! store what comes back, and stop cleanly on Ctrl-C or a [`Cancel`] (finished trials are
//! already stored).
//!
//! Memory stays flat in the number of trials: at most `concurrency` requests are in flight and
//! each finished trial keeps only its parsed reply.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::Notify;
use tokio::task::JoinSet;

use super::TrialRecord;
use super::cache::{self, Cache};
use super::plan::PlannedTrial;
use crate::providers::config::ModelSpec;
use crate::providers::offline::Offline;
use crate::providers::provider::HttpProvider;
use crate::providers::{ErrorKind, TrialError, TrialRequest};
use crate::surface::Tool;

/// How a model answers.
#[derive(Debug)]
pub enum Backend {
    /// Over HTTP.
    Http(Box<HttpProvider>),
    /// In-process.
    Offline(Offline),
}

/// A model ready to run.
#[derive(Debug)]
pub struct RunModel {
    /// What the user asked for.
    pub spec: ModelSpec,
    /// How it answers.
    pub backend: Backend,
    /// Temperature sent (None = provider default).
    pub temperature: Option<f64>,
    /// Output cap sent.
    pub max_output_tokens: u32,
}

impl RunModel {
    /// The wire id (`offline` for in-process models).
    pub fn wire(&self) -> &'static str {
        match &self.backend {
            Backend::Http(h) => h.wire_id(),
            Backend::Offline(_) => "offline",
        }
    }

    /// The endpoint without secrets (`offline` for in-process models).
    pub fn endpoint(&self) -> String {
        match &self.backend {
            Backend::Http(h) => h.endpoint_display(),
            Backend::Offline(_) => "offline".to_owned(),
        }
    }

    /// `sha256:` over what shapes every request besides the trial (see
    /// [`HttpProvider::request_fingerprint`]); offline models hash their label.
    pub fn request_fingerprint(&self) -> String {
        match &self.backend {
            Backend::Http(h) => h.request_fingerprint(self.temperature, self.max_output_tokens),
            Backend::Offline(_) => {
                use sha2::{Digest, Sha256};
                let digest = Sha256::digest(format!("offline\0{}", self.spec.label).as_bytes());
                let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
                format!("sha256:{hex}")
            }
        }
    }

    /// Whether this model costs money (sends requests).
    pub fn is_paid(&self) -> bool {
        matches!(self.backend, Backend::Http(_))
    }
}

/// Progress as the runner sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Trials finished (answered, failed or served from the cache).
    pub done: usize,
    /// Trials planned.
    pub total: usize,
    /// Of `done`, served from the cache.
    pub cached: usize,
    /// Of `done`, ended in an error.
    pub errors: usize,
}

/// A way to stop a run from outside, as Ctrl-C does (an MCP client cancelling `run_eval`):
/// requests in flight are abandoned, finished trials are kept (and are in the cache when it is
/// on), and the run ends as interrupted. Clones share one switch.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<CancelInner>);

#[derive(Debug, Default)]
struct CancelInner {
    flag: AtomicBool,
    notify: Notify,
}

impl Cancel {
    /// A switch that is off.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Turn it on: the run stops at its next step.
    pub fn cancel(&self) {
        self.0.flag.store(true, Ordering::SeqCst);
        self.0.notify.notify_waiters();
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.flag.load(Ordering::SeqCst)
    }

    /// Resolves once cancelled.
    async fn cancelled(&self) {
        loop {
            let notified = self.0.notify.notified();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}

/// Runner settings.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Most requests in flight.
    pub concurrency: usize,
    /// The cache, unless `--no-cache`.
    pub cache: Option<Cache>,
    /// Permutation seed (part of the cache key).
    pub seed: u64,
    /// Stops the run from outside (besides Ctrl-C).
    pub cancel: Option<Cancel>,
}

/// What a run produced.
#[derive(Debug)]
pub struct RunResult {
    /// Finished trials in plan order (all of them unless interrupted).
    pub records: Vec<TrialRecord>,
    /// Ctrl-C stopped the run.
    pub interrupted: bool,
    /// Requests sent in this run (attempts, retries included).
    pub requests: u64,
    /// Trials served from the cache.
    pub cached: u64,
}

/// Shared, immutable inputs of every trial task.
struct Shared {
    models: Arc<Vec<RunModel>>,
    tools: Vec<Tool>,
    inputs: Vec<String>,
    case_ids: Vec<String>,
    cache: Option<Cache>,
    seed: u64,
}

/// Run `plan` (indices into `models`, `cases` as `(id, input)`, `tools`). `progress` is called after every
/// finished trial.
pub async fn run(
    models: Arc<Vec<RunModel>>,
    tools: Vec<Tool>,
    cases: Vec<(String, String)>,
    plan: Vec<PlannedTrial>,
    options: &RunOptions,
    progress: &mut dyn FnMut(Progress),
) -> RunResult {
    let (case_ids, inputs) = cases.into_iter().unzip();
    let shared = Arc::new(Shared {
        models,
        tools,
        inputs,
        case_ids,
        cache: options.cache.clone(),
        seed: options.seed,
    });
    let total = plan.len();
    let mut slots: Vec<Option<TrialRecord>> = vec![None; total];
    let mut p = Progress {
        done: 0,
        total,
        cached: 0,
        errors: 0,
    };
    let mut requests = 0u64;
    let mut interrupted = false;
    let mut set: JoinSet<(usize, TrialRecord, u64)> = JoinSet::new();
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    let cancel = options.cancel.clone().unwrap_or_default();
    let cancelled = cancel.cancelled();
    tokio::pin!(cancelled);
    let concurrency = options.concurrency.max(1);
    let mut pending = plan.into_iter().enumerate();
    let mut exhausted = false;

    let mut finish = |slot: usize, record: TrialRecord, p: &mut Progress| {
        p.done += 1;
        p.cached += usize::from(record.cached);
        p.errors += usize::from(record.outcome.is_err());
        slots[slot] = Some(record);
        progress(*p);
    };

    loop {
        // Fill the window: cache hits and offline answers finish inline, requests are spawned.
        while !exhausted && set.len() < concurrency {
            if cancel.is_cancelled() {
                break;
            }
            let Some((slot, trial)) = pending.next() else {
                exhausted = true;
                break;
            };
            match immediate(&shared, &trial) {
                Some(record) => finish(slot, record, &mut p),
                None => {
                    let shared = Arc::clone(&shared);
                    set.spawn(async move {
                        let (record, sent) = send(&shared, &trial).await;
                        (slot, record, sent)
                    });
                }
            }
        }
        if cancel.is_cancelled() && !(exhausted && set.is_empty()) {
            interrupted = true;
            set.abort_all();
            while set.join_next().await.is_some() {}
            break;
        }
        if set.is_empty() {
            break;
        }
        tokio::select! {
            biased;
            _ = &mut cancelled => {
                interrupted = true;
                set.abort_all();
                while set.join_next().await.is_some() {}
                break;
            }
            _ = &mut ctrl_c => {
                interrupted = true;
                set.abort_all();
                while set.join_next().await.is_some() {}
                break;
            }
            Some(joined) = set.join_next() => {
                if let Ok((slot, record, sent)) = joined {
                    requests += sent;
                    finish(slot, record, &mut p);
                }
            }
        }
    }
    let cached = p.cached as u64;
    let records = slots.into_iter().flatten().collect();
    RunResult {
        records,
        interrupted,
        requests,
        cached,
    }
}

fn request<'a>(shared: &'a Shared, trial: &PlannedTrial) -> (TrialRequest<'a>, &'a RunModel) {
    let model = &shared.models[trial.model];
    (
        TrialRequest {
            model: &model.spec.model,
            input: &shared.inputs[trial.case],
            tools: trial.order.iter().map(|&i| &shared.tools[i]).collect(),
            temperature: model.temperature,
            max_output_tokens: model.max_output_tokens,
        },
        model,
    )
}

fn record(shared: &Shared, trial: &PlannedTrial, model: &RunModel) -> TrialRecord {
    TrialRecord {
        model: model.spec.label.clone(),
        case_id: shared.case_ids[trial.case].clone(),
        trial: trial.trial,
        order: trial
            .order
            .iter()
            .map(|&i| shared.tools[i].name.clone())
            .collect(),
        outcome: Err(TrialError::new(ErrorKind::Cancelled, "not run")),
        latency_ms: None,
        retries: 0,
        cached: false,
    }
}

fn cache_key(
    shared: &Shared,
    trial: &PlannedTrial,
    model: &RunModel,
    req: &TrialRequest<'_>,
) -> String {
    cache::key(&cache::KeyParts {
        wire: model.wire(),
        endpoint: &model.endpoint(),
        request: &model.request_fingerprint(),
        model: req.model,
        temperature: req.temperature,
        max_output_tokens: req.max_output_tokens,
        seed: shared.seed,
        trial: trial.trial,
        input: req.input,
        tools: &req.tools,
    })
}

/// A trial that needs no request: an offline answer or a cache hit.
fn immediate(shared: &Shared, trial: &PlannedTrial) -> Option<TrialRecord> {
    let (req, model) = request(shared, trial);
    let mut rec = record(shared, trial, model);
    match &model.backend {
        Backend::Offline(o) => {
            rec.outcome = o.answer(&req, trial.trial);
            Some(rec)
        }
        Backend::Http(_) => {
            let cache = shared.cache.as_ref()?;
            let entry = cache.get(&cache_key(shared, trial, model, &req))?;
            rec.outcome = entry.outcome;
            rec.latency_ms = entry.latency_ms;
            rec.cached = true;
            Some(rec)
        }
    }
}

/// Send one trial; store a keepable answer. Returns the record and the requests sent.
async fn send(shared: &Shared, trial: &PlannedTrial) -> (TrialRecord, u64) {
    let (req, model) = request(shared, trial);
    let mut rec = record(shared, trial, model);
    let Backend::Http(http) = &model.backend else {
        return (rec, 0);
    };
    let attempt = http.call(&req).await;
    rec.retries = attempt.retries;
    rec.latency_ms = Some(attempt.latency_ms);
    if let Some(cache) = &shared.cache {
        // A cache that cannot be written costs a re-run, not this run: ignore the error.
        let _ = cache.put(
            &cache_key(shared, trial, model, &req),
            &attempt.outcome,
            rec.latency_ms,
        );
    }
    rec.outcome = attempt.outcome;
    (rec, u64::from(attempt.retries) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::config::EvalConfig;
    use crate::surface::{Confidence, Origin};

    /// Offline trials finish inline, without yielding: a cancel seen by the progress callback
    /// must still stop the run at the next trial, keeping the finished ones.
    #[test]
    fn a_cancel_stops_an_offline_run_and_keeps_what_finished() {
        let config = EvalConfig {
            models: vec!["lexical".into()],
            ..EvalConfig::default()
        };
        let suite = crate::suite::Suite::default();
        let specs = crate::eval::models::resolve(&config, &suite, "s").expect("lexical");
        let models = Arc::new(crate::eval::models::build(&config, specs).expect("build"));
        let tools = vec![
            Tool::named("get_order", Origin::default(), Confidence::High),
            Tool::named("refund_order", Origin::default(), Confidence::High),
        ];
        let cases: Vec<(String, String)> = (0..10)
            .map(|i| (format!("c{i}"), format!("get order {i}")))
            .collect();
        let ids: Vec<&str> = cases.iter().map(|(id, _)| id.as_str()).collect();
        let plan = crate::eval::plan::trials(1, &ids, 1, 0, tools.len());
        let cancel = Cancel::new();
        let options = RunOptions {
            concurrency: 4,
            cache: None,
            seed: 0,
            cancel: Some(cancel.clone()),
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let result = runtime.block_on(run(
            Arc::clone(&models),
            tools.clone(),
            cases.clone(),
            plan.clone(),
            &options,
            &mut |p| {
                if p.done == 3 {
                    cancel.cancel();
                }
            },
        ));
        assert!(result.interrupted);
        assert_eq!(result.records.len(), 3);
        // Without a cancel the same plan runs to the end.
        let options = RunOptions {
            cancel: Some(Cancel::new()),
            ..options
        };
        let result = runtime.block_on(run(models, tools, cases, plan, &options, &mut |_| {}));
        assert!(!result.interrupted);
        assert_eq!(result.records.len(), 10);
    }
}
