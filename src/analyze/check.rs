//! `mf check`: the install gate. Pure and offline: compares a new capability (a manifest) with
//! the tools already installed and warns about names it would shadow and tools it would be
//! confused with. The verdict is `pass` or `warn`, never a failure.

use std::collections::{BTreeSet, HashMap};

use super::confusable::{ConfusablePair, Scorer};
use crate::report::check::*;
use crate::report::lint::{Finding, Severity};
use crate::surface::{Surface, Tool};

/// Install-gate settings.
#[derive(Debug, Clone, Copy)]
pub struct CheckOptions {
    /// Pair score (of the surface pair scorer, as lint and cluster) at which a new tool competes
    /// with an installed one (default 0.5, the scorer's [`super::confusable::CONFUSABLE`]).
    pub threshold: f64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions { threshold: 0.5 }
    }
}

/// Compare the new capability `name` with tools `new` against `installed`.
pub fn check(
    name: &str,
    new: &Surface,
    installed: &Surface,
    options: &CheckOptions,
) -> CheckReport {
    let mut all: Vec<Tool> = Vec::with_capacity(new.tools.len() + installed.tools.len());
    all.extend(new.tools.iter().cloned());
    all.extend(installed.tools.iter().cloned());
    let is_new = |i: usize| i < new.tools.len();
    let mut findings = Vec::new();

    let installed_names: HashMap<&str, &Tool> = installed
        .tools
        .iter()
        .map(|t| (t.name.as_str(), t))
        .collect();
    for t in &new.tools {
        if let Some(old) = installed_names.get(t.name.as_str()) {
            findings.push(finding(
                Severity::Warn,
                "check-name-taken",
                t,
                Some(old),
                format!("`{}` is already installed ({}); a client that merges both surfaces will hide one of them or reject the set.", t.name, old.origin.display()),
                "Rename the new tool (a prefix naming the capability works) or replace the installed one.".into(),
            ));
        }
        if t.description.as_deref().is_none_or(|d| d.trim().is_empty()) {
            findings.push(finding(
                Severity::Info,
                "check-no-description",
                t,
                None,
                format!("`{}` has no description, so a model can only guess from its name when to call it.", t.name),
                "Describe what it does, when to use it and when not to.".into(),
            ));
        }
    }

    // The surface pair scorer, as lint and cluster use it, with per-server name prefixes
    // dropped (`github_`, `gitlab_`), so two servers' `search_issues` meet.
    let groups: Vec<u32> = (0..all.len()).map(|i| u32::from(!is_new(i))).collect();
    let pairs: Vec<ConfusablePair> = Scorer::grouped(&all, &groups)
        .pairs()
        .into_iter()
        .filter(|p| p.score >= options.threshold)
        .collect();
    for p in pairs.iter().filter(|p| is_new(p.a) != is_new(p.b)) {
        let (n, o) = if is_new(p.a) {
            (&all[p.a], &all[p.b])
        } else {
            (&all[p.b], &all[p.a])
        };
        if n.name == o.name {
            continue; // already reported as check-name-taken
        }
        let terms = if p.shared.is_empty() {
            String::new()
        } else {
            format!(" (shared: {})", p.shared.join(", "))
        };
        findings.push(finding(
            Severity::Warn,
            "check-confusable",
            n,
            Some(o),
            format!("`{}` may be confused with installed `{}`: score {:.2}, {}{terms}.", n.name, o.name, p.score, p.relation.phrase()),
            format!("Say in `{}`'s description when to use it instead of `{}`, or mount the two in different profiles.", n.name, o.name),
        ));
    }

    // The family: installed tools connected to a new tool through confusable pairs
    // (installed–installed links included).
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); all.len()];
    for p in &pairs {
        adj[p.a].push(p.b);
        adj[p.b].push(p.a);
    }
    let mut seen = vec![false; all.len()];
    let mut stack: Vec<usize> = (0..new.tools.len()).collect();
    for &i in &stack {
        seen[i] = true;
    }
    let mut family = BTreeSet::new();
    while let Some(i) = stack.pop() {
        for &j in &adj[i] {
            if !seen[j] {
                seen[j] = true;
                family.insert(all[j].name.clone());
                stack.push(j);
            }
        }
    }

    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.code.cmp(&b.code))
            .then_with(|| a.pair.cmp(&b.pair))
            .then_with(|| a.tool.cmp(&b.tool))
    });
    let warnings = findings
        .iter()
        .filter(|f| f.severity == Severity::Warn)
        .count();
    CheckReport {
        version: CHECK_REPORT_VERSION,
        kind: "check".into(),
        name: name.to_owned(),
        verdict: if warnings > 0 {
            Verdict::Warn
        } else {
            Verdict::Pass
        },
        tools: new.tools.iter().map(|t| t.name.clone()).collect(),
        family: family.into_iter().collect(),
        summary: CheckSummary {
            new_tools: new.tools.len(),
            installed_tools: installed.tools.len(),
            warnings,
            infos: findings
                .iter()
                .filter(|f| f.severity == Severity::Info)
                .count(),
        },
        findings,
    }
}

fn finding(
    severity: Severity,
    code: &str,
    new: &Tool,
    other: Option<&Tool>,
    message: String,
    suggestion: String,
) -> Finding {
    let pair = other.filter(|o| o.name != new.name).map(|o| {
        let mut p = [new.name.clone(), o.name.clone()];
        p.sort();
        p
    });
    // Located at the new tool (not the pair's first name, as lint does): that is what the
    // install gate is about.
    Finding {
        pair,
        ..super::lint::tool_finding(severity, code, new, message, suggestion)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::{Confidence, Origin, SourceFormat};

    fn surface(prefix: &str, tools: &[(&str, &str)]) -> Surface {
        Surface {
            tools: tools
                .iter()
                .map(|(n, d)| Tool {
                    description: Some((*d).into()),
                    ..Tool::named(
                        &format!("{prefix}_{n}"),
                        Origin::at(SourceFormat::McpToolsList, "t.json", 1, 1),
                        Confidence::High,
                    )
                })
                .collect(),
            skills: vec![],
            unread: Vec::new(),
        }
    }

    #[test]
    fn a_cross_server_duplicate_warns() {
        let installed = surface(
            "github",
            &[
                ("search_issues", "Search GitHub issues with a query."),
                ("create_branch", "Create a branch."),
                ("get_file_contents", "Get a file from a repository."),
            ],
        );
        let new = surface(
            "gitlab",
            &[
                ("search_issues", "Find issues in a GitLab project."),
                ("create_merge_request", "Open a merge request."),
                ("get_project", "Get a project."),
            ],
        );
        let r = check("gitlab", &new, &installed, &CheckOptions::default());
        assert_eq!(r.verdict, Verdict::Warn);
        let pairs: Vec<&[String; 2]> = r
            .findings
            .iter()
            .filter(|f| f.code == "check-confusable" && f.severity == Severity::Warn)
            .filter_map(|f| f.pair.as_ref())
            .collect();
        assert_eq!(
            pairs,
            [&[
                "github_search_issues".to_owned(),
                "gitlab_search_issues".to_owned()
            ]]
        );
    }
}
