//! The size cap splits a component by skipping its weakest links, never by dropping tools, and
//! cluster ids, labels and profiles follow the documented order.

use mf::analyze::cluster::{ClusterOptions, cluster, profiles_from_clusters};
use mf::surface::Surface;

use crate::support::tool;

/// Two tight groups of five (`invoice` and `shipment` tools: one action, one object, the same
/// description) joined by one weak bridge: a bare `retrieve` that reads like both (the pair scorer's
/// "same action, one without an object", scored below the groups' "same action, same object").
fn two_groups_and_a_bridge() -> Surface {
    let mut tools = Vec::new();
    for g in ["invoice", "shipment"] {
        for v in ["get", "fetch", "load", "read", "show"] {
            tools.push(tool(
                &format!("{v}_{g}"),
                &format!("Return one {g} record by its id, with all {g} fields."),
            ));
        }
    }
    tools.push(tool(
        "retrieve",
        "Return one invoice or shipment record by its id, with all invoice or shipment fields.",
    ));
    tools.push(tool("zzz_unrelated", "Ping the server."));
    Surface {
        tools,
        skills: vec![],
        unread: Vec::new(),
    }
}

#[test]
fn the_cap_keeps_the_strong_groups_and_drops_the_bridge() {
    let s = two_groups_and_a_bridge();
    let loose = cluster(
        &s,
        &ClusterOptions {
            threshold: 0.5,
            max_cluster_size: 100,
        },
    );
    assert_eq!(loose.clusters.len(), 1, "{:?}", loose.clusters);
    let capped = cluster(
        &s,
        &ClusterOptions {
            threshold: 0.5,
            max_cluster_size: 5,
        },
    );
    let groups: Vec<Vec<String>> = capped.clusters.iter().map(|c| c.tools.clone()).collect();
    assert_eq!(groups.len(), 2, "{groups:?}");
    assert!(
        groups[0].iter().all(|t| t.ends_with("invoice")),
        "{groups:?}"
    );
    assert!(
        groups[1].iter().all(|t| t.ends_with("shipment")),
        "{groups:?}"
    );
    assert_eq!(capped.unclustered, ["retrieve", "zzz_unrelated"]);
    assert_eq!(capped.clusters[0].id, "c1");
    assert_eq!(capped.clusters[0].label, "invoice");
    let profiles = profiles_from_clusters(&capped);
    assert_eq!(
        profiles.keys().collect::<Vec<_>>(),
        ["c1-invoice", "c2-shipment"]
    );
}

#[test]
fn a_cap_of_two_still_places_every_tool_once() {
    let s = two_groups_and_a_bridge();
    let r = cluster(
        &s,
        &ClusterOptions {
            threshold: 0.5,
            max_cluster_size: 2,
        },
    );
    assert!(r.clusters.iter().all(|c| c.tools.len() == 2));
    let placed: usize =
        r.clusters.iter().map(|c| c.tools.len()).sum::<usize>() + r.unclustered.len();
    assert_eq!(placed, s.tools.len());
    assert_eq!(r.summary.clusters, r.clusters.len());
}
