//! `mf tasks generate` as a library: a model drafts cases for a surface — per tool, cases that
//! should call it and must-not-call near misses; per confusable pair (the risky pairs
//! `mf cluster` reports at its default threshold, strongest first), boundary cases for each
//! side. The plan is one
//! request per tool and per pair ([`plan`]), checked against the request and token caps and
//! the key rules of eval before anything is sent; [`run`] sends it and keeps the drafts that
//! name a tool the request was about (or none), each once. Every case is `reviewed: false`,
//! `source: generate`. Messages and parsing are in [`prompt`].
//!
//! Sits above `eval` (it reuses eval's model resolution, key policy and HTTP providers) and
//! below `compare`.

pub mod prompt;

use std::collections::{BTreeMap, HashSet};

use crate::analyze::cluster::{ClusterOptions, cluster};
use crate::eval::EvalError;
use crate::eval::config::EvalConfig;
use crate::eval::evaluate::missing_keys;
use crate::eval::models;
use crate::eval::run::Backend;
use crate::providers::TrialRequest;
use crate::providers::config::ModelSpec;
use crate::suite::{Case, Suite};
use crate::surface::{Surface, Tool, tokens};

use prompt::{Ask, RECORD_TOOL};

/// The longest draft input kept, in characters (a model's answer is untrusted text).
pub const MAX_DRAFT_CHARS: usize = 2_000;

/// Default of `--max-requests`.
pub const DEFAULT_MAX_REQUESTS: u64 = 50;
/// Hard cap on `--max-requests`.
pub const HARD_MAX_REQUESTS: u64 = 1000;

/// Validated settings of one `mf tasks generate`.
#[derive(Debug, Clone)]
pub struct GenerateConfig {
    /// The model settings (one `models` entry; named models, base URL, key policy, temperature,
    /// output cap, timeout, retries), as eval reads them.
    pub model: EvalConfig,
    /// Cases per tool that should call it.
    pub per_tool: usize,
    /// Must-not-call near misses per tool.
    pub must_not_call: usize,
    /// Boundary cases per tool of each confusable pair.
    pub boundary: usize,
    /// Most pairs to draft boundary cases for.
    pub max_pairs: usize,
    /// Most requests the plan may need.
    pub max_requests: u64,
    /// Most input tokens (lower bound) the requests may send in all.
    pub max_input_tokens: u64,
    /// Plan only.
    pub dry_run: bool,
}

/// A setting that makes no sense; the message names the flag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GenerateConfigError(pub String);

/// Why generation stopped.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The model, its key policy or the HTTP client.
    #[error(transparent)]
    Eval(Box<EvalError>),
    /// A setting.
    #[error(transparent)]
    Config(#[from] GenerateConfigError),
    /// Caps or a missing key refuse the plan: every reason at once; nothing was sent.
    #[error("the plan cannot run, nothing was sent ({} reason{}):\n{}", .0.len(), if .0.len() == 1 { "" } else { "s" }, .0.iter().map(|r| format!("  - {r}")).collect::<Vec<_>>().join("\n"))]
    Refused(Vec<String>),
    /// Every request failed or drafted nothing usable.
    #[error("no case was drafted:\n{}", .0.iter().map(|n| format!("  - {n}")).collect::<Vec<_>>().join("\n"))]
    Nothing(Vec<String>),
}

impl From<EvalError> for GenerateError {
    fn from(e: EvalError) -> GenerateError {
        GenerateError::Eval(Box::new(e))
    }
}

/// One request of the plan.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedRequest {
    /// What it is about: `tool NAME` or `pair A ↔ B`.
    pub about: String,
    /// What it asks for.
    pub ask: Ask,
    /// The user message sent.
    pub message: String,
    /// Input tokens (o200k_base lower bound: message + the record tool).
    pub input_tokens: u64,
}

/// What would be sent, and what refuses it.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratePlan {
    /// The model label.
    pub model: String,
    /// The wire format and endpoint (no secrets).
    pub endpoint: String,
    /// Every request, tools first, then pairs.
    pub requests: Vec<PlannedRequest>,
    /// Input tokens of all requests (lower bound).
    pub input_tokens: u64,
    /// Why it cannot be sent (caps, a missing key): every reason; empty when it can.
    pub refusals: Vec<String>,
}

