//! `mf merge`: the parts of one sharded plan (`mf eval --shard K/N`) joined into the scorecard
//! one unsharded run would have written. Every metric, health figure, gate and the status are
//! computed again from the joined trial rows (never added up from the parts' figures), so the
//! merged scorecard equals a single run's in everything but `timing`.
//!
//! Refused, with every problem named at once: a document that is not a part, a part whose
//! fingerprint does not match its own content, parts of different plans or shard counts, a
//! shard given twice, a part holding trials that are not its shard's, and — unless
//! `allow_partial` — a set with shards missing (the result then says what is missing in
//! `partial`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::config::EvalGates;
use super::scorecard::{judge, record_of, status};
use super::shard::{self, Shard};
use crate::report::scorecard::{PartTiming, PartialInfo, Scorecard, Timing, TrialKey};
use crate::suite::Case;

/// Most bytes of one part file (a part holds every trial row of its shard).
pub const MAX_PART_BYTES: u64 = 256 * 1024 * 1024;

/// One part and where it came from (for messages).
#[derive(Debug, Clone)]
pub struct Part {
    /// The file as given.
    pub source: String,
    /// The part.
    pub card: Scorecard,
}

/// Why parts cannot be merged: every problem, one sentence each.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot merge ({} problem{}):\n{}", .0.len(), if .0.len() == 1 { "" } else { "s" }, .0.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
pub struct MergeError(pub Vec<String>);

/// Read one part (or any scorecard: [`merge`] says what is wrong with it) from `path`.
pub fn read_part(path: &Path) -> Result<Part, MergeError> {
    let source = path.display().to_string();
    let text = crate::surface::formats::read_text(path, &source, MAX_PART_BYTES)
        .map_err(|e| MergeError(vec![e.to_string()]))?;
    let card: Scorecard = serde_json::from_str(&text).map_err(|e| {
        MergeError(vec![format!(
            "{source}: not a scorecard part mf can read ({e}); give the --json-out files of \
             `mf eval --shard K/N`"
        )])
    })?;
    Ok(Part { source, card })
}

/// Files under `dir` (depth ≤ 3, symlinks not followed, sorted) whose name starts with
/// `prefix` and ends in `.json`: the parts `mf ci --shard` wrote, as the download of several
/// artifacts lays them out (`DIR/ARTIFACT/FILE`).
pub fn find_parts(dir: &Path, prefix: &str) -> std::io::Result<Vec<PathBuf>> {
    fn walk(dir: &Path, prefix: &str, depth: u32, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if kind.is_dir() && depth < 3 {
                walk(&path, prefix, depth + 1, out)?;
            } else if kind.is_file() && name.starts_with(prefix) && name.ends_with(".json") {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, prefix, 1, &mut out)?;
    out.sort();
    Ok(out)
}

/// What differs between two parts' plans, by section (for the refusal).
fn plan_differences(a: &Scorecard, b: &Scorecard) -> Vec<&'static str> {
    let mut out = Vec::new();
    if a.suite != b.suite {
        out.push("suite, cases or tools");
    }
    if a.reproducibility != b.reproducibility {
        out.push("mf version, seed, repeat or tool-order algorithm");
    }
    let labels = |c: &Scorecard| c.models.iter().map(|m| m.label.clone()).collect::<Vec<_>>();
    if labels(a) != labels(b) {
        out.push("models");
    } else if out.is_empty() {
        out.push("model settings or gates");
    }
    out
}

/// The gate thresholds a scorecard was judged with (its gates name them).
fn gates_of(card: &Scorecard) -> EvalGates {
    let mut g = EvalGates::default();
    let first = card.models.first().map(|m| m.label.as_str());
    for gate in card
        .gates
        .iter()
        .filter(|g| Some(g.model.as_str()) == first)
    {
        match gate.name.as_str() {
            "max-error-rate" => g.max_error_rate = gate.threshold,
            "min-scored" => g.min_scored = gate.threshold as u64,
            "min-accuracy" => g.min_accuracy = Some(gate.threshold),
            "max-over-trigger" => g.max_over_trigger = Some(gate.threshold),
            _ => {}
        }
    }
    g
}

