//! Mount-group scoring (`mf eval --profile all|NAME`, SCHEMA.md "Mount groups"): each group of
//! the suite's `profiles` evaluated mounted alone and within all tools, per model.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::compare::PairedTest;
use super::metrics::Rate;

/// The scorecard's `profiles`: the groups scored and their definitions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MountScores {
    /// Each scored group's definition: its member names as the suite lists them, sorted. Two
    /// runs whose definitions of a group differ are not comparable on that group.
    pub definitions: BTreeMap<String, Vec<String>>,
    /// One entry per scored group and model, groups by name, models in `--models` order.
    pub groups: Vec<GroupScore>,
}

/// One group of one model: mounted alone vs within all tools, over the group's cases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupScore {
    /// The group (a key of the suite's `profiles`).
    pub profile: String,
    /// The model label.
    pub model: String,
    /// The tools offered when the group is mounted alone (its members on the surface, in
    /// surface order).
    pub tools: Vec<String>,
    /// The group's cases: the selected cases that expect one of its tools, and the must-not-call
    /// cases (a group mounted alone must still call nothing on them).
    pub cases: Vec<String>,
    /// Selection accuracy over the group's cases with only the group mounted.
    pub mounted: Rate,
    /// Selection accuracy over the same cases with every tool mounted (the main run's trials).
    pub all_in_one: Rate,
    /// `mounted − allInOne` (`null` when either is unmeasured): how much the other tools cost
    /// this group.
    pub delta: Option<f64>,
    /// Cases right only when mounted alone (a strict majority of scored trials correct there,
    /// not within all tools): what the other tools take from the group.
    pub lifted: Vec<String>,
    /// Cases wrong only when mounted alone: what the group gets right only with the others
    /// beside it.
    pub jammed: Vec<String>,
    /// Case-level paired sign test, mounted (as "head") against within all tools (as "base"):
    /// per case the good trials over the trials both measured; `pAdjusted` is Holm-adjusted
    /// over the groups of the model.
    pub test: PairedTest,
    /// False when the mounted run broke a health gate (then its figures cannot be trusted).
    pub healthy: bool,
    /// Why not, one sentence each; or why the group has no figures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}