/// The plan for `tools`; `suite` (and `suite_display`) supply named models.
pub fn plan(
    config: &GenerateConfig,
    tools: &[Tool],
    suite: &Suite,
    suite_display: &str,
) -> Result<(GeneratePlan, Vec<ModelSpec>), GenerateError> {
    if tools.is_empty() {
        return Err(EvalError::Plan(
            "no tools to draft cases for; give the tools as PATH, URL, --stdio or --suite".into(),
        )
        .into());
    }
    let specs = models::resolve(&config.model, suite, suite_display)?;
    let Some(spec) = specs.first() else {
        return Err(GenerateConfigError("--models names no model".into()).into());
    };
    if spec.provider.wire().is_none() {
        return Err(GenerateConfigError(format!(
            "{}: offline models cannot draft cases; name a provider model (PROVIDER:MODEL) or a \
             local one (ollama:NAME, openai-compatible:NAME --base-url URL)",
            spec.label
        ))
        .into());
    }
    let mut asks = Vec::new();
    if config.per_tool + config.must_not_call > 0 {
        for i in 0..tools.len() {
            asks.push(Ask::Tool {
                tool: i,
                cases: config.per_tool,
                near_misses: config.must_not_call,
            });
        }
    }
    if config.boundary > 0 {
        // The risky pairs `mf cluster` reports (default threshold), strongest first.
        let surface = Surface {
            tools: tools.to_vec(),
            skills: Vec::new(),
            unread: Vec::new(),
        };
        let report = cluster(&surface, &ClusterOptions::default());
        let index = |name: &str| tools.iter().position(|t| t.name == name);
        for pair in report.risky_pairs.iter().take(config.max_pairs) {
            if let (Some(a), Some(b)) = (index(&pair.a), index(&pair.b)) {
                asks.push(Ask::Pair {
                    a,
                    b,
                    per_side: config.boundary,
                });
            }
        }
    }
    let record = prompt::record_tool();
    let record_tokens = tokens::tool_tokens(&record).total as u64;
    let requests: Vec<PlannedRequest> = asks
        .into_iter()
        .map(|ask| {
            let message = prompt::message(&ask, tools);
            let about = match &ask {
                Ask::Tool { tool, .. } => format!("tool {}", tools[*tool].name),
                Ask::Pair { a, b, .. } => format!("pair {} ↔ {}", tools[*a].name, tools[*b].name),
            };
            PlannedRequest {
                about,
                input_tokens: tokens::count(&message) as u64 + record_tokens,
                ask,
                message,
            }
        })
        .collect();
    let input_tokens: u64 = requests.iter().map(|r| r.input_tokens).sum();
    let mut refusals = Vec::new();
    if requests.len() as u64 > config.max_requests {
        refusals.push(format!(
            "the plan has {} requests ({} tools + {} confusable pairs), over --max-requests {}; \
             draft for fewer tools, lower --max-pairs, or raise it (hard cap {HARD_MAX_REQUESTS})",
            requests.len(),
            requests
                .iter()
                .filter(|r| matches!(r.ask, Ask::Tool { .. }))
                .count(),
            requests
                .iter()
                .filter(|r| matches!(r.ask, Ask::Pair { .. }))
                .count(),
            config.max_requests
        ));
    }
    if input_tokens > config.max_input_tokens {
        refusals.push(format!(
            "the requests would send at least {input_tokens} input tokens (o200k_base lower \
             bound), over --max-input-tokens {}; draft for fewer tools or raise it",
            config.max_input_tokens
        ));
    }
    refusals.extend(missing_keys(&specs).iter().map(ToString::to_string));
    let plan = GeneratePlan {
        model: spec.label.clone(),
        endpoint: format!(
            "{} {}",
            spec.provider.wire().map_or("offline", |w| w.id()),
            spec.endpoint().unwrap_or_default()
        ),
        requests,
        input_tokens,
        refusals,
    };
    Ok((plan, specs))
}

/// What the model drafted.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// The cases, in plan order (`reviewed: false`, `source: generate`).
    pub cases: Vec<Case>,
    /// Requests sent (retries not counted).
    pub requests: usize,
    /// Input and output tokens the provider reported.
    pub usage: (u64, u64),
    /// Drafts dropped and requests that failed, one line each.
    pub notes: Vec<String>,
}