/// The cases as scoring needs them, from what a scorecard records of them.
fn cases_of(card: &Scorecard) -> Vec<Case> {
    card.suite
        .cases
        .iter()
        .map(|c| Case {
            id: c.id.clone(),
            input: String::new(),
            expected_tool: Some(c.expected_tool.clone()),
            expected_args: None,
            tool_input: None,
            expect: None,
            tags: c.tags.clone(),
            source: None,
            reviewed: c.reviewed,
            line: c.line,
            mutated_from: c.mutated_from.clone(),
            mutation: c.mutation.clone(),
            expected_calls: None,
            tools: None,
        })
        .collect()
}

/// Join `parts` of one plan into its scorecard. With `allow_partial` a set with shards missing
/// is merged too and marked `partial`.
pub fn merge(parts: Vec<Part>, allow_partial: bool) -> Result<Scorecard, MergeError> {
    let mut problems = Vec::new();
    if parts.iter().any(|p| {
        p.card
            .suite
            .cases
            .iter()
            .any(|c| c.tools.is_some() || c.expected_calls.is_some())
    }) {
        return Err(MergeError(vec![
            "these parts hold cases with their own `tools` or `expectedCalls`, which mf merge \
             cannot score again from a scorecard yet: run that suite unsharded"
                .into(),
        ]));
    }
    if parts.is_empty() {
        return Err(MergeError(vec![
            "no parts given: pass the --json-out files of every `mf eval --shard K/N`".into(),
        ]));
    }
    // Each part on its own: a part, whose fingerprint matches its content, holding its shard.
    let mut valid = Vec::new();
    for part in parts {
        let Some(info) = &part.card.shard else {
            problems.push(format!(
                "{}: not a part (it has no `shard`): merge the --json-out files of `mf eval \
                 --shard K/N`",
                part.source
            ));
            continue;
        };
        let executed =
            part.card.suite.execution.is_some()
                || part.card.models.iter().any(|m| {
                    m.execution.is_some() || m.trials.iter().any(|t| t.execution.is_some())
                });
        if executed {
            problems.push(format!(
                "{}: holds executions (`--execute`), which mf merge cannot join (it computes \
                 every metric and gate again from the trials): run `mf eval --execute` \
                 unsharded",
                part.source
            ));
            continue;
        }
        let actual = shard::plan_fingerprint(&part.card);
        if actual != info.plan {
            problems.push(format!(
                "{}: its plan fingerprint {} does not match its content ({actual}): the file \
                 was edited, or written by a different mf",
                part.source, info.plan
            ));
            continue;
        }
        let which = Shard {
            index: info.index,
            count: info.count,
        };
        if info.index == 0 || info.index > info.count {
            problems.push(format!("{}: shard {which} does not exist", part.source));
            continue;
        }
        let expected = shard::shard_trials(&part.card, which);
        let held = shard::held_trials(&part.card);
        if info.trials != expected
            || held.len() != expected.len()
            || sorted(&held) != sorted(&expected)
        {
            problems.push(format!(
                "{}: holds {} trials, but shard {which} of its plan has {} (assignment {}): \
                 the part is incomplete or edited",
                part.source,
                held.len(),
                expected.len(),
                shard::ASSIGNMENT_VERSION
            ));
            continue;
        }
        valid.push(part);
    }
    if !problems.is_empty() {
        return Err(MergeError(problems));
    }
    valid.sort_by_key(|p| p.card.shard.as_ref().map_or(0, |s| s.index));
    let first = valid[0].clone();
    let info = first.card.shard.clone().expect("checked above");
    // Together: one plan, one shard count, each shard once.
    let mut by_index: BTreeMap<u32, &str> = BTreeMap::new();
    for part in &valid {
        let s = part.card.shard.as_ref().expect("checked above");
        if s.plan != info.plan {
            problems.push(format!(
                "{} and {} are parts of different plans ({} vs {}: {} differ); shard one plan \
                 with the same suite, models and settings in every job",
                first.source,
                part.source,
                short(&info.plan),
                short(&s.plan),
                plan_differences(&first.card, &part.card).join(", ")
            ));
            continue;
        }
        if s.count != info.count {
            problems.push(format!(
                "{} is shard {}/{} but {} is shard {}/{}: every part must come from the same --shard K/N split",
                first.source, info.index, info.count, part.source, s.index, s.count
            ));
            continue;
        }
        if let Some(other) = by_index.insert(s.index, &part.source) {
            problems.push(format!(
                "shard {}/{} is given twice: {other} and {} (a duplicate would count its trials twice)",
                s.index, s.count, part.source
            ));
        }
    }
    if !problems.is_empty() {
        return Err(MergeError(problems));
    }
    let missing: Vec<u32> = (1..=info.count)
        .filter(|k| !by_index.contains_key(k))
        .collect();
    let missing_trials: u64 = missing
        .iter()
        .map(|&k| {
            let s = Shard {
                index: k,
                count: info.count,
            };
            shard::shard_trials(&first.card, s).len() as u64
        })
        .sum();
    if !missing.is_empty() && !allow_partial {
        let names: Vec<String> = missing
            .iter()
            .map(|k| format!("{k}/{}", info.count))
            .collect();
        return Err(MergeError(vec![format!(
            "incomplete: shard{} {} of plan {} {} missing ({missing_trials} of {} trials); \
             merge every part, or pass --allow-partial to merge what is here (the result is \
             marked partial)",
            if missing.len() == 1 { "" } else { "s" },
            names.join(", "),
            short(&info.plan),
            if missing.len() == 1 { "is" } else { "are" },
            shard::all_trials(&first.card).len()
        )]));
    }
    Ok(join(&valid, missing, missing_trials))
}

