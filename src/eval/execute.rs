//! `mf eval --execute`: after the model picked a tool, run it and check the case's `expect`.
//!
//! **What runs.** A case takes part when it names an expected tool and has `toolInput` or
//! `expect`. For each of its trials whose verdict is `correct` (every call names the expected
//! tool), the expected tool runs with the case's `toolInput` — or, when the case has none and
//! `--execute-model-args` is given, with the arguments of the model's first call. Trials that
//! picked another tool, no tool, or errored run nothing (mf never runs a tool the case did not
//! name) and are listed per case as not run.
//!
//! **What counts.** The execution metric of a model is passed / executed over reviewed cases,
//! with its Wilson interval. Identical calls (same tool, same arguments) within one run are run
//! once and their result shared by the trials; nothing is ever cached across runs or stored in
//! the trial cache. The gate `min-execution` (default 1: every execution must pass) fails the
//! run with exit 2; an unmeasured execution rate fails it too.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::EvalError;
pub use super::config::ExecuteConfig;
use crate::exec::expect::{check, excerpt, result_text};
use crate::exec::{self, ExecSetup};
use crate::report::exec::{
    CaseExecution, ExecReport, ExecutionInfo, ModelExecution, TrialExecution,
};
use crate::report::metrics::{Rate, Verdict};
use crate::report::scorecard::{Gate, GateKind, Scorecard, Status};
use crate::suite::execution::Expect;
use crate::suite::{Case, Suite};
use crate::surface::Tool;

/// A resolved `--execute`: the setup and the engine, checked before any request is sent.
#[derive(Debug, Clone)]
pub struct Prepared {
    setup: ExecSetup,
    engine: &'static str,
    model_args: bool,
    min_rate: f64,
}

/// Resolve the suite's `execution` with the flags and pick the engine (before the run, so bad
/// settings cost nothing).
pub fn prepare(
    x: &ExecuteConfig,
    suite: &Suite,
    path: &Path,
    display: &str,
) -> Result<Prepared, EvalError> {
    let setup = exec::config::resolve(suite, path, display, &x.flags)
        .map_err(|e| EvalError::Plan(format!("--execute: {e}")))?;
    let engine =
        exec::run::engine_for(&setup).map_err(|e| EvalError::Plan(format!("--execute: {e}")))?;
    Ok(Prepared {
        setup,
        engine,
        model_args: x.model_args,
        min_rate: x.min_rate,
    })
}

fn takes_part(c: &Case) -> bool {
    c.expected_tool.as_ref().is_some_and(Option::is_some)
        && (c.tool_input.is_some() || c.expect.is_some())
}

fn trial_execution(expect: &Expect, r: &ExecReport) -> TrialExecution {
    let failed = check(expect, r);
    TrialExecution {
        passed: failed.is_empty(),
        status: r.status,
        failed,
        output: excerpt(&result_text(r), 300),
        duration_ms: r.duration_ms,
        peak_rss_mb: r.peak_rss_mb,
    }
}

