//! Mount-group scoring (`mf eval --profile all|NAME`): the run with every tool (the same
//! trials, and cache entries, as a plain `mf eval`), then each chosen group of the suite's
//! `profiles` mounted alone over its cases; per group and model the selection accuracy both
//! ways, their difference, the cases right only when mounted alone (`lifted`) and wrong only
//! when mounted alone (`jammed`), and a case-level paired sign test (SCHEMA.md "Mount groups").
//!
//! A group's cases are the selected cases that expect one of its tools, plus the must-not-call
//! cases. The whole plan (every run) is checked against the budgets before anything is sent.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use super::EvalError;
use super::batch::{self, BatchPlan, BatchRun};
use super::config::{EvalConfig, MountGroups};
use super::evaluate::{EvalOutcome, LoadedSuite, Observer, evaluate};
use crate::report::compare::PairedTest;
use crate::report::metrics::{Rate, Verdict};
use crate::report::mount::{GroupScore, MountScores};
use crate::report::scorecard::{ModelResult, Scorecard, Status, TrialRow};
use crate::stats::{holm, sign_test};
use crate::suite::{Case, Selection};
use crate::surface::Surface;

/// One group to score: its name, members, the tools of the surface it offers and its cases.
struct Group {
    name: String,
    members: Vec<String>,
    offered: Vec<String>,
    cases: Vec<String>,
}

/// The groups `which` names, with their cases among `selected`; an error when the suite has no
/// profiles or not the one named.
fn groups(
    suite: &LoadedSuite,
    which: &MountGroups,
    selected: &[&Case],
    surface: &Surface,
) -> Result<Vec<Group>, EvalError> {
    let profiles = &suite.suite.profiles;
    if profiles.is_empty() {
        return Err(EvalError::Plan(format!(
            "--profile scores the suite's mount groups, and {} has no `profiles` (write them as \
             group → tool names, or let `mf cluster --out {}` suggest some)",
            suite.display, suite.display
        )));
    }
    let names: Vec<&String> = match which {
        MountGroups::All => profiles.keys().collect(),
        MountGroups::One(name) => match profiles.get_key_value(name) {
            Some((k, _)) => vec![k],
            None => {
                let known: Vec<&str> = profiles.keys().map(String::as_str).collect();
                return Err(EvalError::Plan(format!(
                    "no profile {name:?} in the suite (profiles: {}; `--profile all` scores \
                     every one)",
                    known.join(", ")
                )));
            }
        },
    };
    Ok(names
        .into_iter()
        .map(|name| {
            let members = profiles[name].clone();
            let offered = surface
                .tools
                .iter()
                .filter(|t| members.contains(&t.name))
                .map(|t| t.name.clone())
                .collect();
            let cases = selected
                .iter()
                .filter(|c| match &c.expected_tool {
                    Some(Some(t)) => members.contains(t),
                    Some(None) => true,
                    None => false,
                })
                .map(|c| c.id.clone())
                .collect();
            Group {
                name: name.clone(),
                members,
                offered,
                cases,
            }
        })
        .collect())
}

/// Why a group gets no mounted run, if it gets none.
fn unrunnable(group: &Group, selected: &[&Case]) -> Option<String> {
    if group.offered.is_empty() {
        return Some("none of its tools is on the surface".into());
    }
    let expects = selected.iter().any(|c| {
        group.cases.contains(&c.id)
            && matches!(&c.expected_tool, Some(Some(t)) if group.members.contains(t))
    });
    (!expects).then(|| "no selected case expects one of its tools".into())
}

/// The settings of group `g` mounted alone over its cases.
fn mounted_config(config: &EvalConfig, group: &Group) -> EvalConfig {
    EvalConfig {
        profile: Some(group.name.clone()),
        mount_groups: None,
        selection: Selection {
            ids: group.cases.clone(),
            only: Vec::new(),
            skip: Vec::new(),
        },
        ..config.clone()
    }
}

