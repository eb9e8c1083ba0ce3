//! Scoring: the verdict of each trial, its confusion-matrix column and argument check, and the
//! metrics of one model over its trials (BEHAVIOR §3.3).
//!
//! Definitions of every figure are on the fields of [`ModelMetrics`]; the verdict rules are on
//! [`verdict`].

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::TrialRecord;
use super::args::ArgumentChecker;
use crate::providers::config::Price;
use crate::providers::{Call, Reply, TrialError};
use crate::report::metrics::{
    ArgCheck, CaseLevelRate, Confusion, ConfusionPair, Cost, Latency, MULTIPLE_LABEL, ModelMetrics,
    NONE_LABEL, PHANTOM_LABEL, PositionSensitivity, Rate, Tokens, ToolMetrics, Unreviewed, Verdict,
};
use crate::stats;
use crate::suite::Case;
use crate::surface::Tool;

/// The score of one trial.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialScore {
    /// The verdict.
    pub verdict: Verdict,
    /// The confusion-matrix column of the trial (see [`picked_label`]); `null` for an error.
    pub picked: Option<String>,
    /// The argument check of the first call to the expected tool, for `correct` and
    /// `unexpected-additional-calls` trials; `null` otherwise.
    pub args: Option<ArgCheck>,
}

/// The verdict of one trial.
///
/// Rules, first match wins:
/// 1. the outcome is an error → `error`;
/// 2. must-not-call case (`expectedTool: null`): no call → `correct-abstention`, any call
///    (a phantom one included) → `over-triggered`;
/// 3. must-call case: no call → `abstained`;
/// 4. any call names a tool not in `tool_names`, or has no name → `phantom`;
/// 5. every call names the expected tool (once or more) → `correct`;
/// 6. the expected tool is among the calls, with other surface tools → `unexpected-additional-calls`;
/// 7. otherwise → `wrong-tool`.
///
/// A case without `expectedTool` (which eval refuses before running) is treated as must-call
/// with no tool that can be correct.
pub fn verdict(
    case: &Case,
    tool_names: &BTreeSet<&str>,
    outcome: &Result<Reply, TrialError>,
) -> Verdict {
    let reply = match outcome {
        Ok(reply) => reply,
        Err(_) => return Verdict::Error,
    };
    if case.is_must_not_call() {
        return if reply.calls.is_empty() {
            Verdict::CorrectAbstention
        } else {
            Verdict::OverTriggered
        };
    }
    if reply.calls.is_empty() {
        return Verdict::Abstained;
    }
    let on_surface = |call: &Call| {
        call.name
            .as_deref()
            .is_some_and(|name| tool_names.contains(name))
    };
    if !reply.calls.iter().all(on_surface) {
        return Verdict::Phantom;
    }
    let expected = expected_tool(case);
    let is_expected = |call: &Call| expected.is_some() && call.name.as_deref() == expected;
    if reply.calls.iter().all(is_expected) {
        Verdict::Correct
    } else if reply.calls.iter().any(is_expected) {
        Verdict::UnexpectedAdditionalCalls
    } else {
        Verdict::WrongTool
    }
}

/// The confusion-matrix column of a reply: `"(none)"` for no call; `"(phantom)"` when any
/// call names a tool not in `tool_names` or has no name; the tool's name when every call names
/// the same tool; `"(multiple)"` when the calls name two or more distinct tools.
pub fn picked_label(tool_names: &BTreeSet<&str>, reply: &Reply) -> String {
    let mut names = BTreeSet::new();
    for call in &reply.calls {
        match call.name.as_deref() {
            Some(name) if tool_names.contains(name) => {
                names.insert(name);
            }
            _ => return PHANTOM_LABEL.to_owned(),
        }
    }
    let mut names = names.into_iter();
    match (names.next(), names.next()) {
        (None, _) => NONE_LABEL.to_owned(),
        (Some(only), None) => only.to_owned(),
        (Some(_), Some(_)) => MULTIPLE_LABEL.to_owned(),
    }
}

