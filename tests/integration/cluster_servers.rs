//! `cluster` on the real tool lists of the reference MCP servers (tests/fixtures/servers, made
//! by scripts/capture-fixtures.sh) and of the labelled corpus (tests/fixtures/real): the same
//! pairs as lint's `confusable-pair` (one scorer), the groups a user would expect, a
//! deterministic report, and profiles for `mf cluster --out`.

use std::collections::BTreeSet;

use mf::analyze::cluster::{ClusterOptions, cluster, profiles_from_clusters};
use mf::analyze::lint::{LintOptions, lint};
use mf::report::cluster::ClusterReport;
use mf::surface::normalize::normalize_surface;
use mf::surface::{Surface, Tool};
use serde_json::Value;

use crate::support::{fixture as fixture_path, read_json, root, server_tools};

fn fixture(name: &str) -> Surface {
    Surface {
        tools: server_tools(name),
        skills: vec![],
        unread: Vec::new(),
    }
}

/// A corpus snapshot (tests/fixtures/real/NAME.tools.json) as a normalized surface.
fn real(name: &str) -> Surface {
    let doc: Value = read_json(fixture_path(&format!("real/{name}.tools.json")));
    let tools = doc["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            let mut tool = Tool::named(
                t["name"].as_str().expect("name"),
                mf::surface::Origin::default(),
                mf::surface::Confidence::High,
            );
            tool.description = t["description"].as_str().map(str::to_owned);
            tool.input_schema = t.get("inputSchema").cloned();
            tool
        })
        .collect();
    normalize_surface(&Surface {
        tools,
        skills: vec![],
        unread: Vec::new(),
    })
    .surface
}

const CORPUS: [&str; 13] = [
    "airtable",
    "antv-chart",
    "arxiv",
    "aws-documentation",
    "browsermcp",
    "circleci",
    "desktop-commander",
    "excel",
    "firecrawl",
    "hubspot",
    "mongodb",
    "obsidian",
    "word",
];

fn pair_set(pairs: impl IntoIterator<Item = [String; 2]>) -> BTreeSet<[String; 2]> {
    pairs
        .into_iter()
        .map(|mut p| {
            p.sort();
            p
        })
        .collect()
}

/// One scorer: at the default threshold, cluster's risky pairs are exactly the pairs lint
/// reports as `confusable-pair` (on surfaces where lint's per-report cap does not bite), with
/// the same scores.
#[test]
fn cluster_links_exactly_the_pairs_lint_calls_confusable() {
    let mut surfaces: Vec<(String, Surface)> = ["filesystem", "memory", "everything"]
        .iter()
        .map(|s| ((*s).to_owned(), normalize_surface(&fixture(s)).surface))
        .collect();
    surfaces.extend(CORPUS.iter().map(|s| ((*s).to_owned(), real(s))));
    let mut linked = 0;
    for (name, s) in &surfaces {
        let r = cluster(s, &ClusterOptions::default());
        let findings = lint(s, &LintOptions::default());
        let from_lint: Vec<_> = findings
            .iter()
            .filter(|f| f.code == "confusable-pair")
            .collect();
        if findings.iter().any(|f| f.code == "confusable-pair-more") {
            assert!(r.summary.risky_pairs > from_lint.len(), "{name}");
            continue;
        }
        let from_cluster = pair_set(r.risky_pairs.iter().map(|p| [p.a.clone(), p.b.clone()]));
        let linted = pair_set(from_lint.iter().filter_map(|f| f.pair.clone()));
        assert_eq!(from_cluster, linted, "{name}");
        assert_eq!(r.summary.risky_pairs, linted.len(), "{name}");
        for p in &r.risky_pairs {
            let f = from_lint
                .iter()
                .find(|f| {
                    f.pair
                        .as_ref()
                        .is_some_and(|q| q.contains(&p.a) && q.contains(&p.b))
                })
                .expect("the pair is linted");
            assert!(
                f.message.contains(&format!("score {:.2}", p.score)),
                "{name}: {} vs {}",
                p.score,
                f.message
            );
        }
        linked += from_cluster.len();
    }
    assert!(linked >= 15, "the corpus has confusable pairs: {linked}");
}

