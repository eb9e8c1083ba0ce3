//! The scorecard's `robustness`: how a model did on the variants `mf tasks mutate` wrote, next
//! to how it did on the cases they vary. A trial passes by the trial test of the case-level
//! rule ([`failure_of`]: scored, a selection success, arguments ok); a case or variant passes
//! by the strict majority of its scored trials. Only reviewed originals that have at least one
//! variant in the run count, and only those variants (unreviewed themselves, so they never
//! touch the official figures).

use std::collections::{BTreeMap, BTreeSet};

use super::cases::failure_of;
use crate::report::metrics::{Rate, Verdict};
use crate::report::scorecard::{BrokenVariant, CaseInfo, KindRobustness, Robustness, TrialRow};

/// (passed, scored) trials.
fn tally<'a>(trials: impl Iterator<Item = &'a TrialRow>) -> (u64, u64) {
    let mut passed = 0;
    let mut scored = 0;
    for t in trials.filter(|t| t.verdict != Verdict::Error) {
        scored += 1;
        if failure_of(t).is_none() {
            passed += 1;
        }
    }
    (passed, scored)
}

fn majority((passed, scored): (u64, u64)) -> bool {
    scored > 0 && 2 * passed > scored
}

/// The robustness of one model's `trials` over `cases`; `None` when no selected variant has a
/// reviewed original in the run.
pub fn robustness(trials: &[TrialRow], cases: &[CaseInfo]) -> Option<Robustness> {
    let originals: BTreeMap<&str, &CaseInfo> = cases
        .iter()
        .filter(|c| c.reviewed && c.mutated_from.is_none())
        .map(|c| (c.id.as_str(), c))
        .collect();
    let variants: Vec<&CaseInfo> = cases
        .iter()
        .filter(|c| {
            c.mutated_from
                .as_deref()
                .is_some_and(|o| originals.contains_key(o))
        })
        .collect();
    if variants.is_empty() {
        return None;
    }
    let mut by_case: BTreeMap<&str, Vec<&TrialRow>> = BTreeMap::new();
    for t in trials {
        by_case.entry(t.case.as_str()).or_default().push(t);
    }
    let of = |id: &str| tally(by_case.get(id).into_iter().flatten().copied());
    let sum = |ids: &BTreeSet<&str>| {
        ids.iter().fold((0, 0), |(p, s), id| {
            let (a, b) = of(id);
            (p + a, s + b)
        })
    };
    let with_variants: BTreeSet<&str> = variants
        .iter()
        .filter_map(|v| v.mutated_from.as_deref())
        .collect();
    let all_variants: BTreeSet<&str> = variants.iter().map(|v| v.id.as_str()).collect();
    let (op, os) = sum(&with_variants);
    let (mp, ms) = sum(&all_variants);
    let original = Rate::new(op, os);
    let mutated = Rate::new(mp, ms);
    let kinds: BTreeSet<&str> = variants
        .iter()
        .filter_map(|v| v.mutation.as_deref())
        .collect();
    let by_kind = kinds
        .into_iter()
        .map(|kind| {
            let of_kind: Vec<&&CaseInfo> = variants
                .iter()
                .filter(|v| v.mutation.as_deref() == Some(kind))
                .collect();
            let ids: BTreeSet<&str> = of_kind.iter().map(|v| v.id.as_str()).collect();
            let froms: BTreeSet<&str> = of_kind
                .iter()
                .filter_map(|v| v.mutated_from.as_deref())
                .collect();
            let (op, os) = sum(&froms);
            let (mp, ms) = sum(&ids);
            KindRobustness {
                mutation: kind.to_owned(),
                original: Rate::new(op, os),
                mutated: Rate::new(mp, ms),
            }
        })
        .collect();
    let broken = variants
        .iter()
        .filter(|v| {
            let from = v.mutated_from.as_deref().unwrap_or_default();
            let (vp, vs) = of(&v.id);
            majority(of(from)) && vs > 0 && !majority((vp, vs))
        })
        .map(|v| BrokenVariant {
            case: v.mutated_from.clone().unwrap_or_default(),
            variant: v.id.clone(),
            mutation: v.mutation.clone().unwrap_or_default(),
        })
        .collect();
    Some(Robustness {
        delta: original.value.zip(mutated.value).map(|(o, m)| m - o),
        original,
        mutated,
        by_kind,
        broken,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(id: &str, from: Option<&str>, kind: Option<&str>) -> CaseInfo {
        CaseInfo {
            id: id.into(),
            input_hash: "sha256:0".into(),
            expected_tool: Some("t".into()),
            expected_calls: None,
            tools: None,
            reviewed: from.is_none(),
            tags: vec![],
            line: None,
            mutated_from: from.map(str::to_owned),
            mutation: kind.map(str::to_owned),
            prompt_tokens: 1,
        }
    }

    fn trials(id: &str, verdicts: &[Verdict]) -> Vec<TrialRow> {
        verdicts
            .iter()
            .enumerate()
            .map(|(i, v)| TrialRow {
                case: id.into(),
                trial: i as u32,
                order: vec![],
                verdict: *v,
                calls: vec![],
                args: None,
                text: None,
                error: None,
                latency_ms: None,
                usage: None,
                retries: 0,
                cached: false,
                execution: None,
            })
            .collect()
    }

    #[test]
    fn variants_are_weighed_against_their_own_originals() {
        use Verdict::{Correct as C, Error as E, WrongTool as W};
        let cases = [
            case("a", None, None),
            case("a~typos", Some("a"), Some("typos")),
            case("a~casing", Some("a"), Some("casing")),
            case("b", None, None), // no variant: not counted
            case("x~typos", Some("gone"), Some("typos")), // original not in the run
        ];
        let mut rows = trials("a", &[C, C, C]);
        rows.extend(trials("a~typos", &[W, W, C]));
        rows.extend(trials("a~casing", &[C, C, E]));
        rows.extend(trials("b", &[W, W, W]));
        rows.extend(trials("x~typos", &[C]));
        let r = robustness(&rows, &cases).expect("variants");
        assert_eq!((r.original.numerator, r.original.denominator), (3, 3));
        // Errors are not scored: 1 of 3 typos + 2 of 2 casing.
        assert_eq!((r.mutated.numerator, r.mutated.denominator), (3, 5));
        assert!(r.delta.is_some_and(|d| (d - (0.6 - 1.0)).abs() < 1e-12));
        let kinds: Vec<(&str, u64, u64)> = r
            .by_kind
            .iter()
            .map(|k| {
                (
                    k.mutation.as_str(),
                    k.mutated.numerator,
                    k.mutated.denominator,
                )
            })
            .collect();
        assert_eq!(kinds, vec![("casing", 2, 2), ("typos", 1, 3)]);
        assert_eq!(
            r.broken,
            vec![BrokenVariant {
                case: "a".into(),
                variant: "a~typos".into(),
                mutation: "typos".into()
            }]
        );
        assert_eq!(robustness(&rows, &cases[..1]), None);
    }
}