/// Mount-group scoring: plan every run, check the budgets on the totals, run every tool, then
/// each group mounted alone; the main scorecard (every tool) with `profiles` filled in.
pub fn evaluate_groups(
    config: &EvalConfig,
    which: &MountGroups,
    started: Instant,
    suite: &LoadedSuite,
    surface: Surface,
    surface_label: &str,
    observer: &mut dyn Observer,
) -> Result<EvalOutcome, EvalError> {
    let main = EvalConfig {
        profile: None,
        mount_groups: None,
        ..config.clone()
    };
    let selected: Vec<&Case> = crate::suite::select(&suite.suite, &config.selection)
        .map_err(|e| EvalError::Plan(format!("{}: {e}", suite.display)))?;
    let groups = groups(suite, which, &selected, &surface)?;
    let mut runs = vec![BatchRun {
        label: "with every tool".into(),
        config: main.clone(),
    }];
    for g in &groups {
        if unrunnable(g, &selected).is_none() {
            runs.push(BatchRun {
                label: format!("for group {:?} mounted alone", g.name),
                config: mounted_config(&main, g),
            });
        }
    }
    match batch::plan(
        &runs,
        config,
        config.dry_run,
        suite,
        &surface,
        surface_label,
    )? {
        BatchPlan::Go => {}
        BatchPlan::DryRun(plan) => return Ok(EvalOutcome::DryRun(plan)),
        BatchPlan::OverContext(refusals) => return Ok(EvalOutcome::OverContext(refusals)),
    }
    let mut card = match evaluate(
        &main,
        started,
        suite,
        surface.clone(),
        surface_label,
        observer,
    )? {
        EvalOutcome::Card(card) => card,
        other => return Ok(other),
    };
    let mut mounted: BTreeMap<String, Scorecard> = BTreeMap::new();
    for (g, run) in groups
        .iter()
        .filter(|g| unrunnable(g, &selected).is_none())
        .zip(runs.iter().skip(1))
    {
        observer.note(&format!(
            "note: group {:?} mounted alone: {} tool{}, {} case{}",
            g.name,
            g.offered.len(),
            if g.offered.len() == 1 { "" } else { "s" },
            g.cases.len(),
            if g.cases.len() == 1 { "" } else { "s" }
        ));
        match evaluate(
            &run.config,
            Instant::now(),
            suite,
            surface.clone(),
            surface_label,
            observer,
        )? {
            EvalOutcome::Card(c) => {
                mounted.insert(g.name.clone(), *c);
            }
            other => return Ok(other),
        }
    }
    let scores = scores(&card, &groups, &selected, &mounted);
    if scores.groups.iter().any(|g| !g.healthy) && card.status != Status::Unhealthy {
        card.status = Status::Unhealthy;
    }
    card.timing.wall_ms = started.elapsed().as_millis() as u64;
    card.profiles = Some(scores);
    Ok(EvalOutcome::Card(card))
}

/// Per case: (good trials, scored trials) and the good flag by trial index.
type Tally = BTreeMap<String, BTreeMap<u32, bool>>;

fn tally(model: &ModelResult, cases: &BTreeSet<&str>) -> Tally {
    let mut out: Tally = BTreeMap::new();
    for t in model
        .trials
        .iter()
        .filter(|t| cases.contains(t.case.as_str()))
    {
        if t.verdict == Verdict::Error {
            continue;
        }
        out.entry(t.case.clone())
            .or_default()
            .insert(t.trial, good(t));
    }
    out
}

fn good(t: &TrialRow) -> bool {
    matches!(t.verdict, Verdict::Correct | Verdict::CorrectAbstention)
}

/// Right = a strict majority of the case's scored trials good; `None` when none was scored.
fn right(trials: Option<&BTreeMap<u32, bool>>) -> Option<bool> {
    let t = trials.filter(|t| !t.is_empty())?;
    let k = t.values().filter(|g| **g).count();
    Some(2 * k > t.len())
}