#[test]
fn word_groups_the_add_footnote_family_and_keeps_deleting_apart() {
    let r = cluster(&real("word"), &ClusterOptions::default());
    let c = cluster_with(&r, "add_footnote_to_document").expect("add_footnote is clustered");
    for t in ["add_footnote_enhanced", "add_footnote_robust"] {
        assert!(c.tools.iter().any(|x| x == t), "{t}: {:?}", r.clusters);
    }
    // Deleting is not adding (opposite actions never link).
    assert!(
        !c.tools.iter().any(|x| x.starts_with("delete_")),
        "{:?}",
        c.tools
    );
    let d = cluster_with(&r, "delete_footnote_robust").expect("delete_footnote is clustered");
    assert!(d.tools.iter().any(|x| x == "delete_footnote_from_document"));
    // Every listed pair says why, and the scorer's measures are in the report.
    for p in &r.risky_pairs {
        assert!(p.score >= 0.5 && p.score <= 1.0, "{p:?}");
        assert!(p.text >= 0.0 && p.shape >= 0.0, "{p:?}");
    }
    let json = serde_json::to_value(&r).expect("json");
    assert!(json["riskyPairs"][0]["relation"].is_string(), "{json}");
}

#[test]
fn memory_no_longer_links_opposite_actions() {
    // add_observations / delete_observations read alike but do opposite things.
    let r = report("memory");
    assert!(
        !r.risky_pairs
            .iter()
            .any(|p| [&p.a, &p.b].iter().any(|n| n.starts_with("delete_"))
                && [&p.a, &p.b]
                    .iter()
                    .any(|n| n.starts_with("add_") || n.starts_with("create_"))),
        "{:?}",
        r.risky_pairs
    );
}

fn report(name: &str) -> ClusterReport {
    cluster(&fixture(name), &ClusterOptions::default())
}

fn cluster_with<'a>(r: &'a ClusterReport, tool: &str) -> Option<&'a mf::report::cluster::Cluster> {
    r.clusters
        .iter()
        .find(|c| c.tools.iter().any(|t| t == tool))
}

#[test]
fn reports_are_byte_identical_across_runs() {
    for server in ["filesystem", "memory", "everything"] {
        let a = serde_json::to_string_pretty(&report(server)).expect("json");
        let b = serde_json::to_string_pretty(&report(server)).expect("json");
        assert_eq!(a, b, "{server}");
        assert!(a.contains("\"kind\": \"cluster\"") && a.contains("\"riskyPairs\""));
    }
}

#[test]
fn every_tool_is_in_exactly_one_cluster_or_unclustered() {
    for server in ["filesystem", "memory", "everything"] {
        let (s, r) = (fixture(server), report(server));
        let mut seen: Vec<&str> = r
            .clusters
            .iter()
            .flat_map(|c| c.tools.iter().map(String::as_str))
            .collect();
        seen.extend(r.unclustered.iter().map(String::as_str));
        seen.sort_unstable();
        let mut all: Vec<&str> = s.tools.iter().map(|t| t.name.as_str()).collect();
        all.sort_unstable();
        assert_eq!(seen, all, "{server}");
        assert!(
            r.clusters
                .iter()
                .all(|c| c.tools.len() >= 2 && c.tools.len() <= 10)
        );
        assert_eq!(r.boundaries.len(), r.clusters.len());
        assert_eq!(profiles_from_clusters(&r).len(), r.clusters.len());
    }
}

/// Prints each server's report: `cargo test --test integration cluster_servers:: -- --nocapture --ignored`.
#[test]
#[ignore = "prints reports for review"]
fn print_reports() {
    for server in ["filesystem", "memory", "everything"] {
        let r = report(server);
        let text = serde_json::to_string_pretty(&r).expect("json");
        std::fs::write(root().join(format!("target/cluster-{server}.json")), text).expect("write");
    }
}
