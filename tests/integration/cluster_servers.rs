//! `cluster` on the real tool lists of the reference MCP servers (tests/fixtures/servers, made
//! by scripts/capture-fixtures.sh): the groups a user would expect, a deterministic report, and
//! profiles for `mf cluster --out`.

use mf::analyze::cluster::{ClusterOptions, cluster, profiles_from_clusters};
use mf::report::cluster::ClusterReport;
use mf::surface::Surface;

use crate::support::{root, server_tools};

fn fixture(name: &str) -> Surface {
    Surface {
        tools: server_tools(name),
        skills: vec![],
    }
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
fn filesystem_groups_the_read_file_family() {
    let r = report("filesystem");
    let c = cluster_with(&r, "read_file").expect("read_file is clustered");
    for t in ["read_text_file", "read_multiple_files"] {
        assert!(
            c.tools.iter().any(|x| x == t),
            "{t} not with read_file: {:?}",
            r.clusters
        );
    }
    // Writing is not reading.
    assert!(!c.tools.iter().any(|x| x == "write_file"), "{:?}", c.tools);
    // The two directory listings are one group.
    let l = cluster_with(&r, "list_directory").expect("list_directory is clustered");
    assert!(l.tools.iter().any(|x| x == "list_directory_with_sizes"));
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
