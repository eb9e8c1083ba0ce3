//! Scorecard assembly: a finished run's trial records become per-model metrics, trial rows,
//! health (error rate, scored trials, tools the provider never showed) and gates, and the run's
//! status. The scorecard is the public JSON document of SCHEMA.md "Scorecard".

use std::collections::BTreeMap;
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::case_tools::CaseTools;
use super::config::{EvalConfig, EvalGates};
use super::plan::PERMUTATION_VERSION;
use super::run::RunModel;
use super::{TrialRecord, cache, score};
use crate::providers::Reply;
use crate::report::metrics::{ArgCheck, Verdict};
use crate::report::scorecard::{
    CaseInfo, Gate, GateKind, Health, ModelResult, Reproducibility, SCORECARD_VERSION, Scorecard,
    Selection, Status, SuiteInfo, Timing, TrialRow,
};
use crate::suite::models::ProviderKind;
use crate::suite::{Case, Suite};
use crate::surface::fingerprint::surface_fingerprint;
use crate::surface::tokens::TOKENIZER;
use crate::surface::{Surface, Tool};

/// Everything a scorecard is assembled from.
pub(super) struct ScorecardInput<'a> {
    pub(super) config: &'a EvalConfig,
    pub(super) suite: &'a Suite,
    pub(super) suite_display: &'a str,
    pub(super) surface_label: &'a str,
    pub(super) tools: &'a [Tool],
    pub(super) case_tools: &'a CaseTools,
    pub(super) tool_tokens: u64,
    pub(super) cases: &'a [Case],
    pub(super) prompt_tokens: &'a [u64],
    pub(super) models: &'a [RunModel],
    pub(super) records: Vec<TrialRecord>,
    pub(super) wall: Duration,
    pub(super) run: Duration,
}

/// Why the lexical router's argument accuracy is not measured.
const LEXICAL_NO_ARGUMENTS: &str =
    "n/a: the offline lexical router picks a tool by its words and sends {} as arguments";