/// Send `plan` (with no refusals) and collect the drafts; `note` hears about each request.
pub fn run(
    config: &GenerateConfig,
    plan: &GeneratePlan,
    specs: Vec<ModelSpec>,
    tools: &[Tool],
    note: &mut dyn FnMut(&str),
) -> Result<Generated, GenerateError> {
    let models = models::build(&config.model, specs)?;
    let Some(model) = models.first() else {
        return Err(GenerateConfigError("--models names no model".into()).into());
    };
    let Backend::Http(provider) = &model.backend else {
        return Err(GenerateConfigError("offline models cannot draft cases".into()).into());
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(EvalError::Runtime)?;
    let record = prompt::record_tool();
    let mut out = Generated {
        cases: Vec::new(),
        requests: 0,
        usage: (0, 0),
        notes: Vec::new(),
    };
    let mut seen: HashSet<String> = HashSet::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for (n, request) in plan.requests.iter().enumerate() {
        note(&format!(
            "request {}/{}: {}",
            n + 1,
            plan.requests.len(),
            request.about
        ));
        let trial = TrialRequest {
            model: &model.spec.model,
            input: &request.message,
            tools: vec![&record],
            temperature: model.temperature,
            max_output_tokens: model.max_output_tokens,
        };
        let attempt = runtime.block_on(provider.call(&trial));
        out.requests += 1;
        let reply = match attempt.outcome {
            Ok(reply) => reply,
            Err(e) => {
                out.notes
                    .push(format!("{} failed: {}", request.about, e.message));
                continue;
            }
        };
        if let Some(u) = &reply.usage {
            out.usage.0 += u.input_tokens;
            out.usage.1 += u.output_tokens;
        }
        let calls: Vec<_> = reply
            .calls
            .iter()
            .filter(|c| c.name.as_deref() == Some(RECORD_TOOL))
            .collect();
        if calls.is_empty() {
            out.notes.push(format!(
                "{}: the model did not call {RECORD_TOOL}",
                request.about
            ));
            continue;
        }
        let allowed: Vec<&str> = request
            .ask
            .allowed()
            .into_iter()
            .map(|i| tools[i].name.as_str())
            .collect();
        // A request keeps at most what it asked for, twice over.
        let asked = match request.ask {
            Ask::Tool {
                cases, near_misses, ..
            } => cases + near_misses,
            Ask::Pair { per_side, .. } => 2 * per_side,
        };
        let mut kept_here = 0;
        for call in calls {
            let mut notes = Vec::new();
            let args = call.arguments.clone().unwrap_or_default();
            for draft in prompt::drafts(&args, &mut notes) {
                if draft.input.chars().count() > MAX_DRAFT_CHARS {
                    notes.push(format!(
                        "dropped a draft of {} characters (at most {MAX_DRAFT_CHARS})",
                        draft.input.chars().count()
                    ));
                    continue;
                }
                if kept_here >= 2 * asked.max(1) {
                    notes.push(format!(
                        "dropped drafts beyond {} (twice what was asked)",
                        2 * asked.max(1)
                    ));
                    break;
                }
                if let Some(name) = &draft.expected
                    && !allowed.contains(&name.as_str())
                {
                    notes.push(format!(
                        "dropped {:?}: it expects {name:?}, not a tool this request was about",
                        draft.input
                    ));
                    continue;
                }
                let key = draft
                    .input
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .to_lowercase();
                if !seen.insert(key) {
                    notes.push(format!("dropped {:?}: drafted before", draft.input));
                    continue;
                }
                kept_here += 1;
                let group = draft.expected.clone().unwrap_or_else(|| "none".into());
                let k = counts.entry(group.clone()).or_default();
                *k += 1;
                let mut tags = Vec::new();
                if matches!(request.ask, Ask::Pair { .. }) {
                    tags.push("boundary".to_owned());
                } else if draft.expected.is_none() {
                    tags.push("near-miss".to_owned());
                }
                out.cases.push(Case {
                    id: format!("gen.{group}.{k}"),
                    input: draft.input,
                    expected_tool: Some(draft.expected),
                    expected_args: None,
                    tool_input: None,
                    expect: None,
                    tags,
                    source: Some("generate".into()),
                    reviewed: false,
                    mutated_from: None,
                    mutation: None,
                    expected_calls: None,
                    tools: None,
                    line: None,
                });
            }
            out.notes
                .extend(notes.into_iter().map(|m| format!("{}: {m}", request.about)));
        }
    }
    if out.cases.is_empty() {
        return Err(GenerateError::Nothing(out.notes));
    }
    Ok(out)
}