/// Run the executions of every model's trials and record them in `card` (trial rows, the
/// per-model metric, `suite.execution`, the `min-execution` gate and the status). Returns the
/// notes for people (cases that cannot run).
pub fn attach(
    card: &mut Scorecard,
    prepared: &Prepared,
    suite: &Suite,
    cases: &[Case],
    tools: &[Tool],
) -> Result<Vec<String>, EvalError> {
    let mut notes = Vec::new();
    let setup = &prepared.setup;
    card.suite.execution = Some(ExecutionInfo {
        runtime: setup.runtime.as_str().into(),
        engine: prepared.engine.into(),
        entry: setup.entry_display.clone(),
        hash: setup.entry_hash.clone(),
        inputs: if prepared.model_args {
            "toolInput, else model-args".into()
        } else {
            "toolInput".into()
        },
    });
    let by_id: BTreeMap<&str, &Case> = cases.iter().map(|c| (c.id.as_str(), c)).collect();
    for c in cases.iter().filter(|c| takes_part(c)) {
        if c.tool_input.is_none() && !prepared.model_args {
            notes.push(format!(
                "note: case {:?} has expect but no toolInput: it is not executed (add toolInput, \
                 or pass --execute-model-args to run it with the model's arguments)",
                c.id
            ));
        }
    }
    // One run per distinct call in this eval: (tool, arguments as JSON text).
    let mut memo: BTreeMap<(String, String), ExecReport> = BTreeMap::new();
    let mut gates = Vec::new();
    for model in &mut card.models {
        let mut per_case: BTreeMap<String, CaseExecution> = BTreeMap::new();
        let (mut passed, mut executed) = (0u64, 0u64);
        for row in &mut model.trials {
            let Some(case) = by_id
                .get(row.case.as_str())
                .copied()
                .filter(|c| takes_part(c))
            else {
                continue;
            };
            let Some(tool_name) = case.expected_tool.clone().flatten() else {
                continue;
            };
            let entry = per_case
                .entry(case.id.clone())
                .or_insert_with(|| CaseExecution {
                    case: case.id.clone(),
                    tool: tool_name.clone(),
                    executed: 0,
                    passed: 0,
                    not_run: Vec::new(),
                    failed: Vec::new(),
                    output: String::new(),
                });
            if row.verdict != Verdict::Correct {
                let why = match row.verdict {
                    Verdict::Error => "no answer (error)".to_owned(),
                    Verdict::Abstained => "no call".to_owned(),
                    _ => format!(
                        "picked {}",
                        row.calls
                            .iter()
                            .map(|c| c.name.clone().unwrap_or_else(|| "(nameless)".into()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                entry.not_run.push(format!("trial {}: {why}", row.trial));
                continue;
            }
            let input: Value = match (&case.tool_input, prepared.model_args) {
                (Some(v), _) => v.clone(),
                (None, true) => row
                    .calls
                    .first()
                    .and_then(|c| c.arguments.clone())
                    .unwrap_or_else(|| Value::Object(serde_json::Map::new())),
                (None, false) => {
                    entry
                        .not_run
                        .push(format!("trial {}: no toolInput", row.trial));
                    continue;
                }
            };
            let Some(tool) = tools.iter().find(|t| t.name == tool_name) else {
                continue;
            };
            let key = (tool_name.clone(), input.to_string());
            let report = match memo.get(&key) {
                Some(r) => r.clone(),
                None => {
                    let r = exec::execute_tool(setup, suite, tool, &input)
                        .map_err(|e| EvalError::Plan(format!("--execute: {e}")))?;
                    memo.insert(key, r.clone());
                    r
                }
            };
            let x = trial_execution(&case.expect.clone().unwrap_or_default(), &report);
            entry.executed += 1;
            if x.passed {
                entry.passed += 1;
            } else if entry.failed.is_empty() {
                entry.failed = x.failed.clone();
                entry.output = x.output.clone();
            }
            if entry.output.is_empty() {
                entry.output = x.output.clone();
            }
            if case.reviewed {
                executed += 1;
                passed += u64::from(x.passed);
            }
            row.execution = Some(x);
        }
        let cases_out: Vec<CaseExecution> = cases
            .iter()
            .filter_map(|c| per_case.remove(&c.id))
            .collect();
        let rate = Rate::new(passed, executed);
        gates.push(Gate {
            name: "min-execution".into(),
            model: model.label.clone(),
            threshold: prepared.min_rate,
            value: rate.value,
            passed: rate.value.is_some_and(|v| v >= prepared.min_rate),
            kind: GateKind::Quality,
        });
        model.execution = Some(ModelExecution {
            rate,
            cases: cases_out,
        });
    }
    let failed = gates.iter().any(|g| !g.passed);
    card.gates.extend(gates);
    if failed && card.status == Status::Pass {
        card.status = Status::Fail;
    }
    Ok(notes)
}