fn input_hash(input: &str) -> String {
    let digest = Sha256::digest(input.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The scorecard of a finished run: per model the metrics, trial rows, health and gates; the
/// run's status (unhealthy before failed before passed).
pub(super) fn scorecard(inp: ScorecardInput<'_>) -> Scorecard {
    let config = inp.config;
    let gates_cfg = &config.gates;
    let mut by_model: BTreeMap<String, Vec<TrialRecord>> = BTreeMap::new();
    for r in inp.records {
        by_model.entry(r.model.clone()).or_default().push(r);
    }
    let case_by_id: BTreeMap<&str, &Case> = inp.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut gates = Vec::new();
    let mut models = Vec::new();
    for m in inp.models {
        let records = by_model.remove(&m.spec.label).unwrap_or_default();
        let no_arguments =
            (m.spec.provider == ProviderKind::Lexical).then_some(LEXICAL_NO_ARGUMENTS);
        let offered = score::Offered {
            run: inp.tools,
            own: &inp.case_tools.own,
        };
        let metrics = score::metrics_with(
            inp.cases,
            &offered,
            &records,
            m.spec.price.as_ref(),
            no_arguments,
        );
        let mut rows = Vec::with_capacity(records.len());
        for r in &records {
            let Some(case) = case_by_id.get(r.case_id.as_str()) else {
                continue;
            };
            let mut scored = score::score_trial(case, offered.of(&case.id), r);
            if no_arguments.is_some() {
                scored.args = None;
            }
            rows.push(row(r, scored.verdict, scored.args));
        }
        let mut result = ModelResult {
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
                healthy: true,
                problems: Vec::new(),
                requests: 0,
                errors_by_kind: BTreeMap::new(),
            },
            metrics,
            robustness: None,
            trials: rows,
            execution: None,
        };
        gates.extend(judge(&mut result, inp.tool_tokens, gates_cfg));
        models.push(result);
    }
    let status = status(&gates, &models);
    // Every definition some case was offered: the run's tools and each case's own set.
    let surface = Surface {
        tools: inp.case_tools.used(),
        skills: Vec::new(),
        unread: Vec::new(),
    };
    let mut card = Scorecard {
        version: SCORECARD_VERSION,
        kind: "scorecard".into(),
        status,
        suite: SuiteInfo {
            name: inp.suite.name.clone(),
            path: inp.suite_display.to_owned(),
            surface: inp.surface_label.to_owned(),
            fingerprint: surface_fingerprint(&surface),
            tools: inp
                .case_tools
                .offered()
                .into_iter()
                .map(|t| t.name)
                .collect(),
            tool_tokens: inp.tool_tokens,
            cases: inp
                .cases
                .iter()
                .zip(inp.prompt_tokens)
                .map(|(c, t)| CaseInfo {
                    id: c.id.clone(),
                    input_hash: input_hash(&c.input),
                    expected_tool: match c.call_set() {
                        Some(calls) => Some(score::calls::expected_label(calls)),
                        None => c.expected_tool.clone().flatten(),
                    },
                    expected_calls: c
                        .call_set()
                        .map(|calls| calls.iter().map(|c| c.tool.clone()).collect()),
                    tools: inp
                        .case_tools
                        .own
                        .get(&c.id)
                        .map(|set| set.iter().map(|t| t.name.clone()).collect()),
                    reviewed: c.reviewed,
                    tags: c.tags.clone(),
                    line: c.line,
                    mutated_from: c.mutated_from.clone(),
                    mutation: c.mutation.clone(),
                    prompt_tokens: *t,
                })
                .collect(),
            cases_in_suite: inp.suite.cases.len(),
            selection: Selection {
                cases: config.selection.ids.clone(),
                only: config.selection.only.clone(),
                skip: config.selection.skip.clone(),
            },
            profile: config.profile.clone(),
            execution: None,
            profile_tools: config.profile.as_ref().and_then(|p| {
                let mut members = inp.suite.profiles.get(p)?.clone();
                members.sort();
                Some(members)
            }),
            without: config.without.clone(),
        },
        reproducibility: Reproducibility {
            mf_version: env!("CARGO_PKG_VERSION").to_owned(),
            permutation: PERMUTATION_VERSION.to_owned(),
            seed: config.seed,
            repeat: config.repeat,
            tokenizer: TOKENIZER.to_owned(),
            cache_version: cache::CACHE_VERSION.to_owned(),
        },
        models,
        gates,
        timing: Timing {
            wall_ms: inp.wall.as_millis() as u64,
            run_ms: inp.run.as_millis() as u64,
            parts: Vec::new(),
        },
        profiles: None,
        shard: None,
        partial: None,
    };
    for model in &mut card.models {
        model.robustness = super::robustness::robustness(&model.trials, &card.suite.cases);
    }
    card
}

/// The scorecard row of one trial record, scored.
fn row(r: &TrialRecord, verdict: Verdict, args: Option<ArgCheck>) -> TrialRow {
    let (calls, text, usage, error) = match &r.outcome {
        Ok(reply) => (
            reply.calls.clone(),
            reply.text.as_ref().map(|t| t.chars().take(500).collect()),
            reply.usage,
            None,
        ),
        Err(e) => (Vec::new(), None, None, Some(e.clone())),
    };
    TrialRow {
        case: r.case_id.clone(),
        trial: r.trial,
        order: r.order.clone(),
        verdict,
        calls,
        args,
        text,
        error,
        latency_ms: r.latency_ms,
        usage,
        retries: r.retries,
        cached: r.cached,
        execution: None,
    }
}

/// The trial record a scorecard row was made from (its text cut to 500 characters), for
/// scoring rows again.
pub(crate) fn record_of(model: &str, row: &TrialRow) -> TrialRecord {
    TrialRecord {
        model: model.to_owned(),
        case_id: row.case.clone(),
        trial: row.trial,
        order: row.order.clone(),
        outcome: match &row.error {
            Some(e) => Err(e.clone()),
            None => Ok(Reply {
                calls: row.calls.clone(),
                text: row.text.clone(),
                usage: row.usage,
            }),
        },
        latency_ms: row.latency_ms,
        retries: row.retries,
        cached: row.cached,
    }
}

/// Health and gates of one model whose `metrics` and `trials` are filled in: the requests sent
/// and errors by kind (from the rows), the health problems, and every gate `gates_cfg` asks for.
pub(crate) fn judge(model: &mut ModelResult, tool_tokens: u64, gates_cfg: &EvalGates) -> Vec<Gate> {
    let metrics = &model.metrics;
    let paid = model.wire != "offline";
    let mut errors_by_kind = BTreeMap::new();
    let mut requests = 0;
    for r in &model.trials {
        if !r.cached && paid {
            requests += u64::from(r.retries) + 1;
        }
        if let Some(e) = &r.error {
            *errors_by_kind
                .entry(crate::report::trial::error_kind_name(e.kind))
                .or_insert(0u64) += 1;
        }
    }
    let mut problems = Vec::new();
    let error_rate = metrics.error_rate.value;
    let healthy_errors = error_rate.is_some_and(|v| v <= gates_cfg.max_error_rate);
    if !healthy_errors {
        problems.push(format!(
            "{} of {} trials ended in errors, over --max-error-rate {}",
            metrics.errors, metrics.trials, gates_cfg.max_error_rate
        ));
    }
    if let Some(problem) = tools_unseen(metrics, tool_tokens) {
        problems.push(problem);
    }
    let healthy_scored = metrics.scored >= gates_cfg.min_scored;
    if !healthy_scored {
        problems.push(format!(
            "{} scored trials, under --min-scored {}",
            metrics.scored, gates_cfg.min_scored
        ));
    }
    let label = &model.label;
    let gate = |name: &str, threshold: f64, value: Option<f64>, passed: bool, kind| Gate {
        name: name.to_owned(),
        model: label.clone(),
        threshold,
        value,
        passed,
        kind,
    };
    let mut gates = vec![
        gate(
            "max-error-rate",
            gates_cfg.max_error_rate,
            error_rate,
            healthy_errors,
            GateKind::Health,
        ),
        gate(
            "min-scored",
            gates_cfg.min_scored as f64,
            Some(metrics.scored as f64),
            healthy_scored,
            GateKind::Health,
        ),
    ];
    // An unmeasured value (`None`) fails its gate.
    if let Some(min) = gates_cfg.min_accuracy {
        let v = metrics.selection_accuracy.value;
        let passed = v.is_some_and(|v| v >= min);
        gates.push(gate("min-accuracy", min, v, passed, GateKind::Quality));
    }
    if let Some(max) = gates_cfg.max_over_trigger {
        let v = metrics.over_trigger.value;
        let passed = v.is_some_and(|v| v <= max);
        gates.push(gate("max-over-trigger", max, v, passed, GateKind::Quality));
    }
    model.health = Health {
        healthy: problems.is_empty(),
        problems,
        requests,
        errors_by_kind,
    };
    gates
}

/// The run's status: unhealthy before failed before passed.
pub(crate) fn status(gates: &[Gate], models: &[ModelResult]) -> Status {
    let unhealthy = gates
        .iter()
        .any(|g| !g.passed && g.kind == GateKind::Health)
        || models.iter().any(|m| !m.health.healthy);
    if unhealthy {
        Status::Unhealthy
    } else if gates.iter().any(|g| !g.passed) {
        Status::Fail
    } else {
        Status::Pass
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
