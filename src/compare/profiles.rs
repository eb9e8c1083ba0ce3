//! Profiles in `mf compare`. A run evaluated with one group's tools alone (`--profile NAME
//! --mounted-only`) is comparable only with a run of the same group under the same definition;
//! mount-group scores (`--profile all|NAME`) are compared group by group, and a group whose
//! definition differs between the runs (or that one side did not score) is marked not
//! comparable, with base's and head's figures side by side.

use std::collections::BTreeSet;

use crate::report::compare::{GroupComparison, GroupFigures};
use crate::report::mount::GroupScore;
use crate::report::scorecard::Scorecard;

/// Why the two runs' offered profiles make them incomparable; empty = fine.
pub fn profile_reasons(base: &Scorecard, head: &Scorecard) -> Vec<String> {
    let (b, h) = (&base.suite, &head.suite);
    let name = |p: &Option<String>| p.clone().unwrap_or_else(|| "(every tool)".into());
    if b.profile != h.profile {
        return vec![format!(
            "the offered profile differs: base {}, head {} (--profile NAME --mounted-only)",
            name(&b.profile),
            name(&h.profile)
        )];
    }
    match (&b.profile, &b.profile_tools, &h.profile_tools) {
        (Some(p), Some(x), Some(y)) if x != y => vec![format!(
            "profile {p:?} is defined differently: base [{}], head [{}]",
            x.join(", "),
            y.join(", ")
        )],
        _ => Vec::new(),
    }
}

fn figures(g: &GroupScore) -> GroupFigures {
    GroupFigures {
        mounted: g.mounted,
        all_in_one: g.all_in_one,
        delta: g.delta,
        lifted: g.lifted.clone(),
        jammed: g.jammed.clone(),
    }
}

/// Each group scored by either run, per model, in name order then model order.
pub fn compare_groups(base: &Scorecard, head: &Scorecard) -> Vec<GroupComparison> {
    let (Some(bp), hp) = (base.profiles.as_ref(), head.profiles.as_ref()) else {
        return head
            .profiles
            .as_ref()
            .map(|h| {
                h.groups
                    .iter()
                    .map(|g| one_side(g, None, Some(figures(g)), "base"))
                    .collect()
            })
            .unwrap_or_default();
    };
    let empty = Vec::new();
    let hg = hp.map_or(&empty, |h| &h.groups);
    let mut keys: BTreeSet<(&str, &str)> = BTreeSet::new();
    for g in bp.groups.iter().chain(hg) {
        keys.insert((g.profile.as_str(), g.model.as_str()));
    }
    keys.into_iter()
        .filter_map(|(profile, model)| {
            let find = |v: &[GroupScore]| {
                v.iter()
                    .find(|g| g.profile == profile && g.model == model)
                    .cloned()
            };
            let (b, h) = (find(&bp.groups), find(hg));
            Some(match (b, h) {
                (Some(b), Some(h)) => {
                    let (db, dh) = (
                        bp.definitions.get(profile),
                        hp.and_then(|x| x.definitions.get(profile)),
                    );
                    let mut reasons = Vec::new();
                    if db != dh {
                        reasons.push(format!(
                            "the group is defined differently: base [{}], head [{}]",
                            db.map(|d| d.join(", ")).unwrap_or_default(),
                            dh.map(|d| d.join(", ")).unwrap_or_default()
                        ));
                    }
                    if !b.healthy || !h.healthy {
                        reasons.push("a mounted run is unhealthy".into());
                    }
                    GroupComparison {
                        profile: profile.to_owned(),
                        model: model.to_owned(),
                        comparable: reasons.is_empty(),
                        reasons,
                        before: Some(figures(&b)),
                        after: Some(figures(&h)),
                    }
                }
                (Some(b), None) => one_side(&b, Some(figures(&b)), None, "head"),
                (None, Some(h)) => one_side(&h, None, Some(figures(&h)), "base"),
                (None, None) => return None,
            })
        })
        .collect()
}

fn one_side(
    g: &GroupScore,
    before: Option<GroupFigures>,
    after: Option<GroupFigures>,
    missing: &str,
) -> GroupComparison {
    GroupComparison {
        profile: g.profile.clone(),
        model: g.model.clone(),
        comparable: false,
        reasons: vec![format!("the {missing} run did not score this group")],
        before,
        after,
    }
}