/// The merged scorecard of checked parts (sorted by shard).
fn join(parts: &[Part], missing: Vec<u32>, missing_trials: u64) -> Scorecard {
    let mut card = parts[0].card.clone();
    let info = card.shard.take().expect("checked");
    let cases = cases_of(&card);
    let case_index: BTreeMap<&str, usize> = card
        .suite
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    let gates_cfg = gates_of(&card);
    let mut gates = Vec::new();
    for (m, model) in card.models.iter_mut().enumerate() {
        let mut rows: Vec<_> = parts
            .iter()
            .flat_map(|p| p.card.models[m].trials.iter().cloned())
            .collect();
        rows.sort_by_key(|r| (case_index.get(r.case.as_str()).copied(), r.trial));
        let records: Vec<_> = rows.iter().map(|r| record_of(&model.label, r)).collect();
        let args: Vec<_> = rows.iter().map(|r| r.args.clone()).collect();
        model.metrics = super::score::metrics_rescored(
            &cases,
            &card.suite.tools,
            &records,
            &args,
            model.price.as_ref(),
            model.metrics.argument_accuracy_na.as_deref(),
        );
        model.trials = rows;
        model.robustness = super::robustness::robustness(&model.trials, &card.suite.cases);
        gates.extend(judge(model, card.suite.tool_tokens, &gates_cfg));
    }
    card.status = status(&gates, &card.models);
    card.gates = gates;
    card.timing = Timing {
        wall_ms: parts
            .iter()
            .map(|p| p.card.timing.wall_ms)
            .max()
            .unwrap_or(0),
        run_ms: parts
            .iter()
            .map(|p| p.card.timing.run_ms)
            .max()
            .unwrap_or(0),
        parts: parts
            .iter()
            .map(|p| PartTiming {
                shard: p.card.shard.as_ref().map_or(0, |s| s.index),
                wall_ms: p.card.timing.wall_ms,
                run_ms: p.card.timing.run_ms,
            })
            .collect(),
    };
    card.partial = (!missing.is_empty()).then(|| PartialInfo {
        plan: info.plan.clone(),
        count: info.count,
        shards: parts
            .iter()
            .filter_map(|p| p.card.shard.as_ref().map(|s| s.index))
            .collect(),
        missing,
        missing_trials,
    });
    card
}

fn sorted(keys: &[TrialKey]) -> BTreeSet<&TrialKey> {
    keys.iter().collect()
}

/// `sha256:` and the first 12 hex digits.
fn short(fingerprint: &str) -> &str {
    fingerprint.get(..19).unwrap_or(fingerprint)
}
