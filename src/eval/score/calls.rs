//! Parallel-call cases (`expectedCalls`): the verdict of a reply against an expected call set,
//! the argument check as a matching, and the label of a call set in the confusion matrix.
//!
//! Scored as the Berkeley Function Calling Leaderboard's parallel checker scores a turn: every
//! expected call is matched by exactly one call, in any order, and no call is left over. mf
//! splits that into the usual two questions:
//!
//! - **selection** (the verdict): the multiset of called tool names equals the multiset of
//!   expected tools → `correct`; it contains them plus more calls → `unexpected-additional-calls`;
//!   no call → `abstained`; a call to a name not offered (or a nameless call) → `phantom`;
//!   anything else (a call missing, a wrong tool) → `wrong-tool`;
//! - **arguments** (for `correct` trials): a perfect matching between expected calls and calls
//!   exists in which each call is to the expected call's tool and passes the argument check of
//!   that tool with that expected call's `args`. Found by augmenting paths (Kuhn), so the answer
//!   does not depend on the order of either list — where BFCL matches greedily in the order of
//!   its possible answers (see docs/bfcl.md).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use crate::providers::{Call, Reply};
use crate::report::metrics::{ArgCheck, Verdict};
use crate::suite::ExpectedCall;
use crate::surface::Tool;

