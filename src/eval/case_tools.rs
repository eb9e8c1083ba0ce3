//! Per-case tool sets (`cases[].tools`): which tools each selected case offers, and the one
//! pool of tool definitions the runner indexes into.
//!
//! A case without `tools` offers the run's tools (the suite's `tools[]` or the surface given on
//! the command line, after `--profile`). A case with `tools` offers exactly those, in the order
//! written: a name is looked up on the whole surface (before `--profile`: the case says what it
//! needs), an inline definition is that case's alone. The pool is the run's tools followed by
//! each case's own set, so a trial's order indexes into one list and the cache key (the tools
//! in trial order, as sent) covers the case's own tools.

use std::collections::{BTreeMap, BTreeSet};

use crate::suite::{Case, CaseTool, InlineTool};
use crate::surface::{Confidence, Origin, SourceFormat, Tool};
use crate::util::closest::close_matches;

/// The tools of a run: the pool, and which pool entries each case offers.
#[derive(Debug, Clone, Default)]
pub struct CaseTools {
    /// The run's tools first, then every case's own set.
    pub pool: Vec<Tool>,
    /// How many of `pool` are the run's tools.
    pub run: usize,
    /// Per selected case (in case order), its tools as indices into `pool`.
    pub sets: Vec<Vec<usize>>,
    /// The cases with their own set: case id → its tools.
    pub own: BTreeMap<String, Vec<Tool>>,
}

impl CaseTools {
    /// The run's tools.
    pub fn run_tools(&self) -> &[Tool] {
        &self.pool[..self.run]
    }

    /// Every definition offered to some case, in pool order (a name two cases define
    /// differently is here twice): what the run's fingerprint covers.
    pub fn used(&self) -> Vec<Tool> {
        let mut used = vec![false; self.pool.len()];
        for set in &self.sets {
            for &i in set {
                used[i] = true;
            }
        }
        self.pool
            .iter()
            .zip(used)
            .filter(|(_, used)| *used)
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// Every tool offered to some case, each name once (first definition), in pool order.
    pub fn offered(&self) -> Vec<Tool> {
        let mut used = vec![false; self.pool.len()];
        for set in &self.sets {
            for &i in set {
                used[i] = true;
            }
        }
        let mut seen = BTreeSet::new();
        self.pool
            .iter()
            .zip(used)
            .filter(|(t, used)| *used && seen.insert(t.name.clone()))
            .map(|(t, _)| t.clone())
            .collect()
    }
}

/// A suite's inline tool as a surface tool, defined at `file` (`line` when known).
pub fn inline_tool(t: &InlineTool, file: &str, line: Option<u32>) -> Tool {
    let mut tool = Tool::named(
        &t.name,
        Origin {
            file: Some(file.to_owned()),
            line,
            column: None,
            server: None,
            format: SourceFormat::Suite,
        },
        Confidence::High,
    );
    tool.title.clone_from(&t.title);
    tool.description.clone_from(&t.description);
    tool.input_schema = Some(
        t.parameters
            .clone()
            .unwrap_or_else(|| serde_json::json!({"type": "object"})),
    );
    tool.annotations.clone_from(&t.annotations);
    tool
}

/// Resolve every selected case's tools against `surface` (all tools, before `--profile`) and
/// `run` (what a case without its own set offers). Every problem at once, one line each
/// (`FILE:LINE: case "id": …`): a name the surface lacks (with the closest names), a name
/// twice in one set, an empty set.
pub fn resolve(
    cases: &[Case],
    surface: &[Tool],
    run: Vec<Tool>,
    display: &str,
) -> Result<CaseTools, Vec<String>> {
    let mut out = CaseTools {
        run: run.len(),
        pool: run,
        ..CaseTools::default()
    };
    let mut problems = Vec::new();
    for case in cases {
        let Some(entries) = &case.tools else {
            out.sets.push((0..out.run).collect());
            continue;
        };
        let at = case.line.map(|l| format!(":{l}")).unwrap_or_default();
        if entries.is_empty() {
            problems.push(format!(
                "{display}{at}: case {:?}: tools is empty; list the tools the case offers, or \
                 leave tools out to offer the run's tools",
                case.id
            ));
        }
        let mut names = BTreeSet::new();
        let mut set = Vec::with_capacity(entries.len());
        let mut own = Vec::with_capacity(entries.len());
        for entry in entries {
            if !names.insert(entry.name()) {
                problems.push(format!(
                    "{display}{at}: case {:?}: tools names {:?} twice; a model could not tell \
                     them apart",
                    case.id,
                    entry.name()
                ));
                continue;
            }
            let tool = match entry {
                CaseTool::Inline(t) => inline_tool(t, display, case.line),
                CaseTool::Name(name) => match surface.iter().find(|t| &t.name == name) {
                    Some(t) => t.clone(),
                    None => {
                        let near = close_matches(name, surface.iter().map(|t| t.name.as_str()));
                        let hint = if near.is_empty() {
                            String::new()
                        } else {
                            format!(
                                " (did you mean {}?)",
                                near.iter()
                                    .map(|n| format!("{n:?}"))
                                    .collect::<Vec<_>>()
                                    .join(" or ")
                            )
                        };
                        problems.push(format!(
                            "{display}{at}: case {:?}: tools names {name:?}, which is not a tool \
                             of the suite or surface; define it inline ({{\"name\": …, \
                             \"parameters\": …}}) or add it to tools[]{hint}",
                            case.id
                        ));
                        continue;
                    }
                },
            };
            set.push(out.pool.len());
            out.pool.push(tool.clone());
            own.push(tool);
        }
        out.sets.push(set);
        out.own.insert(case.id.clone(), own);
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn cases_offer_their_own_tools_by_name_or_inline() {
        let surface = vec![Tool::named("a", Origin::default(), Confidence::High)];
        let cases: Vec<Case> = serde_json::from_value(json!([
            {"id": "x", "input": "i", "expectedTool": "a"},
            {"id": "y", "input": "i", "expectedTool": "b",
             "tools": ["a", {"name": "b", "parameters": {"type": "object"}}]},
        ]))
        .expect("cases");
        let t = resolve(&cases, &surface, surface.clone(), "s.json").expect("resolves");
        assert_eq!(t.sets, vec![vec![0], vec![1, 2]]);
        assert_eq!(t.pool[2].name, "b");
        assert_eq!(t.own["y"].len(), 2);
        assert_eq!(t.offered().len(), 2, "a once, b once");

        let bad: Vec<Case> = serde_json::from_value(json!([
            {"id": "z", "input": "i", "expectedTool": "a", "tools": ["aa", "a", "a"]},
        ]))
        .expect("cases");
        let problems = resolve(&bad, &surface, surface.clone(), "s.json").expect_err("two");
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("did you mean \"a\""), "{problems:?}");
    }
}
