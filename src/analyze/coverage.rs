//! `mf coverage`: how many reviewed cases exist per tool and per profile, and the share of
//! must-not-call cases, against the compat guidance (≥ 3 per tool, ≥ 15% must-not-call).

use std::collections::BTreeMap;

use crate::report::coverage::*;
use crate::suite::{CaseTool, Suite};

/// Coverage of `suite`'s cases over the tools named in `tools` (surface order), then the tools
/// cases define inline (`cases[].tools`, first definition order). A case counts for its
/// `expectedTool`, or once for each distinct tool of its `expectedCalls`; an expected tool the
/// case does not offer (its own `tools`, else the surface) is listed as unknown.
pub fn coverage(suite: &Suite, tools: &[String]) -> CoverageReport {
    let mut reviewed: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unreviewed: BTreeMap<&str, usize> = BTreeMap::new();
    let mut must_not_call = 0;
    let mut reviewed_cases = 0;
    let mut unknown = Vec::new();
    let offered: std::collections::HashSet<&str> = tools.iter().map(String::as_str).collect();
    let mut tools: Vec<String> = tools.to_vec();
    for case in &suite.cases {
        for t in case.tools.iter().flatten() {
            if let CaseTool::Inline(inline) = t
                && !tools.contains(&inline.name)
            {
                tools.push(inline.name.clone());
            }
        }
    }
    for case in &suite.cases {
        if case.reviewed {
            reviewed_cases += 1;
        }
        let expected: Vec<&str> = match (&case.expected_calls, &case.expected_tool) {
            (Some(calls), _) => {
                let mut names: Vec<&str> = calls.iter().map(|c| c.tool.as_str()).collect();
                names.sort_unstable();
                names.dedup();
                names
            }
            (None, Some(None)) => {
                if case.reviewed {
                    must_not_call += 1;
                }
                Vec::new()
            }
            (None, Some(Some(t))) => vec![t.as_str()],
            (None, None) => Vec::new(),
        };
        for t in expected {
            let map = if case.reviewed {
                &mut reviewed
            } else {
                &mut unreviewed
            };
            *map.entry(t).or_insert(0) += 1;
            let known = match &case.tools {
                Some(own) => own.iter().any(|o| o.name() == t),
                None => offered.contains(t),
            };
            if case.reviewed && !known {
                unknown.push(UnknownExpected {
                    case: case.id.clone(),
                    expected_tool: t.to_owned(),
                });
            }
        }
    }
    let rows: Vec<ToolCoverage> = tools
        .iter()
        .map(|t| {
            let r = reviewed.get(t.as_str()).copied().unwrap_or(0);
            ToolCoverage {
                tool: t.clone(),
                reviewed_cases: r,
                unreviewed_cases: unreviewed.get(t.as_str()).copied().unwrap_or(0),
                missing: MIN_CASES_PER_TOOL.saturating_sub(r),
            }
        })
        .collect();
    let profiles = suite
        .profiles
        .iter()
        .map(|(name, members)| ProfileCoverage {
            profile: name.clone(),
            tools: members.len(),
            reviewed_cases: members
                .iter()
                .map(|m| reviewed.get(m.as_str()).copied().unwrap_or(0))
                .sum(),
            tools_below_minimum: members
                .iter()
                .filter(|m| reviewed.get(m.as_str()).copied().unwrap_or(0) < MIN_CASES_PER_TOOL)
                .cloned()
                .collect(),
        })
        .collect();
    let share = (reviewed_cases > 0).then(|| must_not_call as f64 / reviewed_cases as f64);
    let covered = rows.iter().filter(|r| r.missing == 0).count();
    CoverageReport {
        version: COVERAGE_REPORT_VERSION,
        kind: "coverage".into(),
        suite: suite.name.clone(),
        summary: CoverageSummary {
            tools: rows.len(),
            tools_covered: covered,
            tools_without_cases: rows.iter().filter(|r| r.reviewed_cases == 0).count(),
            cases: suite.cases.len(),
            reviewed_cases,
            must_not_call,
            must_not_call_share: share,
            meets_guidance: covered == rows.len()
                && share.is_some_and(|s| s >= MIN_MUST_NOT_CALL_SHARE),
        },
        tools: rows,
        profiles,
        unknown_expected_tools: unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(cases: &str) -> Suite {
        serde_json::from_str(&format!(
            r#"{{"name":"s","tools":[],"cases":{cases},"profiles":{{"p":["a","b"]}}}}"#
        ))
        .expect("suite")
    }

    #[test]
    fn case_tool_sets_and_call_sets_are_counted() {
        let s = suite(
            r#"[
            {"id":"1","input":"x","expectedCalls":[{"tool":"c"},{"tool":"c"},{"tool":"a"}],
             "tools":["a",{"name":"c"}]},
            {"id":"2","input":"x","expectedTool":"d","tools":[{"name":"c"}]}]"#,
        );
        let r = coverage(&s, &["a".to_owned()]);
        let rows: Vec<(&str, usize)> = r
            .tools
            .iter()
            .map(|t| (t.tool.as_str(), t.reviewed_cases))
            .collect();
        assert_eq!(rows, [("a", 1), ("c", 1)], "c counted once for case 1");
        assert_eq!(r.unknown_expected_tools.len(), 1);
        assert_eq!(r.unknown_expected_tools[0].expected_tool, "d");
    }

    #[test]
    fn counts_reviewed_cases_per_tool_and_must_not_call_share() {
        let s = suite(
            r#"[
            {"id":"1","input":"x","expectedTool":"a"},{"id":"2","input":"x","expectedTool":"a"},
            {"id":"3","input":"x","expectedTool":"a"},{"id":"4","input":"x","expectedTool":"b"},
            {"id":"5","input":"x","expectedTool":"b","reviewed":false},
            {"id":"6","input":"hi","expectedTool":null},{"id":"7","input":"x","expectedTool":"zzz"}]"#,
        );
        let r = coverage(&s, &["a".into(), "b".into(), "c".into()]);
        assert_eq!(
            r.tools
                .iter()
                .map(|t| (t.reviewed_cases, t.missing))
                .collect::<Vec<_>>(),
            vec![(3, 0), (1, 2), (0, 3)]
        );
        assert_eq!(r.tools[1].unreviewed_cases, 1);
        assert_eq!(r.summary.reviewed_cases, 6);
        assert_eq!(r.summary.must_not_call, 1);
        assert_eq!(r.summary.must_not_call_share, Some(1.0 / 6.0));
        assert!(
            r.summary
                .must_not_call_share
                .is_some_and(|s| s > MIN_MUST_NOT_CALL_SHARE)
        );
        assert!(!r.summary.meets_guidance, "b and c are short of cases");
        assert_eq!(r.profiles[0].tools_below_minimum, vec!["b"]);
        assert_eq!(r.unknown_expected_tools.len(), 1);
    }

    #[test]
    fn meets_guidance_when_every_tool_has_three_and_share_is_enough() {
        let mut cases = Vec::new();
        for i in 0..3 {
            cases.push(format!(r#"{{"id":"a{i}","input":"x","expectedTool":"a"}}"#));
        }
        cases.push(r#"{"id":"n","input":"x","expectedTool":null}"#.into());
        let r = coverage(&suite(&format!("[{}]", cases.join(","))), &["a".into()]);
        assert!(r.summary.meets_guidance);
        let none = coverage(&suite("[]"), &["a".into()]);
        assert_eq!(none.summary.must_not_call_share, None);
        assert!(!none.summary.meets_guidance);
    }
}