/// Score one trial of `case` against the surface `tools`: verdict, confusion column, and the
/// argument check of the first call to the expected tool when the verdict is `correct` or
/// `unexpected-additional-calls` (see `eval::args`). Only `record.outcome` is read.
pub fn score_trial(case: &Case, tools: &[Tool], record: &TrialRecord) -> TrialScore {
    let surface = Surface::new(tools);
    surface.score(case, &record.outcome, &mut |tool, call, expected| {
        ArgumentChecker::new(tool).check(call, expected)
    })
}

/// The surface as scoring needs it: names, and the first tool of each name.
struct Surface<'a> {
    names: BTreeSet<&'a str>,
    by_name: HashMap<&'a str, &'a Tool>,
}

impl<'a> Surface<'a> {
    fn new(tools: &'a [Tool]) -> Surface<'a> {
        let mut by_name = HashMap::new();
        for tool in tools {
            by_name.entry(tool.name.as_str()).or_insert(tool);
        }
        Surface {
            names: tools.iter().map(|t| t.name.as_str()).collect(),
            by_name,
        }
    }

    /// Score a trial; `check_args` checks a call to a tool (the caller may cache checkers).
    fn score(
        &self,
        case: &Case,
        outcome: &Result<Reply, TrialError>,
        check_args: &mut dyn FnMut(&'a Tool, &Call, Option<&Value>) -> ArgCheck,
    ) -> TrialScore {
        let verdict = verdict(case, &self.names, outcome);
        let Ok(reply) = outcome else {
            return TrialScore {
                verdict,
                picked: None,
                args: None,
            };
        };
        let picked = Some(picked_label(&self.names, reply));
        let args = match verdict {
            Verdict::Correct | Verdict::UnexpectedAdditionalCalls => {
                let expected = expected_tool(case);
                let call = reply
                    .calls
                    .iter()
                    .find(|c| expected.is_some() && c.name.as_deref() == expected);
                let tool = expected.and_then(|name| self.by_name.get(name).copied());
                match (call, tool) {
                    (Some(call), Some(tool)) => {
                        Some(check_args(tool, call, case.expected_args.as_ref()))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        TrialScore {
            verdict,
            picked,
            args,
        }
    }
}

/// The expected tool of a must-call case.
fn expected_tool(case: &Case) -> Option<&str> {
    case.expected_tool.as_ref().and_then(|t| t.as_deref())
}

/// Counts toward one [`Rate`].
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    hits: u64,
    total: u64,
}

impl Tally {
    fn add(&mut self, hit: bool) {
        self.total += 1;
        if hit {
            self.hits += 1;
        }
    }

    fn rate(self) -> Rate {
        Rate::new(self.hits, self.total)
    }
}

/// Per-tool counters.
#[derive(Debug, Default)]
struct ToolTally<'a> {
    cases: BTreeSet<&'a str>,
    accuracy: Tally,
    picked: u64,
    picked_wrongly: u64,
    arguments: Tally,
}

/// The metrics of one model: `records` are that model's trials of `cases` on the surface
/// `tools`; `price` is the model's price per million tokens, when known.
///
/// Each figure is defined on its field of [`ModelMetrics`]. Records whose case id is not in
/// `cases`, or whose case states no `expectedTool`, cannot be scored and are not counted
/// anywhere (eval refuses such cases before running). Must-call / must-not-call follows the
/// case's `expectedTool`.
pub fn metrics(
    cases: &[Case],
    tools: &[Tool],
    records: &[TrialRecord],
    price: Option<&Price>,
) -> ModelMetrics {
    metrics_with(cases, tools, records, price, None)
}

/// [`metrics`] for a model that cannot produce arguments: `no_arguments` says why, argument
/// checks are skipped (argument accuracy is unmeasured, `0/0`) and calls are judged on the
/// tool alone.
pub fn metrics_with(
    cases: &[Case],
    tools: &[Tool],
    records: &[TrialRecord],
    price: Option<&Price>,
    no_arguments: Option<&str>,
) -> ModelMetrics {
    let surface = Surface::new(tools);
    let mut checkers: HashMap<&str, ArgumentChecker> = HashMap::new();
    aggregate(
        cases,
        &surface,
        records,
        price,
        no_arguments,
        &mut |_, case, record| {
            surface.score(case, &record.outcome, &mut |tool, call, expected| {
                checkers
                    .entry(tool.name.as_str())
                    .or_insert_with(|| ArgumentChecker::new(tool))
                    .check(call, expected)
            })
        },
    )
}

/// [`metrics_with`] over trials that were scored once already (the rows of scorecards that
/// `mf merge` joins): each verdict and confusion column is computed again from the record's
/// calls against the surface's names, and the argument check is the stored one, `args[i]` for
/// `records[i]` (it needs the tool schemas and the case's `expectedArgs`, which a scorecard
/// does not carry). Given the rows of one run, this returns that run's metrics exactly.
pub fn metrics_rescored(
    cases: &[Case],
    tool_names: &[String],
    records: &[TrialRecord],
    args: &[Option<ArgCheck>],
    price: Option<&Price>,
    no_arguments: Option<&str>,
) -> ModelMetrics {
    let tools: Vec<Tool> = tool_names
        .iter()
        .map(|n| {
            Tool::named(
                n,
                crate::surface::Origin::default(),
                crate::surface::Confidence::High,
            )
        })
        .collect();
    let surface = Surface::new(&tools);
    aggregate(
        cases,
        &surface,
        records,
        price,
        no_arguments,
        &mut |i, case, record| {
            let mut score = surface.score(case, &record.outcome, &mut |_, _, _| ArgCheck {
                ok: false,
                problems: Vec::new(),
                notes: Vec::new(),
            });
            score.args = args.get(i).cloned().flatten();
            score
        },
    )
}

/// The figures of [`ModelMetrics`] from `records`, each scored by `score(index, case, record)`.
fn aggregate<'a>(
    cases: &'a [Case],
    surface: &Surface<'a>,
    records: &'a [TrialRecord],
    price: Option<&Price>,
    no_arguments: Option<&str>,
    score: &mut dyn FnMut(usize, &'a Case, &'a TrialRecord) -> TrialScore,
) -> ModelMetrics {
    let case_by_id: HashMap<&str, &Case> = cases.iter().map(|c| (c.id.as_str(), c)).collect();

    let mut per_tool: BTreeMap<&str, ToolTally> = BTreeMap::new();
    for name in &surface.names {
        per_tool.entry(name).or_default();
    }
    for case in cases.iter().filter(|c| c.reviewed) {
        if let Some(name) = expected_tool(case) {
            per_tool.entry(name).or_default();
        }
    }

    let (mut trials, mut errors, mut cached, mut retries) = (0u64, 0u64, 0u64, 0u64);
    let mut verdicts: BTreeMap<Verdict, u64> = Verdict::ALL.iter().map(|&v| (v, 0)).collect();
    let mut selection = Tally::default();
    let mut arguments = Tally::default();
    let mut abstention = Tally::default();
    let mut over_trigger = Tally::default();
    let mut phantom = Tally::default();
    let mut multi_call = Tally::default();
    let mut per_case: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    let mut cells: BTreeMap<(String, String), u64> = BTreeMap::new();
    let mut rows: BTreeSet<&str> = BTreeSet::new();
    let mut must_not_call_row = false;
    let mut by_index: Vec<Tally> = Vec::new();
    let (mut first, mut middle, mut last) = (Tally::default(), Tally::default(), Tally::default());
    let mut latencies: Vec<u64> = Vec::new();
    let mut tokens = Tokens::default();
    let mut answered_without_usage = false;
    let mut unreviewed_cases: BTreeSet<&str> = BTreeSet::new();
    let mut unreviewed_errors = 0u64;
    let mut unreviewed_selection = Tally::default();

    for (index, record) in records.iter().enumerate() {
        let Some(&case) = case_by_id.get(record.case_id.as_str()) else {
            continue;
        };
        if case.expected_tool.is_none() {
            continue;
        }
        let score = score(index, case, record);

        // Run health and spend: every trial.
        trials += 1;
        cached += u64::from(record.cached);
        retries += u64::from(record.retries);
        if score.verdict == Verdict::Error {
            errors += 1;
        }
        if let (false, Some(ms)) = (record.cached, record.latency_ms) {
            latencies.push(ms);
        }
        if let Ok(reply) = &record.outcome {
            match reply.usage {
                Some(usage) => {
                    tokens.input += usage.input_tokens;
                    tokens.output += usage.output_tokens;
                    tokens.trials_with_usage += 1;
                }
                None => answered_without_usage = true,
            }
        }

        if !case.reviewed {
            unreviewed_cases.insert(case.id.as_str());
            if score.verdict == Verdict::Error {
                unreviewed_errors += 1;
            } else {
                unreviewed_selection.add(score.verdict.is_selection_success());
            }
            continue;
        }

        // Official figures: reviewed trials.
        *verdicts.entry(score.verdict).or_default() += 1;
        let Ok(reply) = &record.outcome else {
            continue;
        };
        let success = score.verdict.is_selection_success();
        selection.add(success);
        let entry = per_case.entry(case.id.as_str()).or_default();
        entry.0 += u64::from(success);
        entry.1 += 1;
        phantom.add(score.verdict == Verdict::Phantom);
        multi_call.add(reply.calls.len() >= 2);
        let args_ok = score.args.as_ref().is_some_and(|a| a.ok);
        let checks_args = no_arguments.is_none();
        if checks_args && score.verdict == Verdict::Correct {
            arguments.add(args_ok);
        }

        let expected = expected_tool(case);
        match expected {
            None => {
                over_trigger.add(score.verdict == Verdict::OverTriggered);
                must_not_call_row = true;
            }
            Some(name) => {
                abstention.add(score.verdict == Verdict::Abstained);
                rows.insert(name);
                let tally = per_tool.entry(name).or_default();
                tally.cases.insert(case.id.as_str());
                tally.accuracy.add(score.verdict == Verdict::Correct);
                if checks_args && score.verdict == Verdict::Correct {
                    tally.arguments.add(args_ok);
                }
                if let Some(index) = record.order.iter().position(|t| t == name) {
                    if by_index.len() <= index {
                        by_index.resize(index + 1, Tally::default());
                    }
                    by_index[index].add(success);
                    if index == 0 {
                        first.add(success);
                    } else if index + 1 == record.order.len() {
                        last.add(success);
                    } else {
                        middle.add(success);
                    }
                }
            }
        }
        let called: BTreeSet<&str> = reply
            .calls
            .iter()
            .filter_map(|c| c.name.as_deref())
            .collect();
        for name in called {
            if let Some(tally) = per_tool.get_mut(name) {
                tally.picked += 1;
                if expected != Some(name) {
                    tally.picked_wrongly += 1;
                }
            }
        }
        let row = expected.unwrap_or(NONE_LABEL).to_owned();
        let column = score.picked.unwrap_or_else(|| NONE_LABEL.to_owned());
        *cells.entry((row, column)).or_default() += 1;
    }

    let confusion = confusion_matrix(&surface.names, &rows, must_not_call_row, &cells);
    let confusion_pairs = confusion_pairs(&cells);
    let outcomes: Vec<(u64, u64)> = per_case.values().copied().collect();
    let level = stats::case_level(&outcomes);
    latencies.sort_unstable();
    let latency_ms = match (
        stats::percentile(&latencies, 50.0),
        stats::percentile(&latencies, 95.0),
    ) {
        (Some(p50), Some(p95)) => Some(Latency {
            p50,
            p95,
            n: latencies.len() as u64,
        }),
        _ => None,
    };
    let cost = match price {
        Some(price) if !answered_without_usage => Some(Cost {
            amount: (tokens.input as f64 * price.input + tokens.output as f64 * price.output)
                / 1_000_000.0,
            currency: price.currency.clone(),
        }),
        _ => None,
    };
    let unreviewed_trials = unreviewed_errors + unreviewed_selection.total;
    let unreviewed = (unreviewed_trials > 0).then(|| Unreviewed {
        cases: unreviewed_cases.len() as u64,
        trials: unreviewed_trials,
        errors: unreviewed_errors,
        scored: unreviewed_selection.total,
        selection_accuracy: unreviewed_selection.rate(),
    });

    ModelMetrics {
        trials,
        errors,
        error_rate: Rate::new(errors, trials),
        cached,
        retries,
        scored: selection.total,
        distinct_cases: level.cases,
        selection_accuracy: selection.rate(),
        case_level: CaseLevelRate {
            cases: level.cases,
            ties: level.ties,
            rate: Rate::new(level.majority_correct, level.cases),
        },
        argument_accuracy: arguments.rate(),
        argument_accuracy_na: no_arguments.map(str::to_owned),
        abstention: abstention.rate(),
        over_trigger: over_trigger.rate(),
        phantom: phantom.rate(),
        multi_call: multi_call.rate(),
        verdicts,
        per_tool: per_tool
            .into_iter()
            .map(|(name, t)| ToolMetrics {
                tool: name.to_owned(),
                on_surface: surface.names.contains(name),
                cases: t.cases.len() as u64,
                accuracy: t.accuracy.rate(),
                picked: t.picked,
                picked_wrongly: t.picked_wrongly,
                argument_accuracy: t.arguments.rate(),
            })
            .collect(),
        confusion,
        confusion_pairs,
        position: PositionSensitivity {
            first: first.rate(),
            middle: middle.rate(),
            last: last.rate(),
            by_index: by_index.into_iter().map(Tally::rate).collect(),
        },
        latency_ms,
        tokens,
        cost,
        unreviewed,
    }
}

/// Lay the counted cells out as a matrix (see [`Confusion`] for the order).
fn confusion_matrix(
    tool_names: &BTreeSet<&str>,
    rows: &BTreeSet<&str>,
    must_not_call_row: bool,
    cells: &BTreeMap<(String, String), u64>,
) -> Confusion {
    let mut row_labels: Vec<String> = rows.iter().map(|r| (*r).to_owned()).collect();
    if must_not_call_row {
        row_labels.push(NONE_LABEL.to_owned());
    }
    let mut columns: Vec<String> = tool_names.iter().map(|t| (*t).to_owned()).collect();
    columns.extend([NONE_LABEL, PHANTOM_LABEL, MULTIPLE_LABEL].map(str::to_owned));
    let counts = row_labels
        .iter()
        .map(|row| {
            columns
                .iter()
                .map(|column| {
                    cells
                        .get(&(row.clone(), column.clone()))
                        .copied()
                        .unwrap_or(0)
                })
                .collect()
        })
        .collect();
    Confusion {
        rows: row_labels,
        columns,
        counts,
    }
}

/// The off-diagonal cells (row label ≠ column label), largest count first.
fn confusion_pairs(cells: &BTreeMap<(String, String), u64>) -> Vec<ConfusionPair> {
    let mut pairs: Vec<ConfusionPair> = cells
        .iter()
        .filter(|((row, column), count)| row != column && **count > 0)
        .map(|((row, column), count)| ConfusionPair {
            expected: row.clone(),
            picked: column.clone(),
            count: *count,
        })
        .collect();
    // Stable sort: ties keep the BTreeMap's (expected, picked) order.
    pairs.sort_by_key(|p| std::cmp::Reverse(p.count));
    pairs
}

#[cfg(test)]
mod tests;