fn rate(t: &Tally) -> Rate {
    let n: usize = t.values().map(BTreeMap::len).sum();
    let k: usize = t.values().map(|c| c.values().filter(|g| **g).count()).sum();
    Rate::new(k as u64, n as u64)
}

/// The `profiles` block: each group of each model of `card` (every tool) against its mounted run.
fn scores(
    card: &Scorecard,
    groups: &[Group],
    selected: &[&Case],
    mounted: &BTreeMap<String, Scorecard>,
) -> MountScores {
    let reviewed: BTreeSet<&str> = card
        .suite
        .cases
        .iter()
        .filter(|c| c.reviewed)
        .map(|c| c.id.as_str())
        .collect();
    let mut definitions = BTreeMap::new();
    let mut out = Vec::new();
    for g in groups {
        let mut members = g.members.clone();
        members.sort();
        definitions.insert(g.name.clone(), members);
        let cases: BTreeSet<&str> = g
            .cases
            .iter()
            .map(String::as_str)
            .filter(|c| reviewed.contains(c))
            .collect();
        for m in &card.models {
            let all = tally(m, &cases);
            let alone_model = mounted
                .get(&g.name)
                .and_then(|c| c.models.iter().find(|x| x.label == m.label));
            let alone = alone_model.map(|x| tally(x, &cases)).unwrap_or_default();
            let mut problems = Vec::new();
            if let Some(why) = unrunnable(g, selected) {
                problems.push(format!("not mounted alone: {why}"));
            }
            if let Some(x) = alone_model {
                problems.extend(x.health.problems.iter().cloned());
            }
            let (mut lifted, mut jammed) = (Vec::new(), Vec::new());
            let (mut up, mut down, mut tied) = (0u64, 0u64, 0u64);
            for id in &g.cases {
                let (a, b) = (alone.get(id), all.get(id));
                match (right(a), right(b)) {
                    (Some(true), Some(false)) => lifted.push(id.clone()),
                    (Some(false), Some(true)) => jammed.push(id.clone()),
                    _ => {}
                }
                let (Some(a), Some(b)) = (a, b) else { continue };
                let (mut ka, mut kb, mut n) = (0, 0, 0);
                for (trial, ga) in a {
                    if let Some(gb) = b.get(trial) {
                        ka += u64::from(*ga);
                        kb += u64::from(*gb);
                        n += 1;
                    }
                }
                if n == 0 {
                    continue;
                }
                match ka.cmp(&kb) {
                    std::cmp::Ordering::Greater => up += 1,
                    std::cmp::Ordering::Less => down += 1,
                    std::cmp::Ordering::Equal => tied += 1,
                }
            }
            let s = sign_test(up, down);
            let (mounted_rate, all_rate) = (rate(&alone), rate(&all));
            out.push(GroupScore {
                profile: g.name.clone(),
                model: m.label.clone(),
                tools: g.offered.clone(),
                cases: g.cases.clone(),
                delta: match (mounted_rate.value, all_rate.value) {
                    (Some(a), Some(b)) => Some(a - b),
                    _ => None,
                },
                mounted: mounted_rate,
                all_in_one: all_rate,
                lifted,
                jammed,
                test: PairedTest {
                    pairs: up + down + tied,
                    improved: up,
                    regressed: down,
                    tied,
                    p: s.p,
                    mid_p: s.mid_p,
                    p_adjusted: s.p,
                },
                healthy: alone_model.is_none_or(|x| x.health.healthy),
                problems,
            });
        }
    }
    // The groups of one model are one family: Holm within it.
    for m in &card.models {
        let idx: Vec<usize> = (0..out.len())
            .filter(|&i| out[i].model == m.label)
            .collect();
        let adjusted = holm(&idx.iter().map(|&i| out[i].test.p).collect::<Vec<_>>());
        for (k, &i) in idx.iter().enumerate() {
            out[i].test.p_adjusted = adjusted[k];
        }
    }
    MountScores {
        definitions,
        groups: out,
    }
}