/// The label of a multiset of tool names: sorted names joined by ` + `, a repeated name as
/// `name ×k` (`get_weather ×2`, `area + perimeter`). One name alone is the name itself, so a
/// one-call set shares its row and column with single-call cases of that tool.
pub fn set_label<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for name in names {
        *counts.entry(name).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|(name, k)| {
            if k == 1 {
                name.to_owned()
            } else {
                format!("{name} ×{k}")
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The label of an expected call set.
pub fn expected_label(expected: &[ExpectedCall]) -> String {
    set_label(expected.iter().map(|c| c.tool.as_str()))
}

/// The verdict of `reply` (an answer, not an error) on a call-set case (see the module docs).
pub fn verdict(expected: &[ExpectedCall], tool_names: &BTreeSet<&str>, reply: &Reply) -> Verdict {
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
    let mut want: BTreeMap<&str, usize> = BTreeMap::new();
    for c in expected {
        *want.entry(c.tool.as_str()).or_default() += 1;
    }
    let mut got: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &reply.calls {
        *got.entry(c.name.as_deref().unwrap_or_default())
            .or_default() += 1;
    }
    if want == got {
        Verdict::Correct
    } else if want
        .iter()
        .all(|(name, k)| got.get(name).is_some_and(|g| g >= k))
    {
        Verdict::UnexpectedAdditionalCalls
    } else {
        Verdict::WrongTool
    }
}

/// The confusion-matrix column of a call-set trial's answer: `(none)`, `(phantom)`, or the
/// [`set_label`] of the called names.
pub fn picked_label(tool_names: &BTreeSet<&str>, reply: &Reply) -> Option<String> {
    let mut names = Vec::with_capacity(reply.calls.len());
    for call in &reply.calls {
        match call.name.as_deref() {
            Some(name) if tool_names.contains(name) => names.push(name),
            _ => return None,
        }
    }
    Some(set_label(names))
}

/// The argument check of a `correct` call-set trial: a perfect matching of expected calls to
/// calls (see the module docs). `check_args` checks one call against one tool and assertions.
pub fn check<'t>(
    expected: &[ExpectedCall],
    reply: &Reply,
    by_name: &HashMap<&str, &'t Tool>,
    check_args: &mut dyn FnMut(&'t Tool, &Call, Option<&Value>) -> ArgCheck,
) -> ArgCheck {
    let n = expected.len();
    let calls = &reply.calls;
    // fits[i][j]: the check of call j against expected call i (None: another tool).
    let mut fits: Vec<Vec<Option<ArgCheck>>> = Vec::with_capacity(n);
    let mut notes = BTreeSet::new();
    for want in expected {
        let row = calls
            .iter()
            .map(|call| {
                if call.name.as_deref() != Some(want.tool.as_str()) {
                    return None;
                }
                let tool = by_name.get(want.tool.as_str())?;
                let result = check_args(tool, call, want.args.as_ref());
                notes.extend(result.notes.iter().cloned());
                Some(result)
            })
            .collect();
        fits.push(row);
    }
    let ok = |i: usize, j: usize| fits[i][j].as_ref().is_some_and(|c| c.ok);
    let mut owner: Vec<Option<usize>> = vec![None; calls.len()];
    for i in 0..n {
        let mut seen = vec![false; calls.len()];
        augment(i, &ok, &mut owner, &mut seen);
    }
    let matched: BTreeSet<usize> = owner.iter().flatten().copied().collect();
    let mut problems = Vec::new();
    for (i, want) in expected.iter().enumerate() {
        if matched.contains(&i) {
            continue;
        }
        // The closest candidate: a call to this tool no other expected call took, with the
        // fewest problems.
        let best = fits[i]
            .iter()
            .enumerate()
            .filter_map(|(j, c)| c.as_ref().map(|c| (j, c)))
            .min_by_key(|(j, c)| (owner[*j].is_some(), c.problems.len()));
        match best {
            Some((j, c)) => {
                for p in &c.problems {
                    problems.push(format!("expectedCalls[{i}] ({}): call {j}: {p}", want.tool));
                }
                if c.problems.is_empty() {
                    problems.push(format!(
                        "expectedCalls[{i}] ({}): the calls that fit it are matched to other \
                         expected calls",
                        want.tool
                    ));
                }
            }
            None => problems.push(format!(
                "expectedCalls[{i}] ({}): no call to this tool",
                want.tool
            )),
        }
    }
    ArgCheck {
        ok: problems.is_empty(),
        problems,
        notes: notes.into_iter().collect(),
    }
}

/// Kuhn's augmenting path from expected call `i`.
fn augment(
    i: usize,
    ok: &dyn Fn(usize, usize) -> bool,
    owner: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for j in 0..owner.len() {
        if seen[j] || !ok(i, j) {
            continue;
        }
        seen[j] = true;
        let free = match owner[j] {
            None => true,
            Some(k) => augment(k, ok, owner, seen),
        };
        if free {
            owner[j] = Some(i);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn expected(tool: &str, args: Value) -> ExpectedCall {
        ExpectedCall {
            tool: tool.into(),
            args: Some(args),
        }
    }

    fn reply(calls: &[(&str, Value)]) -> Reply {
        Reply {
            calls: calls
                .iter()
                .map(|(n, a)| Call {
                    name: Some((*n).into()),
                    arguments: Some(a.clone()),
                    raw_arguments: None,
                })
                .collect(),
            ..Reply::default()
        }
    }

    #[test]
    fn labels_count_repeats_and_sort_names() {
        assert_eq!(set_label(["b", "a", "b"]), "a + b ×2");
        assert_eq!(set_label(["a"]), "a");
        assert_eq!(set_label([]), "");
    }

    #[test]
    fn verdicts_compare_multisets() {
        let names: BTreeSet<&str> = ["a", "b"].into();
        let want = [expected("a", json!({})), expected("a", json!({}))];
        let v = |calls: &[(&str, Value)]| verdict(&want, &names, &reply(calls));
        assert_eq!(v(&[("a", json!({})), ("a", json!({}))]), Verdict::Correct);
        assert_eq!(v(&[("a", json!({}))]), Verdict::WrongTool, "one missing");
        assert_eq!(
            v(&[("a", json!({})), ("a", json!({})), ("b", json!({}))]),
            Verdict::UnexpectedAdditionalCalls
        );
        assert_eq!(v(&[("zzz", json!({}))]), Verdict::Phantom);
        assert_eq!(v(&[]), Verdict::Abstained);
    }

    #[test]
    fn matching_is_order_free_and_not_greedy() {
        // Expected 0 accepts x or y, expected 1 accepts only x. Calls [x, y]: a greedy matcher
        // gives x to expected 0 and fails expected 1; the matching gives y to 0 and x to 1.
        let want = [
            expected("t", json!({"v": {"$oneOf": ["x", "y"]}})),
            expected("t", json!({"v": "x"})),
        ];
        let mut tool = Tool::named(
            "t",
            crate::surface::Origin::default(),
            crate::surface::Confidence::High,
        );
        tool.input_schema =
            Some(json!({"type": "object", "properties": {"v": {"type": "string"}}}));
        let by_name: HashMap<&str, &Tool> = [("t", &tool)].into();
        let mut check_args =
            |t: &Tool, c: &Call, e: Option<&Value>| crate::eval::args::check_arguments(t, c, e);
        let r = reply(&[("t", json!({"v": "x"})), ("t", json!({"v": "y"}))]);
        assert!(check(&want, &r, &by_name, &mut check_args).ok);
        let r = reply(&[("t", json!({"v": "y"})), ("t", json!({"v": "y"}))]);
        let bad = check(&want, &r, &by_name, &mut check_args);
        assert!(!bad.ok);
        assert!(
            bad.problems[0].starts_with("expectedCalls[1] (t): call 1: /v: expected \"x\""),
            "{:?}",
            bad.problems
        );
    }
}
