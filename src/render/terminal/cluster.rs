//! `mf cluster` for people: groups of confusable tools, the riskiest pairs and what tells the
//! members of each group apart.

use crate::render::text::plural;
use std::fmt::Write;

use super::style::Style;

/// The cluster report for people.
pub fn cluster(report: &crate::report::cluster::ClusterReport, style: Style) -> String {
    let mut out = String::new();
    let s = &report.summary;
    let _ = writeln!(
        out,
        "{} {} → {}, {} unclustered, {} (threshold {:.2})",
        style.bold("mf cluster:"),
        plural(s.tools, "tool", "tools"),
        plural(s.clusters, "cluster", "clusters"),
        s.unclustered,
        plural(s.risky_pairs, "risky pair", "risky pairs"),
        report.threshold
    );
    for c in &report.clusters {
        let _ = writeln!(
            out,
            "\n{} {}  {}",
            style.bold(&c.id),
            c.label,
            style.dim(&format!(
                "cohesion mean {:.2}, min {:.2}",
                c.cohesion.mean, c.cohesion.min
            ))
        );
        let _ = writeln!(out, "  {}", c.tools.join(", "));
    }
    if !report.risky_pairs.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("Risky pairs"));
        for p in report.risky_pairs.iter().take(20) {
            let _ = writeln!(
                out,
                "  {:.2}  {} ↔ {}  {}",
                p.score,
                p.a,
                p.b,
                style.dim(&format!(
                    "{}; shared: {}",
                    p.relation.phrase(),
                    p.shared_terms.join(", ")
                ))
            );
        }
    }
    for b in &report.boundaries {
        let _ = writeln!(out, "\n{} {}", style.bold("Boundary"), b.tools.join(" / "));
        for t in &b.per_tool {
            let words = if t.distinguishing_words.is_empty() {
                "-".into()
            } else {
                t.distinguishing_words.join(", ")
            };
            let params = if t.distinguishing_params.is_empty() {
                "-".into()
            } else {
                t.distinguishing_params.join(", ")
            };
            let _ = writeln!(out, "  {:<28} words: {words}; params: {params}", t.tool);
        }
        if !b.shared_params.is_empty() {
            let _ = writeln!(
                out,
                "  shared params (cannot tell them apart): {}",
                b.shared_params.join(", ")
            );
        }
        let _ = writeln!(out, "  {}", style.dim(&format!("→ {}", b.suggestion)));
    }
    for h in &report.family_hints {
        let _ = writeln!(
            out,
            "\nfamily `{}` is split across {}: {}",
            h.token,
            h.clusters.join(", "),
            h.tools.join(", ")
        );
    }
    out
}
