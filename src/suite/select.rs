//! Which cases a run evaluates: `--cases ID,...`, then `--only TAG,...`, then `--skip TAG,...`,
//! in suite order. Naming an id the suite lacks, or selecting nothing, is an error that says
//! what each filter kept.

use super::{Case, Suite, SuiteError};
use crate::util::closest::close_matches;

/// The case filters of a run, as given on the command line. Entries may hold several values
/// separated by commas (`--cases a,b`); blanks are ignored. Empty lists select everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// `--cases`: only these ids.
    pub ids: Vec<String>,
    /// `--only`: only cases with at least one of these tags.
    pub only: Vec<String>,
    /// `--skip`: only cases with none of these tags.
    pub skip: Vec<String>,
}

/// The cases `sel` selects, in suite order. Errors ([`SuiteError::Selection`]) when `--cases`
/// names an id the suite does not have (with close matches), or when nothing is left (saying
/// how many cases each filter kept).
pub fn select<'a>(suite: &'a Suite, sel: &Selection) -> Result<Vec<&'a Case>, SuiteError> {
    let ids = split(&sel.ids);
    let only = split(&sel.only);
    let skip = split(&sel.skip);
    let known: std::collections::HashSet<&str> =
        suite.cases.iter().map(|c| c.id.as_str()).collect();
    let unknown: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| !known.contains(id))
        .collect();
    if !unknown.is_empty() {
        return Err(SuiteError::Selection(unknown_ids(suite, &unknown)));
    }
    let mut steps = Vec::new();
    let mut cases: Vec<&Case> = suite.cases.iter().collect();
    if !ids.is_empty() {
        cases.retain(|c| ids.contains(&c.id.as_str()));
        steps.push(format!("--cases {} kept {}", ids.join(","), cases.len()));
    }
    if !only.is_empty() {
        cases.retain(|c| c.tags.iter().any(|t| only.contains(&t.as_str())));
        steps.push(format!("--only {} kept {}", only.join(","), cases.len()));
    }
    if !skip.is_empty() {
        cases.retain(|c| !c.tags.iter().any(|t| skip.contains(&t.as_str())));
        steps.push(format!("--skip {} kept {}", skip.join(","), cases.len()));
    }
    if !cases.is_empty() {
        return Ok(cases);
    }
    if suite.cases.is_empty() {
        return Err(SuiteError::Selection(
            "no case selected: the suite has no cases".to_owned(),
        ));
    }
    let mut message = format!(
        "no case selected: the suite has {}; {}",
        plural(suite.cases.len(), "case"),
        steps.join("; ")
    );
    let tags = suite_tags(suite);
    let missing: Vec<&str> = only.iter().copied().filter(|t| !tags.contains(t)).collect();
    if !missing.is_empty() {
        let known = if tags.is_empty() {
            "no case has tags".to_owned()
        } else {
            format!("tags in the suite: {}", tags.join(", "))
        };
        message.push_str(&format!(
            " (no case is tagged {}; {known})",
            quoted_list(&missing)
        ));
    }
    Err(SuiteError::Selection(message))
}

/// Comma-separated entries split, trimmed, blanks and repeats dropped, order kept.
fn split(entries: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for part in entries.iter().flat_map(|e| e.split(',')).map(str::trim) {
        if !part.is_empty() && !out.contains(&part) {
            out.push(part);
        }
    }
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("{s:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every tag used in the suite, sorted.
fn suite_tags(suite: &Suite) -> Vec<&str> {
    let mut tags: Vec<&str> = suite
        .cases
        .iter()
        .flat_map(|c| c.tags.iter().map(String::as_str))
        .collect();
    tags.sort_unstable();
    tags.dedup();
    tags
}

/// The `--cases` error: each unknown id with the suite's closest ids.
fn unknown_ids(suite: &Suite, unknown: &[&str]) -> String {
    let parts: Vec<String> = unknown
        .iter()
        .map(|id| {
            let near = close_matches(id, suite.cases.iter().map(|c| c.id.as_str()));
            if near.is_empty() {
                format!("{id:?}")
            } else {
                format!(
                    "{id:?} (did you mean {}?)",
                    quoted_list(&near).replace(", ", " or ")
                )
            }
        })
        .collect();
    let what = if unknown.len() == 1 { "id" } else { "ids" };
    format!(
        "--cases names {what} the suite does not have: {}; the suite has {}",
        parts.join(", "),
        plural(suite.cases.len(), "case")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite() -> Suite {
        let cases = [
            ("refund-1", vec!["billing"]),
            ("refund-2", vec!["billing", "slow"]),
            ("lookup", vec!["orders"]),
            ("chitchat", vec![]),
        ]
        .into_iter()
        .map(|(id, tags)| Case {
            id: id.into(),
            input: "x".into(),
            expected_tool: Some(None),
            expected_args: None,
            tool_input: None,
            expect: None,
            tags: tags.into_iter().map(String::from).collect(),
            source: None,
            reviewed: true,
            mutated_from: None,
            mutation: None,
            line: None,
        })
        .collect();
        Suite {
            name: "s".into(),
            cases,
            ..Suite::default()
        }
    }

    fn ids(s: &Suite, sel: Selection) -> Vec<&str> {
        select(s, &sel)
            .expect("selects")
            .iter()
            .map(|c| c.id.as_str())
            .collect()
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn filters_apply_in_order_and_keep_suite_order() {
        let s = suite();
        assert_eq!(ids(&s, Selection::default()).len(), 4);
        let sel = Selection {
            ids: strings(&["lookup,refund-2", "refund-1"]),
            only: strings(&["billing", "orders"]),
            skip: strings(&["slow"]),
        };
        assert_eq!(ids(&s, sel), vec!["refund-1", "lookup"]);
    }

    #[test]
    fn unknown_ids_name_close_matches() {
        let err = select(
            &suite(),
            &Selection {
                ids: strings(&["refund-3", "zzz"]),
                ..Selection::default()
            },
        )
        .expect_err("unknown ids");
        assert_eq!(
            err.to_string(),
            "--cases names ids the suite does not have: \"refund-3\" (did you mean \"refund-1\" or \
             \"refund-2\"?), \"zzz\"; the suite has 4 cases"
        );
    }

    #[test]
    fn selecting_nothing_says_what_each_filter_kept() {
        let err = select(
            &suite(),
            &Selection {
                ids: strings(&["refund-2"]),
                only: strings(&["billing"]),
                skip: strings(&["slow"]),
            },
        )
        .expect_err("nothing left");
        assert_eq!(
            err.to_string(),
            "no case selected: the suite has 4 cases; --cases refund-2 kept 1; --only billing kept 1; \
             --skip slow kept 0"
        );
        let err = select(
            &suite(),
            &Selection {
                only: strings(&["bililng"]),
                ..Selection::default()
            },
        )
        .expect_err("typo in tag");
        assert!(
            err.to_string().ends_with(
                "--only bililng kept 0 (no case is tagged \"bililng\"; tags in the suite: billing, orders, slow)"
            ),
            "{err}"
        );
    }
}
